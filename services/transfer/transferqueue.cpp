#include "services/transfer/transferqueue.h"

#include "services/util/atomicfile.h"
#include "services/util/names.h"
#include "services/util/task.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QMap>
#include <QMutex>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <optional>
#include <thread>

namespace ingot {

namespace {
struct QueueText {
    Q_DECLARE_TR_FUNCTIONS(ingot::TransferQueue)
};

constexpr int kPollMs = 250;
constexpr qint64 kSaveEveryMs = 2000;
constexpr qint64 kRateWindowMs = 5000;
constexpr qint64 kMaxRecordBytes = 64LL << 20;

QString newId()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-hhmmss")) + QLatin1Char('-') +
           QString::number(QRandomGenerator::system()->generate() & 0xffffff, 16).rightJustified(6, QLatin1Char('0'));
}

bool isActive(const TransferRecord &r)
{
    return !r.finished() && !r.cancelled;
}

const QLatin1String kCancelSuffix(".cancel");
}  // namespace

TransferStatus transferStatus(const TransferRecord &r, bool running)
{
    if (!r.error.isEmpty())
        return TransferStatus::Failed;
    if (r.cancelled)
        return TransferStatus::Cancelled;
    if (running)
        return TransferStatus::Running;
    if (r.paused)
        return TransferStatus::Paused;
    if (!r.finished())
        return TransferStatus::Queued;
    return r.count(TransferItem::State::Failed) > 0 ? TransferStatus::SomeFailed : TransferStatus::Done;
}

QString transferStatusName(TransferStatus s)
{
    switch (s) {
    case TransferStatus::Failed: return QStringLiteral("failed");
    case TransferStatus::Cancelled: return QStringLiteral("cancelled");
    case TransferStatus::Running: return QStringLiteral("running");
    case TransferStatus::Paused: return QStringLiteral("paused");
    case TransferStatus::Queued: return QStringLiteral("queued");
    case TransferStatus::SomeFailed: return QStringLiteral("some-failed");
    case TransferStatus::Done: return QStringLiteral("done");
    }
    return QString();
}

// One transfer on its worker thread: what the reporter hands over, picked up by poll() on the queue's thread.
struct TransferQueue::Run {
    std::thread thread;
    std::atomic_bool stop{false};
    std::atomic_bool done{false};
    QMutex mutex;
    QVector<int> indexes;          // the record's item index of each engine item
    QVector<TransferItem> items;   // the engine items as last reported
    bool dirty = false;
    bool itemEnded = false;        // save soon: an item finished
    QStringList notes;
    QString error;
    bool pausing = false;
    bool cancelling = false;
    QElapsedTimer clock;
    qint64 lastSaveMs = 0;
    QVector<QPair<qint64, qint64>> samples;  // (ms, bytes done) over the last few seconds
};

// The state files waiting to be written, and the writer: save() hands the JSON over and a runTask writes it. A
// later save of the same transfer replaces an earlier one not written yet; writes of one file never overtake each
// other (one writer at a time, under writeMutex).
struct TransferQueue::Saver {
    QString dir;
    mutable QMutex pendingMutex;
    QMap<QString, QByteArray> pending;  // id -> JSON
    QMutex writeMutex;

    bool hasPending() const
    {
        QMutexLocker lock(&pendingMutex);
        return !pending.isEmpty();
    }
    // Writes everything pending; (id, error) of each write that failed.
    QVector<QPair<QString, QString>> drain()
    {
        QMutexLocker writing(&writeMutex);
        QVector<QPair<QString, QString>> failed;
        for (;;) {
            QString id;
            QByteArray json;
            {
                QMutexLocker lock(&pendingMutex);
                if (pending.isEmpty())
                    break;
                id = pending.firstKey();
                json = pending.take(id);
            }
            QString error;
            if (!writeFileAtomically(dir + QLatin1Char('/') + id + QStringLiteral(".json"), json, &error, true))
                failed.append({id, error});
        }
        return failed;
    }
};

