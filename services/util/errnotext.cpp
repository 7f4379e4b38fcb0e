#include "services/util/errnotext.h"

#include <QCoreApplication>

#include <cerrno>
#include <cstring>

namespace ingot {

namespace {
struct ErrnoText {
    Q_DECLARE_TR_FUNCTIONS(ingot::LocalCacheStore)
};
}  // namespace

QString describeErrno(int err)
{
    switch (err) {
    case EACCES:
    case EPERM: return ErrnoText::tr("permission denied");
    case ENOENT: return ErrnoText::tr("no longer exists");
    case ENOTDIR: return ErrnoText::tr("is not a folder");
    case ELOOP: return ErrnoText::tr("is a symbolic link (links are never followed)");
    case ENOSPC: return ErrnoText::tr("the disk is full");
    case EROFS: return ErrnoText::tr("the file system is read-only");
    case EBUSY: return ErrnoText::tr("is in use");
    case ENOTEMPTY: return ErrnoText::tr("is not empty");
    case EIO: return ErrnoText::tr("input/output error");
    default: return QString::fromLocal8Bit(strerror(err));
    }
}

}  // namespace ingot
