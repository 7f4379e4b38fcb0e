#include "app/cli/copycommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/transferterminal.h"
#include "app/cli/remotecommands.h"
#include "services/cache/cachelocation.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshshell.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/storefactory.h"
#include "services/transfer/hostcopy.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutex>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct CopyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

void copyOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("from"),
                 CopyText::tr("Where the entries are: local, a host (alias, host, user@host:port), or an S3 cache."),
                 CopyText::tr("local|HOST|s3://BUCKET/PREFIX")});
    p.addOption({QStringLiteral("to"), CopyText::tr("Where they go: local, a host, or an S3 cache."),
                 CopyText::tr("local|HOST|s3://BUCKET/PREFIX")});
    p.addOption({QStringLiteral("remote-dir"),
                 CopyText::tr("The host's compile cache (default: as the Neuron tools there resolve it)."), CopyText::tr("DIR")});
    p.addPositionalArgument(QStringLiteral("ENTRY"), CopyText::tr("neuronxcc-<version>/MODULE_<...> (one or more)."),
                            QStringLiteral("ENTRY..."));
}

bool isLocal(const QString &side)
{
    return side == QLatin1String("local");
}

int usage(const QString &text)
{
    err(CopyText::tr("error: %1").arg(text));
    return Usage;
}

bool isS3(const QString &side)
{
    return side.startsWith(QLatin1String("s3://"));
}

// With an S3 cache on one side: through the transfer engine (this machine's cache directly; a host's by way of
// this machine), resumable with the same command.
int copyWithS3(const Invocation &p, const QString &from, const QString &to, const QStringList &keys)
{
    if (isS3(from) && isS3(to))
        return usage(CopyText::tr("--from and --to are both S3 caches: copy to local, then on."));
    const QString url = isS3(from) ? from : to;
    const QString other = isS3(from) ? to : from;
    s3::S3Location where;
    QString why;
    if (!s3::S3Location::parse(url, &where, &why))
        return usage(why);
    const StoreLocation s3Place{s3::s3StoreKind(), QString(), where.url()};
    StoreLocation otherPlace;
    QString host;
    if (isLocal(other)) {
        QString root;
        if (const int e = localCacheRoot(p.cacheDir, isS3(from), &root))
            return e;
        otherPlace = StoreLocation::local(root);
    } else {
        host = other;
        otherPlace = sshStoreLocation(host, p.value(QStringLiteral("remote-dir")));
    }
    return runPlacedTransfer(TransferKind::Copy, TransferPlace::ofCache(isS3(from) ? s3Place : otherPlace),
                             TransferPlace::ofCache(isS3(from) ? otherPlace : s3Place), keys, host, p.json);
}

int cmdCopy(const Invocation &p)
{
    const QString from = p.value(QStringLiteral("from"));
    const QString to = p.value(QStringLiteral("to"));
    if (from.isEmpty() || to.isEmpty())
        return usage(CopyText::tr("--from and --to are required (local, a host, or s3://BUCKET/PREFIX)."));
    const QStringList keys = p.positional();
    if (keys.isEmpty())
        return usage(CopyText::tr("name at least one entry (neuronxcc-<version>/MODULE_<...>)."));
    for (const QString &k : keys)
        if (!isTransferableKey(k))
            return usage(CopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(k)));
    if (isS3(from) || isS3(to))
        return copyWithS3(p, from, to, keys);
    if (isLocal(from) == isLocal(to))
        return usage(isLocal(from) ? CopyText::tr("--from and --to are both local: one of them must be a host.")
                                   : CopyText::tr("Copying from one host to another is not supported yet: copy to local, then on."));

    // This machine's cache.
    QString localRoot;
    if (const int e = localCacheRoot(p.cacheDir, false, &localRoot))
        return e;
    // The host's.
    const QString host = isLocal(from) ? to : from;
    QString remoteRoot;
    if (const int e = hostCacheRoot(host, p.value(QStringLiteral("remote-dir")), &remoteRoot))
        return e;
    const StoreLocation localPlace = StoreLocation::local(localRoot);
    const StoreLocation remotePlace = sshStoreLocation(host, remoteRoot);
    const StoreLocation &source = isLocal(from) ? localPlace : remotePlace;
    const StoreLocation &dest = isLocal(from) ? remotePlace : localPlace;
    {
        QString error;
        const auto store = makeStore(source, &error);
        if (!store || !store->open(&error)) {
            err(CopyText::tr("error: %1").arg(error));
            return CacheUnavailable;
        }
    }

    QVector<TransferItem> items = itemsFor(keys);
    QVector<HostCopyResult> results;
    {
        StopOnSignals stopOnSignals;
        TerminalReporter reporter(items, TerminalReporter::wanted(p.json));
        copyEntries(source, dest, items, reporter, &stopRequested(), &results);
    }

    QSet<int> busySet;
    for (int i = 0; i < results.size(); ++i)
        if (results[i] == HostCopyResult::Busy && items.value(i).state == TransferItem::State::Failed)
            busySet.insert(i);
    const TransferCounts c = countItems(items, busySet);
    json entries = json::array();
    for (int i = 0; i < items.size(); ++i) {
        const TransferItem &it = items[i];
        if (p.json) {
            entries.push_back(itemJson(it, busySet.contains(i)));
            continue;
        }
        switch (it.state) {
        case TransferItem::State::Done:
            out(CopyText::tr("copied %1 (%2 files, %3)").arg(it.key).arg(it.files).arg(formatBytes(it.bytesDone)));
            break;
        case TransferItem::State::Skipped:
            out(CopyText::tr("skipped %1: %2").arg(it.key, it.message));
            break;
        case TransferItem::State::Failed:
            err(CopyText::tr("FAILED %1: %2").arg(it.key, it.message));
            break;
        default:
            err(CopyText::tr("not copied %1: stopped").arg(it.key));
            break;
        }
    }
    if (p.json)
        printJson({{"from", u8(displayName(source.display()))},
                   {"to", u8(displayName(dest.display()))},
                   {"entries", entries},
                   {"copied", c.done},
                   {"skipped", c.skipped},
                   {"failed", c.failed},
                   {"stopped", c.pending > 0},
                   {"bytes", c.bytes}});
    else
        out(CopyText::tr("Done: %1 copied, %2 skipped, %3 failed; %4 from %5 to %6.")
                .arg(c.done).arg(c.skipped).arg(c.failed)
                .arg(formatBytes(c.bytes), source.display(), dest.display()));
    return transferExit(c);
}

}  // namespace

QVector<Command> copyCommands()
{
    const QString g = QStringLiteral("cache");
    return {
        {g, QStringLiteral("copy"),
         CopyText::tr("Copy entries between this machine's cache, a host's over SSH and an S3 cache (verified, never overwriting)"),
         JsonOption | CacheDirOption, copyOptions, cmdCopy},
    };
}

}  // namespace ingot::cli
