#include "app/cli/policycommands.h"

#include "app/cli/cachecommands.h"
#include "app/cli/clicommon.h"
#include "services/cache/cachepolicy.h"
#include "services/cache/cachescanner.h"
#include "services/cache/maintenance.h"
#include "services/stores/storefactory.h"
#include "services/util/format.h"
#include "services/util/names.h"
#include "services/util/units.h"

#include <QCoreApplication>
#include <QDateTime>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct PolicyCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json policyJson(const CachePolicy &p)
{
    return {{"name", u8(p.name)}, {"max_bytes", p.maxBytes}, {"keep_versions", p.keepVersions}, {"unused_days", p.unusedDays},
            {"remove_failed", p.removeFailed}, {"clear_locks", p.clearLocks}, {"lock_age_ms", p.lockAgeMs},
            {"summary", u8(p.summary())}};
}

void policyOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("action"), PolicyCliText::tr("list, set NAME or rm NAME"), QStringLiteral("list|set|rm [NAME]"));
    p.addOption({QStringLiteral("max-size"), PolicyCliText::tr("set: the least recently used entries go while the cache is larger (100GB, 500GiB)."), QStringLiteral("SIZE")});
    p.addOption({QStringLiteral("keep-versions"), PolicyCliText::tr("set: keep the N newest compiler versions; the others' entries go."), QStringLiteral("N")});
    p.addOption({QStringLiteral("unused-days"), PolicyCliText::tr("set: entries unused for more than D days go."), QStringLiteral("D")});
    p.addOption({QStringLiteral("failed"), PolicyCliText::tr("set: failed entries go (the next run compiles them again).")});
    p.addOption({QStringLiteral("locks"), PolicyCliText::tr("set: stale lock files go (never while neuronx-cc runs there).")});
    p.addOption({QStringLiteral("lock-age"), PolicyCliText::tr("set: where compiles cannot be seen (S3), only locks older than AGE (2h, 1d)."), QStringLiteral("AGE")});
}

int readWhole(const Invocation &inv, const QString &option, int max, int *out)
{
    if (!inv.isSet(option))
        return Ok;
    bool ok = false;
    *out = inv.value(option).toInt(&ok);
    if (!ok || *out < 0 || *out > max) {
        err(PolicyCliText::tr("error: --%1 takes a whole number from 0 to %2").arg(option).arg(max));
        return Usage;
    }
    return Ok;
}

int policySet(const Invocation &inv, const QString &name)
{
    CachePolicy p;
    findPolicy(name, &p);  // changes what is given, keeps the rest
    p.name = name;
    if (inv.isSet(QStringLiteral("max-size"))) {
        p.maxBytes = parseBytes(inv.value(QStringLiteral("max-size")));
        if (p.maxBytes < 0) {
            err(PolicyCliText::tr("error: --max-size takes a size such as 100GB, 500M or 20GiB, not \"%1\"").arg(displayName(inv.value(QStringLiteral("max-size")))));
            return Usage;
        }
    }
    if (const int e = readWhole(inv, QStringLiteral("keep-versions"), 1000, &p.keepVersions))
        return e;
    if (const int e = readWhole(inv, QStringLiteral("unused-days"), 36500, &p.unusedDays))
        return e;
    p.removeFailed = p.removeFailed || inv.isSet(QStringLiteral("failed"));
    p.clearLocks = p.clearLocks || inv.isSet(QStringLiteral("locks"));
    if (inv.isSet(QStringLiteral("lock-age"))) {
        p.lockAgeMs = parseLockAge(inv.value(QStringLiteral("lock-age")));
        if (p.lockAgeMs <= 0) {
            err(PolicyCliText::tr("error: --lock-age takes an age such as 90m, 2h or 7d"));
            return Usage;
        }
    }
    if (p.isEmpty()) {
        err(PolicyCliText::tr("error: a policy removes something: give --max-size, --keep-versions, --unused-days, --failed or --locks"));
        return Usage;
    }
    savePolicy(p);
    if (inv.json)
        printJson(policyJson(p));
    else
        out(PolicyCliText::tr("Policy %1: %2.").arg(p.name, p.summary()));
    return Ok;
}

