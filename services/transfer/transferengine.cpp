#include "services/transfer/transferengine.h"

#include "services/cache/cachelocation.h"
#include "services/cache/cachescanner.h"
#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/hub/token.h"
#include "services/remote/remotehosts.h"
#include "services/util/remoteshell.h"
#include "services/stores/storefactory.h"
#include "services/transfer/hostcopy.h"
#include "services/transfer/hubpull.h"
#include "services/transfer/hubpush.h"
#include "services/transfer/localcopy.h"
#include "services/transfer/s3transfer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace ingot {

namespace {
struct EngineText {
    Q_DECLARE_TR_FUNCTIONS(ingot::TransferEngine)
};

using State = TransferItem::State;

// Reports of an engine that works on some of the items (its index i is items[map[i]]), alone or as one of the two
// steps of a move by way of this machine (Hub -> a host, a host -> the Hub): then each step counts half of the
// bytes, and the first step's "done" is held back until the second step is done too.
class StepReporter final : public TransferReporter
{
public:
    enum class Step { Only, First, Second };
    StepReporter(TransferReporter &base, QVector<int> map, Step step, QVector<qint64> totals = {}, bool holdSkipped = false)
        : m_base(base), m_map(std::move(map)), m_step(step), m_totals(std::move(totals)), m_holdSkipped(holdSkipped)
    {
    }
    void itemStarted(int i, qint64 total) override { m_base.itemStarted(m_map.value(i, -1), total); }
    void itemProgress(int i, qint64 done) override
    {
        switch (m_step) {
        case Step::Only: m_base.itemProgress(m_map.value(i, -1), done); break;
        case Step::First: m_base.itemProgress(m_map.value(i, -1), done / 2); break;
        case Step::Second: m_base.itemProgress(m_map.value(i, -1), m_totals.value(i) / 2 + done / 2); break;
        }
    }
    void itemFinished(int i, State s, const QString &message) override
    {
        if (!(m_step == Step::First && (s == State::Done || (m_holdSkipped && s == State::Skipped))))
            m_base.itemFinished(m_map.value(i, -1), s, message);
    }
    void note(const QString &text) override { m_base.note(text); }

private:
    TransferReporter &m_base;
    QVector<int> m_map;
    Step m_step;
    QVector<qint64> m_totals;
    bool m_holdSkipped;  // the caller reports a first step's Skipped itself (it may still go on to the second)
};

void finish(QVector<TransferItem> &items, TransferReporter &reporter, int i, State s, const QString &message)
{
    items[i].state = s;
    items[i].message = message;
    if (s == State::Done && items[i].bytesTotal >= 0)
        items[i].bytesDone = items[i].bytesTotal;
    reporter.itemFinished(i, s, message);
}

void failAll(QVector<TransferItem> &items, TransferReporter &reporter, const QString &why)
{
    for (int i = 0; i < items.size(); ++i)
        if (!items[i].finished())
            finish(items, reporter, i, State::Failed, why);
}

QString busyText()
{
    return EngineText::tr("Another transfer is writing this entry; it was left alone. Try again when that one ends.");
}

// A host's cache with no path: the one the Neuron runtime there uses.
bool resolveHostCache(StoreLocation *loc, QString *error)
{
    if (loc->isLocal() || !loc->path.isEmpty())
        return true;
    const std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(loc->host, error);
    if (!shell)
        return false;
    CacheLocation where;
    if (!CacheLocation::resolveOn(*shell, &where, error))
        return false;
    if (!where.isSupported()) {
        *error = where.unsupportedReason();
        return false;
    }
    loc->path = where.path;
    return true;
}

// Which of `keys` exist (as anything) in the host's cache: one round trip.
QSet<QString> existingOnHost(RemoteShell &shell, const QString &root, const QStringList &keys, QString *error)
{
    QVector<QByteArray> args{QFile::encodeName(root)};  // run() hands them over in shellOctal form
    for (const QString &k : keys)
        args << QFile::encodeName(k);
    static const QByteArray script =
        "r=$(printf '%bX' \"$1\"); r=${r%X}; shift\n"
        "for a in \"$@\"; do k=$(printf '%bX' \"$a\"); k=${k%X}\n"
        "  if [ -e \"$r/$k\" ] || [ -L \"$r/$k\" ]; then printf '%s\\0' \"$k\"; fi\n"
        "done\n";
    const ShellResult res = shell.run(script, args, QByteArray(), 4 << 20, 60000);
    QSet<QString> found;
    if (!res.ran() || res.exitCode != 0) {
        *error = res.ran() ? QString::fromLocal8Bit(res.err).trimmed() : res.error;
        return found;
    }
    for (const QByteArray &k : res.out.split('\0'))
        if (!k.isEmpty())
            found.insert(QFile::decodeName(k));
    return found;
}

QString sshErrorOf(const QString &host, QString error)
{
    return error.isEmpty() ? EngineText::tr("%1 could not be reached.").arg(host) : error;
}

// Hub → a host: each entry is pulled here (resumable), then sent on and removed here.
TransferOutcome pullToHost(const TransferRecord &r, const StoreLocation &to, QVector<TransferItem> &items,
                           TransferReporter &reporter, const TransferContext &ctx, const std::atomic_bool *stop)
{
    TransferOutcome out;
    QString error;
    const std::shared_ptr<SshConnection> conn = RemoteHosts::instance().connection(to.host, &error);
    const std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(to.host, &error);
    if (!conn || !shell) {
        out.error = sshErrorOf(to.host, error);
        failAll(items, reporter, out.error);
        return out;
    }
    QStringList keys;
    for (const TransferItem &i : items)
        keys << i.key;
    const QSet<QString> there = existingOnHost(*shell, to.path, keys, &error);
    if (!error.isEmpty()) {
        out.error = sshErrorOf(to.host, error);
        failAll(items, reporter, out.error);
        return out;
    }
    QVector<TransferItem> todo;
    QVector<int> map;
    for (int i = 0; i < items.size(); ++i) {
        if (there.contains(items[i].key))
            finish(items, reporter, i, State::Skipped, EngineText::tr("Already in %1's cache; left as it is.").arg(to.host));
        else {
            todo << items[i];
            map << i;
        }
    }
    const QString work = ctx.workDir + QStringLiteral("/pull");
    QDir().mkpath(work);
    PullRequest req;
    req.repo = r.from.repo;
    req.revision = r.from.revision;
    req.cacheRoot = work;
    req.options = r.options;
    req.options.hubCacheLayout = false;  // the host gets plain files
    StepReporter step(reporter, map, StepReporter::Step::First);
    const PullOutcome pulled = pullEntries(*ctx.hub, req, todo, step, stop);
    if (!pulled.error.ok())
        out.error = pulled.error.message;
    for (int k = 0; k < todo.size(); ++k) {
        const int i = map[k];
        items[i].bytesTotal = todo[k].bytesTotal;
        items[i].files = todo[k].files;
        if (todo[k].state != State::Done) {
            items[i].state = todo[k].state == State::Running ? State::Pending : todo[k].state;
            items[i].message = todo[k].message;
            if (pulled.busy.contains(k))
                out.busy.insert(i);
            continue;
        }
        if (stop && *stop) {
            items[i].state = State::Pending;
            continue;
        }
        const QString folder = work + QLatin1Char('/') + items[i].key;
        const qint64 total = qMax<qint64>(0, todo[k].bytesTotal);
        QString why;
        const HostCopyResult res = sendFolderToHost(
            *conn, work, to.path, items[i].key,
            [&](qint64 done, qint64) { reporter.itemProgress(i, total / 2 + done / 2); }, stop, &why);
        switch (res) {
        case HostCopyResult::Done:
            finish(items, reporter, i, State::Done, QString());
            break;
        case HostCopyResult::Exists:
            finish(items, reporter, i, State::Skipped, EngineText::tr("Already in %1's cache; left as it is.").arg(to.host));
            break;
        case HostCopyResult::Busy:
            out.busy.insert(i);
            finish(items, reporter, i, State::Failed, busyText());
            break;
        case HostCopyResult::Stopped:
            items[i].state = State::Pending;  // downloaded here: the next run sends it
            continue;
        case HostCopyResult::NotSuccess:
        case HostCopyResult::Failed:
            finish(items, reporter, i, State::Failed, why);
            break;
        }
        if (res == HostCopyResult::Done || res == HostCopyResult::Exists) {
            QDir(folder).removeRecursively();  // our own download folder, no links inside (plain layout)
        }
    }
    return out;
}

// Pushes entries of the local cache at `root` (the `keys` of items[map[..]]).
QString pushLocal(const TransferRecord &r, const QString &root, QVector<TransferItem> &items, const QVector<int> &map,
                  TransferReporter &reporter, const TransferContext &ctx, bool firstHalfDone, const std::atomic_bool *stop)
{
    QStringList keys;
    for (int i : map)
        keys << items[i].key;
    HubError err;
    const PushPlan plan = planPush(*ctx.hub, r.to.repo, r.to.revision, root, keys, &err, stop);
    if (!err.ok())
        return err.message;
    for (const QString &w : plan.warnings)
        reporter.note(w);
    QHash<QString, int> index;
    for (int i : map)
        index.insert(items[i].key, i);
    // Entries left out by the plan, with its reason.
    QSet<QString> planned;
    for (const PushEntry &e : plan.entries)
        planned.insert(e.key);
    for (const QString &line : plan.skipped) {
        const int colon = line.indexOf(QStringLiteral(": "));
        const QString key = colon > 0 ? line.left(colon) : QString();
        if (index.contains(key) && !planned.contains(key))
            finish(items, reporter, index[key], State::Skipped, line.mid(colon + 2));
    }
    QVector<TransferItem> work = pushItems(plan);
    QVector<int> workMap;
    for (const PushEntry &e : plan.entries)
        workMap << index.value(e.key, -1);
    QVector<qint64> totals;
    for (const TransferItem &w : std::as_const(work))
        totals << w.bytesTotal;
    StepReporter step(reporter, workMap, firstHalfDone ? StepReporter::Step::Second : StepReporter::Step::Only, totals);
    HubError pushErr;
    pushEntries(*ctx.hub, r.to.repo, r.to.revision, root, plan, work, step, r.options, &pushErr, stop);
    for (int k = 0; k < work.size(); ++k) {
        const int i = workMap[k];
        if (i < 0)
            continue;
        items[i].state = work[k].state == State::Running ? State::Pending : work[k].state;
        items[i].message = work[k].message;
        items[i].files = work[k].files;
        if (items[i].bytesTotal < 0)
            items[i].bytesTotal = work[k].bytesTotal;
    }
    return pushErr.ok() ? QString() : pushErr.message;
}

// A host → the Hub: entries are fetched here a batch at a time, pushed together, and removed here.
TransferOutcome pushFromHost(const TransferRecord &r, const StoreLocation &from, QVector<TransferItem> &items,
                             TransferReporter &reporter, const TransferContext &ctx, const std::atomic_bool *stop)
{
    constexpr qint64 kBatchBytes = 2LL << 30;
    constexpr int kBatchFiles = 90;
    TransferOutcome out;
    QString error;
    const std::shared_ptr<SshConnection> conn = RemoteHosts::instance().connection(from.host, &error);
    if (!conn) {
        out.error = sshErrorOf(from.host, error);
        failAll(items, reporter, out.error);
        return out;
    }
    // The host's listing bounds what each archive may write here (ListedEntry).
    const auto store = makeStore(from, &error);
    if (!store || !store->open(&error)) {
        out.error = sshErrorOf(from.host, error);
        failAll(items, reporter, out.error);
        return out;
    }
    CacheScanner scanner(*store);
    const QString root = ctx.workDir + QStringLiteral("/push");
    QVector<int> batch;
    qint64 batchBytes = 0;
    int batchFiles = 0;
    auto flush = [&]() {
        if (batch.isEmpty())
            return;
        const QString e = pushLocal(r, root, items, batch, reporter, ctx, true, stop);
        if (!e.isEmpty() && out.error.isEmpty())
            out.error = e;
        for (int i : batch)
            QDir(root + QLatin1Char('/') + items[i].key).removeRecursively();
        batch.clear();
        batchBytes = 0;
        batchFiles = 0;
    };
    for (int i = 0; i < items.size() && !(stop && *stop) && out.error.isEmpty(); ++i) {
        const QString folder = root + QLatin1Char('/') + items[i].key;
        QDir(folder).removeRecursively();
        QDir().mkpath(folder);
        QString why;
        int files = 0;
        bool vanished = false;
        const CacheModule listed = isTransferableKey(items[i].key)
                                       ? scanner.scanModule(items[i].key.section(QLatin1Char('/'), 0, 0),
                                                            items[i].key.section(QLatin1Char('/'), 1), &vanished, &why)
                                       : CacheModule();
        if (vanished || !why.isEmpty()) {
            QDir(folder).removeRecursively();
            finish(items, reporter, i, State::Failed,
                   vanished ? EngineText::tr("Not in %1's cache.").arg(from.host) : why);
            continue;
        }
        reporter.itemStarted(i, -1);
        const HostCopyResult res = fetchEntryFromHost(
            *conn, from.path, items[i].key, listedEntry(listed), folder,
            [&](qint64 done, qint64 total) {
                if (total >= 0 && items[i].bytesTotal != total) {
                    items[i].bytesTotal = total;
                    reporter.itemStarted(i, total);
                }
                reporter.itemProgress(i, done / 2);
            },
            stop, &why, &files);
        if (res == HostCopyResult::Done) {
            items[i].files = files;
            batch << i;
            batchBytes += qMax<qint64>(0, items[i].bytesTotal);
            batchFiles += files;
            if (batchBytes >= kBatchBytes || batchFiles >= kBatchFiles)
                flush();
            continue;
        }
        QDir(folder).removeRecursively();
        if (res == HostCopyResult::Stopped)
            items[i].state = State::Pending;
        else
            finish(items, reporter, i, State::Failed, why);
    }
    if (!(stop && *stop))
        flush();
    else
        for (int i : batch) {
            items[i].state = State::Pending;
            QDir(root + QLatin1Char('/') + items[i].key).removeRecursively();
        }
    return out;
}

QSet<int> busyOf(const QVector<S3EntryResult> &results, const QVector<int> &map = {})
{
    QSet<int> busy;
    for (int k = 0; k < results.size(); ++k)
        if (results[k] == S3EntryResult::Busy)
            busy.insert(map.isEmpty() ? k : map[k]);
    return busy;
}

// The first step of a move by way of this machine: the entries into `work`, from S3 (`client`), the Hub or a host.
// The Hub's failure as a whole, in words; empty otherwise.
QString fetchHere(const TransferRecord &r, const s3::S3Client *client, const QString &work, QVector<TransferItem> &items,
                  TransferReporter &reporter, const TransferContext &ctx, const std::atomic_bool *stop)
{
    if (client) {
        downloadEntriesFromS3(*client, work, items, reporter, r.options.parallel, stop);
        return {};
    }
    if (!r.from.isHub()) {
        copyEntries(r.from.cache, StoreLocation::local(work), items, reporter, stop, nullptr);
        return {};
    }
    PullRequest req;
    req.repo = r.from.repo;
    req.revision = r.from.revision;
    req.cacheRoot = work;
    req.options = r.options;
    req.options.hubCacheLayout = false;  // plain files, to be sent on
    const PullOutcome pulled = pullEntries(*ctx.hub, req, items, reporter, stop);
    return pulled.error.ok() ? QString() : pulled.error.message;
}

// Between an S3 cache and another place. With this machine's cache directly; with a host or the Hub by way of this
// machine, kBatch entries at a time: fetched into the transfer's work folder (where a stopped run resumes), sent on,
// and removed there.
TransferOutcome s3Move(const TransferRecord &r, QVector<TransferItem> &items, TransferReporter &reporter,
                       const TransferContext &ctx, const std::atomic_bool *stop)
{
    constexpr int kBatch = 8;
    TransferOutcome out;
    const bool fromS3 = !r.from.isHub() && isS3Location(r.from.cache);
    const bool toS3 = !r.to.isHub() && isS3Location(r.to.cache);
    const bool fits = (r.kind == TransferKind::Copy && !r.from.isHub() && !r.to.isHub() && fromS3 != toS3)
                      || (r.kind == TransferKind::Pull && r.from.isHub() && toS3)
                      || (r.kind == TransferKind::Push && fromS3 && r.to.isHub());
    if (!fits) {
        out.error = EngineText::tr("Ingot does not move entries from %1 to %2 this way; go by way of this machine's cache.")
                        .arg(r.from.display(), r.to.display());
        failAll(items, reporter, out.error);
        return out;
    }
    QString error;
    const std::unique_ptr<s3::S3Client> client = s3ClientFor(fromS3 ? r.from.cache : r.to.cache, &error);
    if (!client) {
        out.error = error;
        failAll(items, reporter, out.error);
        return out;
    }
    const QString stateDir = ctx.workDir + QStringLiteral("/s3-uploads");
    const int parallel = r.options.parallel;
    QVector<S3EntryResult> results;
    if (r.to.isLocalCache()) {
        downloadEntriesFromS3(*client, r.to.cache.path, items, reporter, parallel, stop, &results);
        out.busy = busyOf(results);
        return out;
    }
    if (r.from.isLocalCache()) {
        uploadEntriesToS3(*client, r.from.cache.path, items, reporter, stateDir, parallel, stop, &results);
        out.busy = busyOf(results);
        return out;
    }
    if (r.from.isHub() || r.to.isHub()) {
        if (!ctx.hub) {
            out.error = EngineText::tr("No Hub client for this transfer.");
            failAll(items, reporter, out.error);
            return out;
        }
    } else if (!RemoteHosts::instance().connection((fromS3 ? r.to : r.from).cache.host, &error)) {
        out.error = sshErrorOf((fromS3 ? r.to : r.from).cache.host, error);
        failAll(items, reporter, out.error);
        return out;
    }
    const QString work = ctx.workDir + (fromS3 ? QStringLiteral("/from-s3") : QStringLiteral("/to-s3"));
    QDir().mkpath(work);
    const StoreLocation here = StoreLocation::local(work);
    for (int at = 0; at < items.size() && !(stop && *stop) && out.error.isEmpty(); at += kBatch) {
        QVector<int> map;
        QVector<TransferItem> sub;
        for (int i = at; i < std::min<int>(at + kBatch, items.size()); ++i)
            if (!items[i].finished())
                map << i, sub << items[i];
        // Step 1: here.
        StepReporter first(reporter, map, StepReporter::Step::First, {}, true);
        const QString fetched = fetchHere(r, fromS3 ? client.get() : nullptr, work, sub, first, ctx, stop);
        if (!fetched.isEmpty())
            out.error = fetched;
        QVector<int> next;
        QVector<TransferItem> second;
        QVector<qint64> totals;
        for (int k = 0; k < sub.size(); ++k) {
            const int i = map[k];
            items[i].bytesTotal = sub[k].bytesTotal;
            items[i].files = sub[k].files;
            // Done, or there from a run that stopped before step 2.
            const bool ready = sub[k].state == State::Done
                               || (sub[k].state == State::Skipped && QFileInfo::exists(work + QLatin1Char('/') + sub[k].key));
            if (!ready) {
                items[i].state = sub[k].state == State::Running ? State::Pending : sub[k].state;
                items[i].message = sub[k].message;
                if (sub[k].state == State::Skipped)
                    reporter.itemFinished(i, State::Skipped, sub[k].message);
                continue;
            }
            next << i;
            TransferItem t = items[i];
            t.state = State::Pending;
            second << t;
            totals << qMax<qint64>(0, sub[k].bytesTotal);
        }
        if (next.isEmpty() || (stop && *stop))
            continue;
        // Step 2: on.
        if (r.to.isHub()) {
            const QString e = pushLocal(r, work, items, next, reporter, ctx, true, stop);
            if (!e.isEmpty() && out.error.isEmpty())
                out.error = e;
        } else {
            StepReporter step(reporter, next, StepReporter::Step::Second, totals);
            if (toS3)
                uploadEntriesToS3(*client, work, second, step, stateDir, parallel, stop, &results);
            else
                copyEntries(here, r.to.cache, second, step, stop, nullptr);
            for (int k = 0; k < second.size(); ++k) {
                items[next[k]].state = second[k].state == State::Running ? State::Pending : second[k].state;
                items[next[k]].message = second[k].message;
            }
            if (toS3)
                out.busy.unite(busyOf(results, next));
        }
        for (int i : std::as_const(next))
            if (items[i].finished())
                QDir(work + QLatin1Char('/') + items[i].key).removeRecursively();  // our own copy, plain files
    }
    return out;
}
}  // namespace

