// "Why did it compile again?": for a module key (neuronxcc-<version>/MODULE_<hlo hash>+<flags hash>), what the
// compile cache a job looked in holds, and the first of these that explains the compile (docs/formats.md, "Why a
// graph compiled"):
//   hit             the same key is there as SUCCESS: nothing compiles
//   blocked         the same key is there as FAILED (the compiler will not retry it) or LOCKED
//   other-cache     the same key is SUCCESS in another cache Ingot knows, not in this one
//   other-flags     the same graph is there compiled with other flags: the flag difference
//   other-compiler  the same key is there under another neuronxcc-<version> folder
//   new-graph       nothing close: the nearest module of the same name, and how its signature differs
// The rule is pure: the caches are handed in (a scanned snapshot and a store for the one the job used; lookups for
// the others), so the GUI, the CLI and the job monitor explain alike.
#pragma once

#include "services/cache/cachetypes.h"
#include "services/cache/hlo.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>
#include <optional>

namespace ingot {

class CacheStore;

struct ModuleKey {
    QString version;  // "neuronxcc-2.15.128.0+56dc5a86"
    QString name;     // "MODULE_12486829708343293975+d41d8cd9"
    QString hlo;      // the graph hash
    QString flags;    // the flags hash; empty for a traced module (MODULE_<hash>)

    // "neuronxcc-<ver>/MODULE_<hlo>[+<flags>]" (a trailing '/' allowed). nullopt for anything else, or a name
    // that would leave the cache root ("..", a '/' inside a part).
    static std::optional<ModuleKey> parse(const QString &key);
    // The last neuronxcc-<ver>/MODULE_… pair inside a longer path (a model.neff path in a compiler log line, a
    // module folder with its cache root before it).
    static std::optional<ModuleKey> find(const QString &path);
    QString key() const { return version + QLatin1Char('/') + name; }
};

enum class Verdict { Hit, Blocked, OtherCache, OtherFlags, OtherCompiler, NewGraph };
QString verdictName(Verdict v);  // "hit", "blocked", "other-cache", "other-flags", "other-compiler", "new-graph"
QString verdictLabel(Verdict v);  // as people read it: "Hit", "Blocked", "In another cache", ...
bool parseVerdictName(const QString &name, Verdict *out);

// Another cache Ingot knows (a local folder, a host's cache, a Hub cache repo): the state of one key there,
// nullopt when it does not hold it. *error when it cannot be asked (the lookup then counts as "not there").
struct OtherCache {
    QString shown;  // a path, host:path or hub:org/name
    std::function<std::optional<ModuleState>(const ModuleKey &key, QString *error)> lookup;
};

// The cache the job looked in.
struct ExplainTarget {
    QString shown;                        // path or host:path
    QString rule;                         // why the job used it (CacheLocation::explanation), may be empty
    const CacheSnapshot *snapshot = nullptr;  // scanned
    CacheStore *store = nullptr;          // opened: flags and HLO are read through it
    bool compilerRunning = false;         // a neuronx-cc runs where the cache is (a lock may be live)
    bool compilersUnseen = false;         // whether one runs cannot be seen (an S3 cache): locks go only by age
};

struct ExplainOptions {
    // The entry was written by the job being explained (the monitor's compile activity): its own presence is the
    // result of the compile, so what was there before is explained instead.
    bool compiledByJob = false;
    int maxCandidates = 32;  // modules whose HLO is read to find the nearest one
};

struct Explanation {
    Verdict verdict = Verdict::NewGraph;
    ModuleKey key;
    QString cache;  // ExplainTarget::shown
    QString rule;
    bool present = false;  // the key is in the cache (any state)
    bool writtenByJob = false;  // ExplainOptions::compiledByJob: what is there now is the job's own compile
    ModuleState state = ModuleState::Empty;
    bool lockMayBeLive = false;  // blocked by a lock while a compiler runs there
    bool lockByAge = false;      // blocked by a lock where no compiler can be seen (S3): cleared only by its age
    QString otherCache;          // other-cache: where the key is SUCCESS
    QString otherKey;            // other-flags / other-compiler / new-graph: the entry compared with
    QStringList flags;           // this key's flags, when known (its own compile_flags, or another entry's with the
    bool flagsKnown = false;     // same flags hash)
    QStringList otherFlags;      // other-flags: the other entry's
    QStringList flagsAdded;      // in this key's flags, not the other's
    QStringList flagsRemoved;    // in the other's, not this key's
    QStringList changes;         // new-graph: how the nearest module's signature differs (hloDifferences)
    QStringList notes;           // what else was seen (caches that could not be asked, an unfinished entry, ...)

    QString headline() const;      // one sentence: the verdict with its evidence
    QStringList evidence() const;  // lines: paths, versions, the flag difference, the changes
    QString fix() const;           // what to do about it, empty when nothing is to be done
};

Explanation explainModule(const ModuleKey &key, const ExplainTarget &target, const QVector<OtherCache> &others,
                          const ExplainOptions &options = {});

// The HLO summary of an entry of `store`: reads its HLO file (at most maxBytes) and parses it.
std::optional<HloSummary> readEntryHlo(CacheStore &store, const CacheModule &m, QString *error,
                                       qint64 maxBytes = 256LL << 20);
// An entry's compile flags (compile_flags.json, or the older compile_flags.txt).
std::optional<QStringList> readEntryFlags(CacheStore &store, const CacheModule &m, QString *error);

}  // namespace ingot
