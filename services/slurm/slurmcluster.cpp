#include "services/slurm/slurmcluster.h"

#include "services/slurm/slurmparse.h"
#include "services/util/remoteshell.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QMap>

namespace ingot {

namespace {

struct SlurmText {
    Q_DECLARE_TR_FUNCTIONS(ingot::SlurmCluster)
};

constexpr int timeoutMs = 60 * 1000;
constexpr qint64 maxOutput = 32 * 1024 * 1024;

// Every script starts so: the arguments decoded (printf %b form, see shellOctal), $1 = SLURM_CONF or empty, then
// the script's own. /opt/slurm/bin (ParallelCluster, HyperPod) is added after the PATH a non-login SSH session
// has (their profile.d script is not read there). Exit 20: no Slurm clients there. Exit 22: clients but no
// slurm.conf to read (SLURM_CONF names none, or none is where Slurm's packages and ParallelCluster put it, or where
// slurmd caches it in configless mode): the clients would spend a minute per command looking for a controller
// (DNS SRV records) and then fail, so they are not run. A login node configured through DNS alone names its
// slurm.conf with SLURM_CONF (or Ingot's Slurm configuration setting).
const char *prelude = R"SH(export LC_ALL=C
case ":$PATH:" in *:/opt/slurm/bin:*) ;; *) [ -d /opt/slurm/bin ] && PATH=$PATH:/opt/slurm/bin && export PATH ;; esac
n=$#; i=0
while [ "$i" -lt "$n" ]; do v=$(printf '%bX' "$1"); shift; set -- "$@" "${v%X}"; i=$((i+1)); done
[ -n "$1" ] && { SLURM_CONF=$1; export SLURM_CONF; }
shift
command -v sinfo >/dev/null 2>&1 && command -v sbatch >/dev/null 2>&1 || exit 20
if [ -n "${SLURM_CONF:-}" ]; then [ -r "$SLURM_CONF" ] || exit 22
else
  b=$(dirname "$(command -v sinfo)")
  for c in /etc/slurm/slurm.conf /etc/slurm-llnl/slurm.conf "$b/../etc/slurm.conf" /usr/local/etc/slurm.conf \
      /run/slurm/conf/slurm.conf /var/spool/slurmd/conf-cache/slurm.conf /var/spool/slurm/d/conf-cache/slurm.conf; do
    [ -r "$c" ] && break; c=
  done
  [ -n "$c" ] || exit 22
fi
)SH";

// Sections: "\036NAME STATUS\n" then the command's stdout (status 0) or its stderr (bounded), then "\n". The
// section byte is removed from what the commands print (a job name or a drain reason cannot open a section).
const char *sections = R"SH(d=$(mktemp -d "${TMPDIR:-/tmp}/ingot-slurm.XXXXXXXX") || exit 21
trap 'rm -rf -- "$d"' EXIT
s() { n=$1; shift; "$@" >"$d/o" 2>"$d/e"; r=$?
  printf '\036%s %s\n' "$n" "$r"
  if [ "$r" = 0 ]; then head -c 16000000 "$d/o"; else head -c 4000 "$d/e"; fi | tr -d '\036'; printf '\n'; }
)SH";

// $1 sinfo format, $2 squeue format.
const char *infoScript = R"SH(cluster() { scontrol show config | sed -n 's/^ClusterName *= *//p'; }
s version sinfo --version
s cluster cluster
s partitions scontrol show partition -o
s nodes sinfo -h -N -o "$1"
s queue queue "$2"
)SH";

// --me came with Slurm 20.11: older clients get the same with -u.
const char *queueFunction = R"SH(queue() { squeue --me -h -O "$1" 2>/dev/null || squeue -u "$(id -un)" -h -O "$1"; }
)SH";

// $1 squeue format.
const char *queueScript = R"SH(s queue queue "$1"
)SH";

// $1 job id, $2 sacct's format, $3 its delimiter. A job the controller forgot (MinJobAge after its end) is asked of
// the accounting database where there is one (sacct fails at once where accounting is not configured).
const char *jobScript = R"SH(s job scontrol show job -o "$1"
if [ "$r" != 0 ] && command -v sacct >/dev/null 2>&1; then s acct sacct -n -X -P --delimiter="$3" -j "$1" -o "$2"; fi
s pending squeue -h -t PD -S -p,i -o '%i %P'
)SH";

