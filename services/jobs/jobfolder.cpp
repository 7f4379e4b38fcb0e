#include "services/jobs/jobfolder.h"

#include "services/util/atomicfile.h"
#include "services/util/names.h"
#include "services/util/sha256.h"
#include "services/util/shellquote.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>

namespace ingot {

namespace {
struct JobFolderText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobManager)
};
}  // namespace

QString localJobsRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/jobs");
}

QString followerStateFile(const QString &where, const QString &jobFolder)
{
    const QByteArray key = where.toUtf8() + '\0' + jobFolder.toUtf8();
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/ingot/job-status/")
        + QString::fromLatin1(Sha256::hash(key).toHex()) + QStringLiteral(".json");
}

QString keptSlurmJobIdFile(const QString &where, const QString &phaseFolder)
{
    const QByteArray key = where.toUtf8() + '\0' + nameToBytes(phaseFolder);
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/slurm-jobs/")
        + QString::fromLatin1(Sha256::hash(key).toHex());
}

bool keepSlurmJobId(const QString &where, const QString &phaseFolder, const QByteArray &id, QString *error)
{
    const QString file = keptSlurmJobIdFile(where, phaseFolder);
    if (!QDir().mkpath(QFileInfo(file).path())) {
        *error = JobFolderText::tr("Cannot create the folder %1.").arg(displayName(QFileInfo(file).path()));
        return false;
    }
    return writeFileAtomically(file, id + '\n', error, true);
}

QString keptSlurmJobId(const QString &where, const QString &phaseFolder)
{
    QFile f(keptSlurmJobIdFile(where, phaseFolder));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression id(QStringLiteral("^[0-9]{1,12}(_[0-9]{1,9})?$"));
    const QString read = QString::fromLatin1(f.read(64).trimmed());
    return id.match(read).hasMatch() ? read : QString();
}

void forgetSlurmJobIds(const QString &where, const QString &jobFolder)
{
    const JobPaths p{jobFolder};
    QFile::remove(keptSlurmJobIdFile(where, p.root));
    QFile::remove(keptSlurmJobIdFile(where, p.precompilePhase().root));
}

QString nodeFolder(const QString &jobsRoot, const QString &id, int rank)
{
    const QString root = jobsRoot + QLatin1Char('/') + id;
    return rank == 0 ? root : root + QStringLiteral("/node-%1").arg(rank);
}

QString newJobId()
{
    const quint32 r = QRandomGenerator::system()->generate() & 0xffff;
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-"))
        + QStringLiteral("%1").arg(r, 4, 16, QLatin1Char('0'));
}

bool isJobId(const QString &id)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[0-9a-z][0-9a-z-]{0,63}")));
    return re.match(id).hasMatch();
}

namespace {

QJsonArray toArray(const QStringList &l)
{
    return QJsonArray::fromStringList(l);
}

bool toStringList(const QJsonValue &v, QStringList *out)
{
    if (!v.isArray())
        return false;
    for (const QJsonValue &e : v.toArray()) {
        if (!e.isString())
            return false;
        out->append(e.toString());
    }
    return true;
}

}  // namespace

QByteArray JobRecordFile::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("format"), 1);
    o.insert(QStringLiteral("id"), id);
    o.insert(QStringLiteral("where"), where);
    if (!nodes.isEmpty()) {
        o.insert(QStringLiteral("nodes"), toArray(nodes));
        o.insert(QStringLiteral("node_rank"), nodeRank);
    }
    o.insert(QStringLiteral("master_addr"), masterAddr);
    o.insert(QStringLiteral("created_ms"), double(createdMs));
    o.insert(QStringLiteral("port"), port);
    o.insert(QStringLiteral("output_dir"), outputDir);
    o.insert(QStringLiteral("backend_dir"), backendDir);
    o.insert(QStringLiteral("argv"), toArray(argv));
    if (!precompileArgv.isEmpty())
        o.insert(QStringLiteral("precompile_argv"), toArray(precompileArgv));
    if (!nodeSetupArgv.isEmpty())
        o.insert(QStringLiteral("node_setup_argv"), toArray(nodeSetupArgv));
    o.insert(QStringLiteral("env"), toArray(env));
    o.insert(QStringLiteral("cwd"), cwd);
    if (imported())
        o.insert(QStringLiteral("imported_from"), importedFrom);
    o.insert(QStringLiteral("spec"), spec.toJson());
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

