#include "services/hub/lookup.h"

#include "services/util/names.h"
#include "services/util/parallel.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <vector>

namespace ingot {

namespace {
struct LookupText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Lookup)
};

const QString kMain = QStringLiteral("main");
const QString kCurrentLayout = QStringLiteral("current");
const QString kLegacyLayout = QStringLiteral("0.2-0.4");
const QString kModesLayout = QStringLiteral("0.1 (training/inference)");
const QString kRegistryJson = QStringLiteral("registry.json");
constexpr int kPathsPerRequest = 100;
constexpr qint64 kMaxEntryBytes = 16 * 1024 * 1024;
constexpr int kFailuresNamed = 5;

// A folder or file of the registry, with the layout it belongs to.
struct Item {
    QString path;
    QString layout;
};

// An entry file's text, when it could be read.
struct Fetched {
    QByteArray body;
    bool ok = false;
};

bool isModelId(const QString &modelId)
{
    const QStringList parts = modelId.split(QLatin1Char('/'));
    return parts.size() == 2 && !parts[0].isEmpty() && !parts[1].isEmpty() && HubClient::isSafeRepoPath(modelId);
}

// A folder that is not there holds no entries: that is an answer, not a failure.
bool isMissing(const HubError &e)
{
    return e.kind == HubError::Kind::EntryNotFound || e.kind == HubError::Kind::NotFound;
}

// The walk through a repo's registry down to the entry files of one model (docs/formats.md, "Hub cache repos",
// Lookup): each step lists folders in parallel and records what it could not read in `res.failures`.
class RegistryWalk final
{
public:
    RegistryWalk(const HubClient &hub, const QString &repo, const QString &modelId, const LookupOptions &options,
                 const std::atomic_bool *cancel, LookupResult &res)
        : m_hub(hub), m_repo(repo), m_modelId(modelId), m_options(options), m_cancel(cancel), m_res(res)
    {
    }
    Q_DISABLE_COPY_MOVE(RegistryWalk)

    bool stopped() const { return m_cancel && m_cancel->load(); }

    // Steps 1-5: the entry files of the model, in every layout; empty with res.error set when the walk failed.
    QVector<Item> entryFiles()
    {
        bool registryJson = false;
        const QVector<Item> roots = readRoot(&registryJson);
        QVector<Item> files;
        if (m_res.error.ok() && !stopped())
            files = listEntryFiles(existingOf(modelFolders(listVersions(roots))));
        if (registryJson)
            files.append({kRegistryJson, kRegistryJson});
        if (stopped())
            m_res.error = {HubError::Kind::Cancelled, 0, LookupText::tr("Cancelled.")};
        return m_res.error.ok() ? files : QVector<Item>();
    }

    // Step 6: every entry file, in parallel. A file that could not be read is recorded as a failure.
    QVector<Fetched> fetch(const QVector<Item> &files)
    {
        QVector<Fetched> bodies(files.size());
        QVector<HubError> errors(files.size());
        parallelFor(int(files.size()), m_options.parallel, m_cancel, [&](int i) {
            bodies[i].body = m_hub.readFile(m_repo, kMain, files[i].path, kMaxEntryBytes, &errors[i], nullptr, m_cancel);
            bodies[i].ok = errors[i].ok();
        }).rethrowFirst();
        for (int i = 0; i < files.size(); ++i)
            if (!errors[i].ok())
                record(files[i].path, errors[i]);
        if (stopped())
            m_res.error = {HubError::Kind::Cancelled, 0, LookupText::tr("Cancelled.")};
        return bodies;
    }

private:
    struct Listing {
        QVector<TreeEntry> entries;
        HubError error;
    };

    // Step 1: the repo root's registry roots (compiler folders' 0_REGISTRY, a top-level 0_REGISTRY) and whether
    // the oldest layout's registry.json is there. A root that cannot be listed fails the lookup.
    QVector<Item> readRoot(bool *registryJson)
    {
        const QVector<TreeEntry> root = m_hub.listTree(m_repo, kMain, QString(), false, &m_res.error, m_cancel);
        QVector<Item> roots;
        for (const TreeEntry &e : root) {
            if (e.isDir && e.path.startsWith(QLatin1String("neuronxcc-")))
                roots.append({e.path + QStringLiteral("/0_REGISTRY"), kCurrentLayout});
            else if (e.isDir && e.path == QLatin1String("0_REGISTRY"))
                roots.append({e.path, kLegacyLayout});
            else if (!e.isDir && e.path == kRegistryJson)
                *registryJson = true;
        }
        return roots;
    }