class TransferQueue::Reporter final : public TransferReporter
{
public:
    explicit Reporter(Run *run) : m_run(run) {}
    void itemStarted(int index, qint64 bytesTotal) override
    {
        QMutexLocker lock(&m_run->mutex);
        if (TransferItem *i = item(index)) {
            i->state = TransferItem::State::Running;
            i->bytesTotal = bytesTotal;
            m_run->dirty = true;
        }
    }
    void itemProgress(int index, qint64 bytesDone) override
    {
        QMutexLocker lock(&m_run->mutex);
        if (TransferItem *i = item(index)) {
            i->bytesDone = qMax<qint64>(0, bytesDone);
            m_run->dirty = true;
        }
    }
    void itemFinished(int index, TransferItem::State state, const QString &message) override
    {
        QMutexLocker lock(&m_run->mutex);
        if (TransferItem *i = item(index)) {
            i->state = state;
            i->message = message;
            if (state == TransferItem::State::Done && i->bytesTotal >= 0)
                i->bytesDone = i->bytesTotal;
            m_run->dirty = true;
            m_run->itemEnded = true;
        }
    }
    void note(const QString &text) override
    {
        QMutexLocker lock(&m_run->mutex);
        m_run->notes.append(text);
        m_run->dirty = true;
    }

private:
    TransferItem *item(int index) { return index >= 0 && index < m_run->items.size() ? &m_run->items[index] : nullptr; }
    Run *m_run;
};

TransferQueue::TransferQueue(QString stateDir, TransferEngine engine, QObject *parent)
    : QObject(parent), m_dir(std::move(stateDir)), m_engine(std::move(engine)), m_saver(std::make_shared<Saver>())
{
    m_saver->dir = m_dir;
    QDir().mkpath(m_dir);
    QFile::setPermissions(m_dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_timer = new QTimer(this);
    m_timer->setInterval(kPollMs);
    connect(m_timer, &QTimer::timeout, this, &TransferQueue::poll);
    load();
    // Cancels asked for by another process (ingot-cli transfers cancel): each one as it comes (watched first, so
    // none falls between), and those made while no queue ran.
    m_watcher = new QFileSystemWatcher(QStringList{m_dir}, this);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &TransferQueue::takeCancelRequests);
    takeCancelRequests();
    // Start once the caller has connected to the signals.
    QTimer::singleShot(0, this, &TransferQueue::schedule);
}

TransferQueue::~TransferQueue()
{
    m_closing = true;
    for (const auto &run : std::as_const(m_runs))
        run->stop = true;
    const QStringList ids = m_runs.keys();
    for (const QString &id : ids) {
        const std::shared_ptr<Run> run = m_runs.value(id);
        if (run->thread.joinable())
            run->thread.join();
        const int at = indexOf(id);
        if (at < 0)
            continue;
        TransferRecord &r = m_records[at];
        for (int k = 0; k < run->indexes.size() && k < run->items.size(); ++k) {
            TransferItem item = run->items[k];
            if (item.state == TransferItem::State::Running)
                item.state = TransferItem::State::Pending;
            r.items[run->indexes[k]] = item;
        }
        save(id);
    }
    // The last states are written here, on this thread: there is no later to hand them to. Waits for a write
    // under way on the pool (writeMutex) first.
    m_saver->drain();
}

QString TransferQueue::defaultStateDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/transfers");
}

QVector<TransferRecord> TransferQueue::readRecords(const QString &stateDir)
{
    QVector<TransferRecord> records;
    const QDir dir(stateDir);
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &name : files) {
        QFile f(dir.filePath(name));
        if (f.size() > kMaxRecordBytes || !f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray data = f.readAll();
        const nlohmann::json j = nlohmann::json::parse(data.constBegin(), data.constEnd(), nullptr, false);
        TransferRecord r;
        QString error;
        if (j.is_discarded() || !fromJson(j, &r, &error) || r.id + QStringLiteral(".json") != name)
            continue;  // not one of ours, or damaged: left as it is, never run
        records.append(r);
    }
    std::sort(records.begin(), records.end(),
              [](const TransferRecord &a, const TransferRecord &b) { return a.createdMs < b.createdMs; });
    return records;
}

QSet<QString> TransferQueue::cancelRequests(const QString &stateDir)
{
    QSet<QString> ids;
    const QStringList files = QDir(stateDir).entryList({QStringLiteral("*") + kCancelSuffix}, QDir::Files);
    for (const QString &name : files)
        ids.insert(name.chopped(kCancelSuffix.size()));
    return ids;
}

bool TransferQueue::requestCancel(const QString &stateDir, const QString &id, QString *error)
{
    // Ids are the queue's own (newId()): anything else names no file of ours, and never a path.
    static const QRegularExpression kId(QStringLiteral("^[0-9A-Za-z][0-9A-Za-z_-]{0,63}$"));
    const QString base = stateDir + QLatin1Char('/') + id;
    if (!kId.match(id).hasMatch() || !QFileInfo(base + QStringLiteral(".json")).isFile()) {
        *error = QueueText::tr("There is no transfer %1 in %2.").arg(displayName(id), stateDir);
        return false;
    }
    return writeFileAtomically(base + kCancelSuffix, QByteArray(), error, true);
}

