#include "app/cli/verifycommand.h"

#include "app/cli/cachecommands.h"
#include "app/cli/clicommon.h"
#include "app/cli/hubcommands.h"
#include "app/cli/transferterminal.h"
#include "services/cache/cachescanner.h"
#include "services/hub/cacherepo.h"
#include "services/s3/awsconfig.h"
#include "services/s3/s3client.h"
#include "services/s3/s3location.h"
#include "services/transfer/cacheverify.h"
#include "services/transfer/transfertypes.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct VerifyCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

void verifyOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("repo_id"), VerifyCliText::tr("The cache repo (default: CUSTOM_CACHE_REPO, the file set by `cache set`, or the public one)."), QStringLiteral("REPO")});
    p.addOption({QStringLiteral("revision"), VerifyCliText::tr("The repo revision (default: main)."), QStringLiteral("REV")});
    p.addOption({QStringLiteral("s3"), VerifyCliText::tr("Check against this S3 cache instead of the Hub (this machine's AWS keys)."),
                 QStringLiteral("s3://BUCKET/PREFIX")});
    p.addPositionalArgument(QStringLiteral("ENTRY"), VerifyCliText::tr("Entries to check: neuronxcc-<version>/MODULE_<...> (default: every SUCCESS entry)"),
                            QStringLiteral("[ENTRY...]"));
}

QString verdictText(const VerifiedEntry &e)
{
    switch (e.verdict) {
    case VerifiedEntry::Verdict::Same: return VerifyCliText::tr("same");
    case VerifiedEntry::Verdict::Differs: return VerifyCliText::tr("DIFFERS");
    case VerifiedEntry::Verdict::Missing: return VerifyCliText::tr("MISSING there");
    case VerifiedEntry::Verdict::Unreadable: return VerifyCliText::tr("cannot be read here: %1").arg(e.message);
    }
    return {};
}

QString fileText(const VerifiedFile &f)
{
    switch (f.verdict) {
    case VerifiedFile::Verdict::Same: return f.sizeOnly ? VerifyCliText::tr("%1: %2").arg(displayName(f.name), f.why) : QString();
    case VerifiedFile::Verdict::Differs: return VerifyCliText::tr("%1 differs: %2").arg(displayName(f.name), f.why);
    case VerifiedFile::Verdict::OnlyHere: return VerifyCliText::tr("%1 is only here").arg(displayName(f.name));
    case VerifiedFile::Verdict::OnlyThere: return VerifyCliText::tr("%1 is only there").arg(displayName(f.name));
    }
    return {};
}

int report(const Invocation &inv, const QVector<VerifiedEntry> &results, const QString &against, const QString &revision);

int cmdVerify(const Invocation &inv)
{
    QString root;
    if (const int e = localCacheRoot(inv.cacheDir, false, &root))
        return e;
    QStringList keys = inv.positional();
    for (QString &k : keys) {
        while (k.endsWith(QLatin1Char('/')))
            k.chop(1);
        if (!isTransferableKey(k)) {
            err(VerifyCliText::tr("error: \"%1\" is not a cache entry: use neuronxcc-<version>/MODULE_<...>.").arg(displayName(k)));
            return Usage;
        }
    }
    if (keys.isEmpty()) {
        Common c;
        c.cacheDir = root;
        c.json = inv.json;
        CacheSnapshot snap;
        if (const int e = scan(c, &snap))
            return e;
        for (const CacheModule &m : snap.modules)
            if (m.isModule() && m.state == ModuleState::Success)
                keys << m.key();
    }
    QVector<VerifiedEntry> results;
    QString against;
    if (inv.isSet(QStringLiteral("s3"))) {
        s3::S3Location where;
        QString why;
        if (!s3::S3Location::parse(inv.value(QStringLiteral("s3")), &where, &why)) {
            err(VerifyCliText::tr("error: --s3: %1").arg(why));
            return Usage;
        }
        const s3::S3Client client(s3::resolveAwsSettings(), where);
        StopOnSignals stopOnSignals;
        if (!verifyAgainstS3(client, root, keys, &results, &why, &stopRequested())) {
            err(VerifyCliText::tr("error: %1").arg(why));
            return CacheUnavailable;
        }
        return report(inv, results, where.url(), {});
    }
    const HubContext ctx = hubContext();
    const QString repo = inv.isSet(QStringLiteral("repo_id")) ? inv.value(QStringLiteral("repo_id")) : resolveCacheRepo(ctx.config).repo;
    const QString revision = inv.isSet(QStringLiteral("revision")) ? inv.value(QStringLiteral("revision")) : QStringLiteral("main");
    if (ctx.hub.isOffline())
        return fail({HubError::Kind::Offline, 0, VerifyCliText::tr("HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so "
                                                                   "nothing can be verified. Unset it to verify.")}, inv.json);
    HubError e;
    {
        StopOnSignals stopOnSignals;
        if (!verifyAgainstHub(ctx.hub, repo, revision, root, keys, &results, &e, &stopRequested()))
            return fail(e, inv.json);
    }
    return report(inv, results, repo, revision);
}

int report(const Invocation &inv, const QVector<VerifiedEntry> &results, const QString &against, const QString &revision)
{
    int bad = 0;
    for (const VerifiedEntry &r : results)
        bad += r.verdict == VerifiedEntry::Verdict::Same ? 0 : 1;
    if (inv.json) {
        json entries = json::array();
        for (const VerifiedEntry &r : results) {
            json files = json::array();
            for (const VerifiedFile &f : r.files)
                files.push_back({{"name", u8(displayName(f.name))}, {"verdict", verdictName(f.verdict)}, {"size_only", f.sizeOnly},
                                 {"local_size", f.localSize}, {"remote_size", f.remoteSize}, {"why", u8(f.why)}});
            entries.push_back({{"key", u8(displayName(r.key))}, {"verdict", verdictName(r.verdict)},
                               {"message", u8(r.message)}, {"files", files}});
        }
        json doc = {{"against", u8(against)}, {"checked", results.size()}, {"differ", bad}, {"entries", entries}};
        if (!revision.isEmpty())
            doc["revision"] = u8(revision);
        printJson(doc);
    } else {
        for (const VerifiedEntry &r : results) {
            out(QStringLiteral("%1  %2").arg(displayName(r.key), verdictText(r)));
            for (const VerifiedFile &f : r.files)
                if (f.verdict != VerifiedFile::Verdict::Same || f.sizeOnly)
                    out(QStringLiteral("    ") + fileText(f));
        }
        out(VerifyCliText::tr("%n entries checked against %1", nullptr, int(results.size())).arg(displayName(against))
            + (bad ? VerifyCliText::tr(": %n differ or are missing.", nullptr, bad) : VerifyCliText::tr(": all the same.")));
    }
    return bad ? PartialFailure : Ok;
}
}  // namespace

QVector<Command> verifyCommands()
{
    return {
        {QStringLiteral("cache"), QStringLiteral("verify"),
         VerifyCliText::tr("Check local entries against the Hub cache repo or an S3 cache (--s3): the same files, sizes and checksums (nothing downloaded)"),
         JsonOption | CacheDirOption, verifyOptions, cmdVerify},
    };
}

}  // namespace ingot::cli
