#include "services/checkpoint/outputfolder.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ingot {

namespace {
struct OutputFolderText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QString shown(const QString &path)
{
    return displayName(path);
}

QByteArray enc(const QString &s)
{
    return QFile::encodeName(s);
}

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

// ---- Comparing paths by what they are on disk -------------------------------------------------------------------

using FileId = std::pair<dev_t, ino_t>;

bool idOf(const QString &path, FileId *id)
{
    struct stat st {};
    if (::stat(enc(path).constData(), &st) != 0)
        return false;
    *id = {st.st_dev, st.st_ino};
    return true;
}

// The path with every link resolved: its nearest existing ancestor made canonical, and the rest appended.
QString resolved(const QString &path)
{
    QString existing = QFileInfo(path).absoluteFilePath();
    QString tail;
    while (!QFileInfo::exists(existing)) {
        const QFileInfo fi(existing);
        const QString up = fi.absolutePath();
        if (up == existing)
            break;
        tail = tail.isEmpty() ? fi.fileName() : fi.fileName() + QLatin1Char('/') + tail;
        existing = up;
    }
    const QString canon = QFileInfo(existing).canonicalFilePath();
    const QString base = canon.isEmpty() ? existing : canon;
    return tail.isEmpty() ? base : QDir(base).filePath(tail);
}

// The ids of the folder `path` resolves to and of every folder above it, nearest first (missing ones skipped).
std::vector<FileId> idsAlong(const QString &path)
{
    std::vector<FileId> ids;
    QString p = resolved(path);
    for (int guard = 0; guard < 4096; ++guard) {
        FileId id;
        if (idOf(p, &id))
            ids.push_back(id);
        const QString up = QFileInfo(p).absolutePath();
        if (up == p)
            break;
        p = up;
    }
    return ids;
}

// ---- Removing without following links ---------------------------------------------------------------------------

constexpr int kMaxRemoveDepth = 256;

bool removeContents(int fd, int depth, QString *why);

// Removes `name` in the folder `dirFd`: a folder with everything in it, anything else (a link included) by itself.
bool removeEntryAt(int dirFd, const char *name, int depth, QString *why)
{
    if (::unlinkat(dirFd, name, 0) == 0 || errno == ENOENT)
        return true;
    if (errno != EISDIR && errno != EPERM) {
        *why = OutputFolderText::tr("cannot remove %1: %2").arg(QString::fromLocal8Bit(name), errnoText(errno));
        return false;
    }
    if (depth >= kMaxRemoveDepth) {
        *why = OutputFolderText::tr("folders nest deeper than %1 levels").arg(kMaxRemoveDepth);
        return false;
    }
    const int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        *why = OutputFolderText::tr("cannot open %1: %2").arg(QString::fromLocal8Bit(name), errnoText(errno));
        return false;
    }
    const bool ok = removeContents(fd, depth + 1, why);
    ::close(fd);
    if (!ok)
        return false;
    if (::unlinkat(dirFd, name, AT_REMOVEDIR) != 0 && errno != ENOENT) {
        *why = OutputFolderText::tr("cannot remove %1: %2").arg(QString::fromLocal8Bit(name), errnoText(errno));
        return false;
    }
    return true;
}

