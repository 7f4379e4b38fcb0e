#include "app/cli/jobstackscommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/jobcontext.h"
#include "services/jobs/jobstall.h"

#include <QCoreApplication>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

// Each rank's stack under a "== rank N ==" line; exit 1 when a rank wrote none in time, 4 when nothing was asked (not
// running, not the backend, a Slurm job: the words say what is possible).
int cmdStacks(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> jobs;
    if (const int rc = openJob(in, &id, &jobs); rc != Ok)
        return rc;
    bool ok = true;
    const double wait = in.isSet(QStringLiteral("wait")) ? in.value(QStringLiteral("wait")).toDouble(&ok) : 10;
    if (!ok || wait <= 0 || wait > 600) {
        err(CliText::tr("error: --wait takes seconds (up to 600)"));
        return Usage;
    }
    const StackDump d = dumpJobStacks(*jobs, id, int(wait * 1000));
    if (!d.error.isEmpty()) {
        if (in.json)
            printJson({{"id", u8(id)}, {"error", u8(d.error)}, {"ranks", json::array()}});
        err(CliText::tr("refused: %1").arg(d.error));
        return Refused;
    }
    bool all = true;
    json ranks = json::array();
    QStringList lines;
    for (const RankStack &r : d.ranks) {
        all = all && !r.stack.isEmpty();
        ranks.push_back({{"rank", r.rank}, {"stack", u8(r.stack)}});
        lines << CliText::tr("== rank %1 ==").arg(r.rank)
              << (r.stack.isEmpty() ? CliText::tr("(no stack written in %1 s)").arg(wait) : terminalSafe(r.stack))
              << QString();
    }
    if (in.json)
        printJson({{"id", u8(id)}, {"signalled", d.signalled}, {"ranks", ranks}});
    else
        out(lines.join(QLatin1Char('\n')));
    return all ? Ok : PartialFailure;
}

}  // namespace

QVector<Command> jobStacksCommands()
{
    return {
        {QStringLiteral("job"), QStringLiteral("stacks"),
         CliText::tr("A running job's Python stacks, per rank (the backend's faulthandler on SIGUSR2)"), JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("wait"), CliText::tr("How long to wait for the ranks' dumps (default 10)."),
                          QStringLiteral("S")});
         },
         cmdStacks},
    };
}

}  // namespace ingot::cli
