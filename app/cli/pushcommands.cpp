#include "app/cli/pushcommands.h"

#include "app/cli/clicommon.h"
#include "app/cli/hubcommands.h"
#include "app/cli/transferterminal.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/cache/cachelocation.h"
#include "services/hub/cacherepo.h"
#include "services/transfer/hubpush.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <iostream>
#include <mutex>
#include <unistd.h>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct PushCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json planJson(const PushPlan &plan, const QVector<TransferItem> *items)
{
    json entries = json::array();
    for (int i = 0; i < plan.entries.size(); ++i) {
        const PushEntry &e = plan.entries[i];
        json files = json::array();
        for (const PushFile &f : e.files)
            files.push_back({{"path", u8(displayName(f.repoPath))}, {"size", f.size}});
        json j = {{"key", u8(displayName(e.key))}, {"bytes", e.bytes}, {"files", files}};
        if (items) {
            j["state"] = u8(itemStateName((*items)[i].state));
            j["message"] = u8((*items)[i].message);
        }
        entries.push_back(j);
    }
    json skipped = json::array(), warnings = json::array();
    for (const QString &s : plan.skipped)
        skipped.push_back(u8(s));
    for (const QString &w : plan.warnings)
        warnings.push_back(u8(w));
    return {{"entries", entries}, {"files", plan.files}, {"bytes", plan.bytes}, {"skipped", skipped}, {"warnings", warnings}};
}

// From a host's cache, by way of this machine (a batch of entries at a time): the named entries, or every SUCCESS
// entry of the host's cache (those already on the Hub are skipped by the plan).
int pushFromHost(const Invocation &inv, const QString &repoOption, bool dryRun)
{
    if (dryRun) {
        err(PushCliText::tr("error: --dry-run is not available with --host yet: run `ingot-cli cache push --dry-run` on the host."));
        return Usage;
    }
    QStringList entries = inv.positional();
    for (const QString &k : std::as_const(entries))
        if (!isTransferableKey(k)) {
            err(PushCliText::tr("error: \"%1\" is not a cache entry: use neuronxcc-<version>/MODULE_<...>").arg(displayName(k)));
            return Usage;
        }
    if (entries.isEmpty())
        if (const int e = hostEntries(inv.host, inv.cacheDir, ModuleState::Success, &entries))
            return e;
    const HubContext ctx = hubContext();
    const QString repo = repoOption.isEmpty() ? resolveCacheRepo(ctx.config).repo : repoOption;
    return runPlacedTransfer(TransferKind::Push, TransferPlace::ofCache(sshStoreLocation(inv.host, inv.cacheDir)),
                           TransferPlace::ofHub(repo), entries, inv.host, inv.json);
}

int runPush(const QStringList &entries, const QString &repoOption, const QString &cacheDirOption, bool dryRun,
            bool asJson)
{
    for (const QString &k : entries)
        if (!isTransferableKey(k)) {
            err(PushCliText::tr("error: \"%1\" is not a cache entry: use neuronxcc-<version>/MODULE_<...>").arg(displayName(k)));
            return Usage;
        }
    HubContext ctx = hubContext();
    if (ctx.hub.isOffline())
        return fail({HubError::Kind::Offline, 0, PushCliText::tr("HF_HUB_OFFLINE is set: Ingot makes no request to "
                                                                 "the Hub, so nothing can be pushed. Unset it to push.")}, asJson);
    const QString repo = repoOption.isEmpty() ? resolveCacheRepo(ctx.config).repo : repoOption;
    QString root;
    if (const int e = localCacheRoot(cacheDirOption, false, &root))
        return e;
    HubError e;
    const PushPlan plan = planPush(ctx.hub, repo, QStringLiteral("main"), root, entries, &e);
    if (e.kind == HubError::Kind::Storage) {
        err(PushCliText::tr("error: %1").arg(e.message));
        return CacheUnavailable;
    }
    if (!e.ok())
        return fail(e, asJson);
    for (const QString &w : plan.warnings)
        err(PushCliText::tr("warning: %1").arg(w));
    if (dryRun) {
        if (asJson) {
            json j = planJson(plan, nullptr);
            j["repo"] = u8(repo);
            j["dry_run"] = true;
            printJson(j);
            return Ok;
        }
        for (const PushEntry &pe : plan.entries) {
            out(PushCliText::tr("%1  (%2)").arg(displayName(pe.key), formatBytes(pe.bytes)));
            for (const PushFile &f : pe.files)
                out(PushCliText::tr("    %1  %2 bytes").arg(displayName(f.repoPath)).arg(f.size));
        }
        for (const QString &s : plan.skipped)
            out(PushCliText::tr("skipped %1").arg(s));
        const QString files = PushCliText::tr("%n file(s)", nullptr, int(plan.files));  // two counts: two plurals
        out(PushCliText::tr("Would push %n entries (%1, %2) to %3 (dry run: nothing was sent).", nullptr, int(plan.entries.size()))
                .arg(files, formatBytes(plan.bytes), repo));
        return Ok;
    }
    QVector<TransferItem> items = pushItems(plan);
    {
        StopOnSignals stopOnSignals;
        TerminalReporter reporter(items, TerminalReporter::wanted(asJson));
        pushEntries(ctx.hub, repo, QStringLiteral("main"), root, plan, items, reporter, TransferOptions(), &e, &stopRequested());
    }
    // Entries the plan left (not SUCCESS, already on the Hub ...) count as skipped, as cache copy counts them.
    int done = 0, failed = 0, skipped = int(plan.skipped.size());
    for (const TransferItem &i : items) {
        done += i.state == TransferItem::State::Done;
        failed += i.state == TransferItem::State::Failed || i.state == TransferItem::State::Pending;
        skipped += i.state == TransferItem::State::Skipped;
    }
    if (asJson) {
        json j = planJson(plan, &items);
        j["repo"] = u8(repo);
        j["dry_run"] = false;
        j["pushed"] = done;
        j["failed"] = failed;
        if (!e.ok())
            j["error"] = u8(e.message);
        printJson(j);
    } else {
        for (const TransferItem &i : items)
            out(PushCliText::tr("%1  %2  %3%4").arg(itemStateName(i.state), displayName(i.key), formatBytes(std::max<qint64>(0, i.bytesTotal)),
                                                   i.message.isEmpty() ? QString() : QStringLiteral("  (") + i.message + QLatin1Char(')')));
        for (const QString &s : plan.skipped)
            out(PushCliText::tr("skipped %1").arg(s));
        out(PushCliText::tr("Pushed %1 of %n entries to %2; %3 skipped, %4 failed.", nullptr, int(items.size() + plan.skipped.size()))
                .arg(done).arg(repo).arg(skipped).arg(failed));
    }
    if (!e.ok()) {
        err(PushCliText::tr("error: %1").arg(e.message));
        return exitFor(e);
    }
    return failed ? PartialFailure : Ok;
}

void pushOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("entries"), PushCliText::tr("Entries to push (neuronxcc-<version>/MODULE_<...>); "
                                                                      "none: every SUCCESS entry not on the Hub."), QStringLiteral("[ENTRY...]"));
    p.addOption({QStringLiteral("repo_id"), PushCliText::tr("The cache repo (default: CUSTOM_CACHE_REPO, the file set by `cache set`, or the public one)."), QStringLiteral("REPO")});
    p.addOption({QStringLiteral("dry-run"), PushCliText::tr("List every entry and file that would go, and the bytes; send nothing.")});
}

// From an S3 cache, by way of this machine (a few entries at a time): the named entries.
int pushFromS3(const Invocation &inv, const QString &url)
{
    if (inv.isSet(QStringLiteral("dry-run"))) {
        err(PushCliText::tr("error: --dry-run is not available for an S3 cache yet: `ingot-cli cache list --cache-dir %1` shows its entries.").arg(url));
        return Usage;
    }
    const QStringList entries = inv.positional();
    if (entries.isEmpty()) {
        err(PushCliText::tr("error: name the entries to push from %1 (`ingot-cli cache list --cache-dir %1` shows them).").arg(url));
        return Usage;
    }
    for (const QString &k : entries)
        if (!isTransferableKey(k)) {
            err(PushCliText::tr("error: \"%1\" is not a cache entry: use neuronxcc-<version>/MODULE_<...>").arg(displayName(k)));
            return Usage;
        }
    const HubContext ctx = hubContext();
    const QString repoOption = inv.value(QStringLiteral("repo_id"));
    const QString repo = repoOption.isEmpty() ? resolveCacheRepo(ctx.config).repo : repoOption;
    return runPlacedTransfer(TransferKind::Push, TransferPlace::ofCache({s3::s3StoreKind(), QString(), url}),
                             TransferPlace::ofHub(repo), entries, QString(), inv.json);
}

int cmdPush(const Invocation &inv)
{
    if (!inv.host.isEmpty())
        return pushFromHost(inv, inv.value(QStringLiteral("repo_id")), inv.isSet(QStringLiteral("dry-run")));
    int s3Exit = Ok;
    const QString s3Url = s3CacheUrl(inv.cacheDir, &s3Exit);
    if (s3Exit != Ok)
        return s3Exit;
    if (!s3Url.isEmpty())
        return pushFromS3(inv, s3Url);
    return runPush(inv.positional(), inv.value(QStringLiteral("repo_id")), inv.cacheDir, inv.isSet(QStringLiteral("dry-run")), inv.json);
}

void synchronizeOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("repo_id"), PushCliText::tr("The cache repo (default: CUSTOM_CACHE_REPO, the file set by `cache set`, or the public one)."), QStringLiteral("REPO")});
    p.addOption({QStringLiteral("cache_dir"), PushCliText::tr("The compile cache folder (default: as the Neuron tools resolve it)."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("dry-run"), PushCliText::tr("List every entry and file that would go, and the bytes; send nothing.")});
}

int cmdSynchronize(const Invocation &inv)
{
    if (!inv.positional().isEmpty()) {
        err(PushCliText::tr("error: synchronize takes no entries (it pushes every SUCCESS entry); use cache push ENTRY..."));
        return Usage;
    }
    return runPush({}, inv.value(QStringLiteral("repo_id")), inv.value(QStringLiteral("cache_dir")), inv.isSet(QStringLiteral("dry-run")), inv.json);
}
}  // namespace

QVector<Command> pushCommands()
{
    const QString cache = QStringLiteral("cache");
    return {
        {cache, QStringLiteral("push"), PushCliText::tr("Push SUCCESS entries of the compile cache to the Hub cache repo (--dry-run first)"),
         JsonOption | CacheDirOption | HostOption, pushOptions, cmdPush},
        {cache, QStringLiteral("synchronize"), PushCliText::tr("Push every SUCCESS entry not on the Hub (optimum-cli's synchronize; never failed entries or locks)"),
         JsonOption, synchronizeOptions, cmdSynchronize},
    };
}

}  // namespace ingot::cli