    // Step 2: the optimum-neuron versions of each registry root: the folders holding model types.
    QVector<Item> listVersions(const QVector<Item> &roots)
    {
        const QVector<Listing> lists = listAll(roots, false);
        QVector<Item> versions;
        for (int i = 0; i < roots.size(); ++i)
            for (const TreeEntry &v : lists[i].entries)
                if (v.isDir) {
                    m_res.registries << v.path;
                    versions.append({v.path, roots[i].layout});
                }
        return versions;
    }

    // Step 3: the model types of each version, through 0.1's training/inference level, as candidate model
    // folders <type>/<org>/<model>.
    QVector<Item> modelFolders(const QVector<Item> &versions)
    {
        QVector<Item> candidates, modes;
        addCandidates(versions, listAll(versions, false), &candidates, &modes);
        addCandidates(modes, listAll(modes, false), &candidates, nullptr);
        return candidates;
    }

    void addCandidates(const QVector<Item> &parents, const QVector<Listing> &lists, QVector<Item> *candidates,
                       QVector<Item> *modes) const
    {
        for (int i = 0; i < parents.size(); ++i)
            for (const TreeEntry &t : lists[i].entries) {
                if (!t.isDir)
                    continue;
                const QString leaf = t.path.section(QLatin1Char('/'), -1);
                if (modes && (leaf == QLatin1String("training") || leaf == QLatin1String("inference")))
                    modes->append({t.path, kModesLayout});
                else
                    candidates->append({t.path + QLatin1Char('/') + m_modelId, parents[i].layout});
            }
    }

    // Step 4: which candidate folders exist, one paths-info call per 100. A call that fails is recorded against
    // the model-type folders it asked about.
    QVector<Item> existingOf(const QVector<Item> &candidates)
    {
        QHash<QString, QString> layoutOf;
        QStringList paths;
        for (const Item &c : candidates) {
            layoutOf.insert(c.path, c.layout);
            paths << c.path;
        }
        QVector<Item> found;
        for (int i = 0; i < paths.size() && !stopped(); i += kPathsPerRequest) {
            const QStringList chunk = paths.mid(i, kPathsPerRequest);
            HubError e;
            const QVector<TreeEntry> existing = m_hub.pathsInfo(m_repo, kMain, chunk, &e, m_cancel);
            for (const QString &p : chunk)
                if (!e.ok())
                    record(p.chopped(m_modelId.size() + 1), e);
            for (const TreeEntry &f : existing)
                found.append({f.path, layoutOf.value(f.path)});
        }
        return found;
    }

    // Step 5: the *.json files below each model folder.
    QVector<Item> listEntryFiles(const QVector<Item> &modelDirs)
    {
        const QVector<Listing> lists = listAll(modelDirs, true);
        QVector<Item> files;
        for (int i = 0; i < modelDirs.size(); ++i)
            for (const TreeEntry &f : lists[i].entries)
                if (!f.isDir && f.path.endsWith(QLatin1String(".json")))
                    files.append({f.path, modelDirs[i].layout});
        return files;
    }

    // Lists `folders` in parallel; a folder that is not there is empty, any other failure is recorded.
    QVector<Listing> listAll(const QVector<Item> &folders, bool recursive)
    {
        QVector<Listing> lists(folders.size());
        parallelFor(int(folders.size()), m_options.parallel, m_cancel, [&](int i) {
            lists[i].entries = m_hub.listTree(m_repo, kMain, folders[i].path, recursive, &lists[i].error, m_cancel);
        }).rethrowFirst();
        for (int i = 0; i < folders.size(); ++i)
            if (!lists[i].error.ok() && !isMissing(lists[i].error))
                record(folders[i].path, lists[i].error);
        return lists;
    }

    // Called on the walk's own thread only (after the parallel part of a step).
    void record(const QString &path, const HubError &e)
    {
        if (e.kind == HubError::Kind::Cancelled || stopped())
            return;
        for (const LookupFailure &f : std::as_const(m_res.failures))
            if (f.path == path)
                return;
        m_res.failures.append({path, e});
    }

    const HubClient &m_hub;
    const QString m_repo;
    const QString m_modelId;
    const LookupOptions m_options;
    const std::atomic_bool *m_cancel;
    LookupResult &m_res;
};

// Step 7: the entries of the files read: filtered, de-duplicated, sorted; unknown shapes kept raw.
class EntryCollector final
{
public:
    EntryCollector(const QString &modelId, const LookupFilters &filters, const LookupOptions &options, LookupResult &res)
        : m_modelId(modelId), m_filters(filters), m_options(options), m_res(res)
    {
    }
    Q_DISABLE_COPY_MOVE(EntryCollector)