int cmdPolicy(const Invocation &inv)
{
    const QStringList pos = inv.positional();
    const QString action = pos.value(0, QStringLiteral("list"));
    if (action == QLatin1String("list") && pos.size() <= 1) {
        const QVector<CachePolicy> all = savedPolicies();
        if (inv.json) {
            json a = json::array();
            for (const CachePolicy &p : all)
                a.push_back(policyJson(p));
            printJson({{"policies", a}});
        } else if (all.isEmpty()) {
            out(PolicyCliText::tr("No cache policy yet: ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed"));
        } else {
            for (const CachePolicy &p : all)
                out(QStringLiteral("%1  %2").arg(p.name, p.summary()));
        }
        return Ok;
    }
    if ((action == QLatin1String("set") || action == QLatin1String("rm")) && pos.size() == 2) {
        const QString name = pos.at(1);
        if (!CachePolicy::validName(name)) {
            err(PolicyCliText::tr("error: a policy's name is letters, digits, '-', '_' and '.' (64 at most), not \"%1\"").arg(displayName(name)));
            return Usage;
        }
        if (action == QLatin1String("set"))
            return policySet(inv, name);
        if (!removePolicy(name)) {
            err(PolicyCliText::tr("error: no policy %1").arg(name));
            return Usage;
        }
        out(PolicyCliText::tr("Removed policy %1.").arg(name));
        return Ok;
    }
    err(PolicyCliText::tr("error: cache policy list | set NAME [options] | rm NAME"));
    return Usage;
}

void gcOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("policy"), PolicyCliText::tr("The policy to apply (cache policy list)."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("dry-run"), PolicyCliText::tr("Only show what would be removed.")});
    p.addOption({{QStringLiteral("y"), QStringLiteral("yes")}, PolicyCliText::tr("Do not ask for confirmation.")});
}

int cmdGc(const Invocation &inv)
{
    CachePolicy policy;
    const QString name = inv.value(QStringLiteral("policy"));
    if (name.isEmpty() || !findPolicy(name, &policy)) {
        err(name.isEmpty() ? PolicyCliText::tr("error: name the policy: --policy NAME (cache policy list)")
                           : PolicyCliText::tr("error: no policy %1 (cache policy list)").arg(displayName(name)));
        return Usage;
    }
    Common c;
    if (const int e = commonOf(inv, &c))
        return e;
    CacheSnapshot snap;
    if (const int e = scan(c, &snap))
        return e;
    QString error;
    const auto store = makeStore(c.store(), &error);
    if (!store) {
        err(PolicyCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    MaintenancePlan plan = planPolicy(snap.modules, policy, policy.clearLocks ? queryRunningCompilers(*store) : RunningCompilers{},
                                      QDateTime::currentMSecsSinceEpoch());
    plan.rootIdentity = snap.rootIdentity;  // run only on the folder that was scanned
    bool stop = true;
    const int e = confirmPlan(plan, inv, &stop);
    return stop ? e : runPlan(*store, plan, inv.json);
}
}  // namespace

QVector<Command> policyCommands()
{
    const QString g = QStringLiteral("cache");
    return {
        {g, QStringLiteral("policy"), PolicyCliText::tr("Named cache policies: list, set NAME (--max-size, --keep-versions, --unused-days, --failed, --locks), rm NAME"),
         JsonOption, policyOptions, cmdPolicy},
        {g, QStringLiteral("gc"), PolicyCliText::tr("Apply a named policy to a cache (previewed; never locked entries): --policy NAME"),
         JsonOption | CacheDirOption | HostOption, gcOptions, cmdGc},
    };
}

}  // namespace ingot::cli