void TransferQueue::load()
{
    m_records = readRecords(m_dir);
    for (TransferRecord &r : m_records)
        for (TransferItem &i : r.items)
            if (i.state == TransferItem::State::Running)
                i.state = TransferItem::State::Pending;
}

// Applies the cancel requests in the folder (each request file removed first, so none is applied twice); a request
// for a transfer that is not here any more is dropped.
void TransferQueue::takeCancelRequests()
{
    const QSet<QString> ids = cancelRequests(m_dir);
    for (const QString &id : ids) {
        QFile::remove(m_dir + QLatin1Char('/') + id + kCancelSuffix);
        cancel(id);
    }
}

void TransferQueue::save(const QString &id)
{
    const int at = indexOf(id);
    if (at < 0)
        return;
    {
        QMutexLocker lock(&m_saver->pendingMutex);
        m_saver->pending.insert(id, QByteArray::fromStdString(toJson(m_records[at]).dump(1)));
    }
    startSaving();
}

void TransferQueue::startSaving()
{
    if (m_saving || m_closing)
        return;  // the running writer takes the new file too, or done() below starts another
    m_saving = true;
    runTask(this, [saver = m_saver](TaskControl &) { return saver->drain(); },
            [this](const QVector<QPair<QString, QString>> &failed) {
                m_saving = false;
                for (const auto &[id, error] : failed)
                    Q_EMIT saveFailed(id, QueueText::tr("The state of transfer %1 could not be saved in %2: %3 It goes on, "
                                                        "but after a restart it may resume from an earlier point.")
                                              .arg(id, m_dir, error));
                if (m_saver->hasPending())
                    startSaving();
            });
}

bool TransferQueue::savesPending() const
{
    return m_saving || m_saver->hasPending();
}

int TransferQueue::indexOf(const QString &id) const
{
    for (int i = 0; i < m_records.size(); ++i)
        if (m_records[i].id == id)
            return i;
    return -1;
}

bool TransferQueue::keyActiveElsewhere(const TransferPlace &to, const QString &key, const QString &exceptId) const
{
    for (const TransferRecord &r : m_records) {
        if (r.id == exceptId || !isActive(r) || !(r.to == to))
            continue;
        for (const TransferItem &i : r.items)
            if (!i.finished() && i.key == key)
                return true;
    }
    return false;
}

QString TransferQueue::enqueue(TransferKind kind, const TransferPlace &from, const TransferPlace &to,
                               const QStringList &keys, const TransferOptions &options, QString *error,
                               QStringList *skipped)
{
    TransferRecord r;
    r.id = newId();
    while (indexOf(r.id) >= 0)
        r.id = newId();
    r.kind = kind;
    r.from = from;
    r.to = to;
    r.options = options;
    r.createdMs = QDateTime::currentMSecsSinceEpoch();
    QSet<QString> seen;
    for (const QString &key : keys) {
        if (!isTransferableKey(key)) {
            if (error)
                *error = QueueText::tr("\"%1\" names no cache entry (neuronxcc-<version>/MODULE_<hash>).").arg(key);
            return QString();
        }
        if (seen.contains(key))
            continue;
        seen.insert(key);
        if (keyActiveElsewhere(to, key, QString())) {
            if (skipped)
                skipped->append(key);
            continue;
        }
        TransferItem item;
        item.key = key;
        r.items.append(item);
    }
    if (r.items.isEmpty()) {
        if (error)
            *error = keys.isEmpty() ? QueueText::tr("Nothing to transfer.")
                                    : QueueText::tr("Every entry is already on its way to %1.").arg(to.display());
        return QString();
    }
    m_records.append(r);
    save(r.id);
    Q_EMIT added(r.id);
    Q_EMIT activityChanged();
    schedule();
    return r.id;
}

QVector<TransferRecord> TransferQueue::records() const
{
    return m_records;
}

const TransferRecord *TransferQueue::record(const QString &id) const
{
    const int at = indexOf(id);
    return at < 0 ? nullptr : &m_records[at];
}

bool TransferQueue::isRunning(const QString &id) const
{
    return m_runs.contains(id);
}

