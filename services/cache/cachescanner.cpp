#include "services/cache/cachescanner.h"

#include "services/cache/compilerversion.h"
#include "services/cache/classify.h"
#include "services/stores/cachestore.h"
#include "services/util/parallel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSet>

#include <thread>


namespace ingot {

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct ScannerText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CacheScanner)
};

// The few names the compiler writes, shared between all modules (implicitly shared QStrings: no copy per file).
const QString &internName(const QString &name)
{
    static const QString known[] = {
        QStringLiteral("model.neff"),         QStringLiteral("model.hlo_module.pb"),
        QStringLiteral("compile_flags.json"), QStringLiteral("model.done"),
        QStringLiteral("model.log"),          QStringLiteral("model.hlo_module.pb.lock"),
        QStringLiteral("model.hlo.pb"),       QStringLiteral("compile_flags.txt"),
        QStringLiteral("model.neff.lock"),    QStringLiteral("model.hlo.pb.lock"),
    };
    for (const auto &k : known)
        if (k.size() == name.size() && k == name)
            return k;
    return name;
}

bool isKnownModuleFile(const QString &name)
{
    return &internName(name) != &name || name.endsWith(QLatin1String(".lock"));
}

bool isPlainAscii(const QString &s)
{
    for (const QChar c : s)
        if (c.unicode() < 0x21 || c.unicode() > 0x7e)
            return false;
    return true;
}

bool looksLikeHash(QStringView s)
{
    if (s.isEmpty())
        return false;
    for (const QChar c : s)
        if (!c.isDigit() && !(c >= QLatin1Char('a') && c <= QLatin1Char('f')) &&
            !(c >= QLatin1Char('A') && c <= QLatin1Char('F')))
            return false;
    return true;
}

CacheModule itemFromEntry(const QString &version, const StoreEntry &e)
{
    CacheModule m;
    m.version = version;
    m.name = e.name;
    m.state = ModuleState::Unknown;
    m.dirMtimeMs = e.mtimeMs;
    m.dirCtimeMs = e.ctimeMs;
    m.lastUsedMs = e.mtimeMs;
    const QString where = version.isEmpty() ? ScannerText::tr("the cache root") : version;
    switch (e.type) {
    case StoreEntry::Type::Symlink:
        m.kind = e.linkTargetIsDir ? EntryKind::LinkedDir : EntryKind::UnknownFile;
        m.linkedSize = e.linkTargetIsDir ? 0 : e.size;
        m.warnings << (e.linkBroken ? ScannerText::tr("A broken symbolic link in %1.").arg(where)
                                    : e.linkOutsideRoot ? ScannerText::tr("A symbolic link in %1 pointing outside the cache root; not followed.").arg(where)
                                                        : ScannerText::tr("A symbolic link in %1; not followed.").arg(where));
        break;
    case StoreEntry::Type::Dir:
        m.kind = EntryKind::UnknownDir;
        m.warnings << (m.name.startsWith(QLatin1String(".ingot-removing-"))
                           ? ScannerText::tr("Left over from an interrupted removal by Ingot; safe to delete by hand.")
                       : m.name.startsWith(QLatin1String(".ingot-incoming-"))
                           ? ScannerText::tr("A transfer into this cache is in progress or was interrupted; Ingot resumes it.")
                           : ScannerText::tr("A folder the Neuron compiler does not write in %1; not scanned.").arg(where));
        break;
    default:
        m.kind = EntryKind::UnknownFile;
        m.size = e.size;
        m.allocated = e.allocated;
        m.warnings << ScannerText::tr("A file the Neuron compiler does not write in %1.").arg(where);
        break;
    }
    return m;
}

