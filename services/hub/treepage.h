// One page of the Hub's tree listing (GET /api/models/{repo}/tree/..., docs/formats.md "Hub HTTP API"), read
// without any I/O: the entries, and where the next page is. HubClient::listTree uses it; so does the fuzz
// harness (tests/fuzz/fuzz_hubjson.cpp), which is why it needs neither libcurl nor a server.
#pragma once

#include "services/hub/hubclient.h"

namespace ingot {

// The entries of one page: a JSON array of {type, path, size, oid, lfs?: {oid}}; other fields are ignored.
// Malformed JSON, something that is not an array, an entry without a string path and type, or a path that would
// leave the repo (isSafeRepoPath) is an error (BadResponse or UnsafePath) naming `repo`, and then nothing is
// returned. `status` goes into the error. With BadEntries::Skip (paths-info), such entries are left out instead.
enum class BadEntries { Fail, Skip };
QVector<TreeEntry> parseTreePage(const QByteArray &json, const QString &repo, int status, HubError *err,
                                 BadEntries bad = BadEntries::Fail);

// The target of the Link header's rel="next", resolved against `pageUrl` (RFC 8288); empty when there is none.
// Whether it may be followed (its origin, a loop) is the caller's decision.
QString nextPageUrl(const QByteArray &linkHeader, const QString &pageUrl);

}  // namespace ingot
