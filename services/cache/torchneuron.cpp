#include "services/cache/torchneuron.h"

#include "services/util/errnotext.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>

namespace ingot {

namespace {
struct TorchNeuronText {
    Q_DECLARE_TR_FUNCTIONS(ingot::TorchNeuron)
};

const QLatin1String kMarker(".compilation_complete");
const QLatin1String kLock(".lock");
constexpr long kNfsSuperMagic = 0x6969;

// Whether a process holds the lock file (a local one): a non-blocking shared flock that fails means an exclusive
// one is held. A file that cannot be opened counts as held: nothing is removed on a guess.
bool lockHeld(CacheStore &store, const QString &rel)
{
    if (!store.isLocal())
        return true;
    const int fd = ::open(QFile::encodeName(store.fullPath(rel)).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return true;
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
    ::close(fd);  // releases the probe's lock, if it got one
    return held;
}

// A descriptor closed when it goes out of scope.
struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

enum class LockRemoval { Removed, Held, Gone, Failed };

// Removes a lock file of a local store while holding it: the file is opened relative to its folder's descriptor
// (every folder below the root and the file itself without following a link), taken with a non-blocking exclusive
// flock, checked to be still what its folder names (fstat against fstatat: not replaced meanwhile), unlinked, then
// released by the close. A process that holds the lock makes the flock fail and its file is left. Probing, releasing
// and then unlinking by name would remove a lock a compile took in between.
LockRemoval removeUnheldLock(CacheStore &store, const QString &rel, qint64 *freed, QString *error)
{
    const auto failed = [&](const QString &what, int err) {
        *error = TorchNeuronText::tr("Cannot remove the lock %1: %2 (%3).").arg(displayName(rel), what, describeErrno(err));
        return err == ENOENT ? LockRemoval::Gone : LockRemoval::Failed;
    };
    if (!store.isLocal())
        return LockRemoval::Held;  // no lock can be seen from here: every one counts as held
    Fd dir(::open(nameToBytes(store.fullPath(QString())).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.fd < 0)
        return failed(TorchNeuronText::tr("cannot open the cache folder"), errno);
    const QList<QByteArray> parts = nameToBytes(rel).split('/');
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        if (parts[i].isEmpty() || parts[i] == "." || parts[i] == "..")
            return failed(TorchNeuronText::tr("not a path inside the cache"), EINVAL);
        const int next = ::openat(dir.fd, parts[i].constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            return failed(TorchNeuronText::tr("cannot open its folder"), errno);
        ::close(dir.fd);
        dir.fd = next;
    }
    const QByteArray name = parts.last();
    if (name.isEmpty() || name == "." || name == "..")
        return failed(TorchNeuronText::tr("not a path inside the cache"), EINVAL);
    const Fd lock(::openat(dir.fd, name.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (lock.fd < 0)
        return failed(TorchNeuronText::tr("cannot open it"), errno);
    if (::flock(lock.fd, LOCK_EX | LOCK_NB) != 0)
        return errno == EWOULDBLOCK ? LockRemoval::Held : failed(TorchNeuronText::tr("cannot lock it"), errno);
    struct stat held {}, named {};
    if (::fstat(lock.fd, &held) != 0)
        return failed(TorchNeuronText::tr("cannot read it"), errno);
    if (::fstatat(dir.fd, name.constData(), &named, AT_SYMLINK_NOFOLLOW) != 0)
        return failed(TorchNeuronText::tr("cannot read it"), errno);
    if (!S_ISREG(held.st_mode) || held.st_dev != named.st_dev || held.st_ino != named.st_ino)
        return LockRemoval::Held;  // replaced since it was opened: the new file is someone's, left
    if (::unlinkat(dir.fd, name.constData(), 0) != 0)
        return failed(TorchNeuronText::tr("cannot unlink it"), errno);
    *freed += held.st_size;
    return LockRemoval::Removed;  // the lock is released as `lock` closes
}

// Last use: access or modification (not the inode's change time, which a copy or a chmod moves too).
qint64 newest(const StoreEntry &e)
{
    return std::max(e.mtimeMs, e.atimeMs);
}

// Fills an entry from its folder's listing (and the root's lock file for its key, if any).
void judge(CacheStore &store, const ListResult &l, const QStringList &rootLocks, TorchNeuronEntry *e)
{
    bool marker = false;
    QVector<qint64> neffSizes;
    e->lastUsedMs = l.self.mtimeMs;  // not the folder's access time: listing it (this scan) moves that
    e->locks = rootLocks;
    for (const StoreEntry &f : l.entries) {
        e->lastUsedMs = std::max(e->lastUsedMs, newest(f));
        if (f.name == kMarker)
            marker = true;
        else if (f.name.endsWith(kLock))
            e->locks << e->key + QLatin1Char('/') + f.name;
        if (f.type == StoreEntry::Type::File) {
            e->size += f.size;
            ++e->files;
            if (f.name.startsWith(QLatin1String("graph_")) && f.name.endsWith(QLatin1String(".neff")))
                neffSizes << f.size;
        }
    }
    e->locksChecked = store.isLocal();
    if (marker && store.isLocal()) {
        QByteArray text;
        QString ignored;
        if (store.readFile(e->key + QLatin1Char('/') + kMarker, 4096, false, &text, &ignored))
            for (const QByteArray &line : text.split('\n'))
                if (line.startsWith("neff_size:"))
                    e->neffBytes = line.mid(10).trimmed().toLongLong();
        e->neffMismatch = e->neffBytes >= 0 && !neffSizes.contains(e->neffBytes);
    }
    bool held = false, stale = false;
    for (const QString &lock : std::as_const(e->locks))
        (lockHeld(store, lock) ? held : stale) = true;
    e->state = marker ? TorchNeuronEntry::State::Complete
               : held ? TorchNeuronEntry::State::Compiling
               : stale ? TorchNeuronEntry::State::StaleLock
                       : TorchNeuronEntry::State::Incomplete;
}
}  // namespace

TorchNeuronLocations resolveTorchNeuronLocations(const QHash<QString, QString> &env, const QString &home, const QString &user,
                                                 bool homeOnNfs)
{
    TorchNeuronLocations t;
    const QString root = env.value(QStringLiteral("VLLM_CACHE_ROOT"));
    if (!root.isEmpty()) {
        t.local = QDir::cleanPath(root) + QStringLiteral("/neuron/compile_cache");
        t.localWhy = TorchNeuronText::tr("VLLM_CACHE_ROOT is set: $VLLM_CACHE_ROOT/neuron/compile_cache.");
    } else if (homeOnNfs) {
        t.local = QStringLiteral("/tmp/vllm_neuron_wdir_%1/neuron/compile_cache").arg(user);
        t.localWhy = TorchNeuronText::tr("The home folder is on NFS, so vLLM-Neuron falls back to /tmp.");
    } else {
        t.local = QDir::cleanPath(home) + QStringLiteral("/.cache/vllm/neuron/compile_cache");
        t.localWhy = TorchNeuronText::tr("The default: ~/.cache/vllm/neuron/compile_cache (VLLM_CACHE_ROOT is not set).");
    }
    t.remote = env.value(QStringLiteral("NEURON_LIBTORCH_REMOTE_CACHE"));
    t.disabled = env.value(QStringLiteral("NEURON_LIBTORCH_DISABLE_COMPILE_CACHE")) == QLatin1String("1");
    bool ok = false;
    const int wait = env.value(QStringLiteral("NEURON_LIBTORCH_COMPILATION_TIMEOUT")).toInt(&ok);
    if (ok && wait > 0)
        t.waitSeconds = wait;
    return t;
}

TorchNeuronLocations resolveTorchNeuronLocations()
{
    const QProcessEnvironment pe = QProcessEnvironment::systemEnvironment();
    QHash<QString, QString> env;
    for (const QString &k : pe.keys())
        env.insert(k, pe.value(k));
    const QString home = QDir::homePath();
    struct statfs fs {};
    const bool nfs = ::statfs(QFile::encodeName(home).constData(), &fs) == 0 && long(fs.f_type) == kNfsSuperMagic;
    QString user = env.value(QStringLiteral("USER"));
    if (user.isEmpty())
        user = QString::number(::getuid());
    return resolveTorchNeuronLocations(env, home, user, nfs);
}

bool isTorchNeuronKey(const QString &name)
{
    return name.size() == 32
           && std::all_of(name.cbegin(), name.cend(), [](QChar c) { return c.isDigit() || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F'); });
}

QString torchNeuronStateName(TorchNeuronEntry::State s)
{
    switch (s) {
    case TorchNeuronEntry::State::Complete: return QStringLiteral("COMPLETE");
    case TorchNeuronEntry::State::Compiling: return QStringLiteral("COMPILING");
    case TorchNeuronEntry::State::StaleLock: return QStringLiteral("STALE-LOCK");
    case TorchNeuronEntry::State::Incomplete: return QStringLiteral("INCOMPLETE");
    }
    return {};
}

qint64 TorchNeuronSnapshot::size() const
{
    qint64 n = 0;
    for (const TorchNeuronEntry &e : entries)
        n += e.size;
    return n;
}

int TorchNeuronSnapshot::count(TorchNeuronEntry::State s) const
{
    return int(std::count_if(entries.cbegin(), entries.cend(), [s](const TorchNeuronEntry &e) { return e.state == s; }));
}

TorchNeuronSnapshot scanTorchNeuronCache(CacheStore &store)
{
    TorchNeuronSnapshot snap;
    QString error;
    if (!store.open(&error)) {
        snap.fatalError = error;
        return snap;
    }
    const ListResult root = store.list(QString());
    if (!root.ok) {
        snap.fatalError = root.error;
        return snap;
    }
    QHash<QString, QStringList> rootLocks;  // key -> "<key>.lock"
    QStringList keys;
    for (const StoreEntry &e : root.entries) {
        const QString base = e.name.endsWith(kLock) ? e.name.chopped(kLock.size()) : QString();
        if (e.type == StoreEntry::Type::Dir && isTorchNeuronKey(e.name))
            keys << e.name;
        else if (e.type == StoreEntry::Type::File && isTorchNeuronKey(base))
            rootLocks[base] << e.name;
        else
            snap.otherItems << e.name;
    }
    // A lock whose key has no folder yet: a compile that has not written anything.
    for (auto it = rootLocks.cbegin(); it != rootLocks.cend(); ++it)
        if (!keys.contains(it.key()))
            keys << it.key();
    std::sort(keys.begin(), keys.end());
    for (const QString &k : std::as_const(keys)) {
        TorchNeuronEntry e;
        e.key = k;
        ListResult l = store.list(k);
        if (!l.ok && !l.vanished && rootLocks.value(k).isEmpty()) {
            snap.otherItems << k;  // unreadable: shown as is, never touched
            continue;
        }
        e.folder = l.ok;
        if (!l.ok)
            l = ListResult();
        judge(store, l, rootLocks.value(k), &e);
        snap.entries << e;
    }
    return snap;
}

bool scanTorchNeuronEntry(CacheStore &store, const QString &key, TorchNeuronEntry *out, QString *error)
{
    const ListResult root = store.list(QString());
    if (!root.ok) {
        *error = root.error;
        return false;
    }
    QStringList locks;
    bool folder = false;
    for (const StoreEntry &e : root.entries) {
        if (e.name == key && e.type == StoreEntry::Type::Dir)
            folder = true;
        else if (e.name == key + kLock && e.type == StoreEntry::Type::File)
            locks << e.name;
    }
    if (!folder && locks.isEmpty())
        return false;
    TorchNeuronEntry e;
    e.key = key;
    ListResult l = folder ? store.list(key) : ListResult();
    if (folder && !l.ok && !l.vanished) {
        *error = l.error;
        return false;
    }
    e.folder = folder && l.ok;
    judge(store, l.ok ? l : ListResult(), locks, &e);
    *out = e;
    return true;
}

QVector<TorchNeuronStep> planTorchNeuron(const TorchNeuronSnapshot &snap, TorchNeuronAction action, int ttlDays, qint64 nowMs)
{
    QVector<TorchNeuronStep> plan;
    const qint64 cutoff = nowMs - qint64(ttlDays) * 86400 * 1000;
    for (const TorchNeuronEntry &e : snap.entries) {
        switch (action) {
        case TorchNeuronAction::CleanIncomplete:
            if (e.state == TorchNeuronEntry::State::Incomplete && e.files + int(e.locks.size()) > 0)
                plan.append({e.key, e.key, e.size, TorchNeuronText::tr("no .compilation_complete marker and no lock: an interrupted compile")});
            break;
        case TorchNeuronAction::ClearLocks:
            if (e.locksChecked && e.state != TorchNeuronEntry::State::Compiling)
                for (const QString &l : e.locks)
                    plan.append({l, e.key, 0, TorchNeuronText::tr("no process holds this lock")});
            break;
        case TorchNeuronAction::Prune:
            if (e.state == TorchNeuronEntry::State::Complete && e.locks.isEmpty() && e.lastUsedMs < cutoff)
                plan.append({e.key, e.key, e.size, TorchNeuronText::tr("complete, unused for more than %n days", nullptr, ttlDays)});
            break;
        }
    }
    return plan;
}

TorchNeuronReport executeTorchNeuron(CacheStore &store, const QVector<TorchNeuronStep> &plan, TorchNeuronAction action,
                                     int ttlDays, qint64 nowMs)
{
    TorchNeuronReport r;
    for (const TorchNeuronStep &s : plan) {
        TorchNeuronEntry now;
        QString error;
        if (!scanTorchNeuronEntry(store, s.key, &now, &error)) {
            if (!error.isEmpty())
                r.errors << displayName(s.rel) + QStringLiteral(": ") + error;
            ++r.skipped;  // gone already
            continue;
        }
        TorchNeuronSnapshot one;
        one.entries << now;
        bool stillFits = false;
        for (const TorchNeuronStep &again : planTorchNeuron(one, action, ttlDays, nowMs))
            stillFits |= again.rel == s.rel;
        if (!stillFits) {
            ++r.skipped;
            continue;
        }
        qint64 freed = 0;
        bool ok = false;
        if (action == TorchNeuronAction::ClearLocks) {
            const LockRemoval res = removeUnheldLock(store, s.rel, &freed, &error);
            if (res == LockRemoval::Held || res == LockRemoval::Gone) {
                ++r.skipped;  // taken, or removed, since the re-check: left
                continue;
            }
            ok = res == LockRemoval::Removed;
        } else {
            bool held = false;
            ok = true;
            for (const QString &lock : std::as_const(now.locks)) {  // a stale root lock of an incomplete entry
                if (lock.contains(QLatin1Char('/')))
                    continue;
                const LockRemoval res = removeUnheldLock(store, lock, &freed, &error);
                held |= res == LockRemoval::Held;
                ok &= res != LockRemoval::Failed;
            }
            if (held) {
                ++r.skipped;  // a compile took its lock since the re-check: the entry is its
                continue;
            }
            const CacheStore::RemoveResult res = !ok          ? CacheStore::RemoveResult::Failed
                                                 : !now.folder ? CacheStore::RemoveResult::Removed
                                                               : store.removeEntry(s.key, &freed, &error);
            if (res == CacheStore::RemoveResult::Locked) {
                ++r.skipped;
                continue;
            }
            ok = res == CacheStore::RemoveResult::Removed;
        }
        if (ok) {
            ++r.done;
            r.freed += freed;
        } else {
            r.errors << displayName(s.rel) + QStringLiteral(": ") + error;
        }
    }
    return r;
}

}  // namespace ingot
