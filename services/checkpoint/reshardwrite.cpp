// Writing a re-shard plan (reshard.h): one pipeline stage at a time, its tp rank files open together, each tensor
// merged whole once and its parts written to every rank's file in header order.
#include "services/checkpoint/reshard.h"

#include "services/checkpoint/assemble.h"
#include "services/checkpoint/formats/filewriter.h"
#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/outputfolder.h"
#include "services/checkpoint/shardreader.h"
#include "services/checkpoint/verify.h"
#include "services/util/fdio.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <memory>
#include <new>

#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

using nlohmann::json;

namespace {
struct ReshardText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Reshard)
};

constexpr const char *kOptimizerFormat = "ingot-adamw-1";
const char *const kMoments[] = {".exp_avg", ".exp_avg_sq"};

QString rankFolderName(int tp, int pp)
{
    return QStringLiteral("tensor_parallel_shards/tp_rank_%1_pp_rank_%2").arg(tp, 2, 10, QLatin1Char('0')).arg(pp, 2, 10, QLatin1Char('0'));
}

// The files of one rank of the new layout.
struct RankOutput {
    Q_DISABLE_COPY_MOVE(RankOutput)
    RankOutput() = default;
    ~RankOutput()
    {
        if (dirFd >= 0)
            ::close(dirFd);
    }
    QString folder;  // relative to the output
    int dirFd = -1;  // that folder in the staging folder, held open: its files are created relative to it
    SafetensorsWriter weights, moments;
    TensorChecksums weightSums, momentSums;
    json parameters = json::object();
};

// The shape of one part of `shape` split in `parts` along `dim`.
std::vector<std::int64_t> partShape(std::vector<std::int64_t> shape, int dim, int parts)
{
    if (dim >= 0 && parts > 1)
        shape[size_t(dim)] /= parts;
    return shape;
}

class Resharding final
{
    Q_DISABLE_COPY_MOVE(Resharding)

public:
    Resharding(const ReshardPlan &plan, const ReshardOptions &o, const ConsolidateProgressFn &progress, const std::atomic_bool *cancel)
        : m_plan(plan), m_o(o), m_progress(progress), m_cancel(cancel), m_staging(o.output)
        , m_assembler(m_shards, plan.source.checkpoint.tpSize, false)
    {
    }
    ConsolidateReport run();

private:
    bool outputIsFree();
    bool openSources();
    bool writeStage(int stage);
    bool beginFiles(RankOutput &out, const std::vector<int> &entries);
    bool writeEntry(const ReshardEntry &r, std::vector<std::unique_ptr<RankOutput>> &ranks);
    // The whole moment `key` of `e`, concatenated from the source ranks' pieces; nullptr with words in m_rep.error.
    const char *wholeMoment(const ConsolidatePlanEntry &e, const char *key, DType *dtype);
    bool finishFiles(RankOutput &out);
    bool writeCompanions();
    // `name` in the folder open as `dirFd`, `rel` its path in the output (as reported and shown).
    bool writeJson(int dirFd, const QString &name, const QString &rel, const json &j);
    bool writeJson(const QString &name, const json &j) { return writeJson(m_staging.fd(), name, name, j); }
    bool verify();
    bool fail(const QString &error)
    {
        m_rep.error = error;
        return false;
    }

    const ReshardPlan &m_plan;
    const ReshardOptions &m_o;
    const ConsolidateProgressFn &m_progress;
    const std::atomic_bool *m_cancel;
    ConsolidateReport m_rep;
    StagingFolder m_staging;
    OpenShards m_shards;
    TensorAssembler m_assembler;
    std::map<std::pair<int, int>, std::vector<std::unique_ptr<ShardReader>>> m_optimizer;  // by source (tp, pp)
    ConsolidateProgress m_prog;
    std::string m_part, m_piece, m_whole;
};

ConsolidateReport Resharding::run()
{
    m_rep.problems = m_plan.problems;
    if (!m_rep.problems.isEmpty() || !outputIsFree())
        return m_rep;
    QString warning;
    runReportingExceptions([&] {
        m_prog.tensorsTotal = int(m_plan.entries.size());
        m_prog.bytesTotal = m_plan.bytes();
        bool ok = m_staging.create(&m_rep.error) && openSources();
        for (int s = 0; ok && s < m_plan.ppSize; ++s)
            ok = writeStage(s);
        if (ok && writeCompanions() && verify())
            m_staging.moveIntoPlace(&m_rep.error, &warning);
    }, &m_rep, m_o.output, m_prog.current);
    if (!warning.isEmpty())
        m_rep.warnings << warning;
    return m_rep;
}

