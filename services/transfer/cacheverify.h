// cache verify: a local cache's entries against their copy in a Hub cache repo or an S3 cache, file by file, as `hf
// cache verify` checks a cached repo: the same files (those a push sends: EntryFiles' compiler files, opened once,
// push's link rules), the same sizes, and the same content — on the Hub the sha256 it keeps for an LFS file and the
// git blob id of another; in S3 the ETag (the MD5 of the object, or of its parts' MD5s for a multipart upload in
// Ingot's part size; an ETag of another shape, SSE-KMS or another tool's part size, checks the size only, said so).
// Nothing is downloaded: a listing says what the other place holds.
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
    bool sizeOnly = false;  // Same by size only: the other place's checksum has a shape that cannot be checked
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

namespace s3 {
class S3Access;
}
// Each of `keys` against the S3 cache `s3` (its objects <prefix><version>/<module>/<file>): one listing per compiler
// folder. False with *error when it cannot be listed.
bool verifyAgainstS3(const s3::S3Access &s3, const QString &root, const QStringList &keys, QVector<VerifiedEntry> *out,
                     QString *error, const std::atomic_bool *cancel = nullptr);

const char *verdictName(VerifiedEntry::Verdict v);  // "same", "differs", "missing", "unreadable" (JSON)
const char *verdictName(VerifiedFile::Verdict v);   // "same", "differs", "only-here", "only-there"

}  // namespace ingot
