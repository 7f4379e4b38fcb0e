#include "cachesession.h"

#include "localcachestore.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace ingot {

namespace {
// inotify watches are a shared, limited resource: watch the root, the version folders and the entries that can
// still change (locked, incomplete, empty), not the hundred thousand finished ones.
constexpr int kMaxWatches = 4000;
}

CacheSession::CacheSession(QObject *parent)
    : QObject(parent)
    , m_watcher(new QFileSystemWatcher(this))
    , m_debounce(new QTimer(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(400);
    connect(m_debounce, &QTimer::timeout, this, [this] { rescan(false); });
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
        Q_EMIT diskChanged();
        m_debounce->start();
    });
}

CacheSession::~CacheSession()
{
    if (m_cancel)
        m_cancel->store(true);
    m_future.waitForFinished();
}

std::unique_ptr<CacheStore> CacheSession::makeStore() const
{
    return std::make_unique<LocalCacheStore>(m_root);
}

void CacheSession::setRoot(const QString &path)
{
    if (m_cancel)
        m_cancel->store(true);
    ++m_generation;  // results of a scan still running are dropped
    m_root = path;
    m_snapshot = CacheSnapshot();
    m_snapshot.root = path;
    m_running = false;
    m_pending = false;
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    Q_EMIT rootChanged(path);
    start(true);
}

void CacheSession::rescan(bool full)
{
    if (m_root.isEmpty())
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
    if (m_cancel)
        m_cancel->store(true);
    m_pending = false;
}

void CacheSession::setWatching(bool on)
{
    m_watching = on;
    updateWatches();
}

int CacheSession::watchedFolders() const
{
    return int(m_watcher->directories().size());
}

void CacheSession::setDebounceMs(int ms)
{
    m_debounce->setInterval(ms);
}

void CacheSession::start(bool full)
{
    m_running = true;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const quint64 gen = m_generation;
    const QString root = m_root;
    auto cancelFlag = m_cancel;
    // The previous snapshot is shared copy-on-write: handing it to the worker copies nothing.
    CacheSnapshot previous = full ? CacheSnapshot() : m_snapshot;
    const bool haveBase = !full && !m_snapshot.modules.isEmpty();
    Q_EMIT scanStarted(full);
    QPointer<CacheSession> self(this);
    m_future = QtConcurrent::run([self, gen, root, cancelFlag, previous = std::move(previous), haveBase]() mutable {
        LocalCacheStore store(root);
        CacheScanner scanner(store);
        ScanStats stats;
        auto onBatch = [&](ScanDelta &&d) {
            QMetaObject::invokeMethod(
                self, [self, gen, d = std::move(d)] {
                    if (self && self->m_generation == gen)
                        Q_EMIT self->delta(d);
                },
                Qt::QueuedConnection);
        };
        previous.reindex();
        CacheSnapshot snap = scanner.scan(haveBase ? &previous : nullptr, onBatch, cancelFlag.get(), &stats);
        QMetaObject::invokeMethod(
            self, [self, gen, snap = std::move(snap), stats]() mutable {
                if (self)
                    self->finished(gen, std::move(snap), stats);
            },
            Qt::QueuedConnection);
    });
}

void CacheSession::finished(quint64 generation, CacheSnapshot snapshot, ScanStats stats)
{
    if (generation != m_generation)
        return;
    m_running = false;
    m_snapshot = std::move(snapshot);
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
    QSet<QString> want;
    if (m_watching && !m_snapshot.fatalError.isEmpty() && !m_root.isEmpty()) {
        // No cache yet: watch the nearest existing parent, so the page fills as soon as a first compile creates it.
        QDir parent(m_root);
        while (parent.cdUp() && !parent.exists()) {
        }
        if (parent.exists() && !QFileInfo(m_root).exists())
            want.insert(parent.absolutePath());
    } else if (m_watching && !m_root.isEmpty()) {
        want.insert(m_root);
        for (const CacheModule &m : std::as_const(m_snapshot.modules)) {
            if (want.size() >= kMaxWatches)
                break;
            if (!m.version.isEmpty())
                want.insert(m_root + QLatin1Char('/') + m.version);
        }
        for (const CacheModule &m : std::as_const(m_snapshot.modules)) {
            if (want.size() >= kMaxWatches)
                break;
            if (m.isModule() && m.state != ModuleState::Success && m.state != ModuleState::Failed &&
                m.state != ModuleState::Unknown)
                want.insert(m_root + QLatin1Char('/') + m.key());
        }
    }
    const QStringList have = m_watcher->directories();
    QStringList drop;
    for (const QString &d : have)
        if (!want.remove(d))
            drop << d;
    if (!drop.isEmpty())
        m_watcher->removePaths(drop);
    if (!want.isEmpty())
        m_watcher->addPaths(QStringList(want.begin(), want.end()));
}

}  // namespace ingot