bool Resharding::outputIsFree()
{
    const QString problem = outputProblem(m_plan.source.checkpoint, m_o.output, m_o.overwrite);
    if (!problem.isEmpty())
        m_rep.problems << problem;
    return problem.isEmpty();
}

bool Resharding::openSources()
{
    QStringList problems;
    if (!m_shards.open(m_plan.source.checkpoint, &problems))
        return fail(problems.join(QLatin1Char(' ')));
    if (!m_plan.optimizer)
        return true;
    for (const ShardFile &f : m_plan.source.checkpoint.shards) {
        const QString folder = QFileInfo(f.path).absolutePath();
        for (const QString &n : QDir(folder).entryList(QDir::Files, QDir::Name)) {
            if (!isBackendOptimizerFile(n))
                continue;
            auto r = std::make_unique<ShardReader>();
            QString error;
            if (!r->open(ShardFile{f.tp, f.pp, -1, 0, folder + QLatin1Char('/') + n, 0}, &error))
                return fail(error);
            m_optimizer[{f.tp, f.pp}].push_back(std::move(r));
        }
    }
    return true;
}

bool Resharding::writeStage(int stage)
{
    std::vector<int> entries;
    for (int i = 0; i < m_plan.entries.size(); ++i)
        if (m_plan.entries[i].stage == stage)
            entries.push_back(i);
    std::vector<std::unique_ptr<RankOutput>> ranks;
    for (int tp = 0; tp < m_plan.tpSize; ++tp) {
        ranks.push_back(std::make_unique<RankOutput>());
        ranks.back()->folder = rankFolderName(tp, stage);
        if (!beginFiles(*ranks.back(), entries))
            return false;
    }
    for (int i : entries)
        if (!writeEntry(m_plan.entries[i], ranks))
            return false;
    for (auto &r : ranks)
        if (!finishFiles(*r))
            return false;
    return true;
}

bool Resharding::beginFiles(RankOutput &out, const std::vector<int> &entries)
{
    QString error;
    out.dirFd = m_staging.openSubfolder(out.folder, &error);
    if (out.dirFd < 0)
        return fail(error);
    std::vector<SafetensorInfo> weights, moments;
    const int tp = m_plan.tpSize;
    for (int i : entries) {
        const ReshardEntry &r = m_plan.entries[i];
        SafetensorInfo w;
        w.name = r.whole.name;
        w.dtype = r.whole.dtype;
        w.shape = partShape(r.whole.shape, r.splitDim, tp);
        weights.push_back(w);
        if (r.splitDim < 0 || tp == 1)
            out.parameters[r.whole.name] = {{"tensor_model_parallel", false}};
        else
            out.parameters[r.whole.name] = {{"tensor_model_parallel", true}, {"partition_dim", r.splitDim}, {"partition_stride", 1},
                                            {"num_partitions", tp}};
        if (!m_plan.optimizer)
            continue;
        for (const char *key : kMoments) {
            SafetensorInfo m = w;
            m.name = r.whole.source + key;
            DType dt = DType::Unknown;
            std::vector<std::int64_t> ignored;
            for (const auto &f : m_optimizer[{0, r.whole.pp}])
                if (f->info(m.name, &dt, &ignored))
                    break;
            m.name = r.whole.name + key;
            m.dtype = dt;
            moments.push_back(m);
        }
    }
    const QString weightsName = QStringLiteral("model.safetensors"), momentsName = QStringLiteral("optimizer.safetensors");
    if (!out.weights.begin(out.dirFd, weightsName, m_staging.filePath(out.folder + QLatin1Char('/') + weightsName), weights,
                           {{"format", "pt"}}, &error))
        return fail(error);
    if (m_plan.optimizer &&
        !out.moments.begin(out.dirFd, momentsName, m_staging.filePath(out.folder + QLatin1Char('/') + momentsName), moments,
                           {{"format", kOptimizerFormat}, {"step", std::to_string(m_plan.optimizerStep)}}, &error))
        return fail(error);
    return true;
}