// $1 kill|steps|all, $2 the job id. A pending job has nothing to save and cannot be signalled (scancel retries
// "Job can not be altered now" for minutes): it is cancelled outright.
const char *cancelScript = R"SH(if [ "$1" != kill ] && [ "$(squeue -h -j "$2" -o %T 2>/dev/null)" = PENDING ]; then set -- kill "$2"; fi
case $1 in
  kill) exec scancel "$2" ;;
  all) exec scancel --signal=TERM --full "$2" ;;
  *) exec scancel --signal=TERM "$2" ;;
esac
)SH";

struct Section {
    int status = -1;
    QByteArray body;
};

QMap<QByteArray, Section> splitSections(const QByteArray &out)
{
    QMap<QByteArray, Section> map;
    for (const QByteArray &part : out.split('\036')) {
        const int nl = part.indexOf('\n');
        if (nl < 0)
            continue;
        const QList<QByteArray> head = part.left(nl).split(' ');
        if (head.size() != 2)
            continue;
        bool ok = false;
        Section s;
        s.status = head[1].toInt(&ok);
        if (!ok)
            continue;
        s.body = part.mid(nl + 1);
        map.insert(head[0], s);
    }
    return map;
}

// Slurm's words from a command's stderr: trimmed, at most a few lines, escaped.
QString slurmWords(const QByteArray &err)
{
    QByteArray t = err.trimmed();
    if (t.size() > 2000)
        t = t.left(2000) + "...";
    return displayText(nameFromBytes(t));
}

}  // namespace

QString slurmClusterSummary(const SlurmClusterState &state)
{
    if (!state.found)
        return SlurmText::tr("No Slurm: sinfo and sbatch are not on the PATH.");
    QStringList lines{SlurmText::tr("Slurm %1, cluster %2").arg(state.info.version, slurmShown(state.info.clusterName))};
    for (const SlurmPartition &p : state.info.partitions) {
        const QString cpus = SlurmText::tr("%n CPU(s)", nullptr, p.totalCpus);  // two counts: two plurals
        QString line = SlurmText::tr("%1: %n node(s) (%2 idle, %3 mixed, %4 allocated, %5 drained, %6 down), %7, limit %8",
                                     nullptr, p.totalNodes)
                           .arg(slurmShown(p.name))
                           .arg(p.idle)
                           .arg(p.mixed)
                           .arg(p.allocated)
                           .arg(p.drained)
                           .arg(p.down)
                           .arg(cpus, slurmShown(p.maxTime));
        if (p.isDefault)
            line += SlurmText::tr(" (default)");
        lines << line;
    }
    // The kinds of nodes (CPUs, memory, GRES such as neuron:16, features such as the instance type), each counted
    // once, then the nodes that cannot run jobs with Slurm's reason (at most 10: a whole rack may be down).
    QMap<QString, int> kinds;
    QStringList unusable;
    for (const SlurmNode &n : state.info.nodes) {
        QString kind = SlurmText::tr("%n CPU(s), %1", nullptr, n.cpus).arg(formatMebibytes(n.memoryMb));
        for (const QByteArray *extra : {&n.gres, &n.features})
            if (!extra->isEmpty())
                kind += QStringLiteral(", ") + slurmShown(*extra);
        ++kinds[kind];
        const bool out = n.kind == SlurmNodeState::Drained || n.kind == SlurmNodeState::Draining || n.kind == SlurmNodeState::Down;
        if (out && unusable.size() < 10)
            unusable << SlurmText::tr("%1 %2: %3").arg(slurmShown(n.name), slurmShown(n.state),
                                                      n.reason.isEmpty() ? SlurmText::tr("no reason given") : slurmShown(n.reason));
    }
    QStringList kindTexts;
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
        kindTexts << SlurmText::tr("%1 × %2").arg(it.value()).arg(it.key());
    if (!kindTexts.isEmpty())
        lines << SlurmText::tr("Nodes: %1").arg(kindTexts.join(QStringLiteral("; ")));
    lines += unusable;
    lines << SlurmText::tr("Your queue: %n job(s).", nullptr, int(state.info.queue.size()));
    return lines.join(QLatin1Char('\n'));
}

