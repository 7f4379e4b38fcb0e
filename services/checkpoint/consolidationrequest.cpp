#include "services/checkpoint/consolidationrequest.h"

#include "services/checkpoint/dcpoptimizer.h"
#include "services/checkpoint/loramerge.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStorageInfo>

namespace ingot {

namespace {
struct RequestText {
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidationRequest)
};

// Where member `c` of a consolidation set goes when the set is written to `output`: `output` itself for a model or the
// default adapter, output/<name> for another adapter.
QString memberOutputFolder(const CheckpointCandidate &c, const QString &output)
{
    const QString sub = c.adapter.isEmpty() ? QString() : adapterOutputSubfolder(c);
    return sub.isEmpty() ? output : output + QLatin1Char('/') + sub;
}

// Each plan (the members of a set, in order) into its own folder of o.output; stops at the first that fails.
QVector<ConsolidatedOutput> writeMembers(const QVector<ConsolidationPlan> &plans, const ConsolidateOptions &o,
                                         const std::function<void(const ConsolidatedOutput &)> &starting,
                                         const ConsolidateProgressFn &progress, const std::atomic_bool *cancel)
{
    QVector<ConsolidatedOutput> out;
    for (const ConsolidationPlan &plan : plans) {
        ConsolidatedOutput x;
        x.checkpoint = &plan.checkpoint;
        x.options = o;
        x.options.output = memberOutputFolder(plan.checkpoint, o.output);
        if (x.options.output != o.output)
            QDir().mkpath(o.output);  // the default adapter's folder, or only the others' parent
        if (starting)
            starting(x);
        x.report = consolidate(plan, x.options, progress, cancel);
        out.append(x);
        if (!x.report.ok())
            break;
    }
    return out;
}

// The members' reports as one: files relative to `output` (an adapter's below its folder), counts summed, verified
// only when every one was, the first error.
ConsolidateReport combinedReport(const QVector<ConsolidatedOutput> &outputs, const QString &output)
{
    ConsolidateReport all;
    all.verified = !outputs.isEmpty();
    const QString root = QDir(output).absolutePath();
    for (const ConsolidatedOutput &x : outputs) {
        const ConsolidateReport &r = x.report;
        const QString prefix = QDir(root).relativeFilePath(QDir(x.options.output).absolutePath());
        for (const QString &f : r.files)
            all.files << (prefix == QLatin1String(".") ? f : prefix + QLatin1Char('/') + f);
        all.problems += r.problems;
        all.warnings += r.warnings;
        all.verifyProblems += r.verifyProblems;
        if (all.error.isEmpty())
            all.error = r.error;
        all.bytes += r.bytes;
        all.tensors += r.tensors;
        all.verified = all.verified && r.verified;
        all.cancelled = all.cancelled || r.cancelled;
    }
    return all;
}
}  // namespace

void ConsolidationRequest::setSource(const QString &folder, const QVector<CheckpointCandidate> &found)
{
    m_folder = folder;
    m_absoluteFolder = folder.isEmpty() ? QString() : QFileInfo(folder).absoluteFilePath();
    m_found = found;
    m_modelFolder = false;
    m_chosen = -1;
    choose(defaultChoice());
}

bool ConsolidationRequest::findIn(const QString &folder, QString *error)
{
    const bool model = mode == Mode::Reshard && ingot::isModelFolder(folder);
    setSource(folder, model ? QVector<CheckpointCandidate>() : findCheckpoints(folder, error));
    m_modelFolder = model;
    return !m_found.isEmpty() || m_modelFolder;
}

QVector<int> ConsolidationRequest::choices() const
{
    QVector<int> out;
    for (int i = 0; i < m_found.size(); ++i) {
        const QVector<const CheckpointCandidate *> set = consolidationSet(m_found, &m_found[i]);
        if (!set.isEmpty() && set.first() == &m_found[i])
            out << i;
    }
    return out;
}

int ConsolidationRequest::defaultChoice() const
{
    if (m_found.isEmpty())
        return -1;
    const QVector<const CheckpointCandidate *> set = consolidationSet(m_found, pickDefault(m_found));
    return set.isEmpty() ? 0 : int(set.first() - m_found.constData());
}

void ConsolidationRequest::choose(int index)
{
    m_chosen = index >= 0 && index < m_found.size() ? index : -1;
    m_planned = false;
    m_plans.clear();
    m_reshardPlan = ReshardPlan();
}

