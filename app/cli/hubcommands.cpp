#include "app/cli/hubcommands.h"

#include "app/cli/cachecommands.h"
#include "app/cli/clicommon.h"
#include "services/cache/modulekeys.h"
#include "services/hub/cacherepo.h"
#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/hub/hublogin.h"
#include "services/hub/lookup.h"
#include "services/hub/modulepresence.h"
#include "services/hub/secretstore.h"
#include "services/hub/token.h"
#include "services/util/names.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>

#include <iostream>
#include <memory>
#include <termios.h>
#include <unistd.h>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct HubCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};
struct LookupTableText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Lookup)
};

QString readSecretLine(const QString &prompt)
{
    const bool tty = stdinIsTerminal();
    termios old {};
    if (tty) {
        std::cerr << prompt.toStdString() << std::flush;
        tcgetattr(STDIN_FILENO, &old);
        termios quiet = old;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    std::string line;
    std::getline(std::cin, line);
    if (tty) {
        tcsetattr(STDIN_FILENO, TCSANOW, &old);
        std::cerr << std::endl;
    }
    return QString::fromStdString(line).trimmed();
}

int cmdWhoami(const Invocation &p)
{
    const HubContext ctx = hubContext();
    const HubConfig &cfg = ctx.config;
    const ResolvedToken &tok = ctx.token;
    HubError e;
    const WhoAmI me = ctx.hub.whoami(&e);
    if (!e.ok())
        return fail(e, p.json);
    // Everything the Hub says about the account is the server's text: shown escaped, in JSON too.
    QStringList orgNames;
    for (const QString &o : me.orgs)
        orgNames << displayName(o);
    if (p.json) {
        json orgs = json::array();
        for (const QString &o : std::as_const(orgNames))
            orgs.push_back(u8(o));
        printJson({{"name", u8(displayName(me.name))}, {"fullname", u8(displayName(me.fullname))}, {"orgs", orgs},
                   {"role", u8(displayName(me.role))}, {"endpoint", u8(displayName(cfg.endpoint))},
                   {"token_source", u8(displayName(tok.describe()))}});
        return Ok;
    }
    out(displayName(me.name));
    if (!orgNames.isEmpty())
        out(HubCliText::tr("orgs:  %1").arg(orgNames.join(QStringLiteral(", "))));
    out(HubCliText::tr("token: %1 (%2)").arg(me.role.isEmpty() ? HubCliText::tr("unknown role") : displayName(me.role),
                                             displayName(tok.describe())));
    out(HubCliText::tr("hub:   %1").arg(displayName(cfg.endpoint)));
    return Ok;
}

int cmdLogin(const Invocation &p)
{
    // The token is read from standard input, never from the command line (where `ps` would show it).
    const QString token = readSecretLine(HubCliText::tr("Hugging Face token (input hidden): "));
    auto kc = keychain();
    const HubLogin login = logIn(HubConfig::fromEnvironment(), kc.get(), token);
    if (!login.error.ok())
        return fail(login.error, p.json);
    if (!login.saved) {
        err(HubCliText::tr("error: %1").arg(login.saveError));
        return CacheUnavailable;
    }
    const WhoAmI &me = login.me;
    const QString &where = login.storedIn;
    if (p.json)
        printJson({{"name", u8(displayName(me.name))}, {"stored_in", u8(displayName(where))}});
    else
        out(HubCliText::tr("Logged in as %1; the token is stored in %2.").arg(displayName(me.name), displayName(where)));
    return Ok;
}

int cmdLogout(const Invocation &p)
{
    auto kc = keychain();
    QString error;
    if (!forgetToken(HubConfig::fromEnvironment(), kc.get(), &error)) {
        err(HubCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    out(HubCliText::tr("Logged out: the saved token is gone (HF_TOKEN, if set, still applies)."));
    return Ok;
}

void lsOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("repo"), HubCliText::tr("The repo id, org/name."));
    p.addPositionalArgument(QStringLiteral("path"), HubCliText::tr("A folder in the repo (default: the root)."), QStringLiteral("[PATH]"));
    p.addOption({{QStringLiteral("R"), QStringLiteral("recursive")}, HubCliText::tr("List everything below, not just one level.")});
    p.addOption({QStringLiteral("revision"), HubCliText::tr("Branch, tag or commit (default main)."), QStringLiteral("REV"), QStringLiteral("main")});
    p.addOption({QStringLiteral("marks"), HubCliText::tr("List the repo's cache entries marked against the local cache (--cache-dir): "
                                                         "on both, on the Hub only, or local only.")});
}

QString presenceName(ModulePresence p)
{
    switch (p) {
    case ModulePresence::Both: return QStringLiteral("both");
    case ModulePresence::HubOnly: return QStringLiteral("hub-only");
    case ModulePresence::LocalOnly: return QStringLiteral("local-only");
    case ModulePresence::None: break;
    }
    return QStringLiteral("none");
}

QString presenceText(ModulePresence p)
{
    switch (p) {
    case ModulePresence::Both: return HubCliText::tr("Hub and local");
    case ModulePresence::HubOnly: return HubCliText::tr("Hub only");
    case ModulePresence::LocalOnly: return HubCliText::tr("Local only");
    case ModulePresence::None: break;
    }
    return QString();
}

// hub ls --marks: the repo's entries (all of it, or the compiler-version folder named) against the local cache, by
// the rule the Hub page marks its tree with.
int cmdLsMarks(const Invocation &p, const QString &repo, const QString &path)
{
    Common c;
    if (const int e = commonOf(p, &c))
        return e;
    CacheSnapshot snap;
    if (const int e = scan(c, &snap))
        return e;
    const QSet<QString> local = moduleKeys(snap.modules);
    const HubContext ctx = hubContext();
    HubError e;
    const QVector<TreeEntry> listing = ctx.hub.listTree(repo, p.value(QStringLiteral("revision")), QString(), true, &e);
    if (!e.ok())
        return fail(e, p.json);
    QVector<ModuleMark> marks = markRepo(listing, local);
    if (!path.isEmpty())
        marks.erase(std::remove_if(marks.begin(), marks.end(),
                                   [&](const ModuleMark &m) { return !m.key.startsWith(path + QLatin1Char('/')); }),
                    marks.end());
    if (p.json) {
        json arr = json::array();
        for (const ModuleMark &m : std::as_const(marks))
            arr.push_back({{"key", u8(displayName(m.key))}, {"where", u8(presenceName(m.presence))}});
        printJson({{"repo", u8(displayName(repo))}, {"cache", u8(displayName(c.shown()))}, {"marks", arr}});
        return Ok;
    }
    Table t({HubCliText::tr("WHERE"), HubCliText::tr("ENTRY")});
    for (const ModuleMark &m : std::as_const(marks))
        t.add({presenceText(m.presence), m.key});
    out(t.render());
    return Ok;
}

int cmdLs(const Invocation &p)
{
    const QStringList pos = p.positional();
    if (pos.isEmpty() || pos.size() > 2) {
        err(HubCliText::tr("error: name a repo (and optionally a path): ingot-cli hub ls REPO [PATH]"));
        return Usage;
    }
    if (p.isSet(QStringLiteral("marks")))
        return cmdLsMarks(p, pos[0], pos.value(1));
    const HubContext ctx = hubContext();
    const HubClient &hub = ctx.hub;
    HubError e;
    const QVector<TreeEntry> entries = hub.listTree(pos[0], p.value(QStringLiteral("revision")), pos.value(1),
                                                    p.isSet(QStringLiteral("recursive")), &e);
    if (!e.ok())
        return fail(e, p.json);
    if (p.json) {
        json arr = json::array();
        for (const TreeEntry &t : entries) {
            // Paths as shown (escaped): JSON is read by people and terminals too.
            json o = {{"type", t.isDir ? "directory" : "file"}, {"path", u8(displayName(t.path))}, {"size", t.size},
                      {"oid", u8(displayName(t.oid))}};
            if (!t.lfsOid.isEmpty())
                o["lfs"] = {{"oid", u8(displayName(t.lfsOid))}};
            arr.push_back(o);
        }
        printJson({{"repo", u8(displayName(pos[0]))}, {"path", u8(displayName(pos.value(1)))}, {"entries", arr}});
        return Ok;
    }
    Table t({HubCliText::tr("TYPE"), HubCliText::tr("SIZE"), HubCliText::tr("PATH")}, {false, true, false});
    for (const TreeEntry &x : entries)
        t.add({x.isDir ? QStringLiteral("dir") : x.lfsOid.isEmpty() ? QStringLiteral("file") : QStringLiteral("lfs"),
               x.isDir ? QString() : QString::number(x.size), x.path});
    out(t.render());
    return Ok;
}

void createOptions(QCommandLineParser &p)
{
    p.addOption({{QStringLiteral("n"), QStringLiteral("name")}, HubCliText::tr("The repo name, or org/name (default optimum-neuron-cache in your namespace)."), QStringLiteral("NAME"), QStringLiteral("optimum-neuron-cache")});
    p.addOption({QStringLiteral("public"), HubCliText::tr("Make the repo public (default private).")});
}

int cmdCreate(const Invocation &p)
{
    const HubContext ctx = hubContext();
    const HubConfig &cfg = ctx.config;
    const bool isPublic = p.isSet(QStringLiteral("public"));
    const CacheRepoOutcome r = createCacheRepo(ctx.hub, cfg, p.value(QStringLiteral("name")), isPublic);
    if (r.error.kind == HubError::Kind::Storage) {
        err(HubCliText::tr("error: %1").arg(r.error.message));
        return CacheUnavailable;
    }
    if (!r.error.ok())
        return fail(r.error, p.json);
    if (p.json) {
        printJson({{"repo", u8(r.repo)}, {"private", !isPublic}, {"existed", r.existed}, {"file", u8(cfg.customCacheRepoFile())}});
        return Ok;
    }
    out(HubCliText::tr("Neuron cache created on the Hugging Face Hub: %1 [%2].")
            .arg(r.repo, isPublic ? QStringLiteral("public") : QStringLiteral("private")));
    out(HubCliText::tr("Neuron cache name set locally to %1 in %2.").arg(r.repo, cfg.customCacheRepoFile()));
    return Ok;
}

void setOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("name"), HubCliText::tr("The cache repo to use, org/name."));
}