SlurmCluster::SlurmCluster(std::shared_ptr<RemoteShell> shell, QByteArray slurmConf)
    : m_shell(std::move(shell)), m_slurmConf(std::move(slurmConf))
{
}

QString SlurmCluster::describe() const
{
    return m_shell->describe();
}

namespace {

QString noSlurm(const RemoteShell &shell)
{
    return SlurmText::tr("No Slurm on %1: sinfo and sbatch are not on the PATH there.").arg(shell.describe());
}

// Runs prelude + body with SLURM_CONF and `args`. false with words when the shell did not run, or there is no Slurm
// there (*absent set: no clients) or no configuration for its clients.
bool runScript(RemoteShell &shell, const QByteArray &conf, const QByteArray &body, QVector<QByteArray> args,
               ShellResult *r, QString *error, bool *absent = nullptr)
{
    args.prepend(conf);
    *r = shell.run(QByteArray(prelude) + body, args, {}, maxOutput, timeoutMs);
    if (!r->ran()) {
        *error = SlurmText::tr("Could not ask Slurm on %1: %2").arg(shell.describe(), r->error);
        return false;
    }
    if (absent)
        *absent = r->exitCode == 20;
    if (r->exitCode == 20) {
        *error = noSlurm(shell);
        return false;
    }
    if (r->exitCode == 22) {
        *error = conf.isEmpty()
            ? SlurmText::tr("Slurm's clients are on %1 but no slurm.conf was found there (SLURM_CONF is not set, and none "
                            "is in /etc/slurm or beside the clients).").arg(shell.describe())
            : SlurmText::tr("The Slurm configuration %1 is not there on %2.").arg(displayName(nameFromBytes(conf)), shell.describe());
        return false;
    }
    return true;
}

// A section that failed: its command's words, or the script's when it never got there.
QString didNotAnswer(const RemoteShell &shell, const ShellResult &r, const Section &sec)
{
    return SlurmText::tr("Slurm on %1 did not answer: %2").arg(shell.describe(), sec.status < 0 ? slurmWords(r.err) : slurmWords(sec.body));
}

}  // namespace

bool SlurmCluster::info(SlurmClusterState *out, QString *error) const
{
    *out = {};
    ShellResult r;
    bool absent = false;
    if (!runScript(*m_shell, m_slurmConf, QByteArray(sections) + queueFunction + infoScript, {sinfoNodeFormat(), squeueFormat()}, &r,
                   error, &absent)) {
        if (absent)
            error->clear();  // no Slurm there: found stays false
        return absent;
    }
    const QMap<QByteArray, Section> s = splitSections(r.out);
    for (const char *name : {"partitions", "nodes", "queue"}) {
        const Section sec = s.value(name);
        if (sec.status != 0) {
            *error = didNotAnswer(*m_shell, r, sec);
            return false;
        }
    }
    out->found = true;
    SlurmClusterInfo &i = out->info;
    i.version = parseSinfoVersion(s.value("version").body);
    i.clusterName = s.value("cluster").body.trimmed().left(maxSlurmField);
    i.partitions = parseScontrolPartitions(s.value("partitions").body);
    i.nodes = parseSinfoNodes(s.value("nodes").body);
    i.queue = parseSqueue(s.value("queue").body);
    countPartitionNodes(&i.partitions, i.nodes);
    return true;
}

bool SlurmCluster::queue(QVector<SlurmQueueJob> *out, QString *error) const
{
    out->clear();
    ShellResult r;
    if (!runScript(*m_shell, m_slurmConf, QByteArray(sections) + queueFunction + queueScript, {squeueFormat()}, &r, error))
        return false;
    const Section sec = splitSections(r.out).value("queue");
    if (sec.status != 0) {
        *error = didNotAnswer(*m_shell, r, sec);
        return false;
    }
    *out = parseSqueue(sec.body);
    return true;
}