bool ConsolidationRequest::chooseNamed(const QString &label, QString *error)
{
    for (int i = m_found.size() - 1; i >= 0; --i)
        if (m_found[i].label == label) {
            const QVector<const CheckpointCandidate *> set = consolidationSet(m_found, &m_found[i]);
            choose(set.isEmpty() ? i : int(set.first() - m_found.constData()));
            return true;
        }
    *error = RequestText::tr("no checkpoint named %1").arg(displayName(label));
    return false;
}

const CheckpointCandidate *ConsolidationRequest::checkpoint() const
{
    return m_chosen >= 0 ? &m_found[m_chosen] : nullptr;
}

QVector<const CheckpointCandidate *> ConsolidationRequest::members() const
{
    return checkpoint() ? consolidationSet(m_found, checkpoint()) : QVector<const CheckpointCandidate *>();
}

bool ConsolidationRequest::isAdapter() const
{
    return checkpoint() && !checkpoint()->adapter.isEmpty();
}

ReshardOptions ConsolidationRequest::reshardOptions() const
{
    ReshardOptions o;
    o.output = options.output;
    o.tpSize = reshardTp;
    o.ppSize = reshardPp;
    o.kvMultiplier = reshardKvMultiplier;
    o.weightsOnly = reshardWeightsOnly;
    o.disableVocabParallel = reshardDisableVocabParallel;
    o.overwrite = options.overwrite;
    o.verify = options.verify;
    return o;
}

QString ConsolidationRequest::defaultOutputName() const
{
    return mode == Mode::Reshard ? QStringLiteral("resharded-tp%1-pp%2").arg(reshardTp).arg(reshardPp) : QStringLiteral("consolidated");
}

QString ConsolidationRequest::defaultOutput() const
{
    QString base = m_absoluteFolder;
    if (const CheckpointCandidate *c = checkpoint())
        if (base == c->shardsDir || base.startsWith(c->shardsDir + QLatin1Char('/')))
            base = c->layout == ShardLayout::Dcp ? QFileInfo(c->root).absolutePath() : c->root;  // a DCP folder is both
    return base + QLatin1Char('/') + defaultOutputName();
}

void ConsolidationRequest::plan()
{
    setPlans(makePlans());
    m_reshardPlan = makeReshardPlan();
}

QVector<ConsolidationPlan> ConsolidationRequest::makePlans() const
{
    QVector<ConsolidationPlan> plans;
    for (const CheckpointCandidate *c : members())
        plans << planConsolidation(*c);
    return plans;
}

void ConsolidationRequest::setPlans(const QVector<ConsolidationPlan> &plans)
{
    m_plans = plans;
    m_planned = true;
    m_reshardPlan = ReshardPlan();
}

ReshardPlan ConsolidationRequest::makeReshardPlan() const
{
    if (mode != Mode::Reshard)
        return {};
    if (m_modelFolder)
        return planReshardFromModel(m_folder, reshardOptions());
    return m_plans.isEmpty() ? ReshardPlan() : ingot::planReshard(m_plans.first(), reshardOptions());
}

QStringList ConsolidationRequest::problems() const
{
    if (mode == Mode::Reshard)
        return m_reshardPlan.problems;
    QStringList out = planProblems();
    for (const ConsolidationPlan &p : m_plans)
        if (const QString x = options.optimizer ? optimizerProblem(p) : QString(); !x.isEmpty() && !out.contains(x))
            out << x;
    return out;
}

QStringList ConsolidationRequest::planProblems() const
{
    QStringList out;
    const bool several = m_plans.size() > 1;
    for (const ConsolidationPlan &p : m_plans)
        for (const QString &x : p.problems)
            out << (several ? RequestText::tr("Adapter %1: %2").arg(displayName(p.checkpoint.adapter), x) : x);
    return out;
}

qint64 ConsolidationRequest::bytesToWrite() const
{
    if (mode == Mode::Reshard)
        return m_reshardPlan.bytes();
    qint64 n = 0;
    for (const ConsolidationPlan &p : m_plans)
        n += p.bytes() + (options.optimizer ? p.optimizerBytes() : 0);
    return n;
}

OutputSpace ConsolidationRequest::probeOutput(const QString &output)
{
    QFileInfo existing(QFileInfo(output).absolutePath());
    while (!existing.exists() && existing.absolutePath() != existing.absoluteFilePath())
        existing = QFileInfo(existing.absolutePath());
    OutputSpace s;
    s.bytesFree = QStorageInfo(existing.absoluteFilePath()).bytesAvailable();
    s.existsNonEmpty = QFileInfo::exists(output) && !QDir(output).isEmpty();
    return s;
}