int cmdSet(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(HubCliText::tr("error: name one repo: ingot-cli cache set ORG/NAME"));
        return Usage;
    }
    const HubContext ctx = hubContext();
    const HubConfig &cfg = ctx.config;
    const CacheRepoOutcome r = setCacheRepo(ctx.hub, cfg, p.positional().first());
    if (r.error.kind == HubError::Kind::Storage) {
        err(HubCliText::tr("error: %1").arg(r.error.message));
        return Usage;
    }
    if (!r.error.ok())
        return fail(r.error, p.json);
    if (p.json)
        printJson({{"repo", u8(r.repo)}, {"file", u8(cfg.customCacheRepoFile())}});
    else
        out(HubCliText::tr("Neuron cache name set locally to %1 in %2.").arg(r.repo, cfg.customCacheRepoFile()));
    return Ok;
}

// The --instance_type ... --dtype options; false (after saying why) for a malformed number.
bool lookupFilters(const QCommandLineParser &p, LookupFilters *f)
{
    auto intOpt = [&](const char *name, int *value) {
        if (!p.isSet(QString::fromLatin1(name)))
            return true;
        bool ok = false;
        *value = p.value(QString::fromLatin1(name)).toInt(&ok);
        if (!ok || *value < 0)
            err(HubCliText::tr("error: --%1 takes a whole number").arg(QString::fromLatin1(name)));
        return ok && *value >= 0;
    };
    if (!intOpt("batch_size", &f->batchSize) || !intOpt("sequence_length", &f->sequenceLength) ||
        !intOpt("tensor_parallel_size", &f->tensorParallel))
        return false;
    f->instanceType = p.value(QStringLiteral("instance_type"));
    f->dtype = p.value(QStringLiteral("dtype"));
    return true;
}

