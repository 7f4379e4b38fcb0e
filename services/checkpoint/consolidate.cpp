#include "services/checkpoint/consolidate.h"

#include "services/checkpoint/assemble.h"
#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/formats/torchwriter.h"
#include "services/checkpoint/shardreader.h"
#include "services/checkpoint/verify.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <unistd.h>

namespace ingot {

using nlohmann::json;

namespace {
struct ConsolidateText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using T = ConsolidateText;
using Format = ConsolidateOptions::Format;

bool removeTree(const QString &path)
{
    return QDir(path).removeRecursively();
}

bool renamePath(const QString &from, const QString &to)
{
    return ::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0;
}

// The output is built in a hidden folder next to it, renamed into place at the very end; the staging folder is
// removed whatever happens before that.
class StagingFolder final
{
    Q_DISABLE_COPY_MOVE(StagingFolder)

public:
    explicit StagingFolder(const QString &output)
        : m_output(QFileInfo(output).absoluteFilePath())
        , m_path(QFileInfo(m_output).absolutePath() + QStringLiteral("/.ingot-consolidating-%1-%2").arg(QFileInfo(output).fileName()).arg(::getpid()))
    {
    }
    ~StagingFolder()
    {
        if (m_created && !m_placed)
            removeTree(m_path);
    }
    bool create(QString *error)
    {
        removeTree(m_path);
        m_created = true;
        if (QDir().mkpath(m_path))
            return true;
        *error = T::tr("Cannot create %1.").arg(m_path);
        return false;
    }
    QString filePath(const QString &name) const { return m_path + QLatin1Char('/') + name; }
    const QString &path() const { return m_path; }
    // One rename (an existing output is moved aside first, and removed only after).
    bool moveIntoPlace(QString *error);

private:
    QString m_output;
    QString m_path;
    bool m_created = false;
    bool m_placed = false;
};

bool StagingFolder::moveIntoPlace(QString *error)
{
    QString aside;
    if (QFileInfo::exists(m_output)) {
        aside = m_path + QStringLiteral("-old");
        if (!renamePath(m_output, aside)) {
            *error = T::tr("Cannot replace %1.").arg(m_output);
            return false;
        }
    }
    if (!renamePath(m_path, m_output)) {
        if (!aside.isEmpty())
            renamePath(aside, m_output);
        *error = T::tr("Cannot move the result into %1.").arg(m_output);
        return false;
    }
    m_placed = true;
    if (!aside.isEmpty())
        removeTree(aside);
    return true;
}

// One output file, in either format.
class TensorFileWriter final
{
    Q_DISABLE_COPY_MOVE(TensorFileWriter)

public:
    explicit TensorFileWriter(Format f) : m_pytorch(f == Format::PyTorch) {}
    bool begin(const QString &path, const std::vector<SafetensorInfo> &tensors, QString *error)
    {
        return m_pytorch ? m_torch.begin(path, tensors, error) : m_st.begin(path, tensors, {{"format", "pt"}}, error);
    }
    bool write(const char *data, qint64 size, QString *error)
    {
        return m_pytorch ? m_torch.write(data, size_t(size), error) : m_st.write(data, size_t(size), error);
    }
    bool finish(QString *error) { return m_pytorch ? m_torch.finish(error) : m_st.finish(error); }

private:
    bool m_pytorch;
    SafetensorsWriter m_st;
    TorchWriter m_torch;
};

// Output files: consecutive tensors up to the shard size (a larger tensor gets a file of its own).
std::vector<std::vector<int>> groupIntoFiles(const QVector<ConsolidatePlanEntry> &entries, qint64 maxBytes)
{
    std::vector<std::vector<int>> groups(1);
    qint64 inGroup = 0;
    for (int i = 0; i < entries.size(); ++i) {
        if (!groups.back().empty() && inGroup + entries[i].bytes > maxBytes) {
            groups.emplace_back();
            inGroup = 0;
        }
        groups.back().push_back(i);
        inGroup += entries[i].bytes;
    }
    return groups;
}

// model.safetensors, or model-00001-of-00003.safetensors when there are several (pytorch_model… likewise).
QString outputFileName(Format f, int index, int count)
{
    const QString stem = f == Format::PyTorch ? QStringLiteral("pytorch_model") : QStringLiteral("model");
    const QString ext = f == Format::PyTorch ? QStringLiteral(".bin") : QStringLiteral(".safetensors");
    if (count == 1)
        return stem + ext;
    return QStringLiteral("%1-%2-of-%3%4").arg(stem).arg(index + 1, 5, 10, QLatin1Char('0')).arg(count, 5, 10, QLatin1Char('0')).arg(ext);
}

QString indexFileName(Format f)
{
    return f == Format::PyTorch ? QStringLiteral("pytorch_model.bin.index.json") : QStringLiteral("model.safetensors.index.json");
}

// Configs and tokenizer files, copied from the checkpoint folder or else the training output folder.
const QStringList &companionFiles()
{
    static const QStringList files = {QStringLiteral("config.json"), QStringLiteral("generation_config.json"), QStringLiteral("tokenizer.json"),
                                      QStringLiteral("tokenizer_config.json"), QStringLiteral("special_tokens_map.json"),
                                      QStringLiteral("tokenizer.model"), QStringLiteral("vocab.json"), QStringLiteral("merges.txt"),
                                      QStringLiteral("added_tokens.json")};
    return files;
}

// One run of consolidate(): the steps in order, each filling the report; the first that fails ends the run.
class Consolidation final
{
    Q_DISABLE_COPY_MOVE(Consolidation)

public:
    Consolidation(const ConsolidationPlan &plan, const ConsolidateOptions &o, const ConsolidateProgressFn &progress,
                  const std::atomic_bool *cancel)
        : m_plan(plan), m_o(o), m_progress(progress), m_cancel(cancel), m_staging(o.output)
        , m_assembler(m_shards, plan.checkpoint.tpSize, o.checkReplicas)
    {
    }
    ConsolidateReport run();

private:
    bool outputIsFree();
    bool openShards();
    bool writeTensorFiles();
    bool writeFile(const std::vector<int> &group, const QString &file);
    bool writeTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer);
    bool writeIndex();
    bool copyCompanionFiles();
    bool verify();
    bool fail(const QString &error)
    {
        m_rep.error = error;
        return false;
    }

