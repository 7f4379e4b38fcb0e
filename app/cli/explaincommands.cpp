#include "app/cli/explaincommands.h"

#include "app/cli/cachecommands.h"
#include "app/cli/clicommon.h"
#include "app/cli/hubcommands.h"
#include "services/cache/cachescanner.h"
#include "services/cache/explain.h"
#include "services/hub/secretstore.h"
#include "services/neuron/knowncaches.h"
#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct ExplainCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json strings(const QStringList &l)
{
    json a = json::array();
    for (const QString &s : l)
        a.push_back(u8(displayName(s)));
    return a;
}

// The entry named on the command line: "neuronxcc-<ver>/MODULE_…", or a path that ends in one.
std::optional<ModuleKey> entryArg(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(ExplainCliText::tr("error: name one entry, as neuronxcc-<version>/MODULE_<hash>+<flags hash>"));
        return std::nullopt;
    }
    const QString arg = p.positional().first();
    auto k = ModuleKey::parse(arg);
    if (!k)
        k = ModuleKey::find(arg);
    if (!k)
        err(ExplainCliText::tr("error: \"%1\" is not an entry of a compile cache (neuronxcc-<version>/MODULE_<hash>+<flags hash>)")
                .arg(arg));
    return k;
}

json hloJson(const HloSummary &h)
{
    json params = json::array();
    for (qsizetype i = 0; i < h.parameters.size(); ++i) {
        json pj = {{"shape", u8(h.parameters[i])}};
        if (i < h.parameterNames.size())
            pj["name"] = u8(displayName(h.parameterNames[i]));
        params.push_back(pj);
    }
    json ops = json::array();
    for (const auto &op : h.opcodes)
        ops.push_back({{"opcode", u8(displayName(op.first))}, {"count", op.second}});
    json coll = json::array();
    for (const HloCollective &c : h.collectives)
        coll.push_back({{"opcode", u8(c.opcode)}, {"count", c.count}, {"replica_groups", u8(c.groups)},
                        {"group_count", c.groupCount}, {"group_size", c.groupSize}});
    return {{"module", u8(displayName(h.moduleName))}, {"entry_computation", u8(displayName(h.entryName))},
            {"parameters", params}, {"result", u8(h.result)}, {"computations", h.computationCount},
            {"instructions", h.instructionCount}, {"entry_instructions", h.entryInstructionCount},
            {"opcodes", ops}, {"collectives", coll}, {"other_collectives", h.otherCollectives}, {"gzip", h.gzip}};
}

// The entry named and the cache it is looked for in; an exit code (Ok to go on).
int entryAndCache(const Invocation &p, std::optional<ModuleKey> *key, Common *c)
{
    *key = entryArg(p);
    if (!*key)
        return Usage;
    return commonOf(p, c);
}

