// The Hub's commit API as huggingface_hub uses it: preupload (which files go as LFS objects), the LFS batch and
// its uploads (basic, or multipart when the server gives a chunk size; objects the server has are skipped), then
// one NDJSON commit on a parent commit. Files are read from descriptors the caller opened (never again by path), as
// they are sent, never whole into memory.
// Blocking calls meant for worker threads; each takes a cancel flag. Errors are HubErrors with words.
#pragma once

#include "services/hub/hubclient.h"

#include <QByteArray>
#include <QString>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

// One file of a commit.
struct CommitFile {
    QString path;       // in the repo ("neuronxcc-<ver>/MODULE_<...>/model.neff")
    QString localPath;  // where it lives, for messages only: the bytes are read from `fd`
    int fd = -1;        // open for reading, owned by the caller (read with pread: any thread, any order)
    qint64 size = 0;    // as planned; a file whose size changed is refused
    bool lfs = false;     // preupload's answer
    bool ignore = false;  // preupload's shouldIgnore: left out of the commit
    QString sha256;       // hex, filled for LFS files before the batch
};

// Whether the token may write to `repo`: whoami's role and namespaces, else (a fine-grained token, whose role does
// not tell) a preupload of nothing. Forbidden or Unauthorized with why when it may not.
bool checkWriteAccess(const HubClient &hub, const QString &repo, HubError *err,
                      const std::atomic_bool *cancel = nullptr);

// Asks the Hub how each file goes (regular or LFS, ignored), in chunks of 256 files.
bool preupload(const HubClient &hub, const QString &repo, const QString &revision, QVector<CommitFile> &files,
               HubError *err, const std::atomic_bool *cancel = nullptr);

// sha256 of a file, in hex (reads it once, in small pieces). Empty, with *error, when it cannot be read.
QString sha256OfFile(const QString &path, QString *error, const std::atomic_bool *cancel = nullptr);

struct LfsUploadStats {
    int uploaded = 0;
    int present = 0;  // the server had them: nothing sent
    qint64 bytesSent = 0;
};

// Uploads the LFS objects of `files` (those with lfs set and not ignored; sha256 filled when empty) that the Hub
// does not have yet, `parallel` at once. `progress(fileIndex, bytesDone)` is called from the upload threads.
bool uploadLfsFiles(const HubClient &hub, const QString &repo, const QString &revision, QVector<CommitFile> &files,
                    int parallel, const std::function<void(int, qint64)> &progress, LfsUploadStats *stats,
                    HubError *err, const std::atomic_bool *cancel = nullptr);

// sha256 of the file open at `fd`, in hex (read from the start with pread). Empty, with *error, when it cannot be read.
QString sha256OfFd(int fd, QString *error, const std::atomic_bool *cancel = nullptr);

// One commit of `files` on `parentCommit` (empty: none; the Hub then takes the head). Returns the commit id.
// PreconditionFailed when the branch moved meanwhile.
QString createCommit(const HubClient &hub, const QString &repo, const QString &revision,
                     const QVector<CommitFile> &files, const QString &summary, const QString &description,
                     const QString &parentCommit, HubError *err, const std::atomic_bool *cancel = nullptr);

}  // namespace ingot