// Text from the Hub as shown: each line escaped (control and bidi characters), the line breaks kept.
QString shownLines(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &l : lines)
        l = displayName(l);
    return lines.join(QLatin1Char('\n'));
}

// The server's JSON with every string, keys too, escaped as shown: the same document for a reader, nothing a
// terminal would act on. (Registry entries are at most 64 levels deep: parseRegistryEntry refuses deeper ones.)
json escapedJson(const json &j)
{
    if (j.is_string())
        return u8(displayName(QString::fromStdString(j.get<std::string>())));
    if (j.is_array()) {
        json a = json::array();
        for (const json &x : j)
            a.push_back(escapedJson(x));
        return a;
    }
    if (j.is_object()) {
        json o = json::object();
        for (auto it = j.begin(); it != j.end(); ++it)
            o[u8(displayName(QString::fromStdString(it.key())))] = escapedJson(it.value());
        return o;
    }
    return j;
}

json lookupEntryJson(const LookupEntry &e)
{
    json raw;
    try {
        raw = escapedJson(json::parse(e.raw.constData(), e.raw.constData() + e.raw.size()));
    } catch (const json::exception &) {
        raw = u8(shownLines(QString::fromUtf8(e.raw)));
    }
    // The entry's values are the server's text: as shown (escaped); "raw" is the entry as stored.
    return json{{"path", u8(displayName(e.path))}, {"batch_size", e.batchSize}, {"sequence_length", e.sequenceLength},
                {"tensor_parallel_size", e.tensorParallel}, {"dtype", u8(displayName(e.dtype))},
                {"instance_type", u8(displayName(e.instanceType))}, {"compiler_version", u8(displayName(e.compilerVersion))},
                {"checkpoint_revision", u8(displayName(e.checkpointRevision))}, {"layout", u8(e.registryLayout)}, {"raw", raw}};
}

