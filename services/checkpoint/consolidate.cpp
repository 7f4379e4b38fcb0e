#include "services/checkpoint/consolidate.h"

#include "services/checkpoint/assemble.h"
#include "services/checkpoint/dcpconsolidate.h"
#include "services/checkpoint/dcpoptimizer.h"
#include "services/checkpoint/formats/filewriter.h"
#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/formats/torchwriter.h"
#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/shardreader.h"
#include "services/checkpoint/outputfolder.h"
#include "services/checkpoint/verify.h"
#include "services/util/errnotext.h"
#include "services/util/linkrule.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <limits>
#include <fcntl.h>
#include <new>
#include <unistd.h>

namespace ingot {

using nlohmann::json;

namespace {
struct ConsolidateText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using Format = ConsolidateOptions::Format;

// One output file, in either format.
class TensorFileWriter final
{
    Q_DISABLE_COPY_MOVE(TensorFileWriter)

public:
    explicit TensorFileWriter(Format f, bool directIo) : m_pytorch(f == Format::PyTorch), m_directIo(directIo) {}
    ~TensorFileWriter() { closeDirect(); }
    // `name` created in the folder open as `dirFd`; errors name `shownAs`.
    bool begin(int dirFd, const QString &name, const QString &shownAs, const std::vector<SafetensorInfo> &tensors, QString *error)
    {
        if (m_pytorch)
            return m_torch.begin(dirFd, name, shownAs, tensors, error);
        if (!m_st.begin(dirFd, name, shownAs, tensors, {{"format", "pt"}}, error))
            return false;
        if (m_directIo)
            m_directFd = RangeCopier::reopenForDirectWrites(m_st.fd());
        return true;
    }
    bool write(const char *data, qint64 size, QString *error)
    {
        return m_pytorch ? m_torch.write(data, size_t(size), error) : m_st.write(data, size_t(size), error);
    }
    bool finish(QString *error)
    {
        closeDirect();  // its writes are the file's: the fsync in finish() covers them
        return m_pytorch ? m_torch.finish(error) : m_st.finish(error);
    }
    // Whether tensors may be written straight to the file (at target(), then wrote()).
    bool takesDirectWrites() const { return !m_pytorch; }
    RangeCopier::Target target() const { return {m_st.fd(), qint64(m_st.fileOffset()), m_st.shownAs(), m_directFd}; }
    void wrote(qint64 size) { m_st.wrote(std::uint64_t(size)); }
    // Starts writing the range to disk now, without waiting (the final fsync then has little left to wait for:
    // the disk writes while the next tensors are copied).
    void startWriteback(qint64 offset, qint64 size) const
    {
        if (!m_pytorch && size > 0)
            ::sync_file_range(m_st.fd(), off_t(offset), off_t(size), SYNC_FILE_RANGE_WRITE);
    }

private:
    void closeDirect()
    {
        if (m_directFd >= 0)
            ::close(m_directFd);
        m_directFd = -1;
    }
    bool m_pytorch;
    bool m_directIo;
    int m_directFd = -1;
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

// model.safetensors, or model-00001-of-00003.safetensors when there are several (pytorch_model… likewise); a PEFT
// adapter's: adapter_model.safetensors (adapter_model.bin).
QString outputFileName(Format f, int index, int count, bool adapter)
{
    const QString stem = adapter ? QStringLiteral("adapter_model") : f == Format::PyTorch ? QStringLiteral("pytorch_model") : QStringLiteral("model");
    const QString ext = f == Format::PyTorch ? QStringLiteral(".bin") : QStringLiteral(".safetensors");
    if (count == 1)
        return stem + ext;
    return QStringLiteral("%1-%2-of-%3%4").arg(stem).arg(index + 1, 5, 10, QLatin1Char('0')).arg(count, 5, 10, QLatin1Char('0')).arg(ext);
}

QString indexFileName(Format f)
{
    return f == Format::PyTorch ? QStringLiteral("pytorch_model.bin.index.json") : QStringLiteral("model.safetensors.index.json");
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
        , m_copier(o.io == ConsolidateOptions::Io::Direct || o.io == ConsolidateOptions::Io::PageCache)
    {
    }
    ConsolidateReport run();

private:
    bool outputIsFree();
    bool openShards();
    bool writeTensorFiles();
    bool writeOptimizer();
    // The tensors `group` of `entries` into `file`, each named in *weightMap.
    bool writeFile(const QVector<ConsolidatePlanEntry> &entries, const std::vector<int> &group, const QString &file, Format format,
                   json *weightMap);
    bool writeTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer);
    // A DCP checkpoint's tensor: copied straight from its file when it lies there whole, else read and written.
    bool writeDcpTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer, qint64 *size);
    bool writeShardTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer, qint64 *size);
    bool writeIndex(const QString &name, const json &weightMap, qint64 totalBytes);
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
    ShardReader m_adapter;  // a LoRA adapter merged into the weights, when the plan has one
    std::unique_ptr<DcpSource> m_dcp;  // a DCP checkpoint's, read instead of shards
    TensorAssembler m_assembler;
    RangeCopier m_copier;
    ConsolidateProgress m_prog;
    int m_fileCount = 0, m_optimizerFileCount = 0;
    json m_weightMap = json::object(), m_optimizerMap = json::object();
    TensorChecksums m_checksums;
};

