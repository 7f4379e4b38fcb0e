#include "services/slurm/slurmbatchscript.h"

#include "services/util/names.h"
#include "services/util/shellquote.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace ingot {

namespace {

struct BatchText {
    Q_DECLARE_TR_FUNCTIONS(ingot::SlurmBatchScript)
};

QString shown(const QByteArray &b)
{
    return displayName(nameFromBytes(b));
}

bool hasControl(const QByteArray &b)
{
    for (const char ch : b) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f)
            return true;
    }
    return false;
}

// A value of an #SBATCH line: one word, no quotes, no control characters.
bool sbatchWord(const QByteArray &value, const QString &what, QString *error)
{
    if (value.isEmpty() || hasControl(value) || value.contains(' ') || value.contains('"') || value.contains('\'')
        || value.contains('\\')) {
        *error = BatchText::tr("The %1 \"%2\" cannot go into an #SBATCH line: no spaces, quotes, backslashes or "
                               "control characters.")
                     .arg(what, shown(value));
        return false;
    }
    return true;
}

bool validTime(const QByteArray &t)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("(?:UNLIMITED|INFINITE|[0-9]{1,7}(?:-[0-9]{1,2})?(?::[0-9]{1,2}){0,2})")));
    return t.size() < 32 && re.match(QString::fromLatin1(t)).hasMatch();
}

QByteArray quoted(const QByteArray &word)
{
    return shellQuoteBytes(word).value_or(QString()).toUtf8();
}

bool checkSpec(const SlurmBatchSpec &s, QString *error)
{
    if (s.nodes < 1 || s.nodes > 100000 || s.processesPerNode < 1 || s.processesPerNode > 4096) {
        *error = BatchText::tr("Nodes (%1) and processes per node (%2) must be at least 1.").arg(s.nodes).arg(s.processesPerNode);
        return false;
    }
    if (s.agent.isEmpty() || s.agent.first().isEmpty()) {
        *error = BatchText::tr("No torchrun agent command.");
        return false;
    }
    if (!s.jobFolder.startsWith('/')) {
        *error = BatchText::tr("The job folder \"%1\" is not an absolute path.").arg(shown(s.jobFolder));
        return false;
    }
    for (const QVector<QByteArray> *words : {&s.agent, &s.program, &s.nodeSetup}) {
        for (const QByteArray &w : *words) {
            if (w.contains('\0')) {
                *error = BatchText::tr("An argument contains a NUL byte.");
                return false;
            }
        }
    }
    if (s.jobFolder.contains('\0') || s.stopRequestFile.contains('\0')) {
        *error = BatchText::tr("The job folder contains a NUL byte.");
        return false;
    }
    if (!s.timeLimit.isEmpty() && !validTime(s.timeLimit)) {
        *error = BatchText::tr("\"%1\" is not a Slurm time limit (minutes, H:MM:SS or D-HH:MM:SS).").arg(shown(s.timeLimit));
        return false;
    }
    const QPair<QByteArray, QString> words[] = {{s.jobName, BatchText::tr("job name")},
                                                {s.partition, BatchText::tr("partition")},
                                                {s.account, BatchText::tr("account")},
                                                {s.qos, BatchText::tr("QoS")},
                                                {s.outputPattern, BatchText::tr("output file pattern")}};
    for (const auto &w : words)
        if (!w.first.isEmpty() && !sbatchWord(w.first, w.second, error))
            return false;
    for (const QByteArray &line : s.extraSbatch) {
        if (!line.startsWith("#SBATCH ") || line.size() <= 8 || hasControl(line)) {
            *error = BatchText::tr("\"%1\" is not one #SBATCH line (it must start with \"#SBATCH \" and hold no line "
                                   "break or control character).")
                         .arg(shown(line));
            return false;
        }
    }
    for (const auto &kv : s.environment) {
        if (!isEnvironmentKey(kv.first)) {
            *error = BatchText::tr("\"%1\" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*).").arg(shown(kv.first));
            return false;
        }
        if (kv.second.contains('\0')) {
            *error = BatchText::tr("The value of %1 contains a NUL byte.").arg(shown(kv.first));
            return false;
        }
    }
    return true;
}

QByteArray header(const SlurmBatchSpec &s)
{
    QByteArray t = "#!/bin/bash\n";
    auto line = [&t](const QByteArray &option, const QByteArray &value) {
        if (!value.isEmpty())
            t += "#SBATCH --" + option + '=' + value + '\n';
    };
    line("job-name", s.jobName);
    line("nodes", QByteArray::number(s.nodes));
    line("ntasks-per-node", "1");
    line("partition", s.partition);
    line("time", s.timeLimit);
    line("account", s.account);
    line("qos", s.qos);
    if (s.exclusive)
        t += "#SBATCH --exclusive\n";
    line("output", s.outputPattern);
    for (const QByteArray &l : s.extraSbatch)
        t += l + '\n';
    return t;
}

