#include "app/cli/transferterminal.h"

#include "app/cli/clicommon.h"
#include "app/cli/hubcommands.h"
#include "app/cli/remotecommands.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachescanner.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshshell.h"
#include "services/s3/s3location.h"
#include "services/stores/storefactory.h"
#include "services/transfer/transferengine.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <cstdio>
#include <unistd.h>

namespace ingot::cli {

namespace {
struct TransferCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

}  // namespace

TerminalReporter::TerminalReporter(const QVector<TransferItem> &items, bool enabled) : m_enabled(enabled)
{
    for (const TransferItem &i : items) {
        m_keys << i.key;
        m_total << qMax<qint64>(0, i.bytesTotal);
    }
    m_done.fill(0, items.size());
    m_clock.start();
}

TerminalReporter::~TerminalReporter()
{
    clearLine();
}

bool TerminalReporter::wanted(bool asJson)
{
    return !asJson && ::isatty(STDERR_FILENO) == 1;
}

void TerminalReporter::itemStarted(int index, qint64 total)
{
    std::lock_guard lock(m_mutex);
    if (index < 0 || index >= m_total.size())
        return;
    m_total[index] = qMax<qint64>(0, total);
    draw(false);
}

void TerminalReporter::itemProgress(int index, qint64 done)
{
    std::lock_guard lock(m_mutex);
    if (index < 0 || index >= m_done.size())
        return;
    m_done[index] = done;
    draw(false);
}

void TerminalReporter::itemFinished(int index, TransferItem::State state, const QString &message)
{
    std::lock_guard lock(m_mutex);
    if (index < 0 || index >= m_done.size())
        return;
    ++m_finished;
    if (state == TransferItem::State::Done)
        m_done[index] = m_total[index];
    if (m_enabled && state == TransferItem::State::Failed) {
        clearLine();
        err(TransferCliText::tr("%1: failed: %2").arg(displayName(m_keys[index]), displayName(message)));
    }
    draw(true);
}

void TerminalReporter::note(const QString &text)
{
    std::lock_guard lock(m_mutex);
    clearLine();
    err(text);
}

void TerminalReporter::clearLine()
{
    if (m_enabled && m_drawn) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        m_drawn = false;
    }
}

void TerminalReporter::draw(bool force)
{
    if (!m_enabled || (!force && m_clock.elapsed() - m_last < 200))
        return;
    m_last = m_clock.elapsed();
    qint64 done = 0, total = 0;
    for (int i = 0; i < m_done.size(); ++i) {
        done += m_done[i];
        total += m_total[i];
    }
    const double secs = qMax(0.001, double(m_clock.elapsed()) / 1000.0);
    const double rate = double(done) / secs;
    const QString eta = rate > 0 && total > done ? QString::number(qint64(double(total - done) / rate)) : QStringLiteral("-");
    const QString line = TransferCliText::tr("[%1/%n entries] %2 of %3, %4/s, ETA %5 s", nullptr, int(m_keys.size()))
                             .arg(m_finished)
                             .arg(formatBytes(done), formatBytes(total), formatBytes(qint64(rate)), eta);
    std::fprintf(stderr, "\r%s\033[K", terminalSafe(line).toUtf8().constData());
    std::fflush(stderr);
    m_drawn = true;
}

TransferCounts countItems(const QVector<TransferItem> &items, const QSet<int> &busy)
{
    TransferCounts c;
    for (int i = 0; i < items.size(); ++i) {
        const TransferItem &it = items[i];
        switch (it.state) {
        case TransferItem::State::Done:
            ++c.done;
            c.bytes += qMax(it.bytesDone, it.bytesTotal);
            break;
        case TransferItem::State::Skipped: ++c.skipped; break;
        case TransferItem::State::Failed:
            ++c.failed;
            c.busy += busy.contains(i);
            break;
        default: ++c.pending; break;
        }
    }
    return c;
}

int transferExit(const TransferCounts &c)
{
    if (c.failed > c.busy || c.pending > 0)
        return PartialFailure;
    return c.busy > 0 ? Busy : Ok;
}

nlohmann::json itemJson(const TransferItem &it, bool busy)
{
    nlohmann::json j = {{"key", u8(displayName(it.key))},
                        {"state", u8(itemStateName(it.state))},
                        {"bytes", it.bytesTotal >= 0 ? it.bytesTotal : it.bytesDone},
                        {"files", it.files},
                        {"bytesTotal", it.bytesTotal},
                        {"message", u8(displayName(it.message))}};
    if (busy)
        j["busy"] = true;
    return j;
}

int localCacheRoot(const QString &cacheDir, bool create, QString *root)
{
    *root = cacheDir;
    if (root->isEmpty()) {
        const CacheLocation loc = CacheLocation::resolve();
        if (!loc.isSupported()) {
            err(loc.unsupportedReason());
            return Unsupported;
        }
        *root = loc.path;
    }
    if (create && !QFileInfo::exists(*root))
        QDir().mkdir(*root);
    const QFileInfo fi(*root);
    if (!fi.isDir() || (create && !fi.isWritable())) {
        err(TransferCliText::tr("error: the cache folder %1 is missing, not a folder, or not writable.").arg(displayName(*root)));
        return CacheUnavailable;
    }
    return Ok;
}