CacheModule moduleFromList(const QString &version, const QString &name, const ListResult &lr, bool writesDone)
{
    CacheModule m;
    m.version = version;
    m.name = name;
    m.kind = name.contains(QLatin1Char('+')) ? EntryKind::Module : EntryKind::TracedModule;
    m.dirMtimeMs = lr.self.mtimeMs;
    m.dirCtimeMs = lr.self.ctimeMs;
    m.lastUsedMs = 0;
    {
        // MODULE_<hash>[+<flags hash>]
        const QStringView rest = QStringView(name).mid(7);
        const int plus = rest.indexOf(QLatin1Char('+'));
        const bool ok = plus < 0 ? looksLikeHash(rest) : looksLikeHash(rest.left(plus)) && looksLikeHash(rest.mid(plus + 1));
        if (!ok || !isPlainAscii(name))
            m.warnings << ScannerText::tr("Unusual module name: the compiler writes MODULE_<hash>+<flags hash>.");
    }
    m.files.reserve(lr.entries.size());
    QSet<quint64> linked;
    for (const StoreEntry &e : lr.entries) {
        CacheFile f;
        f.name = internName(e.name);
        f.size = e.size;
        f.allocated = e.allocated;
        f.mtimeMs = e.mtimeMs;
        f.atimeMs = e.atimeMs;
        if (!isKnownModuleFile(e.name))
            f.flags |= CacheFile::Unexpected;
        switch (e.type) {
        case StoreEntry::Type::File:
            m.size += f.size;
            m.allocated += f.allocated;
            break;
        case StoreEntry::Type::Dir:
            f.flags |= CacheFile::Directory;
            m.warnings << ScannerText::tr("Unexpected sub-folder \"%1\"; its contents are not scanned.").arg(e.name);
            break;
        case StoreEntry::Type::Symlink:
            f.flags |= CacheFile::Symlink;
            f.linkId = e.linkId;
            if (e.linkBroken) {
                f.flags |= CacheFile::Broken;
                m.warnings << ScannerText::tr("\"%1\" is a broken symbolic link.").arg(e.name);
            } else if (!linked.contains(e.linkId)) {
                linked.insert(e.linkId);
                m.linkedSize += f.size;
            }
            if (e.linkToHubBlob)
                f.flags |= CacheFile::HubBlob;
            if (e.linkOutsideRoot) {
                f.flags |= CacheFile::OutsideRoot;
                if (!e.linkToHubBlob && !e.linkBroken)
                    m.warnings << ScannerText::tr("\"%1\" links outside the cache root; the link is never followed when deleting.")
                                      .arg(e.name);
            }
            break;
        case StoreEntry::Type::Other:
            f.flags |= CacheFile::Special;
            m.warnings << ScannerText::tr("\"%1\" is not a regular file (a pipe, socket or device), or could not be read.").arg(e.name);
            break;
        }
        m.lastUsedMs = std::max(m.lastUsedMs, f.mtimeMs);
        if (f.name == QLatin1String("model.neff"))
            m.lastUsedMs = std::max(m.lastUsedMs, f.atimeMs);  // reading the neff is what "using" the entry means
        m.files.append(std::move(f));
    }
    if (m.files.isEmpty())
        m.lastUsedMs = lr.self.mtimeMs;
    std::sort(m.files.begin(), m.files.end(), [](const CacheFile &a, const CacheFile &b) { return a.name < b.name; });
    m.state = classifyModule(m.files, writesDone);
    return m;
}

// Whether a module folder whose own mtime and ctime did not move since the last scan can be taken from it unread.
// A compile holds a lock while it writes, so only a Locked entry's files grow in place; everything else that
// changes a module's state (a lock taken or dropped, model.done or model.log written, an entry pulled or removed)
// adds, removes or renames a name in the folder, which moves its times. A folder that could not be read is read
// again.
bool reusableWhenUnchanged(const CacheModule &old, const StoreEntry &now)
{
    return old.dirMtimeMs == now.mtimeMs && old.dirCtimeMs == now.ctimeMs && old.isModule() &&
           old.state != ModuleState::Locked && old.state != ModuleState::Unknown;
}
}  // namespace

CacheScanner::CacheScanner(CacheStore &store)
    : m_store(store)
    , m_threads(kListingThreads)
{
}

CacheScanner::~CacheScanner() = default;

void CacheScanner::listInParallel(QVector<Job> &jobs, int from, int to, const QString &version, bool writesDone,
                                  const CacheSnapshot *previous, const std::atomic_bool *cancel)
{
    if (m_clones.empty() && m_threads > 1) {
        // Other handles on the same place; a store that cannot make one is listed on this thread only.
        for (int i = 1; i < m_threads; ++i) {
            std::unique_ptr<CacheStore> c = m_store.clone();
            QString error;
            if (!c || !c->open(&error))
                break;
            m_clones.push_back(std::move(c));
        }
    }
    std::atomic<int> next{from};
    auto work = [&](CacheStore &store) {
        for (int i = next++; i < to; i = next++) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return;
            runJob(store, jobs[i], version, writesDone, previous);
        }
    };
    // One worker per store handle: this thread lists through m_store (a store may be tied to the thread that uses
    // it), each other worker through a clone of its own, each taking the next folder until none is left.
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<size_t> nextClone{0};
    const int workers = int(m_clones.size()) + 1;
    parallelFor(workers, workers, nullptr, [&](int) {
        if (std::this_thread::get_id() == caller)
            return work(m_store);
        const size_t c = nextClone++;
        if (c < m_clones.size())  // a worker that comes back finds every folder taken: nothing left to do
            work(*m_clones[c]);
    }).rethrowFirst();
}

