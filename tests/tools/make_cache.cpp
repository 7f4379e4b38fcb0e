// ingot-make-cache: writes a realistic Neuron compile cache for tests and benchmarks.
//   ingot-make-cache DIR [--modules N] [--seed N] [--no-odd] [--no-hub-links]
// Several compiler versions, both module-name forms and traced modules, every state, sparse model.neff files of
// realistic sizes, entries symlinked into a Hugging Face hub blob cache, odd names, unknown files, broken links.
#include "services/cache/samplecache.h"
#include "services/util/format.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Writes a realistic Neuron compile cache (sparse files) into an empty folder."));
    p.addHelpOption();
    p.addOption({QStringLiteral("modules"), QStringLiteral("Module folders to write (default 1000)."), QStringLiteral("N"), QStringLiteral("1000")});
    p.addOption({QStringLiteral("seed"), QStringLiteral("Random seed (default 42)."), QStringLiteral("N"), QStringLiteral("42")});
    p.addOption({QStringLiteral("extra-files"), QStringLiteral("Small extra files per module (default 0)."), QStringLiteral("N"), QStringLiteral("0")});
    p.addOption({QStringLiteral("no-odd"), QStringLiteral("Leave out unknown files, odd names and broken links.")});
    p.addOption({QStringLiteral("no-hub-links"), QStringLiteral("Leave out entries linked into a HF hub blob cache.")});
    p.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("The cache root to create."));
    p.process(app);
    if (p.positionalArguments().size() != 1)
        p.showHelp(2);
    ingot::SampleCacheOptions o;
    o.modules = p.value(QStringLiteral("modules")).toInt();
    o.seed = p.value(QStringLiteral("seed")).toULongLong();
    o.extraFiles = p.value(QStringLiteral("extra-files")).toInt();
    o.oddEntries = !p.isSet(QStringLiteral("no-odd"));
    o.hubLinks = !p.isSet(QStringLiteral("no-hub-links"));
    ingot::SampleCacheResult r;
    QString error;
    QElapsedTimer t;
    t.start();
    if (!ingot::writeSampleCache(p.positionalArguments().first(), o, &r, &error)) {
        std::fprintf(stderr, "error: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("%d modules, %d files, %s apparent, in %.1f s\n", r.modules, r.files,
                qPrintable(ingot::formatBytes(r.bytes)), double(t.elapsed()) / 1000.0);
    return 0;
}