QString s3CacheUrl(const QString &cacheDir, int *exit)
{
    *exit = Ok;
    QString url = cacheDir;
    if (url.isEmpty()) {
        const CacheLocation loc = CacheLocation::resolve();
        if (loc.kind == CacheLocation::Kind::S3)
            url = loc.path;
    }
    if (!url.startsWith(QLatin1String("s3://")))
        return {};
    s3::S3Location where;
    QString why;
    if (!s3::S3Location::parse(url, &where, &why)) {
        err(TransferCliText::tr("error: %1").arg(why));
        *exit = Usage;
        return {};
    }
    return where.url();
}

int hostCacheRoot(const QString &host, const QString &cacheDir, QString *root)
{
    std::shared_ptr<SshConnection> conn;
    if (const int e = connectHost(host, &conn))
        return e;
    *root = cacheDir;
    if (!root->isEmpty())
        return Ok;
    SshShell shell(conn);
    CacheLocation loc;
    QString error;
    if (!CacheLocation::resolveOn(shell, &loc, &error)) {
        err(TransferCliText::tr("error: %1").arg(error));
        return HostUnreachable;
    }
    if (!loc.isSupported()) {
        err(loc.unsupportedReason());
        return Unsupported;
    }
    *root = loc.path;
    return Ok;
}

int hostEntries(const QString &host, const QString &cacheDir, ModuleState state, QStringList *keys)
{
    QString root;
    if (const int e = hostCacheRoot(host, cacheDir, &root))
        return e;
    QString error;
    const auto store = makeStore(sshStoreLocation(host, root), &error);
    if (!store) {
        err(TransferCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    CacheScanner scanner(*store);
    const CacheSnapshot snap = scanner.scan(nullptr);
    if (!snap.fatalError.isEmpty()) {
        err(TransferCliText::tr("error: %1").arg(snap.fatalError));
        return CacheUnavailable;
    }
    for (const CacheModule &m : snap.modules)
        if (m.isModule() && m.state == state && isTransferableKey(m.key()))
            keys->append(m.key());
    return Ok;
}

int runPlacedTransfer(TransferKind kind, const TransferPlace &from, const TransferPlace &to, const QStringList &keys,
                      const QString &host, bool asJson, const TransferOptions &options)
{
    if (!host.isEmpty())
        if (const int e = connectHost(host))
            return e;
    const HubContext hub = hubContext();
    if ((from.isHub() || to.isHub()) && hub.hub.isOffline())
        return fail({HubError::Kind::Offline, 0, TransferCliText::tr("HF_HUB_OFFLINE is set: Ingot makes no request to the Hub. Unset it to "
                                                       "move entries to or from the Hub.")}, asJson);
    TransferRecord record;
    record.id = QStringLiteral("cli-") + QString::number(QCoreApplication::applicationPid()) + QLatin1Char('-') +
                QString::number(QDateTime::currentMSecsSinceEpoch());
    record.kind = kind;
    record.from = from;
    record.to = to;
    record.options = options;
    QVector<TransferItem> items = itemsFor(keys);
    TransferContext ctx;
    ctx.hub = &hub.hub;
    ctx.hfHome = hub.config.hfHome;
    // Keyed by what moves, so a download interrupted here resumes the next time the same command runs.
    ctx.workDir = transferWorkDir(QStringLiteral("cli-") + QString::number(qHash(from.identity() + to.identity()), 16));
    TransferOutcome outcome;
    {
        StopOnSignals stopOnSignals;
        TerminalReporter progress(items, TerminalReporter::wanted(asJson));
        outcome = runTransfer(record, items, progress, ctx, &stopRequested());
    }
    const TransferCounts c = countItems(items, outcome.busy);
    if (asJson) {
        nlohmann::json arr = nlohmann::json::array();
        for (int i = 0; i < items.size(); ++i)
            arr.push_back(itemJson(items[i], outcome.busy.contains(i)));
        printJson({{"from", u8(displayName(from.display()))}, {"to", u8(displayName(to.display()))}, {"items", arr},
                   {"done", c.done}, {"skipped", c.skipped}, {"failed", c.failed}, {"stopped", c.pending},
                   {"bytes", c.bytes}, {"error", outcome.error.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(u8(outcome.error))}});
    } else {
        Table t({TransferCliText::tr("ENTRY"), TransferCliText::tr("STATE"), TransferCliText::tr("SIZE"), TransferCliText::tr("NOTE")}, {false, false, true, false});
        for (const TransferItem &it : std::as_const(items))
            t.add({it.key, itemStateName(it.state), it.bytesTotal >= 0 ? formatBytes(it.bytesTotal) : QString(), it.message});
        out(t.render());
        out(c.pending ? TransferCliText::tr("%1 done (%2), %3 skipped, %4 failed, %5 stopped (run again to resume).")
                            .arg(c.done).arg(formatBytes(c.bytes)).arg(c.skipped).arg(c.failed).arg(c.pending)
                      : TransferCliText::tr("%1 done (%2), %3 skipped, %4 failed.")
                            .arg(c.done).arg(formatBytes(c.bytes)).arg(c.skipped).arg(c.failed));
        if (!outcome.error.isEmpty())
            err(TransferCliText::tr("error: %1").arg(outcome.error));
    }
    if (!outcome.error.isEmpty() && c.done == 0)
        return from.isHub() || to.isHub() ? HubFailure : host.isEmpty() ? CacheUnavailable : HostUnreachable;
    return transferExit(c);
}

}  // namespace ingot::cli
