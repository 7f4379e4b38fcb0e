#include "services/cache/neffcache.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>

namespace ingot {

namespace {
struct NeffCacheText {
    Q_DECLARE_TR_FUNCTIONS(ingot::NeffCache)
};

constexpr qint64 dayMs = 24LL * 3600 * 1000;

qint64 lastUse(const StoreEntry &e)
{
    return std::max(e.mtimeMs, e.atimeMs);
}

QString parentOf(const QString &rel)
{
    const qsizetype slash = rel.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : rel.left(slash);
}

QString join(const QString &folder, const QString &name)
{
    return folder.isEmpty() ? name : folder + QLatin1Char('/') + name;
}

// Whether a process holds a flock on a file of a local store (a non-blocking shared flock fails under an exclusive
// one). Where that cannot be seen, or the file cannot be opened, it counts as held: nothing goes on a guess.
bool flockHeld(CacheStore &store, const QString &rel)
{
    if (!store.isLocal())
        return true;
    const int fd = ::open(nameToBytes(store.fullPath(rel)).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return true;
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
    ::close(fd);
    return held;
}
}  // namespace

NeffCacheLocation resolveNeffCacheLocation(const QProcessEnvironment &env)
{
    NeffCacheLocation loc;
    const QString set = env.value(QStringLiteral("TORCH_NEURONX_NEFF_CACHE_DIR")).trimmed();
    if (!set.isEmpty()) {
        loc.path = QDir::cleanPath(set);
        loc.why = NeffCacheText::tr("TORCH_NEURONX_NEFF_CACHE_DIR is set to %1.").arg(displayName(set));
    } else {
        loc.path = NeffCacheLocation::defaultPath();
        loc.why = NeffCacheText::tr("TORCH_NEURONX_NEFF_CACHE_DIR is not set, so the folder the Neuron documentation "
                                    "names, %1, is used.").arg(loc.path);
    }
    return loc;
}

qint64 NeffCacheSnapshot::size() const
{
    qint64 s = 0;
    for (const NeffFile &f : neffs)
        s += f.size;
    return s;
}

int NeffCacheSnapshot::unusedFor(int days, qint64 nowMs, qint64 *bytes) const
{
    int n = 0;
    qint64 b = 0;
    for (const NeffFile &f : neffs) {
        if (f.lastUsedMs < nowMs - days * dayMs) {
            ++n;
            b += f.size;
        }
    }
    if (bytes)
        *bytes = b;
    return n;
}

NeffCacheSnapshot scanNeffCache(CacheStore &store)
{
    NeffCacheSnapshot snap;
    QString error;
    if (!store.open(&error)) {
        snap.fatalError = error;
        return snap;
    }
    struct Folder {
        QString rel;
        int depth;
    };
    QVector<Folder> todo{{QString(), 0}};
    qint64 seen = 0;
    while (!todo.isEmpty()) {
        const Folder f = todo.takeLast();
        if (seen >= neffCacheMaxEntries) {
            ++snap.foldersNotRead;
            continue;
        }
        const ListResult l = store.list(f.rel);
        if (!l.ok) {
            if (f.rel.isEmpty())
                snap.fatalError = l.error;
            else if (!l.vanished)
                snap.warnings << l.error;
            continue;
        }
        for (const StoreEntry &e : l.entries) {
            if (++seen > neffCacheMaxEntries)
                break;
            const QString rel = join(f.rel, e.name);
            switch (e.type) {
            case StoreEntry::Type::Dir:
                if (f.depth + 1 < neffCacheMaxDepth)
                    todo.append({rel, f.depth + 1});
                else
                    ++snap.foldersNotRead;
                break;
            case StoreEntry::Type::File:
                if (e.name.endsWith(QLatin1String(".neff")) && e.name.size() > 5) {
                    snap.neffs.append({rel, e.size, lastUse(e)});
                } else {
                    ++snap.otherFiles;
                    snap.otherBytes += e.size;
                }
                break;
            case StoreEntry::Type::Symlink:
                ++snap.links;
                break;
            case StoreEntry::Type::Other:
                ++snap.otherFiles;
                break;
            }
        }
    }
    std::sort(snap.neffs.begin(), snap.neffs.end(), [](const NeffFile &a, const NeffFile &b) {
        return a.size != b.size ? a.size > b.size : a.rel < b.rel;
    });
    return snap;
}

QVector<NeffStep> planNeffPrune(const NeffCacheSnapshot &snap, int ttlDays, qint64 nowMs)
{
    QVector<NeffStep> plan;
    if (ttlDays < 0)
        return plan;
    for (const NeffFile &f : snap.neffs)
        if (f.lastUsedMs < nowMs - ttlDays * dayMs)
            plan.append({f.rel, f.size, f.lastUsedMs});
    std::sort(plan.begin(), plan.end(), [](const NeffStep &a, const NeffStep &b) {
        return a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs < b.lastUsedMs : a.rel < b.rel;
    });
    return plan;
}

NeffPruneReport executeNeffPrune(CacheStore &store, const QVector<NeffStep> &plan, int ttlDays, qint64 nowMs)
{
    NeffPruneReport r;
    QString error;
    if (!store.open(&error)) {
        r.errors << error;
        return r;
    }
    for (const NeffStep &s : plan) {
        const QString folder = parentOf(s.rel);
        const QString name = s.rel.mid(folder.isEmpty() ? 0 : folder.size() + 1);
        const ListResult l = store.list(folder);
        const auto it = std::find_if(l.entries.cbegin(), l.entries.cend(), [&](const StoreEntry &e) { return e.name == name; });
        const bool locked = std::any_of(l.entries.cbegin(), l.entries.cend(), [](const StoreEntry &e) {
            return e.name.endsWith(QLatin1String(".lock"));
        });
        if (!l.ok || it == l.entries.cend() || it->type != StoreEntry::Type::File || it->size != s.bytes
            || lastUse(*it) >= nowMs - ttlDays * dayMs || locked || flockHeld(store, s.rel)) {
            ++r.skipped;
            continue;
        }
        QString why;
        if (store.remove(s.rel, &r.freed, &why))
            ++r.done;
        else
            r.errors << why;
    }
    return r;
}

}  // namespace ingot