double TransferQueue::rate(const QString &id) const
{
    const std::shared_ptr<Run> run = m_runs.value(id);
    if (!run || run->samples.size() < 2)
        return 0;
    const auto &a = run->samples.first();
    const auto &b = run->samples.last();
    const qint64 dt = b.first - a.first;
    return dt > 0 ? qMax<qint64>(0, b.second - a.second) * 1000.0 / double(dt) : 0;
}

qint64 TransferQueue::secondsLeft(const QString &id) const
{
    const TransferRecord *r = record(id);
    const double bps = rate(id);
    if (!r || bps <= 0)
        return -1;
    const qint64 total = r->estimatedBytesTotal();  // entries not started yet: as large as the average so far
    return total < 0 ? -1 : qint64(qMax<qint64>(0, total - r->bytesDone()) / bps);
}

QSet<QString> TransferQueue::activeKeys(const TransferPlace &place) const
{
    QSet<QString> keys;
    for (const TransferRecord &r : m_records) {
        if (!isActive(r) || (!(r.to == place) && !(r.from == place)))
            continue;
        for (const TransferItem &i : r.items)
            if (!i.finished())
                keys.insert(i.key);
    }
    return keys;
}

QStringList TransferQueue::notes(const QString &id) const
{
    return m_notes.value(id);
}

void TransferQueue::setMaxRunning(int n)
{
    m_maxRunning = qMax(1, n);
    schedule();
}

bool TransferQueue::blocked(const TransferRecord &r) const
{
    for (auto it = m_runs.constBegin(); it != m_runs.constEnd(); ++it) {
        const TransferRecord *other = record(it.key());
        if (!other || !(other->to == r.to))
            continue;
        for (const TransferItem &mine : r.items) {
            if (mine.finished())
                continue;
            for (const TransferItem &theirs : other->items)
                if (!theirs.finished() && theirs.key == mine.key)
                    return true;
        }
    }
    return false;
}

void TransferQueue::schedule()
{
    for (TransferRecord &r : m_records) {
        if (m_runs.size() >= m_maxRunning)
            break;
        if (r.paused || !isActive(r) || m_runs.contains(r.id) || blocked(r))
            continue;
        start(r);
    }
    if (!m_runs.isEmpty() && !m_timer->isActive())
        m_timer->start();
}

void TransferQueue::start(TransferRecord &r)
{
    auto run = std::make_shared<Run>();
    for (int i = 0; i < r.items.size(); ++i)
        if (!r.items[i].finished()) {
            run->indexes.append(i);
            run->items.append(r.items[i]);
        }
    run->clock.start();
    m_runs.insert(r.id, run);
    const TransferRecord snapshot = r;
    QVector<TransferItem> work = run->items;
    run->thread = std::thread([run, snapshot, work, engine = m_engine]() mutable {
        Reporter reporter(run.get());
        QString error;
        try {
            error = engine(snapshot, work, reporter, &run->stop);
        } catch (const std::exception &e) {
            error = QueueText::tr("The transfer stopped on an internal error: %1").arg(QString::fromUtf8(e.what()));
        } catch (...) {
            error = QueueText::tr("The transfer stopped on an internal error.");
        }
        QMutexLocker lock(&run->mutex);
        if (work.size() == run->items.size())
            run->items = work;
        run->error = error;
        run->dirty = true;
        run->done = true;
    });
    Q_EMIT changed(r.id);
}

void TransferQueue::poll()
{
    const QStringList ids = m_runs.keys();
    for (const QString &id : ids) {
        const std::shared_ptr<Run> run = m_runs.value(id);
        const int at = indexOf(id);
        if (at < 0)
            continue;
        TransferRecord &r = m_records[at];
        bool dirty = false;
        bool ended = false;
        {
            QMutexLocker lock(&run->mutex);
            if (run->dirty) {
                for (int k = 0; k < run->indexes.size() && k < run->items.size(); ++k)
                    r.items[run->indexes[k]] = run->items[k];
                m_notes[id].append(run->notes);
                run->notes.clear();
                run->dirty = false;
                dirty = true;
            }
            ended = run->itemEnded;
            run->itemEnded = false;
        }
        const qint64 now = run->clock.elapsed();
        run->samples.append({now, r.bytesDone()});
        while (run->samples.size() > 2 && now - run->samples.first().first > kRateWindowMs)
            run->samples.removeFirst();
        if (run->done) {
            finishRun(id);
            continue;
        }
        if (ended || now - run->lastSaveMs > kSaveEveryMs) {
            run->lastSaveMs = now;
            save(id);
        }
        if (dirty)
            Q_EMIT changed(id);
        if (ended)
            Q_EMIT activityChanged();
    }
    if (m_runs.isEmpty())
        m_timer->stop();
}

