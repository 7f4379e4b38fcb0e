#include "services/hub/lookup.h"

#include <QCoreApplication>
#include <QMutex>
#include <QSet>

#include <nlohmann/json.hpp>

#include <thread>

namespace ingot {

using nlohmann::json;

namespace {
struct LookupText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Lookup)
};

const json *find(const json &o, std::initializer_list<const char *> keys)
{
    for (const char *k : keys)
        if (const auto it = o.find(k); it != o.end() && !it->is_null())
            return &*it;
    return nullptr;
}

int intOf(const json &o, std::initializer_list<const char *> keys)
{
    const json *v = find(o, keys);
    if (!v)
        return -1;
    if (v->is_number_integer() || v->is_number_unsigned())
        return v->get<int>();
    if (v->is_number_float())
        return int(v->get<double>());
    if (v->is_string()) {
        bool ok = false;
        const int n = QString::fromStdString(v->get<std::string>()).toInt(&ok);
        return ok ? n : -1;
    }
    return -1;
}

QString strOf(const json &o, std::initializer_list<const char *> keys)
{
    const json *v = find(o, keys);
    if (!v)
        return {};
    if (v->is_string())
        return QString::fromStdString(v->get<std::string>());
    if (v->is_number() || v->is_boolean())
        return QString::fromStdString(v->dump());
    return {};
}

struct Candidate {
    QString path;
    QString layout;
};

// Runs fn(i) for i in [0, n) on up to `threads` threads.
template<class Fn>
void parallelFor(int n, int threads, const std::atomic_bool *cancel, Fn fn)
{
    std::atomic<int> next{0};
    auto work = [&] {
        for (int i = next++; i < n; i = next++) {
            if (cancel && cancel->load())
                return;
            fn(i);
        }
    };
    const int t = std::max(1, std::min(threads, n));
    std::vector<std::thread> pool;
    for (int k = 1; k < t; ++k)
        pool.emplace_back(work);
    work();
    for (auto &th : pool)
        th.join();
}
}  // namespace

QString normalizeDtype(const QString &dtype)
{
    QString d = dtype.trimmed().toLower();
    if (d.startsWith(QLatin1String("torch.")))
        d = d.mid(6);
    if (d == QLatin1String("bf16"))
        return QStringLiteral("bfloat16");
    if (d == QLatin1String("fp16") || d == QLatin1String("half"))
        return QStringLiteral("float16");
    if (d == QLatin1String("fp32") || d == QLatin1String("float"))
        return QStringLiteral("float32");
    return d;
}

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

LookupEntry parseRegistryEntry(const QByteArray &text, const QString &path)
{
    LookupEntry e;
    e.path = path;
    e.raw = text;
    json j;
    try {
        j = json::parse(text.constData(), text.constData() + text.size());
    } catch (const json::exception &) {
        return e;
    }
    if (!j.is_object())
        return e;
    // Current and 0.2+ entries keep the compile settings in "neuron"; legacy ones put them at the top.
    const json &n = j.contains("neuron") && j["neuron"].is_object() ? j["neuron"] : j;
    e.batchSize = intOf(n, {"batch_size", "static_batch_size"});
    e.sequenceLength = intOf(n, {"sequence_length", "static_sequence_length"});
    e.tensorParallel = intOf(n, {"tp_degree", "tensor_parallel_size", "num_cores"});
    e.dtype = normalizeDtype(strOf(n, {"torch_dtype", "dtype", "auto_cast_type"}));
    e.instanceType = strOf(n, {"target", "instance_type"});
    e.compilerVersion = strOf(n, {"neuronxcc_version", "compiler_version"});
    e.checkpointRevision = strOf(n, {"checkpoint_revision"});
    e.modelId = strOf(j, {"_model_id", "model_id"});
    if (e.modelId.isEmpty())
        e.modelId = strOf(n, {"checkpoint_id"});
    e.task = strOf(j, {"_task", "task"});
    if (e.task.isEmpty())
        e.task = strOf(n, {"task"});
    e.known = e.batchSize >= 0 && e.sequenceLength >= 0;
    return e;
}

