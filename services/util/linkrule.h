// The one rule for files that may leave a folder through a link (push's rule, shared by every transfer and by the
// companion files a consolidation copies, docs/formats.md "Sharded checkpoints", Writing): a regular file is opened
// without following links; a link is followed only when what it leads to, as opened (judged by the descriptor, not
// by the link's text), is a regular file inside the folder's own tree or a Hugging Face hub blob. A broken link, a
// link anywhere else, a device, fifo or socket is never read. Plain POSIX over descriptors: the caller holds the
// folder open and says in words what each verdict means where it is used.
#pragma once

#include <QByteArray>

#include <sys/stat.h>

namespace ingot {

// Whether a (resolved) path is a file of the Hugging Face hub cache: <cache>/models--org--name/blobs/<hash>.
bool isHubBlobPath(const QByteArray &path);
// The path of what `fd` is open on, as the kernel resolved it; empty when it has none (deleted, not a path).
QByteArray pathOfFd(int fd);

struct VettedFile {
    enum Verdict {
        Opened,          // fd is open for reading on a regular file
        Missing,         // there is no such name in the folder
        BrokenLink,      // a link that leads nowhere
        LinkNotRegular,  // a link to a folder, device, fifo or socket (never opened)
        NotRegular,      // not a regular file (or not one when opened)
        Outside,         // a link that leads outside `realRoot`, and not to a hub blob
        BecameLink,      // a plain file when looked at, a link when opened: refused
        Failed,          // could not be read: `error` says why
    } verdict = Failed;
    int fd = -1;  // the caller's to close
    struct stat st {};
    bool linked = false;
    int error = 0;
};

// Opens `name` (a plain name) in the folder open as `dirFd` for reading, by the rule above. `realRoot` is the real
// path (every link resolved, no trailing '/') a link may lead into: the folder's own, or a root above it.
VettedFile openVetted(int dirFd, const QByteArray &name, const QByteArray &realRoot);

}  // namespace ingot
