// Removing a folder's whole tree, the one way Ingot does it (a cache entry, a job's folder): renamed aside in one
// step (".ingot-removing-<random>" beside it, never replacing anything), looked at once more, checked (everything
// removable, nothing immutable or append-only, no other file system mounted inside), then removed through
// descriptors without ever following a link. Whatever stops it puts the folder back under its own name.
#pragma once

#include <QByteArray>

#include <functional>

namespace ingot {

struct FolderRemoval {
    enum Step {
        Done,          // removed
        NotAside,      // not a folder, or it could not be renamed aside: untouched
        NotOpened,     // renamed aside but could not be opened
        Refused,       // the last look (`refuse`) said no
        NotRemovable,  // something in it cannot be removed (at `where`): nothing was removed
        Partly,        // removal failed part-way (something changed after the check)
    } step = NotAside;
    int error = 0;       // errno of the step that stopped
    QByteArray where;    // NotRemovable: the path below the folder that stops it
    QByteArray aside;    // the name it had aside
    bool putBack = true; // false: it stays under `aside`
};

// Removes folder `name` of the open folder `parentFd`; adds the bytes freed to *freed. `refuse`, when given, looks at
// the folder (open, aside) last: true puts it back (Refused).
FolderRemoval removeFolderAt(int parentFd, const QByteArray &name, qint64 *freed,
                             const std::function<bool(int folderFd)> &refuse = {});
// rename(2) that never replaces what is at `to`: 0 or an errno.
int renameNoReplace(int fromDir, const QByteArray &from, int toDir, const QByteArray &to);
// Removes everything under an open folder (taking the descriptor) without following links: 0 or the first errno.
int removeTreeAt(int dfd, qint64 *freed);
bool isDotOrDotDot(const char *name);

}  // namespace ingot