// --json: the entries, the unknown shapes raw, and for an incomplete lookup what could not be read.
void printLookupJson(const QString &model, const QString &repo, const LookupResult &r)
{
    json entries = json::array(), unknown = json::array();
    for (const auto &e : r.entries)
        entries.push_back(lookupEntryJson(e));
    for (const auto &e : r.unknown)
        unknown.push_back({{"path", u8(displayName(e.path))}, {"raw", u8(shownLines(QString::fromUtf8(e.raw)))}});
    json doc = {{"model_id", u8(displayName(model))}, {"repo", u8(displayName(repo))}, {"entries", entries},
                {"unknown", unknown}, {"fetched", r.fetched}};
    if (!r.failures.isEmpty()) {
        json failures = json::array();
        for (const LookupFailure &f : r.failures)
            failures.push_back({{"path", u8(displayName(f.path))}, {"error", u8(f.error.message)}, {"status", f.error.status}});
        doc["incomplete"] = failures;
        doc["error"] = u8(r.error.message);
    }
    printJson(doc);
}

void printLookupText(const QString &model, const LookupResult &r, bool raw)
{
    out(formatLookupTable(model, r.entries));
    if (r.unknown.isEmpty())
        return;
    const int unknown = int(r.unknown.size());
    err(raw ? HubCliText::tr("%n registry entr(ies) of an unknown shape.", nullptr, unknown)
            : HubCliText::tr("%n registry entr(ies) of an unknown shape (--raw shows them).", nullptr, unknown));
    if (raw)
        for (const auto &e : r.unknown)
            out(QStringLiteral("%1:\n%2").arg(displayName(e.path), QString::fromUtf8(e.raw)));
}

void lookupOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("model_id"), HubCliText::tr("The model to look up, org/name."));
    p.addOption({QStringLiteral("instance_type"), HubCliText::tr("Only this instance type (trn1, trn2, inf2)."), QStringLiteral("TYPE")});
    p.addOption({QStringLiteral("batch_size"), HubCliText::tr("Only this batch size."), QStringLiteral("N")});
    p.addOption({QStringLiteral("sequence_length"), HubCliText::tr("Only this sequence length."), QStringLiteral("N")});
    p.addOption({QStringLiteral("tensor_parallel_size"), HubCliText::tr("Only this tensor parallel size."), QStringLiteral("N")});
    p.addOption({QStringLiteral("dtype"), HubCliText::tr("Only this dtype (bfloat16, float16)."), QStringLiteral("DTYPE")});
    p.addOption({QStringLiteral("repo_id"), HubCliText::tr("The cache repo (default: CUSTOM_CACHE_REPO, the file set by `cache set`, or the public one)."), QStringLiteral("REPO")});
    p.addOption({QStringLiteral("raw"), HubCliText::tr("Also print entries of an unknown shape as stored.")});
}

int cmdLookup(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(HubCliText::tr("error: name one model: ingot-cli cache lookup ORG/MODEL"));
        return Usage;
    }
    LookupFilters f;
    if (!lookupFilters(p.parser, &f))
        return Usage;
    const QString model = p.positional().first();
    const HubContext ctx = hubContext();
    const QString repo = p.isSet(QStringLiteral("repo_id")) ? p.value(QStringLiteral("repo_id"))
                                                               : resolveCacheRepo(ctx.config).repo;
    const LookupResult r = lookupModel(ctx.hub, repo, model, f);
    if (r.failed())
        return fail(r.error, p.json);
    if (p.json)
        printLookupJson(model, repo, r);
    else
        printLookupText(model, r, p.isSet(QStringLiteral("raw")));
    // What was read is printed; what could not be read is an error, so a script never takes it for "not cached".
    if (r.error.kind == HubError::Kind::Incomplete)
        err(HubCliText::tr("error: %1").arg(r.error.message));
    return exitFor(r.error);
}
}  // namespace

std::shared_ptr<SecretStore> keychain()
{
    return defaultSecretStore();
}