void CacheScanner::runJob(CacheStore &store, Job &j, const QString &version, bool writesDone,
                          const CacheSnapshot *previous)
{
    j.key = version + QLatin1Char('/') + j.entry->name;
    j.old = previous ? previous->find(j.key) : nullptr;  // read only: safe from several threads
    if (!j.entry->statted) {
        bool vanished = false;
        QString error;
        if (!store.statEntry(j.key, j.entry, &vanished, &error)) {
            j.entry->type = StoreEntry::Type::Other;
            j.outcome = vanished ? Job::Outcome::Gone : Job::Outcome::NotAFolder;
            return;
        }
        if (j.entry->type != StoreEntry::Type::Dir) {  // replaced since it was listed
            j.outcome = Job::Outcome::NotAFolder;
            return;
        }
    }
    if (j.old && reusableWhenUnchanged(*j.old, *j.entry)) {
        j.outcome = Job::Outcome::Reused;
        return;
    }
    j.list = store.list(j.key);
    if (j.list.ok) {
        j.module = moduleFromList(version, j.entry->name, j.list, writesDone);
        j.list.entries = {};
    }
    j.outcome = Job::Outcome::Listed;
}

CacheModule CacheScanner::scanModule(const QString &version, const QString &name, bool *vanished, QString *error)
{
    const ListResult lr = m_store.list(version + QLatin1Char('/') + name);
    *vanished = lr.vanished;
    if (!lr.ok) {
        *error = lr.error;
        return {};
    }
    return moduleFromList(version, name, lr, CompilerVersion::parse(version).writesDoneMarker());
}

// One scan's state: what it found, what it has still to hand out, and its figures.
struct CacheScanner::Run {
    const CacheSnapshot *previous;
    const BatchFn &onBatch;
    const std::atomic_bool *cancel;
    int batchIntervalMs;
    ScanStats stats;
    QElapsedTimer total, sinceFlush;
    CacheSnapshot snap;
    ScanDelta pending;
    std::vector<bool> seen;  // by index in previous->modules

    Run(const CacheSnapshot *prev, const BatchFn &batch, const std::atomic_bool *c, int intervalMs)
        : previous(prev), onBatch(batch), cancel(c), batchIntervalMs(intervalMs)
        , seen(prev ? size_t(prev->modules.size()) : 0, false)
    {
        total.start();
        sinceFlush.start();
    }

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

    // Hands out what is pending when the batch interval is over (or the batch is large, or it is the first one).
    void flush(bool force)
    {
        if (!onBatch || pending.isEmpty())
            return;
        if (!force && sinceFlush.elapsed() < batchIntervalMs && pending.upserts.size() < 4096 && stats.firstBatchMs >= 0)
            return;
        if (stats.firstBatchMs < 0)
            stats.firstBatchMs = total.elapsed();
        onBatch(std::move(pending));
        pending = ScanDelta();
        sinceFlush.restart();
    }

    void warn(const QString &path, const QString &msg)
    {
        ScanWarning w{path, msg};
        snap.warnings.append(w);
        pending.warnings.append(w);
    }

    // old: the same item in the previous snapshot, if it was there.
    void emitItem(CacheModule &&m, bool changed, const CacheModule *old)
    {
        if (old)
            seen[size_t(old - previous->modules.constData())] = true;
        for (const QString &w : std::as_const(m.warnings))
            snap.warnings.append({m.key(), w});
        if (changed)
            pending.upserts.append(m);
        snap.modules.append(std::move(m));
        ++stats.entries;
    }

    // Something that is not a module folder (a stray file, a link, a registry): changed when its mtime or size is.
    void emitOther(const QString &version, const StoreEntry &e)
    {
        CacheModule item = itemFromEntry(version, e);
        const CacheModule *old = previous ? previous->find(item.key()) : nullptr;
        emitItem(std::move(item), !old || old->dirMtimeMs != e.mtimeMs || old->size != e.size, old);
    }

    // What a module folder gave: the module (read or reused), a module that could not be read, or a warning if it
    // vanished.
    void emitJob(const QString &version, Job &j)
    {
        switch (j.outcome) {
        case Job::Outcome::Reused:
            ++stats.modulesReused;
            emitItem(CacheModule(*j.old), false, j.old);
            return;
        case Job::Outcome::NotAFolder:
            emitOther(version, *j.entry);
            return;
        case Job::Outcome::Gone:
        case Job::Outcome::Pending:
            return;
        case Job::Outcome::Listed:
            break;
        }
        ++stats.foldersListed;
        if (j.list.ok) {
            emitItem(std::move(j.module), true, j.old);
        } else if (j.list.vanished) {
            warn(j.key, ScannerText::tr("%1 vanished during the scan.").arg(j.key));
        } else {
            CacheModule bad = itemFromEntry(version, *j.entry);
            bad.kind = EntryKind::Module;
            bad.warnings = QStringList{j.list.error};
            emitItem(std::move(bad), true, j.old);
        }
    }