bool ConsolidationRequest::merges() const
{
    return !baseModel.isEmpty() && mode == Mode::Consolidate && isAdapter();
}

OutputSpace ConsolidationRequest::inspectOutput() const
{
    OutputSpace s = m_probe(options.output);
    if (m_modelFolder)
        s.refusal = outputRefusal(m_reshardPlan.source.checkpoint, options.output);
    else if (const CheckpointCandidate *c = checkpoint())
        s.refusal = outputRefusal(*c, options.output);
    if (merges()) {
        // The merged model holds every tensor of the base model, in its dtype: its bytes, read from the headers.
        const ConsolidationPlan base = planModelFolder(baseModel);
        if (base.problems.isEmpty())
            s.mergedBytes = base.bytes();
        else
            s.mergeProblem = RequestText::tr("The base model cannot be merged into: %1").arg(base.problems.first());
    }
    return s;
}

QString ConsolidationRequest::outputProblem(const OutputSpace &s) const
{
    if (options.output.isEmpty())
        return RequestText::tr("No output folder: name one.");
    if (!s.refusal.isEmpty())
        return s.refusal + QLatin1Char(' ') + RequestText::tr("Choose another folder.");
    if (s.existsNonEmpty && !options.overwrite)
        return RequestText::tr("%1 already exists; choose another folder or allow replacing it.").arg(displayName(options.output));
    if (!s.mergeProblem.isEmpty())
        return s.mergeProblem;
    if (s.bytesFree <= bytesNeeded(s))
        return RequestText::tr("Not enough space for %1: it needs %2, and %3 is free there. Free some space, or choose a folder on "
                               "another file system.")
            .arg(displayName(options.output), formatBytes(bytesNeeded(s)), formatBytes(s.bytesFree));
    return {};
}

QString ConsolidationRequest::outputText(const OutputSpace &s) const
{
    if (!s.refusal.isEmpty())
        return s.refusal + QLatin1Char(' ') + RequestText::tr("Choose another folder.");
    const qint64 bytes = bytesNeeded(s);
    QString text = s.mergedBytes > 0 ? RequestText::tr("Needs %1 (%2 of it the merged model); %3 free there.")
                                           .arg(formatBytes(bytes), formatBytes(s.mergedBytes), formatBytes(s.bytesFree))
                                     : RequestText::tr("Needs %1; %2 free there.").arg(formatBytes(bytes), formatBytes(s.bytesFree));
    if (s.bytesFree <= bytes)
        text += QLatin1Char(' ') + RequestText::tr("Not enough space.");
    if (s.existsNonEmpty && !options.overwrite)
        text += QLatin1Char(' ') + RequestText::tr("The folder exists: allow replacing it, or choose another.");
    if (!s.mergeProblem.isEmpty())
        text += QLatin1Char(' ') + s.mergeProblem;
    return text;
}

ConsolidationResult ConsolidationRequest::run(const ConsolidateProgressFn &progress, const std::atomic_bool *cancel,
                                              const std::function<void(const ConsolidatedOutput &)> &starting)
{
    ConsolidationResult r;
    r.resharded = mode == Mode::Reshard;
    if (!m_planned)
        plan();
    r.report.problems = problems();
    if (!checkpoint() && !m_modelFolder)
        r.report.problems << RequestText::tr("No checkpoint was chosen.");
    if (m_modelFolder && !r.resharded)
        r.report.problems << RequestText::tr("%1 is a model folder, not a sharded checkpoint: it can be re-sharded, not consolidated.")
                                 .arg(displayName(m_folder));
    if (r.report.problems.isEmpty())
        if (const QString problem = outputProblem(inspectOutput()); !problem.isEmpty())
            r.report.problems << problem;
    if (!r.report.problems.isEmpty())
        return r;
    if (r.resharded) {
        r.report = reshard(m_reshardPlan, reshardOptions(), progress, cancel);
    } else {
        r.outputs = writeMembers(m_plans, options, starting, progress, cancel);
        r.report = combinedReport(r.outputs, options.output);
    }
    for (const QString &f : std::as_const(r.report.files))
        r.fileSizes << QFileInfo(options.output + QLatin1Char('/') + f).size();
    if (merges() && r.report.ok()) {  // the adapter just written, merged
        ConsolidateOptions m = options;
        m.output = mergedModelFolder(options.output);
        r.mergedOutput = m.output;
        r.merged = consolidate(planAdapterMerge(baseModel, options.output), m, progress, cancel);
    }
    return r;
}

}  // namespace ingot