ConsolidateReport Consolidation::run()
{
    m_rep.problems = m_plan.problems;
    if (const QString p = m_o.optimizer ? optimizerProblem(m_plan) : QString(); !p.isEmpty())
        m_rep.problems << p;
    if (!m_rep.problems.isEmpty() || !outputIsFree())
        return m_rep;
    QString warning;
    runReportingExceptions([&] {
        if (m_staging.create(&m_rep.error) && openShards() && writeTensorFiles() &&
            (m_fileCount < 2 || writeIndex(indexFileName(m_o.format), m_weightMap, m_plan.bytes())) && writeOptimizer() &&
            copyCompanionFiles() && verify())
            m_staging.moveIntoPlace(&m_rep.error, &warning);
    }, &m_rep, m_o.output, m_prog.current);
    if (!warning.isEmpty())
        m_rep.warnings << warning;
    return m_rep;
}

bool Consolidation::outputIsFree()
{
    const QString problem = outputProblem(m_plan.checkpoint, m_o.output, m_o.overwrite);
    if (!problem.isEmpty())
        m_rep.problems << problem;
    return problem.isEmpty();
}

bool Consolidation::openShards()
{
    QStringList problems;
    if (m_plan.checkpoint.layout == ShardLayout::Dcp) {
        QString error;
        m_dcp = std::make_unique<DcpSource>();
        return m_dcp->open(m_plan.checkpoint, &error) || fail(error);
    }
    if (!m_shards.open(m_plan.checkpoint, &problems))
        return fail(problems.join(QLatin1Char(' ')));
    if (m_plan.adapterFile.isEmpty())
        return true;
    QString error;
    if (!openAdapterWeights(m_plan.adapterFile, &m_adapter, &error))
        return fail(error);
    m_assembler.setAdapter(&m_adapter);
    return true;
}

bool Consolidation::writeTensorFiles()
{
    // PEFT loads one adapter file: an adapter is never split.
    const bool adapter = !m_plan.checkpoint.adapter.isEmpty();
    const std::vector<std::vector<int>> groups = groupIntoFiles(m_plan.entries, adapter ? std::numeric_limits<qint64>::max() : m_o.maxShardBytes);
    m_prog.tensorsTotal = int(m_plan.entries.size() + (m_o.optimizer ? m_plan.optimizerEntries.size() : 0));
    m_prog.bytesTotal = m_plan.bytes() + (m_o.optimizer ? m_plan.optimizerBytes() : 0);
    m_fileCount = int(groups.size());
    for (int g = 0; g < m_fileCount; ++g)
        if (!writeFile(m_plan.entries, groups[size_t(g)], outputFileName(m_o.format, g, m_fileCount, adapter), m_o.format, &m_weightMap))
            return false;
    m_rep.tensors = m_prog.tensorsTotal;
    m_rep.bytes = m_prog.bytesTotal;
    return true;
}

