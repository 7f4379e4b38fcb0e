#include "app/cli/pullcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/hubcommands.h"
#include "app/cli/remotecommands.h"
#include "app/cli/transferterminal.h"
#include "services/cache/cachelocation.h"
#include "services/hub/cacherepo.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/transfer/hubpull.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <unistd.h>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct PullCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

void pullOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("repo_id"), PullCliText::tr("The cache repo (default: CUSTOM_CACHE_REPO, the file set by `cache set`, or the public one)."), QStringLiteral("REPO")});
    p.addOption({QStringLiteral("revision"), PullCliText::tr("The repo revision (default: main)."), QStringLiteral("REV")});
    p.addOption({QStringLiteral("compiler"), PullCliText::tr("Every entry of this compiler version on the Hub (neuronxcc-2.15.128.0+56dc5a86 or 2.15.128.0+56dc5a86)."), PullCliText::tr("VERSION")});
    p.addOption({QStringLiteral("all"), PullCliText::tr("Every entry on the Hub.")});
    p.addOption({QStringLiteral("hub-cache-layout"), PullCliText::tr("Store files as optimum-neuron does: blobs in the Hugging Face cache (HF_HOME), linked into the compile cache.")});
    p.addOption({QStringLiteral("parallel"), PullCliText::tr("Files downloaded at once (default 4)."), QStringLiteral("N")});
    p.addPositionalArgument(QStringLiteral("ENTRY"), PullCliText::tr("Entries to pull: neuronxcc-<version>/MODULE_<...>"), QStringLiteral("[ENTRY...]"));
}


