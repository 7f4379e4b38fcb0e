// Where a consolidation writes (docs/formats.md, "Sharded checkpoints", Writing): which output folders are refused
// (a link, not a folder, or one that is, holds or lies inside the shards being read), and the staging folder the
// output is built in before it is moved into place.
//
// The staging folder sits next to the output, where others may be able to write: it is created with an
// unpredictable name by mkdtemp (exclusively, mode 0700), locked while the run lasts, and removed without ever
// following a link (openat/unlinkat with O_NOFOLLOW). A run killed before it could clean up leaves one behind; the
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
    QString filePath(const QString &name) const;
    const QString &path() const { return m_path; }
    // The leftovers create() removed.
    const QStringList &removedLeftovers() const { return m_removed; }
    // Puts the staging folder in the output's place: atomically exchanged with an existing output where the file
    // system can (renameat2 RENAME_EXCHANGE), else with the old one moved aside first; the old one is then removed
    // (without following links). Flushes the folders to disk and checks that it did. *warning says what could not
    // be removed of the old output, if anything.
    bool moveIntoPlace(QString *error, QString *warning);

private:
    bool sameFolderStillThere() const;
    void removeLeftovers();

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