QString transferWorkDir(const QString &id)
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/ingot/transfers/") + id;
}

TransferOutcome runTransfer(const TransferRecord &record, QVector<TransferItem> &items, TransferReporter &reporter,
                            const TransferContext &ctx, const std::atomic_bool *stop)
{
    TransferOutcome out;
    TransferRecord r = record;
    QString error;
    for (TransferPlace *p : {&r.from, &r.to})
        if (!p->isHub() && !resolveHostCache(&p->cache, &error)) {
            out.error = sshErrorOf(p->cache.host, error);
            failAll(items, reporter, out.error);
            return out;
        }
    if ((!r.from.isHub() && isS3Location(r.from.cache)) || (!r.to.isHub() && isS3Location(r.to.cache)))
        return s3Move(r, items, reporter, ctx, stop);
    const bool needsHub = r.from.isHub() || r.to.isHub();
    if (needsHub && !ctx.hub) {
        out.error = EngineText::tr("No Hub client for this transfer.");
        failAll(items, reporter, out.error);
        return out;
    }
    switch (r.kind) {
    case TransferKind::Pull: {
        if (!r.from.isHub() || r.to.isHub())
            break;
        if (!r.to.isLocalCache())
            return pullToHost(r, r.to.cache, items, reporter, ctx, stop);
        PullRequest req;
        req.repo = r.from.repo;
        req.revision = r.from.revision;
        req.cacheRoot = r.to.cache.path;
        req.options = r.options;
        req.hfHome = ctx.hfHome;
        const PullOutcome pulled = pullEntries(*ctx.hub, req, items, reporter, stop);
        out.busy = pulled.busy;
        if (!pulled.error.ok())
            out.error = pulled.error.message;
        return out;
    }
    case TransferKind::Push: {
        if (r.from.isHub() || !r.to.isHub())
            break;
        if (!r.from.isLocalCache())
            return pushFromHost(r, r.from.cache, items, reporter, ctx, stop);
        QVector<int> all;
        for (int i = 0; i < items.size(); ++i)
            all << i;
        out.error = pushLocal(r, r.from.cache.path, items, all, reporter, ctx, false, stop);
        if (!out.error.isEmpty())
            failAll(items, reporter, out.error);
        return out;
    }
    case TransferKind::Copy: {
        if (r.from.isHub() || r.to.isHub())
            break;
        if (r.from.isLocalCache() && r.to.isLocalCache()) {  // two caches on this machine (a shared folder)
            copyLocalEntries(r.from.cache.path, r.to.cache.path, items, reporter, stop);
            return out;
        }
        QVector<HostCopyResult> results;
        copyEntries(r.from.cache, r.to.cache, items, reporter, stop, &results);
        for (int i = 0; i < results.size(); ++i)
            if (results[i] == HostCopyResult::Busy)
                out.busy.insert(i);
        return out;
    }
    }
    switch (r.kind) {
    case TransferKind::Pull:
        out.error = EngineText::tr("Ingot does not pull from %1 to %2.").arg(r.from.display(), r.to.display());
        break;
    case TransferKind::Push:
        out.error = EngineText::tr("Ingot does not push from %1 to %2.").arg(r.from.display(), r.to.display());
        break;
    case TransferKind::Copy:
        out.error = EngineText::tr("Ingot does not copy from %1 to %2.").arg(r.from.display(), r.to.display());
        break;
    }
    failAll(items, reporter, out.error);
    return out;
}

TransferEngine makeTransferEngine(std::shared_ptr<SecretStore> keychain)
{
    return [keychain](const TransferRecord &record, QVector<TransferItem> &items, TransferReporter &reporter,
                      const std::atomic_bool *stop) -> QString {
        const HubConfig config = HubConfig::fromEnvironment();
        const bool needsHub = record.from.isHub() || record.to.isHub();
        const QString token = needsHub ? resolveToken(config, keychain.get(), QProcessEnvironment::systemEnvironment(), stop).token : QString();
        const HubClient hub(config.endpoint, token, config.offline);
        TransferContext ctx;
        ctx.hub = &hub;
        ctx.hfHome = config.hfHome;
        ctx.workDir = transferWorkDir(record.id);
        const TransferOutcome out = runTransfer(record, items, reporter, ctx, stop);
        bool allFinished = true;
        for (const TransferItem &i : items)
            allFinished &= i.finished();
        if (allFinished && !(stop && *stop))
            QDir(ctx.workDir).removeRecursively();  // nothing of this transfer is on its way any more
        return out.error;
    };
}

}  // namespace ingot