LookupResult lookupModel(const HubClient &hub, const QString &repo, const QString &modelId, const LookupFilters &filters,
                         const LookupOptions &options, const std::atomic_bool *cancel)
{
    LookupResult res;
    HubError &err = res.error;
    const QStringList parts = modelId.split(QLatin1Char('/'));
    if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty() || !HubClient::isSafeRepoPath(modelId)) {
        err = {HubError::Kind::BadResponse, 0, LookupText::tr("\"%1\" is not a model id of the form org/name.").arg(modelId)};
        return res;
    }
    // 1. The repo root: compiler folders (current layout), 0_REGISTRY (0.1-0.4), registry.json (oldest).
    const QVector<TreeEntry> root = hub.listTree(repo, QStringLiteral("main"), QString(), false, &err, cancel);
    if (!err.ok())
        return res;
    QStringList registryRoots;
    bool haveRegistryJson = false;
    for (const TreeEntry &e : root) {
        if (e.isDir && e.path.startsWith(QLatin1String("neuronxcc-")))
            registryRoots << e.path + QStringLiteral("/0_REGISTRY");
        else if (e.isDir && e.path == QLatin1String("0_REGISTRY"))
            registryRoots << e.path;
        else if (!e.isDir && e.path == QLatin1String("registry.json"))
            haveRegistryJson = true;
    }
    // 2. Each registry root: optimum-neuron versions, then model types (and 0.1's training/inference level).
    QVector<Candidate> modelDirs;
    QVector<QVector<TreeEntry>> versionLists(registryRoots.size());
    QVector<HubError> errors(registryRoots.size());
    parallelFor(int(registryRoots.size()), options.parallel, cancel, [&](int i) {
        versionLists[i] = hub.listTree(repo, QStringLiteral("main"), registryRoots[i], false, &errors[i], cancel);
    });
    QVector<QPair<QString, QString>> typeRoots;  // (folder holding model types, layout)
    for (int i = 0; i < registryRoots.size(); ++i) {
        if (!errors[i].ok() && errors[i].kind != HubError::Kind::EntryNotFound && errors[i].kind != HubError::Kind::NotFound) {
            err = errors[i];
            return res;
        }
        const bool current = registryRoots[i] != QLatin1String("0_REGISTRY");
        for (const TreeEntry &v : std::as_const(versionLists[i]))
            if (v.isDir) {
                res.registries << v.path;
                typeRoots.append({v.path, current ? QStringLiteral("current") : QStringLiteral("0.2-0.4")});
            }
    }
    QVector<QVector<TreeEntry>> typeLists(typeRoots.size());
    QVector<HubError> typeErrors(typeRoots.size());
    parallelFor(int(typeRoots.size()), options.parallel, cancel, [&](int i) {
        typeLists[i] = hub.listTree(repo, QStringLiteral("main"), typeRoots[i].first, false, &typeErrors[i], cancel);
    });
    QStringList candidates;
    QHash<QString, QString> layoutOf;
    QVector<QPair<QString, QString>> modeRoots;
    for (int i = 0; i < typeRoots.size(); ++i) {
        for (const TreeEntry &t : std::as_const(typeLists[i])) {
            if (!t.isDir)
                continue;
            const QString leaf = t.path.section(QLatin1Char('/'), -1);
            if (leaf == QLatin1String("training") || leaf == QLatin1String("inference")) {
                modeRoots.append({t.path, QStringLiteral("0.1 (training/inference)")});
                continue;
            }
            const QString c = t.path + QLatin1Char('/') + modelId;
            candidates << c;
            layoutOf.insert(c, typeRoots[i].second);
        }
    }
    QVector<QVector<TreeEntry>> modeLists(modeRoots.size());
    QVector<HubError> modeErrors(modeRoots.size());
    parallelFor(int(modeRoots.size()), options.parallel, cancel, [&](int i) {
        modeLists[i] = hub.listTree(repo, QStringLiteral("main"), modeRoots[i].first, false, &modeErrors[i], cancel);
    });
    for (int i = 0; i < modeRoots.size(); ++i)
        for (const TreeEntry &t : std::as_const(modeLists[i]))
            if (t.isDir) {
                const QString c = t.path + QLatin1Char('/') + modelId;
                candidates << c;
                layoutOf.insert(c, modeRoots[i].second);
            }
    // 3. Which model folders exist: one paths-info call per 100 candidates.
    for (int i = 0; i < candidates.size(); i += 100) {
        const QVector<TreeEntry> found = hub.pathsInfo(repo, QStringLiteral("main"), candidates.mid(i, 100), &err, cancel);
        if (!err.ok())
            return res;
        for (const TreeEntry &f : found)
            modelDirs.append({f.path, layoutOf.value(f.path)});
    }
    // 4. Their entry files.
    QVector<QVector<TreeEntry>> files(modelDirs.size());
    QVector<HubError> fileErrors(modelDirs.size());
    parallelFor(int(modelDirs.size()), options.parallel, cancel, [&](int i) {
        files[i] = hub.listTree(repo, QStringLiteral("main"), modelDirs[i].path, true, &fileErrors[i], cancel);
    });
    QVector<Candidate> entryFiles;
    for (int i = 0; i < modelDirs.size(); ++i) {
        if (!fileErrors[i].ok()) {
            err = fileErrors[i];
            return res;
        }
        for (const TreeEntry &f : std::as_const(files[i]))
            if (!f.isDir && f.path.endsWith(QLatin1String(".json")))
                entryFiles.append({f.path, modelDirs[i].layout});
    }
    if (haveRegistryJson)
        entryFiles.append({QStringLiteral("registry.json"), QStringLiteral("registry.json")});
    // 5. Fetch every entry, in parallel.
    QVector<QByteArray> bodies(entryFiles.size());
    QVector<HubError> bodyErrors(entryFiles.size());
    parallelFor(int(entryFiles.size()), options.parallel, cancel, [&](int i) {
        bodies[i] = hub.readFile(repo, QStringLiteral("main"), entryFiles[i].path, 16 * 1024 * 1024, &bodyErrors[i], nullptr, cancel);
    });
    if (cancel && cancel->load()) {
        err = {HubError::Kind::Cancelled, 0, LookupText::tr("Cancelled.")};
        return res;
    }
    QSet<QString> seen;
    auto add = [&](LookupEntry e, const QString &layout) {
        e.registryLayout = layout;
        if (!e.known) {
            res.unknown.append(e);
            return;
        }
        if (options.applyFilters && !filters.matches(e))
            return;
        const QString key = QStringLiteral("%1|%2|%3|%4|%5|%6|%7").arg(e.batchSize).arg(e.sequenceLength).arg(e.tensorParallel)
                                .arg(e.dtype, e.instanceType, e.compilerVersion, e.checkpointRevision);
        if (!seen.contains(key)) {
            seen.insert(key);
            res.entries.append(e);
        }
    };
    for (int i = 0; i < entryFiles.size(); ++i) {
        if (!bodyErrors[i].ok()) {
            err = bodyErrors[i];
            return res;
        }
        ++res.fetched;
        if (entryFiles[i].layout != QLatin1String("registry.json")) {
            add(parseRegistryEntry(bodies[i], entryFiles[i].path), entryFiles[i].layout);
            continue;
        }
        // The oldest layout: one registry.json with entries keyed by model id (or a list of entries).
        json j;
        try {
            j = json::parse(bodies[i].constData(), bodies[i].constData() + bodies[i].size());
        } catch (const json::exception &) {
            res.unknown.append(parseRegistryEntry(bodies[i], entryFiles[i].path));
            continue;
        }
        QVector<json> items;
        if (j.is_object() && j.contains(modelId.toStdString())) {
            const json &v = j[modelId.toStdString()];
            if (v.is_array())
                for (const auto &x : v)
                    items.append(x);
            else if (v.is_object() && (v.contains("neuron") || v.contains("batch_size")))
                items.append(v);
            else if (v.is_object())
                for (const auto &x : v)
                    items.append(x);
        } else if (j.is_array()) {
            for (const auto &x : j)
                if (x.is_object())
                    items.append(x);
        }
        for (const json &x : items) {
            LookupEntry e = parseRegistryEntry(QByteArray::fromStdString(x.dump()), entryFiles[i].path);
            if (e.modelId.isEmpty() || e.modelId == modelId)
                add(e, entryFiles[i].layout);
        }
    }
    std::sort(res.entries.begin(), res.entries.end(), [](const LookupEntry &a, const LookupEntry &b) {
        return std::tie(a.tensorParallel, a.batchSize, a.sequenceLength, a.dtype, a.instanceType, a.compilerVersion) <
               std::tie(b.tensorParallel, b.batchSize, b.sequenceLength, b.dtype, b.instanceType, b.compilerVersion);
    });
    return res;
}

QString formatLookupTable(const QString &modelId, const QVector<LookupEntry> &entries)
{
    if (entries.isEmpty())
        return LookupText::tr("No cached entries found for %1.").arg(modelId);
    const QStringList columns = {QStringLiteral("batch size"), QStringLiteral("sequence length"),
                                 QStringLiteral("tensor parallel"), QStringLiteral("dtype"),
                                 QStringLiteral("instance type"), QStringLiteral("compiler version"),
                                 QStringLiteral("checkpoint revision")};
    QList<QStringList> rows;
    for (const LookupEntry &e : entries)
        rows << QStringList{QString::number(e.batchSize), QString::number(e.sequenceLength), QString::number(e.tensorParallel),
                            e.dtype, e.instanceType, e.compilerVersion, e.checkpointRevision};
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
    QStringList lines{LookupText::tr("Cached entries for %1").arg(modelId)};
    QString header;
    for (int c = 0; c < columns.size(); ++c)
        header += center(columns[c], width[c]);
    lines << header;
    for (const QStringList &r : std::as_const(rows)) {
        QString line;
        for (int c = 0; c < columns.size(); ++c)
            line += center(r[c], width[c]);
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ingot