    const ConsolidationPlan &m_plan;
    const ConsolidateOptions &m_o;
    const ConsolidateProgressFn &m_progress;
    const std::atomic_bool *m_cancel;
    ConsolidateReport m_rep;
    StagingFolder m_staging;
    OpenShards m_shards;
    TensorAssembler m_assembler;
    ConsolidateProgress m_prog;
    int m_fileCount = 0;
    json m_weightMap = json::object();
    TensorChecksums m_checksums;
};

ConsolidateReport Consolidation::run()
{
    m_rep.problems = m_plan.problems;
    if (!m_rep.problems.isEmpty() || !outputIsFree())
        return m_rep;
    if (m_staging.create(&m_rep.error) && openShards() && writeTensorFiles() && writeIndex() && copyCompanionFiles() &&
        verify())
        m_staging.moveIntoPlace(&m_rep.error);
    return m_rep;
}

bool Consolidation::outputIsFree()
{
    const QFileInfo out(m_o.output);
    if (out.exists() && !m_o.overwrite && !QDir(m_o.output).isEmpty()) {
        m_rep.problems << T::tr("%1 already exists; choose another folder or allow overwriting.").arg(m_o.output);
        return false;
    }
    return true;
}

bool Consolidation::openShards()
{
    QStringList problems;
    return m_shards.open(m_plan.checkpoint, &problems) || fail(problems.join(QLatin1Char(' ')));
}

bool Consolidation::writeTensorFiles()
{
    const std::vector<std::vector<int>> groups = groupIntoFiles(m_plan.entries, m_o.maxShardBytes);
    m_prog.tensorsTotal = int(m_plan.entries.size());
    m_prog.bytesTotal = m_plan.bytes();
    m_fileCount = int(groups.size());
    for (int g = 0; g < m_fileCount; ++g)
        if (!writeFile(groups[size_t(g)], outputFileName(m_o.format, g, m_fileCount)))
            return false;
    m_rep.tensors = int(m_plan.entries.size());
    m_rep.bytes = m_prog.bytesTotal;
    return true;
}

bool Consolidation::writeFile(const std::vector<int> &group, const QString &file)
{
    std::vector<SafetensorInfo> infos;
    for (int i : group) {
        const ConsolidatePlanEntry &e = m_plan.entries[i];
        SafetensorInfo si;
        si.name = e.name;
        si.dtype = e.dtype;
        si.shape = e.shape;
        infos.push_back(si);
        m_weightMap[e.name] = file.toStdString();
    }
    TensorFileWriter writer(m_o.format);
    QString error;
    if (!writer.begin(m_staging.filePath(file), infos, &error))
        return fail(error);
    for (int i : group)
        if (!writeTensor(m_plan.entries[i], writer))
            return false;
    if (!writer.finish(&error))
        return fail(error);
    m_rep.files << file;
    return true;
}

bool Consolidation::writeTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer)
{
    if (m_cancel && m_cancel->load()) {
        m_rep.cancelled = true;
        return false;
    }
    m_prog.current = QString::fromStdString(e.name);
    const char *data = nullptr;
    qint64 size = 0;
    QString error;
    if (!m_assembler.assemble(e, &data, &size, &error))
        return fail(error);
    if (m_o.verify)
        m_checksums.add(e.name, data, size);
    if (!writer.write(data, size, &error))
        return fail(error);
    ++m_prog.tensorsDone;
    m_prog.bytesDone += size;
    if (m_progress)
        m_progress(m_prog);
    return true;
}

