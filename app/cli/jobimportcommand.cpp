#include "app/cli/jobimportcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/jobcontext.h"
#include "services/jobs/runimport.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>

#include <cmath>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json importJson(const ImportedRun &r)
{
    json checkpoints = json::array();
    for (const QString &c : r.run.checkpoints)
        checkpoints.push_back(u8(displayName(c)));
    json sources = json::array();
    for (const QString &s : r.run.sources)
        sources.push_back(u8(displayName(s)));
    json notes = json::array();
    for (const QString &n : r.run.notes)
        notes.push_back(u8(n));
    json j = {{"id", u8(r.id)}, {"existing", r.existed}, {"folder", u8(displayName(r.run.folder))},
              {"kind", u8(runFolderKindName(r.run.kind))}, {"points", r.run.points.size()},
              {"checkpoints", checkpoints}, {"sources", sources}, {"notes", notes}, {"origin", "imported"}};
    j["last_step"] = r.run.points.isEmpty() ? json(nullptr) : json(r.run.points.last().step);
    j["max_steps"] = r.run.maxSteps > 0 ? json(r.run.maxSteps) : json(nullptr);
    return j;
}

int cmdImport(const Invocation &in)
{
    const QStringList pos = in.positional();
    if (pos.size() != 1) {
        err(CliText::tr("error: name one run folder"));
        return Usage;
    }
    ImportedRun run;
    QString error;
    if (!importRunFolder(runners().local(), pos.first(), &run, &error)) {
        err(CliText::tr("error: %1").arg(error));
        return Refused;
    }
    if (in.json) {
        printJson(importJson(run));
        return Ok;
    }
    QStringList lines;
    lines << (run.existed ? CliText::tr("Refreshed job %1 (imported before) from %2") : CliText::tr("Imported job %1 from %2"))
                 .arg(run.id, displayName(run.run.folder));
    lines << CliText::tr("  kind: %1").arg(runFolderKindTitle(run.run.kind));
    lines << (run.run.points.isEmpty() ? CliText::tr("  steps: none recorded")
                                       : CliText::tr("  steps: %1 points, the last at step %2")
                                             .arg(run.run.points.size())
                                             .arg(run.run.points.last().step));
    lines << CliText::tr("  from: %1").arg(run.run.sources.isEmpty() ? CliText::tr("no file of points")
                                                                     : displayName(run.run.sources.join(QStringLiteral(", "))));
    if (run.run.checkpoints.isEmpty())
        lines << CliText::tr("  checkpoints: none");
    for (const QString &c : run.run.checkpoints)
        lines << CliText::tr("  checkpoint: %1").arg(displayName(c));
    for (const QString &n : run.run.notes)
        lines << CliText::tr("  note: %1").arg(n);
    lines << CliText::tr("It is read-only in the history: ingot-cli job status %1.").arg(run.id);
    out(lines.join(QLatin1Char('\n')));
    return Ok;
}

}  // namespace

QVector<Command> jobImportCommands()
{
    return {
        {QStringLiteral("job"), QStringLiteral("import"),
         CliText::tr("Adopt a run folder Ingot did not launch (trainer_state.json, TorchTitan logs, TensorBoard events) as a read-only job; prints its id"),
         JsonOption,
         [](QCommandLineParser &p) {
             p.addPositionalArgument(QStringLiteral("DIR"), CliText::tr("The run's folder (imported again: refreshed)."));
         },
         cmdImport},
    };
}

}  // namespace ingot::cli