bool SlurmCluster::job(const QByteArray &id, SlurmJobDetails *out, QString *error, bool *gone) const
{
    if (gone)
        *gone = false;
    if (!isSlurmJobId(id)) {
        *error = SlurmText::tr("\"%1\" is not a Slurm job id").arg(slurmShown(id));
        return false;
    }
    ShellResult r;
    if (!runScript(*m_shell, m_slurmConf, QByteArray(sections) + jobScript,
                   {id, sacctFormat(), QByteArray(1, slurmFieldSeparator)}, &r, error))
        return false;
    const QMap<QByteArray, Section> s = splitSections(r.out);
    const Section job = s.value("job");
    const Section acct = s.value("acct");
    if (job.status != 0 && acct.status == 0 && parseSacctJob(acct.body, id, out))
        return true;  // ended and forgotten by the controller; the accounting database still has it
    if (job.status != 0) {
        if (gone && job.status > 0 && job.body.contains("Invalid job id specified"))
            *gone = true;
        *error = job.status < 0 ? didNotAnswer(*m_shell, r, job) : slurmWords(job.body);
        return false;
    }
    bool ambiguous = false;
    if (!parseScontrolJob(job.body, out, &ambiguous)) {
        *error = ambiguous ? SlurmText::tr("Slurm's record of job %1 on %2 cannot be read: its name or comment holds "
                                           "text that reads as Slurm's own fields.").arg(slurmShown(id), m_shell->describe())
                           : SlurmText::tr("Slurm on %1 knows no job %2").arg(m_shell->describe(), slurmShown(id));
        return false;
    }
    if (out->state == "PENDING" && s.value("pending").status == 0)
        out->pendingPosition = pendingPosition(s.value("pending").body, out->id, out->partition);
    return true;
}

bool SlurmCluster::submit(const QByteArray &script, const QVector<QByteArray> &args,
                          const QVector<QByteArray> &sbatchOptions, QByteArray *jobId, QString *error) const
{
    for (const QByteArray &o : sbatchOptions) {
        if (!o.startsWith("--") || o.contains('\0')) {
            *error = SlurmText::tr("\"%1\" is not an sbatch option (--name=value)").arg(slurmShown(o));
            return false;
        }
    }
    if (script.isEmpty() || script.startsWith('-') || script.contains('\0')) {
        *error = SlurmText::tr("\"%1\" is not a batch script path").arg(slurmShown(script));
        return false;
    }
    QVector<QByteArray> argv = sbatchOptions;
    argv << script << args;
    ShellResult r;
    if (!runScript(*m_shell, m_slurmConf, "exec sbatch --parsable \"$@\"\n", argv, &r, error))
        return false;
    const QByteArray id = r.out.trimmed().split(';').value(0);  // "ID" or "ID;cluster"
    if (r.exitCode != 0 || !isSlurmJobId(id)) {
        *error = r.err.trimmed().isEmpty() ? SlurmText::tr("sbatch failed (exit status %1)").arg(r.exitCode)
                                           : slurmWords(r.err);
        return false;
    }
    *jobId = id;
    return true;
}

bool SlurmCluster::cancel(const QByteArray &id, Cancel how, QString *error) const
{
    if (!isSlurmJobId(id)) {
        *error = SlurmText::tr("\"%1\" is not a Slurm job id").arg(slurmShown(id));
        return false;
    }
    const QByteArray mode = how == Cancel::Kill ? "kill" : how == Cancel::TermAll ? "all" : "steps";
    ShellResult r;
    if (!runScript(*m_shell, m_slurmConf, cancelScript, {mode, id}, &r, error))
        return false;
    if (r.exitCode != 0) {
        *error = r.err.trimmed().isEmpty() ? SlurmText::tr("scancel failed (exit status %1)").arg(r.exitCode)
                                           : slurmWords(r.err);
        return false;
    }
    return true;
}

QString slurmNoAnswerText(const QString &error)
{
    const QStringList said = error.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return SlurmText::tr("No Slurm cluster answered there: %1").arg(displayText(said.value(said.size() - 1)));
}

Task askSlurmCluster(QObject *context, std::shared_ptr<RemoteShell> shell,
                     std::function<void(const SlurmClusterState &, const QString &)> done)
{
    return runTask(
        context,
        [shell](TaskControl &) {
            std::pair<SlurmClusterState, QString> out;
            SlurmCluster(shell).info(&out.first, &out.second);
            return out;
        },
        [done](const std::pair<SlurmClusterState, QString> &r) { done(r.first, r.second); });
}

}  // namespace ingot