// Everything inside the folder open as `fd` (which stays open).
bool removeContents(int fd, int depth, QString *why)
{
    const int dupFd = ::dup(fd);
    if (dupFd < 0) {
        *why = errnoText(errno);
        return false;
    }
    DIR *d = ::fdopendir(dupFd);
    if (!d) {
        ::close(dupFd);
        *why = errnoText(errno);
        return false;
    }
    ::rewinddir(d);
    std::vector<std::string> names;
    while (const dirent *e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            names.emplace_back(e->d_name);
    ::closedir(d);
    for (const std::string &n : names)
        if (!removeEntryAt(fd, n.c_str(), depth, why))
            return false;
    return true;
}

// The folder `name` in `parentFd`, if it is a real folder (not a link) owned by this user and not locked by a run
// still going: removed whole. False (and nothing touched) otherwise.
bool removeOwnedFolder(int parentFd, const QByteArray &name, QString *why)
{
    struct stat st {};
    if (::fstatat(parentFd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != ::geteuid())
        return false;
    const int fd = ::openat(parentFd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat again {};
    bool ok = ::fstat(fd, &again) == 0 && again.st_dev == st.st_dev && again.st_ino == st.st_ino;
    // A run still writing holds its lock: leave its folder alone.
    ok = ok && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    ok = ok && removeContents(fd, 1, why);
    ::close(fd);
    if (ok && ::unlinkat(parentFd, name.constData(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
        *why = errnoText(errno);
        ok = false;
    }
    return ok;
}

// Whether the folder open as `fd` holds nothing.
bool isEmptyFolder(int fd)
{
    const int dupFd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    DIR *d = dupFd < 0 ? nullptr : ::fdopendir(dupFd);
    if (!d) {
        if (dupFd >= 0)
            ::close(dupFd);
        return false;
    }
    ::rewinddir(d);  // a dup() shares the read position with whoever listed the folder before
    bool empty = true;
    while (const dirent *e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            empty = false;
    ::closedir(d);
    return empty;
}

// renameat2 flags a file system (or an old kernel) does not support.
bool unsupported(int err)
{
    return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP;
}

bool fsyncFd(int fd, int *err)
{
    if (::fsync(fd) == 0 || errno == EINVAL || errno == EROFS)  // some file systems cannot sync folders
        return true;
    *err = errno;
    return false;
}
}  // namespace

QString stagingPrefix(const QString &outputName)
{
    return QStringLiteral(".ingot-consolidating-%1-").arg(outputName);
}

QString outputRefusal(const CheckpointCandidate &c, const QString &output)
{
    if (output.trimmed().isEmpty())
        return OutputFolderText::tr("No output folder was given.");
    const QString abs = QFileInfo(output).absoluteFilePath();
    struct stat st {};
    if (::lstat(enc(abs).constData(), &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return OutputFolderText::tr("%1 is a symbolic link (to %2). Ingot neither writes through a link nor replaces one: give the "
                         "folder it points to, or another path.").arg(shown(output), shown(QFileInfo(abs).symLinkTarget()));
        if (!S_ISDIR(st.st_mode))
            return OutputFolderText::tr("%1 exists and is not a folder.").arg(shown(output));
    }
    // The shards folder, and every folder a shard file lies in (shards may be links to elsewhere).
    QStringList inputs{c.shardsDir};
    std::set<QString> seenDirs;
    for (const ShardFile &f : c.shards) {
        const QString dir = QFileInfo(QFileInfo(f.path).canonicalFilePath()).absolutePath();
        if (!dir.isEmpty() && seenDirs.insert(dir).second)
            inputs << dir;
    }
    const std::vector<FileId> outUp = idsAlong(abs);  // the output (when it exists) and the folders above it
    FileId outId;
    const bool outExists = idOf(abs, &outId);
    for (const QString &in : std::as_const(inputs)) {
        FileId inId;
        if (in.isEmpty() || !idOf(in, &inId))
            continue;
        if (outExists && outId == inId)
            return OutputFolderText::tr("%1 is the checkpoint's shards folder %2: writing there would destroy the shards being read.")
                .arg(shown(output), shown(in));
        for (const FileId &up : outUp)
            if (up == inId)
                return OutputFolderText::tr("%1 lies inside the checkpoint's shards (%2): writing there could destroy the shards being read.")
                    .arg(shown(output), shown(in));
        if (outExists)
            for (const FileId &up : idsAlong(in))
                if (up == outId)
                    return OutputFolderText::tr("%1 holds the checkpoint being consolidated (%2): replacing it would destroy the shards "
                                 "being read.").arg(shown(output), shown(in));
    }
    return {};
}

StagingFolder::StagingFolder(const QString &output)
    : m_output(QFileInfo(output).absoluteFilePath())
    , m_parent(QFileInfo(m_output).absolutePath())
    , m_outputName(QFileInfo(m_output).fileName())
{
}

StagingFolder::~StagingFolder()
{
    if (m_fd >= 0 && !m_placed) {
        QString why;
        if (sameFolderStillThere())
            removeEntryAt(m_parentFd, enc(m_name).constData(), 0, &why);
        else  // moved away under us: what this run wrote in it goes all the same, through the held descriptor
            removeContents(m_fd, 1, &why);
    }
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_parentFd >= 0)
        ::close(m_parentFd);
}

// The staging folder's name still names the folder this run created (not something put in its place).
bool StagingFolder::sameFolderStillThere() const
{
    return sameFolderAt(enc(m_name));
}

// `name` in the output's parent is the folder this run created.
bool StagingFolder::sameFolderAt(const QByteArray &name) const
{
    struct stat st {};
    return ::fstatat(m_parentFd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
           st.st_dev == m_dev && st.st_ino == m_ino;
}

void StagingFolder::removeLeftovers()
{
    const QString prefix = stagingPrefix(m_outputName);
    // Six random characters (as mkdtemp made them before), or a process id (older versions), and "-old" for an output moved aside.
    static const QRegularExpression tail(QStringLiteral("^(?:[A-Za-z0-9]{6}|[0-9]+)(?:-old)?$"));
    const QStringList entries = QDir(m_parent).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &e : entries) {
        if (!e.startsWith(prefix) || !tail.match(e.mid(prefix.size())).hasMatch())
            continue;
        QString why;
        if (removeOwnedFolder(m_parentFd, enc(e), &why))
            m_removed << e;
    }
}

bool StagingFolder::create(QString *error)
{
    if (!QDir().mkpath(m_parent)) {
        *error = OutputFolderText::tr("Cannot create %1.").arg(shown(m_parent));
        return false;
    }
    m_parentFd = ::open(enc(m_parent).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_parentFd < 0) {
        *error = OutputFolderText::tr("Cannot open %1: %2").arg(shown(m_parent), errnoText(errno));
        return false;
    }
    removeLeftovers();
    if (!makeFolder(error))
        return false;
    m_fd = ::openat(m_parentFd, enc(m_name).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0 || ::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        *error = OutputFolderText::tr("Cannot use the staging folder %1: %2").arg(shown(m_path), errnoText(errno));
        if (m_fd < 0)
            ::unlinkat(m_parentFd, enc(m_name).constData(), AT_REMOVEDIR);
        return false;
    }
    // Swapped between mkdirat and openat for another folder: not this run's to write in (or remove).
    if (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0 || !isEmptyFolder(m_fd)) {
        *error = OutputFolderText::tr("The staging folder %1 was replaced by something else as soon as it was created: nothing was "
                                      "written.").arg(shown(m_path));
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    m_dev = st.st_dev;
    m_ino = st.st_ino;
    // The output gets the mode a folder made here normally gets (the umask's); the staging folder keeps 0700
    // until then.
    const char probe[] = ".mode";
    struct stat ps {};
    if (::mkdirat(m_fd, probe, 0777) == 0) {
        if (::fstatat(m_fd, probe, &ps, AT_SYMLINK_NOFOLLOW) == 0)
            m_finalMode = ps.st_mode & 07777;
        ::unlinkat(m_fd, probe, AT_REMOVEDIR);
    }
    return true;
}

// A new folder of an unpredictable name, made exclusively (mode 0700) in the held parent.
bool StagingFolder::makeFolder(QString *error)
{
    static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    int err = EEXIST;
    for (int attempt = 0; attempt < 100 && err == EEXIST; ++attempt) {
        QString name = stagingPrefix(m_outputName);
        for (int k = 0; k < 6; ++k)
            name += QLatin1Char(kChars[QRandomGenerator::system()->bounded(int(sizeof kChars) - 1)]);
        if (::mkdirat(m_parentFd, enc(name).constData(), 0700) == 0) {
            m_name = name;
            m_path = m_parent + QLatin1Char('/') + name;
            return true;
        }
        err = errno;
    }
    *error = OutputFolderText::tr("Cannot create a staging folder in %1: %2").arg(shown(m_parent), errnoText(err));
    return false;
}

QString StagingFolder::filePath(const QString &name) const
{
    return m_path + QLatin1Char('/') + name;
}

int StagingFolder::openSubfolder(const QString &rel, QString *error) const
{
    int fd = ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0);
    for (const QString &part : rel.split(QLatin1Char('/'))) {
        if (fd < 0)
            break;
        const QByteArray name = enc(part);
        if (name.isEmpty() || name == "." || name == "..") {
            ::close(fd);
            *error = OutputFolderText::tr("Cannot create %1: not a plain folder name.").arg(shown(filePath(rel)));
            return -1;
        }
        int sub = ::mkdirat(fd, name.constData(), 0777) == 0 || errno == EEXIST
                      ? ::openat(fd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                      : -1;
        const int err = errno;
        ::close(fd);
        fd = sub;
        errno = err;
    }
    if (fd < 0)
        *error = OutputFolderText::tr("Cannot create %1: %2").arg(shown(filePath(rel)), errnoText(errno));
    return fd;
}

bool StagingFolder::moveIntoPlace(QString *error, QString *warning)
{
    int err = 0;
    if (::fchmod(m_fd, m_finalMode) != 0) {
        *error = OutputFolderText::tr("Cannot set the permissions of %1: %2").arg(shown(m_path), errnoText(errno));
        return false;
    }
    if (!fsyncFd(m_fd, &err)) {
        *error = OutputFolderText::tr("Cannot flush %1 to disk: %2").arg(shown(m_path), errnoText(err));
        return false;
    }
    if (!sameFolderStillThere()) {
        *error = OutputFolderText::tr("The staging folder %1 was replaced by something else while the output was written: nothing was "
                       "moved into place.").arg(shown(m_path));
        return false;
    }
    const QByteArray staging = enc(m_name), out = enc(m_outputName);
    struct stat st {};
    const bool exists = ::fstatat(m_parentFd, out.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
        *error = OutputFolderText::tr("%1 is a symbolic link: Ingot does not replace links.").arg(shown(m_output));
        return false;
    }
    if (exists && !S_ISDIR(st.st_mode)) {
        *error = OutputFolderText::tr("%1 exists and is not a folder.").arg(shown(m_output));
        return false;
    }
    QByteArray old;  // where the old output went
    if (!exists) {
        if (::renameat2(m_parentFd, staging.constData(), m_parentFd, out.constData(), RENAME_NOREPLACE) != 0 &&
            (!unsupported(errno) || ::renameat(m_parentFd, staging.constData(), m_parentFd, out.constData()) != 0)) {
            *error = OutputFolderText::tr("Cannot move the result into %1: %2").arg(shown(m_output), errnoText(errno));
            return false;
        }
    } else if (::renameat2(m_parentFd, staging.constData(), m_parentFd, out.constData(), RENAME_EXCHANGE) == 0) {
        old = staging;  // the old output now has the staging folder's name
    } else {
        // No atomic exchange here: the old output goes aside first, and comes back if the new one cannot go in.
        old = staging + "-old";
        if (::renameat2(m_parentFd, out.constData(), m_parentFd, old.constData(), RENAME_NOREPLACE) != 0 &&
            (!unsupported(errno) || ::renameat(m_parentFd, out.constData(), m_parentFd, old.constData()) != 0)) {
            *error = OutputFolderText::tr("Cannot replace %1: %2").arg(shown(m_output), errnoText(errno));
            return false;
        }
        if (::renameat(m_parentFd, staging.constData(), m_parentFd, out.constData()) != 0) {
            const int e = errno;
            ::renameat(m_parentFd, old.constData(), m_parentFd, out.constData());
            *error = OutputFolderText::tr("Cannot move the result into %1: %2").arg(shown(m_output), errnoText(e));
            return false;
        }
    }
    // The rename moved whatever had the staging folder's name: if that was swapped since the check above, the
    // output is not this run's folder, and that is said rather than claimed done.
    if (!sameFolderAt(out)) {
        *error = OutputFolderText::tr("The staging folder %1 was replaced by something else while it was moved into place: %2 is not "
                                      "what this run wrote. Look at it before using it.").arg(shown(m_path), shown(m_output));
        return false;
    }
    m_placed = true;
    if (!fsyncFd(m_parentFd, &err)) {
        *error = OutputFolderText::tr("Cannot flush %1 to disk: %2").arg(shown(m_parent), errnoText(err));
        return false;
    }
    QString why;
    if (!old.isEmpty() && !removeEntryAt(m_parentFd, old.constData(), 0, &why))
        *warning = OutputFolderText::tr("The old %1 could not be removed completely (%2); what is left of it is in %3.")
                       .arg(shown(m_output), why, shown(m_parent + QLatin1Char('/') + QFile::decodeName(old)));
    return true;
}

}  // namespace ingot