bool Resharding::writeEntry(const ReshardEntry &r, std::vector<std::unique_ptr<RankOutput>> &ranks)
{
    if (m_cancel && m_cancel->load()) {
        m_rep.cancelled = true;
        return false;
    }
    const ConsolidatePlanEntry &e = r.whole;
    m_prog.current = displayName(nameFromBytes(QByteArray::fromStdString(e.name)));
    const char *data = nullptr;
    qint64 size = 0;
    QString error;
    if (!m_assembler.assemble(e, &data, &size, &error))
        return fail(error);
    const int tp = m_plan.tpSize;
    const auto writeParts = [&](const char *whole, DType dtype, const std::string &name, bool moment) {
        for (int rank = 0; rank < tp; ++rank) {
            RankOutput &out = *ranks[size_t(rank)];
            splitPart(whole, e.shape, dtypeSize(dtype), r.splitDim, tp, rank, &m_part);
            ConsolidatePlanEntry part;
            part.name = name;
            part.dtype = dtype;
            part.shape = partShape(e.shape, r.splitDim, tp);
            if (m_o.verify)
                (moment ? out.momentSums : out.weightSums).add(part, m_part.data(), qint64(m_part.size()));
            if (!(moment ? out.moments : out.weights).write(m_part.data(), m_part.size(), &error))
                return fail(error);
            m_rep.bytes += qint64(m_part.size());
        }
        return true;
    };
    if (!writeParts(data, e.dtype, e.name, false))
        return false;
    if (m_plan.optimizer)
        for (const char *key : kMoments) {
            DType dtype = DType::Unknown;
            const char *whole = wholeMoment(e, key, &dtype);
            if (!whole || !writeParts(whole, dtype, e.name + key, true))
                return false;
        }
    ++m_rep.tensors;
    ++m_prog.tensorsDone;
    m_prog.bytesDone = m_rep.bytes;
    if (m_progress)
        m_progress(m_prog);
    return true;
}

const char *Resharding::wholeMoment(const ConsolidatePlanEntry &e, const char *key, DType *dtype)
{
    const int srcTp = e.partitionDim >= 0 ? m_plan.source.checkpoint.tpSize : 1;
    const std::string name = e.source + key;
    for (int tp = 0; tp < srcTp; ++tp) {
        ShardReader *file = nullptr;
        std::vector<std::int64_t> shape;
        for (const auto &f : m_optimizer[{tp, e.pp}])
            if (f->info(name, dtype, &shape))
                file = f.get();
        qint64 size = 0;
        QString error;
        const std::vector<std::int64_t> piece = pieceShape(e, m_plan.source.checkpoint.tpSize);
        const char *p = file && shape == piece ? file->read(name, &m_piece, &size, &error) : nullptr;
        if (!p) {
            fail(error.isEmpty() ? ReshardText::tr("The optimizer state %1 of tp rank %2 changed since it was checked.").arg(tensorNameText(name)).arg(tp) : error);
            return nullptr;
        }
        if (srcTp == 1)
            return p;
        // Rank tp's piece is part tp of the whole along partitionDim: put its rows in place.
        std::int64_t outer = 1, inner = dtypeSize(*dtype);
        for (int d = 0; d < e.partitionDim; ++d)
            outer *= e.shape[size_t(d)];
        for (std::size_t d = size_t(e.partitionDim) + 1; d < e.shape.size(); ++d)
            inner *= e.shape[d];
        const std::int64_t part = piece[size_t(e.partitionDim)] * inner;
        if (size != outer * part) {
            fail(ReshardText::tr("The optimizer state %1 of tp rank %2 changed since it was checked.").arg(tensorNameText(name)).arg(tp));
            return nullptr;
        }
        m_whole.resize(size_t(outer * part * srcTp));
        for (std::int64_t o = 0; o < outer; ++o)
            std::memcpy(m_whole.data() + (o * srcTp + tp) * part, p + o * part, size_t(part));
    }
    return m_whole.data();
}

bool Resharding::finishFiles(RankOutput &out)
{
    QString error;
    if (!out.weights.finish(&error) || (m_plan.optimizer && !out.moments.finish(&error)))
        return fail(error);
    m_rep.files << out.folder + QStringLiteral("/model.safetensors");
    if (m_plan.optimizer)
        m_rep.files << out.folder + QStringLiteral("/optimizer.safetensors");
    if (!writeJson(out.dirFd, QStringLiteral("mp_metadata.json"), out.folder + QStringLiteral("/mp_metadata.json"),
                   {{"parameters", out.parameters}, {"model_weight_transformation_specs", json::array()}}))
        return false;
    if (m_o.verify) {
        m_rep.verifyProblems += out.weightSums.verifyFiles(m_staging.filePath(out.folder), {QStringLiteral("model.safetensors")});
        if (m_plan.optimizer)
            m_rep.verifyProblems += out.momentSums.verifyFiles(m_staging.filePath(out.folder), {QStringLiteral("optimizer.safetensors")},
                                                               kOptimizerFormat);
    }
    return true;
}

