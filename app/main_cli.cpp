// ingot-cli: the headless companion. QtCore only, so it runs on trn hosts without a display.
#include "app/cli/cachecommands.h"
#include "app/cli/explaincommands.h"
#include "app/cli/fleetcommand.h"
#include "app/cli/clicommon.h"
#include "app/cli/clustercommands.h"
#include "app/cli/commandtable.h"
#include "app/cli/consolidatecommand.h"
#include "app/cli/copycommand.h"
#include "app/cli/hubcommands.h"
#include "app/cli/jobimportcommand.h"
#include "app/cli/jobcommands.h"
#include "app/cli/jobmonitorcommands.h"
#include "app/cli/jobcomparecommand.h"
#include "app/cli/jobmetricscommand.h"
#include "app/cli/jobstackscommand.h"
#include "app/cli/pushcommands.h"
#include "app/cli/pullcommand.h"
#include "app/cli/verifycommand.h"
#include "app/cli/policycommands.h"
#include "app/cli/schedulecommand.h"
#include "app/cli/seedcommand.h"
#include "app/cli/remotecommands.h"
#include "app/cli/torchneuroncommands.h"
#include "app/cli/neffcommands.h"
#include "app/cli/transfercommands.h"
#include "app/i18n/translations.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QLocale>

int main(int argc, char **argv)
{
    // The arguments as bytes, before Qt decodes them: a name that is not UTF-8 (a folder "caf\xe9", a job's
    // argument) keeps every byte (names.h: undecodable bytes ride along as escapes, nameToBytes gives them back).
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << ingot::nameFromBytes(QByteArray(argv[i]));
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
    QCoreApplication::setApplicationName(QStringLiteral("ingot"));
    QCoreApplication::setApplicationVersion(QStringLiteral(INGOT_VERSION));
    // The words, and the dates, sizes and numbers written for people (format.h), in the chosen language
    // (INGOT_LANGUAGE, Settings, the system's); the default locale stays C, so what scripts read keeps plain numbers.
    ingot::setDisplayLocale(ingot::installTranslations(app));
    QLocale::setDefault(QLocale::c());

    ingot::registerRemoteStores();
    ingot::s3::registerS3Store();  // s3://bucket/prefix caches (NEURON_COMPILE_CACHE_URL, --cache-dir)
    using namespace ingot::cli;
    CommandTable table;
    table.addGroup({QStringLiteral("cache"),
                    QCoreApplication::translate("ingot::cli", "The Neuron compile cache; Hub cache repos (create, set, lookup)"),
                    QCoreApplication::translate("ingot::cli", "Common options: --cache-dir DIR, --json, --dry-run, --yes.")});
    table.addGroup({QStringLiteral("hub"), QCoreApplication::translate("ingot::cli", "The Hugging Face Hub: whoami, ls, login, logout"),
                    QCoreApplication::translate("ingot::cli", "HF_ENDPOINT, HF_TOKEN, HF_HOME, HF_TOKEN_PATH and HF_HUB_OFFLINE are honoured. --json everywhere.")});
    table.addGroup({QStringLiteral("job"), QCoreApplication::translate("ingot::cli", "Training jobs: launch, list, status, logs, stop, wait, resume, remove, graphs, neuroncores"),
                    QCoreApplication::translate("ingot::cli", "Jobs live in ~/.local/share/Ingot/ingot/jobs/<id>. job wait: exit 0 finished, 1 failed, 9 stopped.")});
    table.addGroup({QStringLiteral("remote"), QCoreApplication::translate("ingot::cli", "Remote hosts over SSH: hosts, add, remove, connect"),
                    QCoreApplication::translate("ingot::cli", "Hosts come from your ssh config (-F file: Settings) and those added. "
                                                              "--host HOST on cache commands and job launch works there.")});
    table.addGroup({QStringLiteral("cluster"), QCoreApplication::translate("ingot::cli", "Slurm clusters: info"),
                    QCoreApplication::translate("ingot::cli", "HOST: a login node over SSH; local: this machine's Slurm clients (SLURM_CONF honoured).")});
    table.addGroup({QStringLiteral("transfers"), QCoreApplication::translate("ingot::cli", "The Ingot window's transfer queue: list, cancel"),
                    QCoreApplication::translate("ingot::cli", "Transfers live in ~/.local/share/Ingot/ingot/transfers.")});
    table.addGroup(torchNeuronGroup());
    table.addGroup(neffGroup());
    table.add(cacheCommands());
    table.add(torchNeuronCommands());
    table.add(neffCommands());
    table.add(explainCommands());
    table.add(copyCommands());
    table.add(hubCommands());
    table.add(pushCommands());
    table.add(pullCommands());
    table.add(verifyCommands());
    table.add(policyCommands());
    table.add(scheduleCommands());
    table.add(fleetCommands());
    table.add(seedCommands());
    table.add(consolidateCommands());
    table.add(jobCommands());
    table.add(jobMonitorCommands());
    table.add(jobCompareCommands());
    table.add(jobMetricsCommands());
    table.add(jobStacksCommands());
    table.add(remoteCommands());
    table.add(clusterCommands());
    table.add(jobImportCommands());
    table.add(transferCommands());
    return table.run(args);
}