// The index transformers reads when the output is split: which file holds each tensor.
bool Consolidation::writeIndex()
{
    if (m_fileCount < 2)
        return true;
    const json index = {{"metadata", {{"total_size", m_prog.bytesTotal}}}, {"weight_map", m_weightMap}};
    const QString name = indexFileName(m_o.format);
    QFile idx(m_staging.filePath(name));
    if (!idx.open(QIODevice::WriteOnly) || idx.write(QByteArray::fromStdString(index.dump(2))) < 0)
        return fail(T::tr("Cannot write the index in %1.").arg(m_staging.path()));
    idx.close();
    m_rep.files << name;
    return true;
}

bool Consolidation::copyCompanionFiles()
{
    const QString root = m_plan.checkpoint.root;
    for (const QString &x : companionFiles()) {
        for (const QString &dir : {root, QFileInfo(root).absolutePath()}) {
            const QString src = dir + QLatin1Char('/') + x;
            if (!QFile::exists(src))
                continue;
            if (!QFile::copy(src, m_staging.filePath(x)))
                return fail(T::tr("Cannot copy %1.").arg(src));
            m_rep.files << x;
            break;
        }
    }
    return true;
}

// Reads everything back and compares with what was computed from the shards.
bool Consolidation::verify()
{
    if (!m_o.verify)
        return true;
    m_rep.verifyProblems = m_checksums.verifyFiles(m_staging.path(), m_rep.files);
    m_rep.verifyProblems += checkAgainstConfig(m_staging.filePath(QStringLiteral("config.json")), m_plan.entries);
    m_rep.verified = m_rep.verifyProblems.isEmpty();
    return m_rep.verified;
}
}  // namespace

ConsolidateReport consolidate(const ConsolidationPlan &plan, const ConsolidateOptions &o, const ConsolidateProgressFn &progress,
                              const std::atomic_bool *cancel)
{
    return Consolidation(plan, o, progress, cancel).run();
}

ConsolidateReport consolidate(const CheckpointCandidate &c, const ConsolidateOptions &o, const ConsolidateProgressFn &progress,
                              const std::atomic_bool *cancel)
{
    return consolidate(planConsolidation(c), o, progress, cancel);
}

}  // namespace ingot
