// ingot: the desktop application.
#include "app/i18n/translations.h"
#include "services/cache/cachelocation.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "ui/localcache/localcachepage.h"
#include "services/util/appsettings.h"
#include "services/util/format.h"
#include "ui/common/theme.h"
#include "ui/shell/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Ingot"));
    QApplication::setApplicationName(QStringLiteral("ingot"));
    QApplication::setApplicationDisplayName(QStringLiteral("Ingot"));
    QApplication::setApplicationVersion(QStringLiteral(INGOT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.ingot.Ingot"));

    // Numbers and dates follow the chosen language too (format.h writes them for the GUI and ingot-cli alike).
    const QLocale language = ingot::installTranslations(app);
    QLocale::setDefault(language);
    ingot::setDisplayLocale(language);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Neuron compile caches, Hub caches, training jobs and checkpoints."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({QStringLiteral("cache-dir"), QApplication::translate("main", "Open this cache folder."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("sample"), QApplication::translate("main", "Open the generated sample cache.")});
    parser.addOption({QStringLiteral("consolidate"), QApplication::translate("main", "Open the consolidation wizard on this checkpoint folder."), QStringLiteral("DIR")});
    parser.process(app);

    ingot::applyAppearance(ingot::appearanceFromName(ingot::AppSettings::appearance()));  // Settings ▸ Appearance
    ingot::registerRemoteStores();  // a remote host's compile cache opens through the StoreFactory ("ssh")
    ingot::s3::registerS3Store();  // s3://bucket/prefix caches

    ingot::MainWindow w;
    w.start(ingot::CacheLocation::resolve());
    if (parser.isSet(QStringLiteral("cache-dir")))
        w.localCachePage()->openRoot(parser.value(QStringLiteral("cache-dir")));
    else if (parser.isSet(QStringLiteral("sample")))
        w.localCachePage()->openSampleCache();
    w.show();
    if (parser.isSet(QStringLiteral("consolidate")))
        w.showConsolidate(parser.value(QStringLiteral("consolidate")));
    return app.exec();
}
