#include "services/transfer/entryfiles.h"

#include "services/stores/cachestore.h"
#include "services/transfer/transfertypes.h"
#include "services/util/errnotext.h"
#include "services/util/linkrule.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QFile>
#include <QSet>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct EntryFilesText {
    Q_DECLARE_TR_FUNCTIONS(ingot::EntryFiles)
};

constexpr int kMaxDepth = 16;

QString shown(const QByteArray &rel)
{
    return displayName(nameFromBytes(rel));
}

struct FdCloser {
    int fd;
    ~FdCloser()
    {
        if (fd >= 0)
            ::close(fd);
    }
};
}  // namespace

bool isCompilerFileName(const QString &name)
{
    static const QSet<QString> known = {QStringLiteral("model.neff"), QStringLiteral("model.done"),
                                        QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo.pb"),
                                        QStringLiteral("compile_flags.json"), QStringLiteral("compile_flags.txt")};
    return known.contains(name);
}

EntryFiles::~EntryFiles()
{
    close();
}

EntryFiles::EntryFiles(EntryFiles &&other) noexcept
{
    *this = std::move(other);
}

EntryFiles &EntryFiles::operator=(EntryFiles &&other) noexcept
{
    if (this != &other) {
        close();
        m_realRoot = std::move(other.m_realRoot);
        m_files = std::move(other.m_files);
        other.m_files.clear();
    }
    return *this;
}

void EntryFiles::close()
{
    for (EntryFile &f : m_files)
        if (f.fd >= 0)
            ::close(f.fd);
    m_files.clear();
}

bool EntryFiles::open(const QString &root, const QString &key, Names names, QString *why)
{
    close();
    if (!isTransferableKey(key)) {
        *why = EntryFilesText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        return false;
    }
    const QByteArray rootBytes = QFile::encodeName(root);
    char real[PATH_MAX];
    const int rootFd = ::open(rootBytes.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rootFd < 0 || !::realpath(rootBytes.constData(), real)) {
        const int e = errno;
        if (rootFd >= 0)
            ::close(rootFd);
        *why = EntryFilesText::tr("Cannot open the cache folder %1: %2.").arg(displayName(root), describeErrno(e));
        return false;
    }
    m_realRoot = QByteArray(real);
    FdCloser rootCloser{rootFd};
    const QByteArray version = nameToBytes(key.section(QLatin1Char('/'), 0, 0));
    const QByteArray module = nameToBytes(key.section(QLatin1Char('/'), 1));
    FdCloser vfd{::openat(rootFd, version.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
    FdCloser efd{vfd.fd < 0 ? -1 : ::openat(vfd.fd, module.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
    if (efd.fd < 0) {
        const int e = errno;
        *why = e == ELOOP || e == ENOTDIR
                   ? EntryFilesText::tr("%1: its compiler-version folder or the entry is a link (or not a folder); links are never followed.").arg(displayName(key))
                   : EntryFilesText::tr("Cannot open %1: %2.").arg(displayName(key), describeErrno(e));
        return false;
    }
    if (!collect(efd.fd, QByteArray(), names, 0, why)) {
        close();
        return false;
    }
    return true;
}

bool EntryFiles::collect(int dfd, const QByteArray &prefix, Names names, int depth, QString *why)
{
    if (depth > kMaxDepth) {
        *why = EntryFilesText::tr("Folders nested too deep in %1.").arg(shown(prefix));
        return false;
    }
    const int dup = ::fcntl(dfd, F_DUPFD_CLOEXEC, 0);
    DIR *d = dup < 0 ? nullptr : ::fdopendir(dup);
    if (!d) {
        if (dup >= 0)
            ::close(dup);
        *why = EntryFilesText::tr("Cannot read the folder %1: %2.").arg(shown(prefix), describeErrno(errno));
        return false;
    }
    QVector<QByteArray> entries;
    while (dirent *e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
            entries << QByteArray(e->d_name);
    ::closedir(d);
    std::sort(entries.begin(), entries.end());
    for (const QByteArray &n : entries) {
        if (names == Names::Compiler && !isCompilerFileName(nameFromBytes(n)))
            continue;  // model.log, locks, unknown files and sub-folders stay here
        const QByteArray rel = prefix.isEmpty() ? n : prefix + '/' + n;
        struct stat st {};
        if (::fstatat(dfd, n.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            *why = EntryFilesText::tr("Cannot read %1: %2.").arg(shown(rel), describeErrno(errno));
            return false;
        }
        if (S_ISDIR(st.st_mode) && names == Names::All) {
            FdCloser sub{::openat(dfd, n.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
            if (sub.fd < 0) {
                *why = EntryFilesText::tr("Cannot read %1: %2.").arg(shown(rel), describeErrno(errno));
                return false;
            }
            EntryFile f;
            f.name = rel, f.dir = true, f.mode = st.st_mode & 0777, f.mtime = st.st_mtim.tv_sec;
            m_files << f;
            if (!collect(sub.fd, rel, names, depth + 1, why))
                return false;
            continue;
        }
        if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
            *why = EntryFilesText::tr("%1 is not a regular file (a folder, device, fifo or socket): not sent.").arg(shown(rel));
            return false;
        }
        if (!openFile(dfd, n, rel, why))
            return false;
    }
    return true;
}

bool EntryFiles::openFile(int dfd, const QByteArray &name, const QByteArray &rel, QString *why)
{
    const VettedFile v = openVetted(dfd, name, m_realRoot);
    switch (v.verdict) {
    case VettedFile::Opened:
        break;
    case VettedFile::BrokenLink:
        *why = EntryFilesText::tr("%1 is a broken link: not sent.").arg(shown(rel));
        return false;
    case VettedFile::LinkNotRegular:
        *why = EntryFilesText::tr("%1 is a link that does not lead to a regular file: not sent.").arg(shown(rel));
        return false;
    case VettedFile::NotRegular:
        *why = EntryFilesText::tr("%1 does not lead to a regular file: not sent.").arg(shown(rel));
        return false;
    case VettedFile::BecameLink:
        *why = EntryFilesText::tr("%1 became a link while it was checked: not sent.").arg(shown(rel));
        return false;
    case VettedFile::Outside:
        *why = EntryFilesText::tr("%1 links outside the cache, not into the Hugging Face hub cache; Ingot does "
                                  "not follow it").arg(shown(rel));
        return false;
    case VettedFile::Missing:
    case VettedFile::Failed:
        *why = EntryFilesText::tr("Cannot read %1: %2.").arg(shown(rel), describeErrno(v.error));
        return false;
    }
    EntryFile f;
    f.name = rel;
    f.linked = v.linked;
    f.fd = v.fd;
    f.size = v.st.st_size;
    f.mode = (v.st.st_mode & 0777) | 0600;
    f.mtime = v.st.st_mtim.tv_sec;
    f.dev = v.st.st_dev;
    f.ino = v.st.st_ino;
    m_files << f;
    return true;
}

}  // namespace ingot
