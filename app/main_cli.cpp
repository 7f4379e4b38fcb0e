// ingot-cli: the headless companion. QtCore only, so it runs on trn hosts without a display.
#include "cli/cachecommands.h"
#include "cli/clicommon.h"
#include "cli/consolidatecommand.h"
#include "cli/hubcommands.h"

#include <QCoreApplication>
#include <QLocale>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
    QCoreApplication::setApplicationName(QStringLiteral("ingot"));
    QCoreApplication::setApplicationVersion(QStringLiteral(INGOT_VERSION));
    QLocale::setDefault(QLocale::c());  // stable, script-friendly numbers
    const QStringList args = app.arguments().mid(1);
    const QString usage = QStringLiteral(
        "Usage: ingot-cli GROUP COMMAND [options]\n\n"
        "Groups:\n"
        "  cache   The Neuron compile cache: list, status, prune, clean-failed, clear-locks; Hub cache repos:\n"
        "          create, set, lookup\n"
        "  hub     The Hugging Face Hub: whoami, ls, login, logout\n"
        "  consolidate CHECKPOINT_DIR [OUTPUT_DIR]   Sharded checkpoint -> safetensors\n\n"
        "  --version   Print the version\n"
        "  --help      This help\n");
    if (args.isEmpty()) {
        ingot::cli::err(usage);
        return ingot::cli::Usage;
    }
    if (args.first() == QLatin1String("--version")) {
        ingot::cli::out(QStringLiteral("ingot-cli ") + QCoreApplication::applicationVersion());
        return 0;
    }
    if (args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        ingot::cli::out(usage);
        return 0;
    }
    if (args.first() == QLatin1String("cache"))
        return ingot::cli::runCacheCommand(args.mid(1));
    if (args.first() == QLatin1String("hub"))
        return ingot::cli::runHubCommand(args.mid(1));
    if (args.first() == QLatin1String("consolidate"))
        return ingot::cli::runConsolidate(args.mid(1));
    ingot::cli::err(QStringLiteral("error: unknown group \"%1\"\n\n").arg(args.first()) + usage);
    return ingot::cli::Usage;
}