    // A complete scan reports what is gone; a cancelled one keeps what it did not reach.
    void settleUnseen()
    {
        stats.cancelled = cancelled();
        if (previous) {
            for (qsizetype i = 0; i < previous->modules.size(); ++i) {
                if (seen[size_t(i)])
                    continue;
                const CacheModule &old = previous->modules[i];
                if (stats.cancelled)
                    snap.modules.append(old);  // not reached: keep what we knew
                else
                    pending.removed.append(old.key());
            }
        }
        flush(true);
        snap.reindex();
    }

    CacheSnapshot done(ScanStats *statsOut)
    {
        stats.elapsedMs = total.elapsed();
        if (statsOut)
            *statsOut = stats;
        return std::move(snap);
    }
};

CacheSnapshot CacheScanner::scan(const CacheSnapshot *previous, const BatchFn &onBatch, const std::atomic_bool *cancel,
                                 ScanStats *statsOut)
{
    Run run(previous, onBatch, cancel, m_batchIntervalMs);
    run.snap.root = m_store.displayRoot();
    QString error;
    if (!m_store.open(&error)) {
        run.snap.fatalError = error;
        run.warn(QString(), error);
        run.flush(true);
        return run.done(statsOut);
    }
    run.snap.rootIdentity = m_store.rootIdentity();
    for (const StoreEntry &ver : scanRoot(run)) {
        if (run.cancelled())
            break;
        scanVersion(run, ver);
    }
    m_clones.clear();
    run.settleUnseen();
    return run.done(statsOut);
}

// Lists the root: what is not a compiler version folder is emitted; the version folders are returned newest first,
// so the entries people care about most arrive first.
QVector<StoreEntry> CacheScanner::scanRoot(Run &run)
{
    const ListResult rootList = m_store.list(QString());
    ++run.stats.foldersListed;
    if (!rootList.ok) {
        run.snap.fatalError = rootList.error;
        run.warn(QString(), rootList.error);
    }
    QVector<StoreEntry> versions;
    for (const StoreEntry &e : rootList.entries) {
        if (e.type == StoreEntry::Type::Dir && isCompilerVersionFolder(e.name))
            versions.append(e);
        else
            run.emitOther(QString(), e);
    }
    std::sort(versions.begin(), versions.end(),
              [](const StoreEntry &a, const StoreEntry &b) { return compareCompilerFolders(a.name, b.name) > 0; });
    return versions;
}

void CacheScanner::scanVersion(Run &run, const StoreEntry &ver)
{
    const bool writesDone = CompilerVersion::parse(ver.name).writesDoneMarker();
    ListResult vl = m_store.listNames(ver.name);
    ++run.stats.foldersListed;
    if (!vl.ok) {
        run.warn(ver.name, vl.vanished ? ScannerText::tr("%1 vanished during the scan.").arg(ver.name) : vl.error);
        return;
    }
    // What is not a module folder right away; the module folders are looked at below, in blocks, in parallel where
    // the store allows, so the first rows show before a large folder has been looked at whole.
    QVector<Job> jobs;
    jobs.reserve(vl.entries.size());
    for (StoreEntry &e : vl.entries) {
        if (e.type != StoreEntry::Type::Dir || !e.name.startsWith(QLatin1String("MODULE_"))) {
            bool vanished = false;
            QString error;
            if (!e.statted && !m_store.statEntry(ver.name + QLatin1Char('/') + e.name, &e, &vanished, &error)) {
                if (vanished)
                    continue;
                e.type = StoreEntry::Type::Other;
            }
            run.emitOther(ver.name, e);
            continue;
        }
        Job j;
        j.entry = &e;
        jobs.append(std::move(j));
    }
    run.flush(false);
    // Small first block so the first rows show at once, then large ones.
    int from = 0;
    while (from < jobs.size() && !run.cancelled()) {
        const int to = std::min<int>(int(jobs.size()), from + (run.stats.entries < 512 ? 256 : 4096));
        listInParallel(jobs, from, to, ver.name, writesDone, run.previous, run.cancel);
        for (int i = from; i < to && jobs[i].outcome != Job::Outcome::Pending; ++i)  // pending: cancelled
            run.emitJob(ver.name, jobs[i]);
        from = to;
        run.flush(false);
    }
    run.flush(false);
}

}  // namespace ingot
