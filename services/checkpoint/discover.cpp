#include "services/checkpoint/discover.h"

#include "services/checkpoint/dcpconsolidate.h"
#include "services/checkpoint/metadata.h"
#include "services/checkpoint/ranknames.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace ingot {

namespace {
struct DiscoverText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

bool isNxdShardsDir(const QString &shardsDir)
{
    return QFileInfo(shardsDir).fileName() == QLatin1String("shards") || QDir(shardsDir + QStringLiteral("/model")).exists();
}

// neuronx-distributed: shards/model/dp_rank_DD_<rank>.pt (only dp rank 0 is read) and the marker shards/done.
void listNxdShards(const QString &shardsDir, CheckpointCandidate *c)
{
    c->layout = ShardLayout::NeuronxDistributed;
    for (const QFileInfo &fi : QDir(shardsDir + QStringLiteral("/model")).entryInfoList(QDir::Files)) {
        const std::optional<RankIds> r = parseNxdShardFileName(fi.fileName());
        if (r && r->dp == 0)
            c->shards.append(ShardFile{r->tp, r->pp, r->ep, r->dp, fi.absoluteFilePath(), fi.size()});
    }
    if (!QFile::exists(shardsDir + QStringLiteral("/done")))
        c->problems << DiscoverText::tr("No \"done\" marker in %1: the save may not have finished.").arg(shardsDir);
}

// The file of one rank folder: checkpoint.pt (optimum-neuron docs) or a safetensors file (Ingot's backend).
std::optional<ShardFile> shardInRankFolder(const QFileInfo &dir, const RankIds &r, CheckpointCandidate *c)
{
    ShardFile f{r.tp, r.pp, r.ep, 0, {}, 0};
    const QString pt = dir.absoluteFilePath() + QStringLiteral("/checkpoint.pt");
    QStringList st = QDir(dir.absoluteFilePath()).entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
    st.erase(std::remove_if(st.begin(), st.end(), isBackendOptimizerFile), st.end());
    if (QFile::exists(pt)) {
        c->layout = ShardLayout::OptimumDocs;
        f.path = pt;
    } else if (!st.isEmpty()) {
        c->layout = ShardLayout::IngotBackend;
        f.path = dir.absoluteFilePath() + QLatin1Char('/') + st.first();
        if (st.size() > 1)
            c->problems << DiscoverText::tr("%1 holds several safetensors files; only one per rank is expected.").arg(dir.absoluteFilePath());
    } else {
        c->problems << DiscoverText::tr("%1 holds no checkpoint.pt and no safetensors file.").arg(dir.absoluteFilePath());
        return std::nullopt;
    }
    f.bytes = QFileInfo(f.path).size();
    return f;
}

// tensor_parallel_shards/<rank>/: one folder per rank.
void listRankFolders(const QString &shardsDir, CheckpointCandidate *c)
{
    for (const QFileInfo &di : QDir(shardsDir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const std::optional<RankIds> r = parseRankName(di.fileName());
        if (!r)
            continue;
        if (const std::optional<ShardFile> f = shardInRankFolder(di, *r, c))
            c->shards.append(*f);
    }
}

void countRanks(CheckpointCandidate *c)
{
    for (const ShardFile &f : std::as_const(c->shards)) {
        c->tpSize = std::max(c->tpSize, f.tp + 1);
        c->ppSize = std::max(c->ppSize, f.pp + 1);
        c->epSize = std::max(c->epSize, f.ep + 1);
        c->bytes += f.bytes;
    }
}

// The partitioning metadata knows the real tp size and stage count: a missing last rank shows there.
void countRanksInMetadata(CheckpointCandidate *c)
{
    QStringList files;
    int legacyStages = 0;  // mp_metadata_pp_rank_Y.pt without its JSON form (older optimum-neuron): no tp size in it
    if (c->layout == ShardLayout::NeuronxDistributed) {
        for (const QString &m : QDir(c->shardsDir).entryList({mpMetadataFileGlob()}, QDir::Files))
            files << QDir(c->shardsDir).filePath(m);
        for (const QString &m : QDir(c->shardsDir).entryList({QStringLiteral("mp_metadata_pp_rank_*.pt")}, QDir::Files))
            if (!QFileInfo::exists(QDir(c->shardsDir).filePath(m.chopped(3) + QStringLiteral(".json"))))
                ++legacyStages;
    }
    else if (c->layout == ShardLayout::IngotBackend)
        for (const ShardFile &f : std::as_const(c->shards))
            files << QFileInfo(f.path).absolutePath() + QLatin1Char('/') + rankMetadataFileName();
    for (const QString &m : std::as_const(files))
        c->tpSize = std::max(c->tpSize, tpSizeInMetadata(m, &c->problems));
    if (c->layout == ShardLayout::NeuronxDistributed)
        c->ppSize = std::max(c->ppSize, int(files.size()) + legacyStages);
}

// Every (tp, pp) once; expert parallelism is not supported yet. The work is bounded whatever the names and the
// metadata claim: at most kMaxRanks ranks are looked for, and only the first missing ones are named.
void checkRanks(CheckpointCandidate *c)
{
    // Expert parallelism: neuronx-distributed's files only (dp_rank_00_ep_rank_ZZ_tp_rank_XX_pp_rank_YY.pt).
    const int ep = std::max(c->epSize, 1);
    if (ep > 1 && c->layout != ShardLayout::NeuronxDistributed) {
        c->problems << DiscoverText::tr("Expert-parallel rank folders (ep size %1) are read in neuronx-distributed's layout only.").arg(c->epSize);
        return;
    }
    std::set<std::tuple<int, int, int>> seen;
    for (const ShardFile &f : std::as_const(c->shards)) {
        if ((f.ep >= 0) != (ep > 1))
            c->problems << DiscoverText::tr("%1: some shard files name an ep rank and some do not.").arg(f.path);
        if (seen.count({f.tp, f.pp, std::max(f.ep, 0)}))
            c->problems << (ep > 1 ? DiscoverText::tr("tp rank %1, pp rank %2, ep rank %3 appears twice.").arg(f.tp).arg(f.pp).arg(f.ep)
                                   : DiscoverText::tr("tp rank %1, pp rank %2 appears twice.").arg(f.tp).arg(f.pp));
        seen.insert({f.tp, f.pp, std::max(f.ep, 0)});
    }
    if (qint64(c->tpSize) * c->ppSize * ep > kMaxRanks) {
        c->problems << DiscoverText::tr("The names and metadata claim tp %1 x pp %2 ranks, more than the %3 Ingot reads; %4 shard "
                             "files are there.").arg(c->tpSize).arg(qint64(c->ppSize) * ep).arg(kMaxRanks).arg(c->shards.size());
        return;
    }
    constexpr int kNamed = 16;
    qint64 missing = 0;
    for (int pp = 0; pp < c->ppSize; ++pp)
        for (int tp = 0; tp < c->tpSize; ++tp)
            for (int e = 0; e < ep; ++e)
                if (!seen.count({tp, pp, e}) && ++missing <= kNamed)
                    c->problems << (ep > 1 ? DiscoverText::tr("The shard of tp rank %1, pp rank %2, ep rank %3 is missing.").arg(tp).arg(pp).arg(e)
                                           : DiscoverText::tr("The shard of tp rank %1, pp rank %2 is missing.").arg(tp).arg(pp));
    if (missing > kNamed)
        c->problems << DiscoverText::tr("... and %1 more shards are missing (tp %2 x pp %3 expected, %4 found).").arg(missing - kNamed)
                           .arg(c->tpSize).arg(qint64(c->ppSize) * ep).arg(c->shards.size());
}

bool scanShardsDir(const QString &root, const QString &shardsDir, CheckpointCandidate *c)
{
    c->root = root;
    c->shardsDir = shardsDir;
    if (isNxdShardsDir(shardsDir))
        listNxdShards(shardsDir, c);
    else
        listRankFolders(shardsDir, c);
    if (c->shards.isEmpty())
        return false;
    countRanks(c);
    countRanksInMetadata(c);
    checkRanks(c);
    c->complete = c->problems.isEmpty();
    std::sort(c->shards.begin(), c->shards.end(), [](const ShardFile &a, const ShardFile &b) {
        return std::tie(a.pp, a.tp, a.ep) < std::tie(b.pp, b.tp, b.ep);
    });
    return true;
}

// Looks for shards in `root` (the folder that holds tensor_parallel_shards or shards, or that folder itself).
bool candidateAt(const QString &root, CheckpointCandidate *c)
{
    if (scanDcpFolder(root, c))
        return true;
    const QString name = QFileInfo(root).fileName();
    if (name == QLatin1String("tensor_parallel_shards") || name == QLatin1String("shards"))
        return scanShardsDir(QFileInfo(root).absolutePath(), root, c);
    if (name == QLatin1String("model") && QFileInfo(QFileInfo(root).absolutePath()).fileName() == QLatin1String("shards")) {
        const QString shards = QFileInfo(root).absolutePath();
        return scanShardsDir(QFileInfo(shards).absolutePath(), shards, c);
    }
    for (const char *sub : {"tensor_parallel_shards", "shards"}) {
        const QString s = root + QLatin1Char('/') + QLatin1String(sub);
        if (QFileInfo(s).isDir() && scanShardsDir(root, s, c))
            return true;
    }
    return false;
}

// The adapters of a checkpoint folder: adapter_<name>/adapter_shards (current optimum-neuron), adapter_shards (the
// default one of older releases) and <name>/adapter_shards (their others). Each is a candidate of its own.
void addAdapters(const QString &root, const QString &label, int step, QVector<CheckpointCandidate> *out)
{
    QVector<QPair<QString, QString>> found;  // (name, folder holding adapter_shards)
    if (QFileInfo(root + QStringLiteral("/adapter_shards")).isDir()) {
        const QString base = QFileInfo(root).fileName();
        found.append({base.startsWith(QLatin1String("adapter_")) ? base.mid(8) : QStringLiteral("default"), root});
    }
    for (const QFileInfo &d : QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (d.isSymLink() || !QFileInfo(d.absoluteFilePath() + QStringLiteral("/adapter_shards")).isDir() ||
            d.fileName() == QLatin1String("consolidated"))
            continue;
        const QString name = d.fileName().startsWith(QLatin1String("adapter_")) ? d.fileName().mid(8) : d.fileName();
        if (!name.isEmpty())
            found.append({name, d.absoluteFilePath()});
    }
    for (const auto &[name, folder] : std::as_const(found)) {
        CheckpointCandidate c;
        if (!scanShardsDir(folder, folder + QStringLiteral("/adapter_shards"), &c))
            continue;
        c.adapter = name;
        c.label = label;
        c.step = step;
        if (!QFileInfo::exists(folder + QStringLiteral("/adapter_config.json")))
            c.problems << DiscoverText::tr("The adapter %1 has no adapter_config.json beside its shards in %2: PEFT cannot load it without "
                                           "one.").arg(name, folder);
        c.complete = c.problems.isEmpty();
        out->append(c);
    }
}

const QRegularExpression &checkpointFolderName()
{
    static const QRegularExpression re(QStringLiteral("^checkpoint-(\\d+)$"));
    return re;
}

// The checkpoint-N folders under `root`.
void addStepCheckpoints(const QString &root, QVector<CheckpointCandidate> *out)
{
    for (const QFileInfo &d : QDir(root).entryInfoList({QStringLiteral("checkpoint-*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        const auto m = checkpointFolderName().match(d.fileName());
        CheckpointCandidate cc;
        if (!m.hasMatch())
            continue;
        if (candidateAt(d.absoluteFilePath(), &cc)) {
            cc.label = d.fileName();
            cc.step = m.captured(1).toInt();
            out->append(cc);
        }
        addAdapters(d.absoluteFilePath(), d.fileName(), m.captured(1).toInt(), out);
    }
    // TorchTitan: <dump_folder>/checkpoint/step-N (DCP), found from the dump folder or its checkpoint folder.
    for (const QString &dir : QStringList{root, root + QStringLiteral("/checkpoint")})
        for (const QFileInfo &d : QDir(dir).entryInfoList({QStringLiteral("step-*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
            CheckpointCandidate cc;
            int step = -1;
            if (isTorchTitanStepFolder(d.fileName(), &step) && scanDcpFolder(d.absoluteFilePath(), &cc)) {
                cc.label = d.fileName();
                cc.step = step;
                out->append(cc);
            }
        }
}
}  // namespace

const char *layoutNameSource(ShardLayout l)
{
    switch (l) {
    case ShardLayout::OptimumDocs: return QT_TRANSLATE_NOOP("ingot::Consolidate", "optimum-neuron (tensor_parallel_shards, checkpoint.pt)");
    case ShardLayout::NeuronxDistributed: return QT_TRANSLATE_NOOP("ingot::Consolidate", "neuronx-distributed (shards/model/*.pt)");
    case ShardLayout::IngotBackend: return QT_TRANSLATE_NOOP("ingot::Consolidate", "Ingot backend (tensor_parallel_shards, safetensors)");
    case ShardLayout::Dcp: return QT_TRANSLATE_NOOP("ingot::Consolidate", "PyTorch Distributed Checkpoint (.metadata, *.distcp)");
    }
    return "";
}

QString layoutName(ShardLayout l)
{
    return DiscoverText::tr(layoutNameSource(l));
}

QVector<CheckpointCandidate> findCheckpoints(const QString &path, QString *error)
{
    QVector<CheckpointCandidate> out;
    const QFileInfo fi(path);
    if (!fi.isDir()) {
        *error = fi.exists() ? DiscoverText::tr("%1 is not a folder.").arg(path) : DiscoverText::tr("%1 does not exist.").arg(path);
        return out;
    }
    const QString root = fi.absoluteFilePath();
    CheckpointCandidate c;
    if (candidateAt(root, &c)) {
        const auto m = checkpointFolderName().match(QFileInfo(c.root).fileName());
        c.label = m.hasMatch() ? QFileInfo(c.root).fileName() : QStringLiteral("final");  // a name: --checkpoint final
        c.step = m.hasMatch() ? m.captured(1).toInt() : -1;
        if (int step = -1; c.layout == ShardLayout::Dcp && isTorchTitanStepFolder(QFileInfo(c.root).fileName(), &step)) {
            c.label = QFileInfo(c.root).fileName();
            c.step = step;
        }
        out.append(c);
    }
    {
        const auto m = checkpointFolderName().match(QFileInfo(root).fileName());
        addAdapters(root, m.hasMatch() ? QFileInfo(root).fileName() : QStringLiteral("final"), m.hasMatch() ? m.captured(1).toInt() : -1, &out);
    }
    addStepCheckpoints(root, &out);
    std::stable_sort(out.begin(), out.end(), [](const CheckpointCandidate &a, const CheckpointCandidate &b) {
        if ((a.step < 0) != (b.step < 0))
            return a.step < 0;  // the final one first
        if (a.step != b.step)
            return a.step > b.step;
        // Within a checkpoint: the model, then the default adapter, then the others by name.
        const auto rank = [](const CheckpointCandidate &c) { return c.adapter.isEmpty() ? 0 : c.adapter == QLatin1String("default") ? 1 : 2; };
        return rank(a) != rank(b) ? rank(a) < rank(b) : a.adapter < b.adapter;
    });
    if (out.isEmpty())
        *error = DiscoverText::tr("No sharded checkpoint in %1: expected tensor_parallel_shards/%2/, shards/model/%3 or a DCP "
                       "checkpoint's .metadata (in the folder, in checkpoint-N folders or in TorchTitan's checkpoint/step-N "
                       "folders).").arg(path, rankNamePattern(), nxdShardFileNamePattern());
    return out;
}

QVector<const CheckpointCandidate *> consolidationSet(const QVector<CheckpointCandidate> &found, const CheckpointCandidate *chosen)
{
    QVector<const CheckpointCandidate *> out;
    if (!chosen)
        return out;
    for (const CheckpointCandidate &c : found)
        if (c.label == chosen->label && c.adapter.isEmpty())
            return {&c};  // found is sorted: the model, then the adapters
    for (const CheckpointCandidate &c : found)
        if (c.label == chosen->label)
            out.append(&c);
    return out;
}

QString rankText(const CheckpointCandidate &c)
{
    if (c.layout == ShardLayout::Dcp)
        return DiscoverText::tr("%n data file(s)", nullptr, int(c.shards.size()));
    return QStringLiteral("tp=%1 pp=%2").arg(c.tpSize).arg(c.ppSize);
}

QString checkpointTitle(const CheckpointCandidate &c)
{
    return c.adapter.isEmpty() ? displayName(c.label) : DiscoverText::tr("%1, adapter %2").arg(displayName(c.label), displayName(c.adapter));
}

bool isBackendOptimizerFile(const QString &fileName)
{
    static const QRegularExpression re(QStringLiteral("^optimizer(_dp_rank_\\d+)?\\.safetensors$"));
    return re.match(fileName).hasMatch();
}

QString adapterOutputSubfolder(const CheckpointCandidate &c)
{
    return c.adapter == QLatin1String("default") ? QString() : c.adapter;
}

const CheckpointCandidate *pickDefault(const QVector<CheckpointCandidate> &found)
{
    for (const CheckpointCandidate &c : found)
        if (c.complete)
            return &c;
    return nullptr;
}

}  // namespace ingot
