// TorchNeuron's NEFF cache, on folders laid out as the Neuron documentation describes it: TORCH_NEURONX_NEFF_CACHE_DIR,
// else /tmp/neff_cache (aws-neuron-sdk tools/neuron-explorer/environment-variables.rst, "NEFF cache and artifact
// control"; troubleshooting.rst: "copy from /tmp/neff_cache/"), holding .neff files in folders below it
// (how-to-profile-workload.rst: `find /tmp/neff_cache -name "*.neff"`, `/tmp/neff_cache/<path>/*.neff`). The folders
// here are two levels of key prefixes (ab/cd/<key>.neff), the layout torch-neuronx's persistent NEFF cache backend
// describes in its source; the docs only say "below". Found, sized, aged, and old ones pruned on a preview; nothing
// locked, used since, changed since, linked or outside the root is touched. Then ingot-cli neff and cache status.
#include "services/cache/neffcache.h"
#include "services/stores/localcachestore.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace ingot;

namespace {

// <root>/<k0k1>/<k2k3>/<key>.neff of `bytes` bytes, unused for `ageDays`.
QString neff(const QString &root, const QByteArray &key, qint64 bytes, double ageDays)
{
    const QString dir = root + QLatin1Char('/') + QString::fromLatin1(key.left(2)) + QLatin1Char('/') + QString::fromLatin1(key.mid(2, 2));
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + QString::fromLatin1(key) + QStringLiteral(".neff");
    test::writeFile(path, test::randomBytes(bytes, quint32(key.size() + bytes)));
    test::setAge(path, ageDays);
    return path;
}

}  // namespace

class TestNeffCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void whereItIs()
    {
        QProcessEnvironment env;
        NeffCacheLocation loc = resolveNeffCacheLocation(env);
        QCOMPARE(loc.path, QStringLiteral("/tmp/neff_cache"));
        QVERIFY(loc.why.contains(QLatin1String("not set")));
        env.insert(QStringLiteral("TORCH_NEURONX_NEFF_CACHE_DIR"), QStringLiteral("/fsx/neff//cache/"));
        loc = resolveNeffCacheLocation(env);
        QCOMPARE(loc.path, QStringLiteral("/fsx/neff/cache"));
        QVERIFY(loc.why.contains(QLatin1String("TORCH_NEURONX_NEFF_CACHE_DIR")));
    }

    void scannedAndPruned()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("neff_cache"));
        const QString outside = dir.filePath(QStringLiteral("elsewhere.neff"));
        test::writeFile(outside, "kept");
        test::setAge(outside, 90);
        const QString oldBig = neff(root, "ab12cd34ef56ab12cd34ef56ab12cd34", 3000, 40);
        const QString fresh = neff(root, "ab99000000000000000000000000aaaa", 2000, 1);
        const QString locked = neff(root, "cd00000000000000000000000000bbbb", 1000, 40);
        test::writeFile(QFileInfo(locked).path() + QStringLiteral("/cd00.lock"), "");
        const QString held = neff(root, "ef00000000000000000000000000cccc", 500, 40);
        const QString changes = neff(root, "0a00000000000000000000000000dddd", 400, 45);
        test::writeFile(root + QStringLiteral("/ab/12/tmpx1y2.tmp"), "half");  // a write under way
        QVERIFY(QFile::link(outside, root + QStringLiteral("/ab/link.neff")));
        QDir().mkpath(root + QStringLiteral("/1/2/3/4/5/6/7"));
        test::writeFile(root + QStringLiteral("/1/2/3/4/5/6/7/deep.neff"), "deep");

        LocalCacheStore store(root);
        const NeffCacheSnapshot snap = scanNeffCache(store);
        QVERIFY2(snap.fatalError.isEmpty(), qPrintable(snap.fatalError));
        QCOMPARE(snap.neffs.size(), 5);
        QCOMPARE(snap.neffs.first().rel, QStringLiteral("ab/12/ab12cd34ef56ab12cd34ef56ab12cd34.neff"));  // largest first
        QCOMPARE(snap.neffs.last().size, qint64(400));
        QCOMPARE(snap.size(), qint64(3000 + 2000 + 1000 + 500 + 400));
        QCOMPARE(snap.otherFiles, 2);  // the temporary file and the lock
        QCOMPARE(snap.links, 1);
        QCOMPARE(snap.foldersNotRead, 1);  // below the depth Ingot reads
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        qint64 oldBytes = 0;
        QCOMPARE(snap.unusedFor(30, now, &oldBytes), 4);
        QCOMPARE(oldBytes, qint64(3000 + 1000 + 500 + 400));

        const QVector<NeffStep> plan = planNeffPrune(snap, 30, now);
        QCOMPARE(plan.size(), 4);
        QCOMPARE(plan.first().rel, QStringLiteral("0a/00/0a00000000000000000000000000dddd.neff"));  // oldest first

        // Between the preview and the removal: a process takes a lock on one, another is rewritten.
        const int fd = ::open(QFile::encodeName(held).constData(), O_RDONLY);
        QVERIFY(fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0);
        test::writeFile(changes, "rewritten");
        test::setAge(changes, 45);
        const NeffPruneReport r = executeNeffPrune(store, plan, 30, now);
        ::close(fd);
        QVERIFY2(r.errors.isEmpty(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.done, 1);
        QCOMPARE(r.skipped, 3);
        QVERIFY(!QFileInfo::exists(oldBig));
        QVERIFY(QFileInfo::exists(fresh) && QFileInfo::exists(locked) && QFileInfo::exists(held) && QFileInfo::exists(changes));
        QCOMPARE(test::readFile(outside), QByteArray("kept"));
        QVERIFY(r.freed >= 3000);
    }

    void aMissingRootIsAnError()
    {
        QTemporaryDir dir;
        LocalCacheStore store(dir.filePath(QStringLiteral("none")));
        const NeffCacheSnapshot snap = scanNeffCache(store);
        QVERIFY(!snap.fatalError.isEmpty());
        QVERIFY(snap.neffs.isEmpty());
    }

    void theCommandLine()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("neff cache"));
        const QString old = neff(root, "aa00000000000000000000000000eeee", 1500, 60);
        const QString fresh = neff(root, "bb00000000000000000000000000ffff", 700, 0);
        const QString cli = QStringLiteral(INGOT_CLI_PATH);

        test::ProgramRun run = test::runProgram(cli, {QStringLiteral("neff"), QStringLiteral("status"), QStringLiteral("--json"),
                                                      QStringLiteral("--cache-dir"), root});
        QCOMPARE(run.code, 0);
        const QJsonObject status = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(status.value(QLatin1String("neff_files")).toInt(), 2);
        QCOMPARE(status.value(QLatin1String("size")).toInt(), 2200);
        QCOMPARE(status.value(QLatin1String("unused")).toObject().value(QLatin1String("neff_files")).toInt(), 1);

        run = test::runProgram(cli, {QStringLiteral("neff"), QStringLiteral("prune"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(run.code, 4);  // no terminal and no --yes: refused
        QVERIFY(QFileInfo::exists(old));
        run = test::runProgram(cli, {QStringLiteral("neff"), QStringLiteral("prune"), QStringLiteral("--dry-run"),
                                     QStringLiteral("--cache-dir"), root});
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.contains("aa00000000000000000000000000eeee.neff"));
        QVERIFY(!run.out.contains("bb00"));
        QVERIFY(QFileInfo::exists(old));
        run = test::runProgram(cli, {QStringLiteral("neff"), QStringLiteral("prune"), QStringLiteral("--yes"),
                                     QStringLiteral("--cache-dir"), root});
        QCOMPARE(run.code, 0);
        QVERIFY(!QFileInfo::exists(old));
        QVERIFY(QFileInfo::exists(fresh));

        run = test::runProgram(cli, {QStringLiteral("neff"), QStringLiteral("status"), QStringLiteral("--cache-dir"),
                                     QStringLiteral("s3://bucket/neff")});
        QCOMPARE(run.code, 2);
        QVERIFY(run.err.contains("not one"));

        // cache status names it beside the other two formats, as this environment places it.
        qputenv("TORCH_NEURONX_NEFF_CACHE_DIR", root.toUtf8());
        const QString compileCache = dir.filePath(QStringLiteral("neuron-compile-cache"));
        QDir().mkpath(compileCache);
        run = test::runProgram(cli, {QStringLiteral("cache"), QStringLiteral("status"), QStringLiteral("--cache-dir"), compileCache});
        qunsetenv("TORCH_NEURONX_NEFF_CACHE_DIR");
        QCOMPARE(run.code, 0);
        const QByteArray line = QByteArray("TorchNeuron NEFF cache: ").append(root.toUtf8());
        QVERIFY2(run.out.contains(line), run.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestNeffCache)
#include "tst_neffcache.moc"
