// Where a consolidation writes (docs/formats.md, "Sharded checkpoints", Writing): which output folders are refused
// (a link, not a folder, or one that is, holds or lies inside the shards being read), and the staging folder the
// output is built in before it is moved into place.
//
// The staging folder sits next to the output, where others may be able to write: it is created with an
// unpredictable name (mkdirat, exclusively, mode 0700), then held by its descriptor and locked while the run lasts.
// Everything the run writes is created relative to that descriptor (openat with O_CREAT | O_EXCL | O_NOFOLLOW,
// sub-folders with mkdirat and then opened O_DIRECTORY | O_NOFOLLOW), never through the folder's path: a co-worker
// who swaps the folder's name for a link to elsewhere changes nothing of where the files go, and the run then stops
// with words instead of moving anything into place. It is removed without ever following a link (openat/unlinkat
// with O_NOFOLLOW). A run killed before it could clean up leaves one behind; the
// next run for the same output removes it, if it is a real folder (not a link), owned by this user, and not locked
// by a run still going.
#pragma once

#include "services/checkpoint/discover.h"

#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace ingot {

// Why `output` cannot receive the consolidation of `c`, whatever the options; empty when it can. Links are resolved
// and folders compared by device and inode along both paths, so no spelling of a path slips through.
QString outputRefusal(const CheckpointCandidate &c, const QString &output);

// The name every staging folder for `outputName` starts with: ".ingot-consolidating-<name>-".
QString stagingPrefix(const QString &outputName);

class StagingFolder final
{
    Q_DISABLE_COPY_MOVE(StagingFolder)

public:
    explicit StagingFolder(const QString &output);
    ~StagingFolder();  // removes the staging folder unless it was moved into place

    // Removes what killed runs left for this output, then creates the staging folder (and the output's parent).
    bool create(QString *error);
    // Where `name` is, as messages show it (never opened by this path: files go through fd()).
    QString filePath(const QString &name) const;
    const QString &path() const { return m_path; }
    // The staging folder, held open: create every file of the output relative to it.
    int fd() const { return m_fd; }
    // Creates the sub-folder `rel` ('/'-separated, each part a plain name) of the staging folder, folder by folder
    // with mkdirat, and opens it O_DIRECTORY | O_NOFOLLOW: the descriptor (the caller's to close), or -1 with words.
    int openSubfolder(const QString &rel, QString *error) const;
    // The leftovers create() removed.
    const QStringList &removedLeftovers() const { return m_removed; }
    // Puts the staging folder in the output's place: atomically exchanged with an existing output where the file
    // system can (renameat2 RENAME_EXCHANGE), else with the old one moved aside first; the old one is then removed
    // (without following links). Flushes the folders to disk and checks that it did. *warning says what could not
    // be removed of the old output, if anything.
    bool moveIntoPlace(QString *error, QString *warning);

private:
    bool sameFolderStillThere() const;
    bool sameFolderAt(const QByteArray &name) const;
    void removeLeftovers();
    bool makeFolder(QString *error);

    QString m_output;      // absolute
    QString m_parent;      // the output's parent folder
    QString m_outputName;  // its last component
    QString m_name;        // of the staging folder, in m_parent
    QString m_path;
    int m_parentFd = -1;
    int m_fd = -1;  // the staging folder, locked (flock) while the run lasts
    dev_t m_dev = 0;
    ino_t m_ino = 0;
    mode_t m_finalMode = 0755;
    bool m_placed = false;
    QStringList m_removed;
};

}  // namespace ingot