// The optimizer state of a DCP checkpoint, when asked for: its tensors as the model's are written (always
// safetensors), the index when split, and its values.
bool Consolidation::writeOptimizer()
{
    if (!m_o.optimizer || !m_dcp)
        return true;
    const std::vector<std::vector<int>> groups = groupIntoFiles(m_plan.optimizerEntries, m_o.maxShardBytes);
    m_optimizerFileCount = m_plan.optimizerEntries.isEmpty() ? 0 : int(groups.size());
    for (int g = 0; g < m_optimizerFileCount; ++g)
        if (!writeFile(m_plan.optimizerEntries, groups[size_t(g)], optimizerFileName(g, m_optimizerFileCount), Format::Safetensors,
                       &m_optimizerMap))
            return false;
    if (m_optimizerFileCount > 1 && !writeIndex(optimizerIndexName(), m_optimizerMap, m_plan.optimizerBytes()))
        return false;
    if (m_plan.optimizerValues.isEmpty())
        return true;
    std::string text;
    QString error;
    const QString name = optimizerValuesName();
    FileWriter w;
    if (!optimizerValuesJson(m_dcp->checkpoint(), m_plan, &text, &error))
        return fail(error);
    if (!w.createIn(m_staging.fd(), name, 0644, &error, m_staging.filePath(name)) || !w.write(text.data(), text.size(), &error) ||
        !w.finish(&error))
        return fail(ConsolidateText::tr("Cannot write %1: %2").arg(name, error));
    m_rep.files << name;
    return true;
}

bool Consolidation::writeFile(const QVector<ConsolidatePlanEntry> &entries, const std::vector<int> &group, const QString &file,
                              Format format, json *weightMap)
{
    std::vector<SafetensorInfo> infos;
    for (int i : group) {
        const ConsolidatePlanEntry &e = entries[i];
        SafetensorInfo si;
        si.name = e.name;
        si.dtype = e.dtype;
        si.shape = e.shape;
        infos.push_back(si);
        (*weightMap)[e.name] = file.toStdString();
    }
    TensorFileWriter writer(format, m_o.io == ConsolidateOptions::Io::Direct);
    QString error;
    if (!writer.begin(m_staging.fd(), file, m_staging.filePath(file), infos, &error))
        return fail(error);
    for (int i : group)
        if (!writeTensor(entries[i], writer))
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
    m_prog.current = displayName(nameFromBytes(QByteArray::fromStdString(e.name)));
    qint64 size = 0;
    const qint64 offset = writer.takesDirectWrites() ? writer.target().offset : 0;
    if (m_dcp) {
        if (!writeDcpTensor(e, writer, &size))
            return false;
    } else if (!writeShardTensor(e, writer, &size))
        return false;
    writer.startWriteback(offset, size);
    ++m_prog.tensorsDone;
    m_prog.bytesDone += size;
    if (m_progress)
        m_progress(m_prog);
    return true;
}

bool Consolidation::writeDcpTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer, qint64 *size)
{
    QString error;
    std::vector<DcpCheckpoint::Piece> pieces;
    *size = e.bytes;
    if (!m_o.verify && m_o.io != ConsolidateOptions::Io::Buffered && writer.takesDirectWrites() && m_dcp->locate(e, &pieces, &error)) {
        // Equal pieces one after the other (an even split on dim 0): one run of the copier, through its O_DIRECT
        // windows where the output allows them, as one piece is.
        std::sort(pieces.begin(), pieces.end(), [](const auto &a, const auto &b) { return a.to < b.to; });
        bool even = true;
        std::vector<RangeCopier::Source> sources;
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            even = even && pieces[k].bytes == pieces[0].bytes && pieces[k].to == qint64(k) * pieces[0].bytes;
            sources.push_back({pieces[k].fd, pieces[k].from, m_prog.current});
        }
        if (even && !m_copier.interleave(sources, 1, pieces[0].bytes, writer.target(), &error))
            return fail(error);
        for (std::size_t k = 0; !even && k < pieces.size(); ++k) {
            RangeCopier::Target to = writer.target();
            to.offset += pieces[k].to;
            to.directFd = -1;  // O_DIRECT windows are for a whole tensor
            if (!m_copier.copy(sources[k], to, pieces[k].bytes, &error))
                return fail(error);
        }
        writer.wrote(e.bytes);
        return true;
    }
    if (!error.isEmpty())
        return fail(error);
    std::string buf;
    if (!m_dcp->read(e, &buf, &error))
        return fail(error);
    if (m_o.verify)
        m_checksums.add(e, buf.data(), qint64(buf.size()));
    return writer.write(buf.data(), qint64(buf.size()), &error) || fail(error);
}