int cmdShow(const Invocation &p)
{
    std::optional<ModuleKey> key;
    Common c;
    if (const int e = entryAndCache(p, &key, &c))
        return e;
    QString error;
    std::unique_ptr<CacheStore> store = makeStore(c.store(), &error);
    if (!store || !store->open(&error)) {
        err(ExplainCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    CacheScanner scanner(*store);
    bool vanished = false;
    const CacheModule m = scanner.scanModule(key->version, key->name, &vanished, &error);
    if (vanished || m.files.isEmpty()) {
        err(ExplainCliText::tr("error: %1 holds no entry %2%3").arg(c.shown(), displayName(key->key()),
                                                                   error.isEmpty() ? QString() : QStringLiteral(" (") + error + QLatin1Char(')')));
        return CacheUnavailable;
    }
    QString flagsError, hloError;
    const std::optional<QStringList> flags = readEntryFlags(*store, m, &flagsError);
    const std::optional<HloSummary> hlo = readEntryHlo(*store, m, &hloError);
    if (c.json) {
        json j = moduleJson(m, true);
        j["cache"] = u8(c.shown());
        if (flags)
            j["flags"] = strings(*flags);
        else
            j["flags_error"] = u8(flagsError);
        if (hlo)
            j["hlo"] = hloJson(*hlo);
        else
            j["hlo_error"] = u8(hloError);
        printJson(j);
        return Ok;
    }
    out(ExplainCliText::tr("Cache entry:   %1").arg(displayName(m.key())));
    out(ExplainCliText::tr("Cache:         %1").arg(displayName(c.shown())));
    out(ExplainCliText::tr("State:         %1, %2 in %n file(s)", nullptr, m.fileCount()).arg(stateText(m.state), formatBytes(m.size)));
    out(flags ? ExplainCliText::tr("Flags:         %1").arg(flags->isEmpty() ? ExplainCliText::tr("(none: the compiler defaults)")
                                                                              : displayName(flags->join(QLatin1Char(' '))))
              : ExplainCliText::tr("Flags:         unknown (%1)").arg(flagsError));
    if (hlo)
        out(hloSummaryLines(*hlo).join(QLatin1Char('\n')));
    else
        out(ExplainCliText::tr("HLO:           cannot be read (%1)").arg(hloError));
    return Ok;
}

int cmdExplain(const Invocation &p)
{
    std::optional<ModuleKey> key;
    Common c;
    if (const int e = entryAndCache(p, &key, &c))
        return e;
    if (c.cacheDir.isEmpty() && !c.location.isSupported()) {
        err(c.location.unsupportedReason());
        return Unsupported;
    }
    const std::shared_ptr<SecretStore> kc = keychain();
    QVector<OtherCache> others;
    QString error;
    for (const QString &spec : p.values(QStringLiteral("other"))) {
        auto o = otherCacheFor(spec, kc, &error);
        if (!o) {
            err(ExplainCliText::tr("error: --other %1: %2").arg(spec, error));
            return Usage;
        }
        others << *o;
    }
    if (p.isSet(QStringLiteral("known")))
        others << knownOtherCaches(c.store(), kc);
    const QString rule = c.cacheDir.isEmpty() ? c.location.explanation : ExplainCliText::tr("--cache-dir");
    const std::optional<Explanation> e = explainIn(*key, c.store(), rule, others, {}, &error);
    if (!e) {
        err(ExplainCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    if (c.json) {
        printJson(explanationJson(*e));
        return Ok;
    }
    out(e->headline());
    for (const QString &l : e->evidence())
        out(QStringLiteral("  ") + l);
    if (!e->fix().isEmpty())
        out(ExplainCliText::tr("What to do: %1").arg(e->fix()));
    return Ok;
}
}  // namespace

nlohmann::json explanationJson(const Explanation &e)
{
    nlohmann::json j = {{"entry", u8(displayName(e.key.key()))}, {"verdict", u8(verdictName(e.verdict))},
              {"cache", u8(displayName(e.cache))}, {"rule", u8(e.rule)}, {"present", e.present},
              {"state", e.present ? u8(stateName(e.state)) : std::string()}, {"headline", u8(displayName(e.headline()))},
              {"evidence", strings(e.evidence())}, {"fix", u8(displayName(e.fix()))}, {"flags_known", e.flagsKnown},
              {"flags", strings(e.flags)}, {"notes", strings(e.notes)}};
    if (e.verdict == Verdict::Blocked)
        j["lock_may_be_live"] = e.lockMayBeLive;
    if (!e.otherCache.isEmpty())
        j["other_cache"] = u8(displayName(e.otherCache));
    if (!e.otherKey.isEmpty()) {
        j["other_entry"] = u8(displayName(e.otherKey));
        j["other_version"] = u8(displayName(e.otherKey.section(QLatin1Char('/'), 0, 0)));
    }
    if (e.verdict == Verdict::OtherFlags) {
        j["other_flags"] = strings(e.otherFlags);
        j["flags_added"] = strings(e.flagsAdded);
        j["flags_removed"] = strings(e.flagsRemoved);
    }
    if (e.verdict == Verdict::NewGraph)
        j["changes"] = strings(e.changes);
    return j;
}

QVector<Command> explainCommands()
{
    const QString g = QStringLiteral("cache");
    const unsigned cache = JsonOption | CacheDirOption | HostOption;
    auto entry = [](QCommandLineParser &p) {
        p.addPositionalArgument(QStringLiteral("ENTRY"), ExplainCliText::tr("neuronxcc-<version>/MODULE_<hash>+<flags hash> (present or not)"));
    };
    return {
        {g, QStringLiteral("show"), ExplainCliText::tr("One entry: state, files, compile flags and the HLO behind it (shapes, collectives)"),
         cache, entry, cmdShow},
        {g, QStringLiteral("explain"), ExplainCliText::tr("Why a job compiles ENTRY: hit, blocked, other flags, other compiler, other cache or new graph"),
         cache, [entry](QCommandLineParser &p) {
             entry(p);
             p.addOption({QStringLiteral("other"), ExplainCliText::tr("Another cache to look in: a folder, host:/path, s3://bucket/prefix or hub:org/name (repeatable)."),
                          ExplainCliText::tr("CACHE")});
             p.addOption({QStringLiteral("known"), ExplainCliText::tr("Also look in every cache Ingot knows: the folders added in the app, this machine's cache, the Hub cache repos.")});
         }, cmdExplain},
    };
}

}  // namespace ingot::cli