void TransferQueue::finishRun(const QString &id)
{
    const std::shared_ptr<Run> run = m_runs.take(id);
    if (run->thread.joinable())
        run->thread.join();
    const int at = indexOf(id);
    if (at >= 0) {
        TransferRecord &r = m_records[at];
        for (int k = 0; k < run->indexes.size() && k < run->items.size(); ++k) {
            TransferItem item = run->items[k];
            if (item.state == TransferItem::State::Running)
                item.state = TransferItem::State::Pending;  // stopped midway: resumes
            r.items[run->indexes[k]] = item;
        }
        m_notes[id].append(run->notes);
        if (run->pausing)
            r.paused = true;
        if (run->cancelling)
            r.cancelled = true;
        if (!run->pausing && !run->cancelling)
            r.error = run->error;
        save(id);
        const TransferPlace from = r.from;
        const TransferPlace to = r.to;
        Q_EMIT changed(id);
        Q_EMIT ended(id, from, to);
        Q_EMIT activityChanged();
    }
    schedule();
}

void TransferQueue::stopRun(const QString &id)
{
    if (const std::shared_ptr<Run> run = m_runs.value(id))
        run->stop = true;
}

void TransferQueue::pause(const QString &id)
{
    const int at = indexOf(id);
    if (at < 0 || m_records[at].paused || !isActive(m_records[at]))
        return;
    if (const std::shared_ptr<Run> run = m_runs.value(id)) {
        run->pausing = true;
        stopRun(id);
        return;  // finishRun() marks it paused
    }
    m_records[at].paused = true;
    save(id);
    Q_EMIT changed(id);
    Q_EMIT activityChanged();
}

void TransferQueue::resume(const QString &id)
{
    const int at = indexOf(id);
    if (at < 0)
        return;
    if (const std::shared_ptr<Run> run = m_runs.value(id)) {
        run->pausing = false;  // paused and resumed before the worker stopped: it still ends; schedule() restarts it
        return;
    }
    m_records[at].paused = false;
    save(id);
    Q_EMIT changed(id);
    schedule();
}

void TransferQueue::cancel(const QString &id)
{
    const int at = indexOf(id);
    if (at < 0 || m_records[at].cancelled || m_records[at].finished())
        return;
    if (const std::shared_ptr<Run> run = m_runs.value(id)) {
        run->cancelling = true;
        stopRun(id);
        return;
    }
    m_records[at].cancelled = true;
    save(id);
    Q_EMIT changed(id);
    Q_EMIT activityChanged();
}

void TransferQueue::retryFailed(const QString &id)
{
    const int at = indexOf(id);
    if (at < 0 || m_runs.contains(id))
        return;
    TransferRecord &r = m_records[at];
    bool any = false;
    for (TransferItem &i : r.items) {
        const bool again = i.state == TransferItem::State::Failed || (r.cancelled && !i.finished());
        if (!again || keyActiveElsewhere(r.to, i.key, r.id))
            continue;
        i.state = TransferItem::State::Pending;
        i.message.clear();
        any = true;
    }
    if (!any && r.error.isEmpty() && !r.cancelled)
        return;
    r.error.clear();
    r.cancelled = false;
    r.paused = false;
    m_notes.remove(id);
    save(id);
    Q_EMIT changed(id);
    Q_EMIT activityChanged();
    schedule();
}

bool TransferQueue::remove(const QString &id)
{
    const int at = indexOf(id);
    if (at < 0 || m_runs.contains(id))
        return false;
    m_records.removeAt(at);
    m_notes.remove(id);
    {
        // A write of this file under way on the pool finishes first, so it cannot bring the file back (one file's
        // write at most: the UI thread waits no longer than that).
        QMutexLocker writing(&m_saver->writeMutex);
        {
            QMutexLocker lock(&m_saver->pendingMutex);
            m_saver->pending.remove(id);
        }
        QFile::remove(m_dir + QLatin1Char('/') + id + QStringLiteral(".json"));
    }
    Q_EMIT removed(id);
    Q_EMIT activityChanged();
    return true;
}

void TransferQueue::clearFinished()
{
    QStringList ids;
    for (const TransferRecord &r : std::as_const(m_records))
        if (r.finished() && !m_runs.contains(r.id))
            ids.append(r.id);
    for (const QString &id : std::as_const(ids))
        remove(id);
}

}  // namespace ingot