bool Consolidation::writeShardTensor(const ConsolidatePlanEntry &e, TensorFileWriter &writer, qint64 *sizeOut)
{
    const char *data = nullptr;
    qint64 size = 0;
    QString error;
    TensorAssembler::Direct direct = TensorAssembler::Direct::NotHere;
    if (m_o.io != ConsolidateOptions::Io::Buffered && writer.takesDirectWrites())
        direct = m_assembler.writeDirect(e, m_copier, writer.target(), &error);
    if (direct == TensorAssembler::Direct::Failed)
        return fail(error);
    if (direct == TensorAssembler::Direct::NotHere || m_o.verify) {
        if (!m_assembler.assemble(e, &data, &size, &error))
            return fail(error);
        if (m_o.verify)
            m_checksums.add(e, data, size);
    }
    if (direct == TensorAssembler::Direct::Written) {
        size = e.bytes;
        writer.wrote(size);
    } else if (!writer.write(data, size, &error)) {
        return fail(error);
    }
    *sizeOut = size;
    return true;
}

// The index transformers reads when the output is split: which file holds each tensor.
bool Consolidation::writeIndex(const QString &name, const json &weightMap, qint64 totalBytes)
{
    const json index = {{"metadata", {{"total_size", totalBytes}}}, {"weight_map", weightMap}};
    // Names that are not UTF-8 are written with replacement characters rather than stopping the run; --verify
    // then says which do not match.
    const std::string text = index.dump(2, ' ', false, json::error_handler_t::replace);
    FileWriter w;
    QString error;
    if (!w.createIn(m_staging.fd(), name, 0644, &error, m_staging.filePath(name)) || !w.write(text.data(), text.size(), &error) ||
        !w.finish(&error))
        return fail(ConsolidateText::tr("Cannot write the index %1: %2").arg(name, error));
    m_rep.files << name;
    return true;
}

bool Consolidation::copyCompanionFiles()
{
    return ingot::copyCompanionFiles(m_plan.checkpoint, m_staging.fd(), m_staging.path(), &m_rep.files, &m_rep.error);
}

// Reads everything back and compares with what was computed from the shards.
bool Consolidation::verify()
{
    if (!m_o.verify)
        return true;
    m_rep.verifyProblems = m_checksums.verifyFiles(m_staging.path(), m_rep.files);
    if (m_fileCount > 1)
        m_rep.verifyProblems += verifyIndex(m_staging.path(), indexFileName(m_o.format));
    else if (QFileInfo::exists(m_staging.filePath(indexFileName(m_o.format))))
        m_rep.verifyProblems << ConsolidateText::tr("%1 is there though the output is one file.").arg(indexFileName(m_o.format));
    if (m_optimizerFileCount > 1)
        m_rep.verifyProblems += verifyIndex(m_staging.path(), optimizerIndexName());
    m_rep.verifyProblems += checkAgainstConfig(m_staging.filePath(QStringLiteral("config.json")), m_plan.entries);
    m_rep.verified = m_rep.verifyProblems.isEmpty();
    return m_rep.verified;
}
}  // namespace

QString outputProblem(const CheckpointCandidate &c, const QString &output, bool overwrite)
{
    const QString refusal = outputRefusal(c, output);
    if (!refusal.isEmpty())
        return refusal;
    if (QFileInfo(output).isDir() && !overwrite && !QDir(output).isEmpty())
        return ConsolidateText::tr("%1 already exists; choose another folder or allow overwriting.").arg(displayName(output));
    return {};
}

void runReportingExceptions(const std::function<void()> &steps, ConsolidateReport *rep, const QString &output, const QString &current)
{
    try {
        steps();
    } catch (const std::bad_alloc &) {
        rep->error = ConsolidateText::tr("Ran out of memory while writing %1.").arg(current.isEmpty() ? displayName(output) : current);
    } catch (const std::exception &e) {  // a last resort: every step reports its own failures
        rep->error = ConsolidateText::tr("Stopped while writing %1: %2").arg(current.isEmpty() ? displayName(output) : current,
                                                                            QString::fromLocal8Bit(e.what()));
    }
}