bool Resharding::writeJson(int dirFd, const QString &name, const QString &rel, const json &j)
{
    // Names that are not UTF-8 cannot reach here (every tensor is one of the backend's); replaced, never a throw.
    const std::string text = j.dump(1, ' ', false, json::error_handler_t::replace);
    FileWriter w;
    QString error;
    if (!w.createIn(dirFd, name, 0644, &error, m_staging.filePath(rel)) || !w.write(text.data(), text.size(), &error) ||
        !w.finish(&error))
        return fail(ReshardText::tr("Cannot write %1: %2").arg(rel, error));
    m_rep.files << rel;
    return true;
}

// training_args.json of the source, when it has one: an object, else empty (the backend's defaults). False with
// words when it may not be read (a link outside the checkpoint, a fifo).
bool readTrainingArgs(const QString &root, json *args, QString *error)
{
    *args = json::object();
    struct stat st {};
    const int fd = openCheckpointFile(root, QStringLiteral("training_args.json"), &st, error);
    if (fd < 0)
        return error->isEmpty();
    std::string bytes;
    if (st.st_size < (qint64(64) << 20)) {
        bytes.resize(size_t(st.st_size));
        if (!readAllAt(fd, bytes.data(), bytes.size(), 0))
            bytes.clear();
    }
    ::close(fd);
    *args = json::parse(bytes, nullptr, false);
    if (!args->is_object())
        *args = json::object();
    return true;
}

// config.json and tokenizer files as they are; trainer_state.json as it is (a model folder: step 0);
// training_args.json with the new layout, where the backend checks it on resuming.
bool Resharding::writeCompanions()
{
    const CheckpointCandidate &c = m_plan.source.checkpoint;
    if (!copyCompanionFiles(c, m_staging.fd(), m_staging.path(), &m_rep.files, &m_rep.error))
        return false;
    const QString state = QStringLiteral("trainer_state.json");
    bool found = false;
    QString error;
    if (!m_plan.fromModelFolder && !copyCheckpointFile(c.root, state, m_staging.fd(), m_staging.filePath(state), &found, &error))
        return fail(error);
    if (found)
        m_rep.files << state;
    else if (!writeJson(state, {{"global_step", 0}, {"log_history", json::array()}}))
        return false;
    json args = json::object();
    if (!m_plan.fromModelFolder && !readTrainingArgs(c.root, &args, &error))
        return fail(error);
    args.erase("world_size");  // any number of data-parallel replicas may resume from it
    args["tensor_parallel_size"] = m_plan.tpSize;
    args["pipeline_parallel_size"] = m_plan.ppSize;
    args["disable_embedding_parallelization"] = !m_plan.vocabParallel;
    args["resharded_from"] = {{"path", c.root.toStdString()}, {"checkpoint", c.label.toStdString()}, {"tensor_parallel_size", c.tpSize},
                              {"pipeline_parallel_size", c.ppSize}, {"optimizer_state", m_plan.optimizer}};
    return writeJson(QStringLiteral("training_args.json"), args);
}

// The new shards read back as a checkpoint must plan into the source's tensors, and every part must hash to what
// was split from them (checked file by file as each stage finished).
bool Resharding::verify()
{
    if (!m_o.verify)
        return true;
    QString error;
    const QVector<CheckpointCandidate> found = findCheckpoints(m_staging.path(), &error);
    if (found.size() != 1) {
        m_rep.verifyProblems << ReshardText::tr("The output does not read back as one checkpoint: %1").arg(error);
    } else {
        const ConsolidationPlan back = planConsolidation(found.first());
        m_rep.verifyProblems += back.problems;
        QStringList want, got;
        for (const ReshardEntry &r : m_plan.entries)
            want << QStringLiteral("%1 %2 %3").arg(tensorNameText(r.whole.name), QLatin1String(safetensorsName(r.whole.dtype)), shapeText(r.whole.shape));
        for (const ConsolidatePlanEntry &e : back.entries)
            got << QStringLiteral("%1 %2 %3").arg(tensorNameText(e.name), QLatin1String(safetensorsName(e.dtype)), shapeText(e.shape));
        want.sort();
        got.sort();
        if (back.problems.isEmpty() && want != got)
            m_rep.verifyProblems << ReshardText::tr("The output reads back as other tensors than the source's.");
    }
    m_rep.verified = m_rep.verifyProblems.isEmpty();
    return m_rep.verified;
}

}  // namespace

ConsolidateReport reshard(const ReshardPlan &plan, const ReshardOptions &o, const ConsolidateProgressFn &progress,
                          const std::atomic_bool *cancel)
{
    return Resharding(plan, o, progress, cancel).run();
}

}  // namespace ingot