HubContext hubContext()
{
    std::shared_ptr<SecretStore> kc = keychain();
    const HubConfig cfg = HubConfig::fromEnvironment();
    ResolvedToken tok = resolveToken(cfg, kc.get());
    HubClient hub(cfg.endpoint, tok.token, cfg.offline);
    return HubContext{std::move(kc), cfg, std::move(tok), std::move(hub)};
}

int exitFor(const HubError &e)
{
    using K = HubError::Kind;
    switch (e.kind) {
    case K::None: return Ok;
    case K::InvalidArgument: return Usage;
    case K::Incomplete: return HubFailure;  // a lookup that could not read every registry folder (README)
    case K::Offline: return HubOffline;
    case K::Unauthorized:
    case K::NotFound:
    case K::RevisionNotFound:
    case K::EntryNotFound:
    case K::Gated:
    case K::Forbidden: return HubAccess;
    default: return HubFailure;
    }
}

int fail(const HubError &e, bool asJson)
{
    if (asJson)
        printJson({{"error", u8(e.message)}, {"status", e.status}});
    err(HubCliText::tr("error: %1").arg(e.message));
    return exitFor(e);
}


QVector<Command> hubCommands()
{
    const QString hub = QStringLiteral("hub"), cache = QStringLiteral("cache");
    return {
        {hub, QStringLiteral("whoami"), HubCliText::tr("Who the token belongs to, its role, and where the token came from"),
         JsonOption, {}, cmdWhoami},
        {hub, QStringLiteral("ls"), HubCliText::tr("List a repo's files: ingot-cli hub ls REPO [PATH] [-R] [--revision REV] [--marks]"),
         JsonOption | CacheDirOption, lsOptions, cmdLs},
        {hub, QStringLiteral("login"), HubCliText::tr("Save a token (read from standard input) in the keychain or the token file"),
         JsonOption, {}, cmdLogin},
        {hub, QStringLiteral("logout"), HubCliText::tr("Forget the saved token"), JsonOption, {}, cmdLogout},
        {cache, QStringLiteral("create"), HubCliText::tr("Create a cache repo on the Hub and use it (-n NAME, --public), as optimum-cli"),
         JsonOption, createOptions, cmdCreate},
        {cache, QStringLiteral("set"), HubCliText::tr("Use an existing Hub repo as the cache repo (writes the file optimum-cli reads)"),
         JsonOption, setOptions, cmdSet},
        {cache, QStringLiteral("lookup"), HubCliText::tr("Registry entries of a model in the Hub cache (--instance_type, --batch_size, ...)"),
         JsonOption, lookupOptions, cmdLookup},
    };
}

QString formatLookupTable(const QString &modelId, const QVector<LookupEntry> &entries)
{
    if (entries.isEmpty())
        return LookupTableText::tr("No cached entries found for %1.").arg(displayName(modelId));
    const QStringList columns = {QStringLiteral("batch size"), QStringLiteral("sequence length"),
                                 QStringLiteral("tensor parallel"), QStringLiteral("dtype"),
                                 QStringLiteral("instance type"), QStringLiteral("compiler version"),
                                 QStringLiteral("checkpoint revision")};
    QList<QStringList> rows;
    for (const LookupEntry &e : entries)
        // The registry's values, escaped: a newline in one cannot split a row, nor an escape sequence reach the terminal.
        rows << QStringList{QString::number(e.batchSize), QString::number(e.sequenceLength), QString::number(e.tensorParallel),
                            displayName(e.dtype), displayName(e.instanceType), displayName(e.compilerVersion),
                            displayName(e.checkpointRevision)};
    QList<int> width;
    for (int c = 0; c < columns.size(); ++c) {
        int w = std::max(16, int(columns[c].size()) + 2);
        for (const QStringList &r : std::as_const(rows))
            w = std::max(w, int(r[c].size()) + 2);
        width << w;
    }
    auto center = [](const QString &s, int w) -> QString {
        const int pad = std::max(0, w - int(s.size()));
        return QString(pad / 2, QLatin1Char(' ')) + s + QString(pad - pad / 2, QLatin1Char(' '));
    };
    auto line = [&](const QStringList &cells) {
        QString l;
        for (int c = 0; c < columns.size(); ++c)
            l += center(cells[c], width[c]);
        return l;
    };
    QStringList lines{LookupTableText::tr("Cached entries for %1").arg(displayName(modelId)), line(columns)};
    for (const QStringList &r : std::as_const(rows))
        lines << line(r);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ingot::cli