bool JobRecordFile::fromJson(const QByteArray &data, JobRecordFile *out, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("job.json is not a JSON object");
        return false;
    }
    const QJsonObject o = doc.object();
    JobRecordFile r;
    r.id = o.value(QLatin1String("id")).toString();
    if (!isJobId(r.id)) {
        *error = QStringLiteral("job.json has no valid id");
        return false;
    }
    r.where = o.value(QLatin1String("where")).toString(QStringLiteral("local"));
    r.masterAddr = o.value(QLatin1String("master_addr")).toString(QStringLiteral("127.0.0.1"));
    r.nodeRank = o.value(QLatin1String("node_rank")).toInt();
    if (o.contains(QLatin1String("nodes")) && !toStringList(o.value(QLatin1String("nodes")), &r.nodes)) {
        *error = QStringLiteral("job.json: nodes must be a list of strings");
        return false;
    }
    if (r.where.isEmpty() || r.nodes.size() == 1 || r.nodes.size() > 1024 || r.nodeRank < 0
        || (r.nodeRank > 0 && r.nodeRank >= r.nodes.size())) {
        *error = QStringLiteral("job.json: where, nodes and node_rank do not fit together");
        return false;
    }
    r.createdMs = qint64(o.value(QLatin1String("created_ms")).toDouble());
    r.port = o.value(QLatin1String("port")).toInt();
    r.outputDir = o.value(QLatin1String("output_dir")).toString();
    r.backendDir = o.value(QLatin1String("backend_dir")).toString();
    r.cwd = o.value(QLatin1String("cwd")).toString();
    r.importedFrom = o.value(QLatin1String("imported_from")).toString();
    if (!toStringList(o.value(QLatin1String("argv")), &r.argv) || !toStringList(o.value(QLatin1String("env")), &r.env)
        || (o.contains(QLatin1String("precompile_argv")) && !toStringList(o.value(QLatin1String("precompile_argv")), &r.precompileArgv))
        || (o.contains(QLatin1String("node_setup_argv")) && !toStringList(o.value(QLatin1String("node_setup_argv")), &r.nodeSetupArgv))) {
        *error = QStringLiteral("job.json: argv and env must be lists of strings");
        return false;
    }
    QString specError;
    r.spec = JobSpec::fromJson(o.value(QLatin1String("spec")).toObject(), &specError);
    if (!specError.isEmpty()) {
        *error = specError;
        return false;
    }
    *out = r;
    return true;
}

namespace {

QString quoteAll(const QStringList &args)
{
    QStringList q;
    for (const QString &a : args)
        q << shellWord(a);
    return q.join(QLatin1Char(' '));
}

// KEY=value -> export KEY='value'
QString exportLine(const QString &kv)
{
    const int eq = kv.indexOf(QLatin1Char('='));
    return QStringLiteral("export ") + kv.left(eq) + QLatin1Char('=') + shellWord(kv.mid(eq + 1));
}

}  // namespace

QString commandLine(const QStringList &env, const QStringList &argv)
{
    QStringList parts;
    for (const QString &kv : env) {
        const int eq = kv.indexOf(QLatin1Char('='));
        parts << kv.left(eq) + QLatin1Char('=') + shellWord(kv.mid(eq + 1));
    }
    parts << quoteAll(argv);
    return parts.join(QLatin1Char(' '));
}

namespace {
// The precompile phase as a shell line: in precompile/ (its results files land there), the tool's variables
// defaulting to the documented ones (a value the job sets wins), then `suffix` (redirections).
QString precompileLinesOf(const JobRecordFile &r, const QString &suffix)
{
    return QStringLiteral("(cd precompile && export NEURON_PARALLEL_COMPILE_DUMP_RESULTS=${NEURON_PARALLEL_COMPILE_DUMP_RESULTS:-1} "
                          "NEURON_PARALLEL_COMPILE_MAX_RETRIES=${NEURON_PARALLEL_COMPILE_MAX_RETRIES:-1} && exec %1)%2")
        .arg(quoteAll(r.precompileArgv), suffix);
}
}  // namespace