const QStringList &companionFiles(bool adapter)
{
    static const QStringList adapterFiles = {QStringLiteral("adapter_config.json")};
    if (adapter)
        return adapterFiles;
    static const QStringList files = {QStringLiteral("config.json"), QStringLiteral("generation_config.json"), QStringLiteral("tokenizer.json"),
                                      QStringLiteral("tokenizer_config.json"), QStringLiteral("special_tokens_map.json"),
                                      QStringLiteral("tokenizer.model"), QStringLiteral("vocab.json"), QStringLiteral("merges.txt"),
                                      QStringLiteral("added_tokens.json")};
    return files;
}

int openCheckpointFile(const QString &folder, const QString &name, struct stat *st, QString *error)
{
    error->clear();
    const QString shown = displayName(folder + QLatin1Char('/') + name);
    const int dirFd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0) {
        if (errno != ENOENT)
            *error = ConsolidateText::tr("Cannot read %1: %2").arg(displayName(folder), describeErrno(errno));
        return -1;
    }
    const VettedFile v = openVetted(dirFd, QFile::encodeName(name), pathOfFd(dirFd));
    ::close(dirFd);
    switch (v.verdict) {
    case VettedFile::Opened:
        *st = v.st;
        return v.fd;
    case VettedFile::Missing:
        break;
    case VettedFile::Outside:
        *error = ConsolidateText::tr("%1 is a link that leads outside %2 (and not into the Hugging Face hub cache): Ingot does not "
                                     "copy what it leads to. Replace the link with the file itself.").arg(shown, displayName(folder));
        break;
    case VettedFile::BrokenLink:
        *error = ConsolidateText::tr("%1 is a broken link.").arg(shown);
        break;
    case VettedFile::LinkNotRegular:
    case VettedFile::NotRegular:  // a fifo or a device would block or never end
        *error = ConsolidateText::tr("%1 is not a regular file.").arg(shown);
        break;
    case VettedFile::BecameLink:
        *error = ConsolidateText::tr("%1 became a link while it was read: not copied.").arg(shown);
        break;
    case VettedFile::Failed:
        *error = ConsolidateText::tr("Cannot read %1: %2").arg(shown, describeErrno(v.error));
        break;
    }
    return -1;
}

bool copyCheckpointFile(const QString &folder, const QString &name, int toFd, const QString &shownAs, bool *found, QString *error)
{
    struct stat st {};
    const int in = openCheckpointFile(folder, name, &st, error);
    *found = in >= 0 || !error->isEmpty();
    if (in < 0)
        return error->isEmpty();
    const QString src = displayName(folder + QLatin1Char('/') + name);
    FileWriter w;
    bool ok = w.createIn(toFd, name, int((st.st_mode & 0644) | 0600), error, shownAs);
    QByteArray buf(ok ? 1 << 20 : 0, Qt::Uninitialized);
    while (ok) {
        const ssize_t got = ::read(in, buf.data(), size_t(buf.size()));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            *error = ConsolidateText::tr("Cannot read %1: %2").arg(src, describeErrno(errno));
            ok = false;
        } else if (got == 0) {
            break;
        } else {
            ok = w.write(buf.constData(), size_t(got), error);
        }
    }
    ::close(in);
    ok = ok && w.finish(error);
    if (!ok)
        *error = ConsolidateText::tr("Cannot copy %1: %2").arg(src, *error);
    return ok;
}

bool copyCompanionFiles(const CheckpointCandidate &c, int toFd, const QString &shownIn, QStringList *copied, QString *error)
{
    const bool adapter = !c.adapter.isEmpty();
    QStringList dirs = adapter ? QStringList{c.root} : QStringList{c.root, QFileInfo(c.root).absolutePath()};
    int step = -1;
    if (c.layout == ShardLayout::Dcp && isTorchTitanStepFolder(QFileInfo(c.root).fileName(), &step))
        dirs << QFileInfo(dirs.last()).absolutePath();  // TorchTitan's dump folder, above checkpoint/step-N
    for (const QString &x : companionFiles(adapter)) {
        for (const QString &dir : dirs) {
            bool found = false;
            if (!copyCheckpointFile(dir, x, toFd, shownIn + QLatin1Char('/') + x, &found, error))
                return false;
            if (!found)
                continue;
            *copied << x;
            break;
        }
    }
    return true;
}

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
