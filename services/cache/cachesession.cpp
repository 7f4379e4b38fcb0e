#include "services/cache/cachesession.h"

#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"
#include "services/stores/storewatcher.h"

#include <QDateTime>
#include <QSet>
#include <QTimer>

namespace ingot {

namespace {
// inotify watches are a shared, limited resource: watch the root, the version folders and the entries that can
// still change (locked, incomplete, empty), not the hundred thousand finished ones.
constexpr int kMaxWatches = 4000;
}

CacheSession::CacheSession(QObject *parent)
    : QObject(parent)
    , m_debounce(new QTimer(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(400);
    connect(m_debounce, &QTimer::timeout, this, [this] { rescan(false); });
}

// A scan still running is discarded: it stops at its next check and nothing of it reaches this object.
CacheSession::~CacheSession()
{
    m_scan.discard();
}

std::unique_ptr<CacheStore> CacheSession::makeStore() const
{
    return ingot::makeStore(m_location);
}

std::unique_ptr<CacheStore> CacheSession::listedStore() const
{
    return m_listed ? m_listed->clone() : nullptr;
}

void CacheSession::setLocation(const StoreLocation &location)
{
    m_scan.discard();  // results of a scan still running are dropped
    m_location = location;
    m_snapshot = CacheSnapshot();
    m_snapshot.root = root();
    m_listed.reset();
    m_running = false;
    m_pending = false;
    delete m_watcher;
    m_watcher = nullptr;
    if (auto store = makeStore())
        m_watcher = store->createWatcher(this);
    if (m_watcher) {
        connect(m_watcher, &StoreWatcher::changed, this, [this] {
            Q_EMIT diskChanged();
            m_debounce->start();
        });
    }
    Q_EMIT rootChanged(root());
    start(true);
}

void CacheSession::rescan(bool full)
{
    if (!m_location.isValid())
        return;
    if (m_running) {
        m_pending = true;
        m_pendingFull = m_pendingFull || full;
        return;
    }
    start(full);
}

void CacheSession::cancel()
{
    m_scan.stop();
    m_pending = false;
}

void CacheSession::setWatching(bool on)
{
    m_watching = on;
    updateWatches();
}

int CacheSession::watchedFolders() const
{
    return m_watcher ? m_watcher->watchedCount() : 0;
}

void CacheSession::setDebounceMs(int ms)
{
    m_debounce->setInterval(ms);
}

void CacheSession::start(bool full)
{
    m_running = true;
    m_scanStartedMs = QDateTime::currentMSecsSinceEpoch();
    // The previous snapshot is shared copy-on-write: handing it to the worker copies nothing.
    CacheSnapshot previous = full ? CacheSnapshot() : m_snapshot;
    const bool haveBase = !full && !m_snapshot.modules.isEmpty();
    const StoreLocation location = m_location;
    Q_EMIT scanStarted(full);
    struct Outcome {
        CacheSnapshot snapshot;
        ScanStats stats;
        std::shared_ptr<CacheStore> listed;  // the store scanned, kept where it can be cloned
    };
    // Batches are handed to this object by the task's receiver, on this thread, while this object lives: the
    // closure below is only ever called there.
    auto emitDelta = [this](const ScanDelta &d) { Q_EMIT delta(d); };
    m_scan = runTask(
        this,
        [location, previous = std::move(previous), haveBase, emitDelta](TaskControl &control) mutable {
            Outcome out;
            QString error;
            auto store = ingot::makeStore(location, &error);
            if (!store) {
                out.snapshot.root = location.display();
                out.snapshot.fatalError = error;
                return out;
            }
            CacheScanner scanner(*store);
            auto onBatch = [&control, &emitDelta](ScanDelta &&d) {
                control.post([emitDelta, d = std::move(d)] { emitDelta(d); });
            };
            if (!previous.isIndexed())  // a scan's snapshot comes indexed
                previous.reindex();
            out.snapshot = scanner.scan(haveBase ? &previous : nullptr, onBatch, control.stopFlag(), &out.stats);
            if (out.snapshot.fatalError.isEmpty() && !out.stats.cancelled && store->clone())
                out.listed = std::move(store);
            return out;
        },
        [this](Outcome out) {
            m_listed = std::move(out.listed);
            finished(std::move(out.snapshot), out.stats);
        });
}

void CacheSession::finished(CacheSnapshot snapshot, ScanStats stats)
{
    m_running = false;
    // The old snapshot's last reference may be this one: 100k modules take tens of milliseconds to free, which the
    // UI thread does not wait for.
    disposeOffThread(std::exchange(m_snapshot, std::move(snapshot)));
    updateWatches();
    Q_EMIT scanFinished(stats, m_snapshot.fatalError);
    if (m_pending) {
        const bool full = m_pendingFull;
        m_pending = m_pendingFull = false;
        start(full);
    }
}

void CacheSession::updateWatches()
{
    if (!m_watcher)
        return;
    if (!m_watching) {
        m_watcher->clear();
        return;
    }
    if (!m_snapshot.fatalError.isEmpty()) {
        // No cache yet: watch for it, so the page fills as soon as a first compile creates it.
        m_watcher->watchForRoot();
        return;
    }
    QSet<QString> want{QString()};
    for (const CacheModule &m : std::as_const(m_snapshot.modules)) {
        if (want.size() >= kMaxWatches)
            break;
        if (!m.version.isEmpty())
            want.insert(m.version);
    }
    for (const CacheModule &m : std::as_const(m_snapshot.modules)) {
        if (want.size() >= kMaxWatches)
            break;
        if (m.isModule() && m.state != ModuleState::Success && m.state != ModuleState::Failed &&
            m.state != ModuleState::Unknown)
            want.insert(m.key());
    }
    // A folder that changed between its listing and its watch (a compile that finished meanwhile) is rescanned.
    m_watcher->watchFolders(QStringList(want.begin(), want.end()), m_scanStartedMs);
}

}  // namespace ingot