QString commandScript(const JobRecordFile &r)
{
    QStringList lines;
    lines << QStringLiteral("#!/bin/sh")
          << QStringLiteral("# Ingot job %1 (%2)").arg(displayName(r.spec.displayName()), r.id)
          << QStringLiteral("cd %1 || exit 1").arg(shellWord(r.cwd));
    for (const QString &kv : r.env)
        lines << exportLine(kv);
    if (!r.precompileArgv.isEmpty())
        lines << QStringLiteral("# Precompile first: every graph into the cache (neuron_parallel_compile), then the training.")
              << QStringLiteral("mkdir -p precompile && ") + precompileLinesOf(r, QStringLiteral(" || exit $?"));
    lines << QStringLiteral("exec ") + quoteAll(r.argv);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

namespace {

// What the wrapper records for a launcher whose /proc/<pid>/stat is gone (it ended and was reaped before the wrapper
// read it): a stat line's fields up to the start time (field 22), all 0.
constexpr char endedStat[] = "(ended) Z 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";

}  // namespace

QByteArray endedProcessStat(qint64 pid)
{
    return QByteArray::number(pid) + ' ' + endedStat;
}

namespace {
// The lines that record who runs (the wrapper and the child in $pid) in launcher.pid.
QStringList recordPidsLines()
{
    return {QStringLiteral("# A launcher that has already ended (and been reaped) is recorded with start time 0."),
            QStringLiteral("read -r child 2>/dev/null </proc/$pid/stat || child=\"$pid %1\"").arg(QLatin1String(endedStat)),
            QStringLiteral("# Temp files are created anew (set -C: never written through a link planted there), then renamed."),
            QStringLiteral("rm -f launcher.pid.tmp"),
            QStringLiteral("{ read -r self </proc/$$/stat && read -r boot </proc/sys/kernel/random/boot_id; } &&"),
            QStringLiteral("  (set -C; printf '%s\\n%s\\n%s\\n' \"$self\" \"$child\" \"$boot\" >launcher.pid.tmp) && mv -f launcher.pid.tmp launcher.pid")};
}
}  // namespace

QByteArray wrapperScript(const JobRecordFile &r)
{
    QStringList lines;
    lines << QStringLiteral("#!/bin/sh")
          << QStringLiteral("# Written by Ingot for job %1. Started detached, in a session of its own: it records who")
                 .arg(r.id)
          << QStringLiteral("# runs (launcher.pid) and how the launcher ended (exit_status). Do not edit while it runs.")
          << QStringLiteral("cd %1 || exit 1").arg(shellWord(r.cwd));
    for (const QString &kv : r.env) {
        if (kv.startsWith(QLatin1String("PYTHONPATH=")))
            lines << exportLine(kv) + QStringLiteral("${PYTHONPATH:+:$PYTHONPATH}");
        else
            lines << exportLine(kv);
    }
    if (!r.precompileArgv.isEmpty()) {
        // The precompile phase, recorded like the training (launcher.pid names it while it runs); its status in
        // precompile/exit_status. A failed one (its status, or a graph its results file marks failed) ends the job
        // with that status: the training does not start.
        lines << QStringLiteral("# Phase 1: neuron_parallel_compile, in precompile/.")
              << QStringLiteral("mkdir -p precompile || exit 1")
              << precompileLinesOf(r, QStringLiteral(" </dev/null >>precompile/launcher.log 2>&1 &"))
              << QStringLiteral("pid=$!")
              << recordPidsLines()
              << QStringLiteral("wait \"$pid\"")
              << QStringLiteral("status=$?")
              << QStringLiteral("if [ \"$status\" -eq 0 ] && grep -qs '\"status\": false' precompile/neuron_parallel_compile_results_*.json; then status=1; fi")
              << QStringLiteral("rm -f precompile/exit_status.tmp")
              << QStringLiteral("(set -C; echo \"$status\" >precompile/exit_status.tmp) && mv -f precompile/exit_status.tmp precompile/exit_status")
              << QStringLiteral("if [ \"$status\" -ne 0 ] || [ -e stop_request ]; then")
              << QStringLiteral("  rm -f exit_status.tmp")
              << QStringLiteral("  (set -C; echo \"$status\" >exit_status.tmp) && mv -f exit_status.tmp exit_status")
              << QStringLiteral("  exit 0")
              << QStringLiteral("fi")
              << QStringLiteral("# Phase 2: the training.");
    }
    lines << quoteAll(r.argv) + QStringLiteral(" </dev/null >>launcher.log 2>&1 &")
          << QStringLiteral("pid=$!")
          << recordPidsLines()
          << QStringLiteral("wait \"$pid\"")
          << QStringLiteral("status=$?")
          << QStringLiteral("rm -f exit_status.tmp")
          << QStringLiteral("(set -C; echo \"$status\" >exit_status.tmp) && mv -f exit_status.tmp exit_status");
    return nameToBytes(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

bool parseProcStat(const QByteArray &line, ProcessIdentity *out, char *state)
{
    const int open = line.indexOf('(');
    const int close = line.lastIndexOf(')');
    if (open <= 0 || close < open)
        return false;
    bool ok = false;
    const qint64 pid = line.left(open).trimmed().toLongLong(&ok);
    if (!ok || pid <= 0)
        return false;
    const QList<QByteArray> f = line.mid(close + 1).simplified().split(' ');
    if (f.size() < 20 || f.at(0).isEmpty())
        return false;
    ProcessIdentity id;
    id.pid = pid;
    id.pgid = f.at(2).toLongLong();
    id.sid = f.at(3).toLongLong();
    id.startTime = f.at(19).toULongLong(&ok);
    if (!ok)
        return false;
    if (state)
        *state = f.at(0).at(0);
    *out = id;
    return true;
}

bool parseLauncherPids(const QByteArray &data, LauncherPids *out)
{
    const QList<QByteArray> lines = data.split('\n');
    if (lines.size() < 3)
        return false;
    LauncherPids p;
    if (!parseProcStat(lines.at(0), &p.wrapper) || !parseProcStat(lines.at(1), &p.launcher))
        return false;
    const QString boot = QString::fromLatin1(lines.at(2).trimmed());
    p.wrapper.bootId = p.launcher.bootId = boot;
    *out = p;
    return true;
}

}  // namespace ingot