    void addFile(const Item &file, const QByteArray &body)
    {
        ++m_res.fetched;
        if (file.layout != kRegistryJson) {
            add(parseRegistryEntry(body, file.path), file.layout);
            return;
        }
        for (LookupEntry &e : parseRegistryJson(body, file.path, m_modelId))
            add(std::move(e), file.layout);
    }

    void sort()
    {
        std::sort(m_res.entries.begin(), m_res.entries.end(), [](const LookupEntry &a, const LookupEntry &b) {
            return std::tie(a.tensorParallel, a.batchSize, a.sequenceLength, a.dtype, a.instanceType, a.compilerVersion) <
                   std::tie(b.tensorParallel, b.batchSize, b.sequenceLength, b.dtype, b.instanceType, b.compilerVersion);
        });
    }

private:
    void add(LookupEntry e, const QString &layout)
    {
        e.registryLayout = layout;
        if (!e.known) {
            m_res.unknown.append(e);
            return;
        }
        if (m_options.applyFilters && !m_filters.matches(e))
            return;
        const QString key = QStringLiteral("%1|%2|%3|%4|%5|%6|%7").arg(e.batchSize).arg(e.sequenceLength).arg(e.tensorParallel)
                                .arg(e.dtype, e.instanceType, e.compilerVersion, e.checkpointRevision);
        if (!m_seen.contains(key)) {
            m_seen.insert(key);
            m_res.entries.append(e);
        }
    }

    const QString m_modelId;
    const LookupFilters m_filters;
    const LookupOptions m_options;
    LookupResult &m_res;
    QSet<QString> m_seen;
};

// What could not be read, named, with what to do.
HubError incompleteError(const QString &repo, const QVector<LookupFailure> &failures)
{
    QStringList lines{LookupText::tr("Incomplete: %n registry folder(s) or file(s) of %1 could not be read, so entries "
                                     "stored there are missing from the result:", nullptr, int(failures.size())).arg(displayName(repo))};
    for (int i = 0; i < failures.size() && i < kFailuresNamed; ++i)
        lines << QStringLiteral("  %1: %2").arg(displayName(failures[i].path), failures[i].error.message);
    if (failures.size() > kFailuresNamed)
        lines << LookupText::tr("  and %n more.", nullptr, int(failures.size()) - kFailuresNamed);
    lines << LookupText::tr("Run the lookup again; if it keeps failing, check the repo and your access on the Hub.");
    return {HubError::Kind::Incomplete, 0, lines.join(QLatin1Char('\n'))};
}
}  // namespace

bool LookupFilters::matches(const LookupEntry &e) const
{
    if (!instanceType.isEmpty() && e.instanceType != instanceType)
        return false;
    if (batchSize >= 0 && e.batchSize != batchSize)
        return false;
    if (sequenceLength >= 0 && e.sequenceLength != sequenceLength)
        return false;
    if (tensorParallel >= 0 && e.tensorParallel != tensorParallel)
        return false;
    if (!dtype.isEmpty() && normalizeDtype(e.dtype) != normalizeDtype(dtype))
        return false;
    return true;
}

LookupResult lookupModel(const HubClient &hub, const QString &repo, const QString &modelId, const LookupFilters &filters,
                         const LookupOptions &options, const std::atomic_bool *cancel)
{
    LookupResult res;
    if (!isModelId(modelId)) {
        res.error = {HubError::Kind::InvalidArgument, 0,
                     LookupText::tr("\"%1\" is not a model id: use org/name, as on the Hub (e.g. meta-llama/Llama-3.1-8B).")
                         .arg(displayName(modelId))};
        return res;
    }
    HubClient walker = hub;
    walker.setListingLimits(options.listing);
    RegistryWalk walk(walker, repo, modelId, options, cancel, res);
    const QVector<Item> files = walk.entryFiles();
    if (!res.error.ok())
        return res;
    const QVector<Fetched> bodies = walk.fetch(files);
    if (!res.error.ok())
        return res;
    EntryCollector collect(modelId, filters, options, res);
    for (int i = 0; i < files.size(); ++i)
        if (bodies[i].ok)
            collect.addFile(files[i], bodies[i].body);
    collect.sort();
    if (!res.failures.isEmpty())
        res.error = incompleteError(repo, res.failures);
    return res;
}

}  // namespace ingot