// The per-node command: the agent with the rendezvous options, then the program. A static rendezvous (torchrun's
// default): node K's local rank R is global rank K * M + R, as the Neuron tutorials launch it and as Ingot reads each
// rank's logs; a c10d rendezvous would number the nodes in the order they arrive. $SLURM_NODEID and the endpoint
// are expanded on each node (the function runs there, exported through srun's environment).
QByteArray nodeFunction(const SlurmBatchSpec &s)
{
    QByteArray agent;
    for (const QByteArray &w : s.agent)
        agent += quoted(w) + ' ';
    QByteArray t = "ingot_node() {\n";
    if (s.rankLogs)
        t += "  if [ \"$SLURM_NODEID\" = 0 ]; then ingot_logs=$INGOT_JOB_DIR/logs; else ingot_logs=$INGOT_JOB_DIR/node-$SLURM_NODEID/logs; fi\n"
             "  mkdir -p -- \"$ingot_logs\"\n";
    t += "  exec " + agent + "--nnodes=" + QByteArray::number(s.nodes)
                   + " --nproc_per_node=" + QByteArray::number(s.processesPerNode) + " --node_rank=\"$SLURM_NODEID\" \\\n"
                   + "    --master_addr=\"$INGOT_RDZV_HOST\" --master_port=\"$INGOT_RDZV_PORT\"";
    if (s.rankLogs)
        t += " --log_dir=\"$ingot_logs\" --redirects=3";
    if (!s.program.isEmpty()) {
        t += " \\\n   ";
        for (const QByteArray &w : s.program)
            t += ' ' + quoted(w);
    }
    return t + "\n}\nexport -f ingot_node\n";
}

}  // namespace

bool isEnvironmentKey(const QByteArray &key)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]{0,255}")));
    return re.match(QString::fromLatin1(key)).hasMatch();
}

std::optional<QByteArray> slurmBatchScript(const SlurmBatchSpec &s, QString *error)
{
    if (!checkSpec(s, error))
        return std::nullopt;
    QByteArray t = header(s);
    t += "# Written by Ingot: srun starts one torchrun agent per node, rendezvous on the first allocated node.\n"
         "set -euo pipefail\n\n";
    t += "INGOT_JOB_DIR=" + quoted(s.jobFolder) + "\nexport INGOT_JOB_DIR\n";
    t += "# The script's exit status, written atomically when it ends (also on an error or a stop).\n"
         "ingot_record_exit() {\n"
         "  local status=$?\n"
         "  [ -z \"${ingot_agents_status:-}\" ] || status=$ingot_agents_status\n"
         "  printf '%s\\n' \"$status\" >\"$INGOT_JOB_DIR/.exit_status.$SLURM_JOB_ID.tmp\" &&\n"
         "    mv -f -- \"$INGOT_JOB_DIR/.exit_status.$SLURM_JOB_ID.tmp\" \"$INGOT_JOB_DIR/exit_status\"\n"
         "}\n"
         "trap ingot_record_exit EXIT\n"
         "# A stop (scancel --signal=TERM) reaches the agents; the script ends with srun's status when they end.\n"
         "trap 'ingot_terminated=1' TERM\n\n";
    // PYTHONPATH is put before the one the script has (as the local wrapper does): the backend's folder and one given
    // with --env PYTHONPATH=... both stay on it (a plain export kept only the user's, and the backend did not import).
    for (const auto &kv : s.environment)
        t += "export " + kv.first + '=' + quoted(kv.second) + (kv.first == "PYTHONPATH" ? "${PYTHONPATH:+:$PYTHONPATH}\n" : "\n");
    if (!s.environment.isEmpty())
        t += '\n';
    t += "INGOT_RDZV_NODE=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | sed -n 1p)\n"
         "INGOT_RDZV_HOST=$(scontrol show node -o \"$INGOT_RDZV_NODE\" | tr ' ' '\\n' | sed -n 's/^NodeAddr=//p')\n"
         "INGOT_RDZV_HOST=${INGOT_RDZV_HOST:-$INGOT_RDZV_NODE}\n"
         "# A free port below the ephemeral range (32768 and up by default): a port the kernel hands out for outgoing\n"
         "# connections can be taken by one between this check and the master's bind.\n"
         "INGOT_RDZV_PORT=$(python3 -c 'import random, socket\n"
         "for p in random.sample(range(20000, 32768), 200):\n"
         "    s = socket.socket()\n"
         "    try:\n"
         "        s.bind((\"\", p))\n"
         "    except OSError:\n"
         "        continue\n"
         "    print(p)\n"
         "    break' 2>/dev/null || echo $((29500 + SLURM_JOB_ID % 1000)))\n"
         "INGOT_RDZV_PORT=${INGOT_RDZV_PORT:-$((29500 + SLURM_JOB_ID % 1000))}\n"
         "export INGOT_RDZV_HOST INGOT_RDZV_PORT\n\n";
    t += nodeFunction(s);
    if (!s.nodeSetup.isEmpty()) {
        t += "\n# Before the training, once on every node: its failure is said, and the training starts anyway.\n"
             "srun --export=ALL --nodes=\"$SLURM_JOB_NUM_NODES\" --ntasks-per-node=1";
        for (const QByteArray &w : s.nodeSetup)
            t += ' ' + quoted(w);
        t += " || echo \"ingot: the step before the training failed (status $?); the training starts anyway\" >&2\n";
    }
    t += "\n[ -z \"${ingot_terminated:-}\" ] || exit 143\n"
         "ingot_status=0\n"
         "srun --export=ALL --nodes=\"$SLURM_JOB_NUM_NODES\" --ntasks-per-node=1 --kill-on-bad-exit=1 bash -c ingot_node "
         "|| ingot_status=$?\n";
    if (!s.stopRequestFile.isEmpty())
        t += "# A stop that was asked for (its request file is there): the agents ended as asked, so the script ends 0\n"
             "# (Slurm: COMPLETED); exit_status keeps the agents' status.\n"
             "if [ \"$ingot_status\" != 0 ] && [ -e " + quoted(s.stopRequestFile) + " ]; then\n"
             "  echo \"ingot: stopped as asked (the agents ended with status $ingot_status)\"\n"
             "  ingot_agents_status=$ingot_status\n"
             "  ingot_status=0\n"
             "fi\n";
    t += "exit \"$ingot_status\"\n";
    return t;
}

}  // namespace ingot