int cmdPull(const Invocation &inv)
{
    QStringList entries = inv.positional();
    const bool all = inv.isSet(QStringLiteral("all"));
    const QString compiler = inv.value(QStringLiteral("compiler"));
    if (int(!entries.isEmpty()) + int(all) + int(inv.isSet(QStringLiteral("compiler"))) != 1) {
        err(PullCliText::tr("error: name entries, or --compiler VERSION, or --all (one of them)."));
        return Usage;
    }
    for (QString &e : entries) {
        while (e.endsWith(QLatin1Char('/')))
            e.chop(1);
        if (!isTransferableKey(e)) {
            err(PullCliText::tr("error: \"%1\" is not a cache entry: use neuronxcc-<version>/MODULE_<...>.").arg(displayName(e)));
            return Usage;
        }
    }
    PullRequest req;
    if (inv.isSet(QStringLiteral("parallel"))) {
        bool ok = false;
        req.options.parallel = inv.value(QStringLiteral("parallel")).toInt(&ok);
        if (!ok || req.options.parallel < 1 || req.options.parallel > 32) {
            err(PullCliText::tr("error: --parallel takes a number from 1 to 32."));
            return Usage;
        }
    }
    req.options.hubCacheLayout = inv.isSet(QStringLiteral("hub-cache-layout"));
    int s3Exit = Ok;
    const QString s3Url = inv.host.isEmpty() ? s3CacheUrl(inv.cacheDir, &s3Exit) : QString();
    if (s3Exit != Ok)
        return s3Exit;
    if (!s3Url.isEmpty() && req.options.hubCacheLayout) {
        err(PullCliText::tr("error: --hub-cache-layout links files into this machine's Hugging Face cache; an S3 cache holds plain objects."));
        return Usage;
    }
    if (!s3Url.isEmpty()) {
        // Into an S3 cache: by way of this machine, a few entries at a time.
    } else if (inv.host.isEmpty()) {
        if (const int e = localCacheRoot(inv.cacheDir, true, &req.cacheRoot))
            return e;
    } else if (const int e = connectHost(inv.host)) {
        return e;  // before the Hub is asked anything
    }
    const HubContext ctx = hubContext();
    req.repo = inv.isSet(QStringLiteral("repo_id")) ? inv.value(QStringLiteral("repo_id")) : resolveCacheRepo(ctx.config).repo;
    if (inv.isSet(QStringLiteral("revision")))
        req.revision = inv.value(QStringLiteral("revision"));
    req.hfHome = ctx.config.hfHome;
    if (ctx.hub.isOffline())
        return fail({HubError::Kind::Offline, 0, PullCliText::tr("HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so nothing "
                                                       "can be pulled. Unset it to pull.")}, inv.json);
    if (entries.isEmpty()) {
        StopOnSignals stopOnSignals;
        HubError e;
        entries = hubEntryKeys(ctx.hub, req.repo, req.revision, all ? QString() : compiler, &e, &stopRequested());
        if (e.kind == HubError::Kind::EntryNotFound && !all)
            e.message = PullCliText::tr("%1 has no entries of compiler %2.").arg(req.repo, displayName(compiler));
        if (!e.ok())
            return fail(e, inv.json);
    }
    if (!s3Url.isEmpty())
        return runPlacedTransfer(TransferKind::Pull, TransferPlace::ofHub(req.repo, req.revision),
                                 TransferPlace::ofCache({s3::s3StoreKind(), QString(), s3Url}), entries, QString(), inv.json,
                                 req.options);
    // To a host: each entry is downloaded here and sent on (its cache as the runtime there resolves it, or --cache-dir).
    if (!inv.host.isEmpty())
        return runPlacedTransfer(TransferKind::Pull, TransferPlace::ofHub(req.repo, req.revision),
                               TransferPlace::ofCache(sshStoreLocation(inv.host, inv.cacheDir)), entries, inv.host, inv.json,
                               req.options);
    QVector<TransferItem> items = itemsFor(entries);
    QElapsedTimer clock;
    clock.start();
    PullOutcome outcome;
    {
        StopOnSignals stopOnSignals;
        TerminalReporter progress(items, TerminalReporter::wanted(inv.json));
        outcome = pullEntries(ctx.hub, req, items, progress, &stopRequested());
    }
    const TransferCounts c = countItems(items, outcome.busy);
    const int done = c.done, skipped = c.skipped, failed = c.failed, pending = c.pending;
    const qint64 bytes = c.bytes;
    const double secs = double(clock.elapsed()) / 1000.0;
    if (inv.json) {
        json arr = json::array();
        for (int i = 0; i < items.size(); ++i)
            arr.push_back(itemJson(items[i], outcome.busy.contains(i)));
        printJson({{"repo", u8(req.repo)}, {"revision", u8(req.revision)}, {"cacheDir", u8(req.cacheRoot)}, {"items", arr},
                   {"done", done}, {"skipped", skipped}, {"failed", failed}, {"stopped", pending}, {"bytes", bytes},
                   {"seconds", secs},
                   {"error", outcome.error.ok() ? json(nullptr) : json(u8(outcome.error.message))}});
    } else if (!items.isEmpty()) {
        Table t({PullCliText::tr("ENTRY"), PullCliText::tr("STATE"), PullCliText::tr("SIZE"), PullCliText::tr("NOTE")}, {false, false, true, false});
        for (const TransferItem &it : std::as_const(items))
            t.add({it.key, itemStateName(it.state), it.bytesTotal >= 0 ? formatBytes(it.bytesTotal) : QString(), it.message});
        out(t.render());
        const QString summary = pending
            ? PullCliText::tr("%1 pulled (%2), %3 already in the cache, %4 failed, %5 stopped (run again to resume); %6 s.")
                  .arg(done).arg(formatBytes(bytes)).arg(skipped).arg(failed).arg(pending)
            : PullCliText::tr("%1 pulled (%2), %3 already in the cache, %4 failed; %5 s.")
                  .arg(done).arg(formatBytes(bytes)).arg(skipped).arg(failed);
        out(summary.arg(QString::number(secs, 'f', 1)));
    } else {
        out(PullCliText::tr("Nothing to pull: the Hub has no such entries."));
    }
    if (!outcome.error.ok()) {
        if (!inv.json)
            err(PullCliText::tr("error: %1").arg(outcome.error.message));
        return exitFor(outcome.error);
    }
    return transferExit(c);
}
}  // namespace

QVector<Command> pullCommands()
{
    return {
        {QStringLiteral("cache"), QStringLiteral("pull"),
         PullCliText::tr("Pull entries from the Hub cache repo into the compile cache (ENTRY..., --compiler VERSION or --all)"),
         JsonOption | CacheDirOption | HostOption, pullOptions, cmdPull},
    };
}

}  // namespace ingot::cli
