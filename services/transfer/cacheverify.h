// cache verify: a local cache's entries against their copy in a Hub cache repo, file by file, as `hf cache verify`
// checks a cached repo: the same files (those a push sends: EntryFiles' compiler files, opened once, push's link
// rules), the same sizes, and the same content — the sha256 the Hub keeps for an LFS file, the git blob id for
// another. Nothing is downloaded: the Hub's tree listing says what it holds.
#pragma once

#include "services/hub/hubclient.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>

namespace ingot {

struct VerifiedFile {
    enum class Verdict { Same, Differs, OnlyHere, OnlyThere };
    QString name;
    Verdict verdict = Verdict::Same;
    qint64 localSize = -1, remoteSize = -1;
    QString why;  // for Differs: size or content, and how it was compared
};

struct VerifiedEntry {
    enum class Verdict { Same, Differs, Missing, Unreadable };
    QString key;
    Verdict verdict = Verdict::Same;
    QVector<VerifiedFile> files;
    QString message;  // Missing: not in the repo; Unreadable: why the local entry could not be read
};

// The git blob id of `size` bytes read from `fd` (sha1 of "blob <size>\0" and the bytes): what the Hub's tree
// listing gives as oid for a file that is not in LFS. Empty, with *error, when the file cannot be read.
QString gitBlobIdOfFd(int fd, qint64 size, QString *error, const std::atomic_bool *cancel = nullptr);

// Each of `keys` (entries of the local cache at `root`) against `repo` at `revision`: one tree listing per compiler
// folder. False with *err when the Hub cannot be listed (then nothing is said of any entry).
bool verifyAgainstHub(const HubClient &hub, const QString &repo, const QString &revision, const QString &root,
                      const QStringList &keys, QVector<VerifiedEntry> *out, HubError *err,
                      const std::atomic_bool *cancel = nullptr);

const char *verdictName(VerifiedEntry::Verdict v);  // "same", "differs", "missing", "unreadable" (JSON)
const char *verdictName(VerifiedFile::Verdict v);   // "same", "differs", "only-here", "only-there"

}  // namespace ingot
