// The local store: paths never leave the root, links are never followed, reads do not touch atime.
#include "services/stores/localcachestore.h"
#include "services/stores/procscan.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <sys/stat.h>

using namespace ingot;

class TestLocalCacheStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void safeRelativePaths()
    {
        QVERIFY(isSafeRelativePath(QString()));
        QVERIFY(isSafeRelativePath(QStringLiteral("neuronxcc-2.15/MODULE_1+2")));
        QVERIFY(isSafeRelativePath(QStringLiteral("MODULE_ünï code")));
        QVERIFY(!isSafeRelativePath(QStringLiteral("../etc")));
        QVERIFY(!isSafeRelativePath(QStringLiteral("a/../../b")));
        QVERIFY(!isSafeRelativePath(QStringLiteral("/etc/passwd")));
        QVERIFY(!isSafeRelativePath(QStringLiteral("a//b")));
        QVERIFY(!isSafeRelativePath(QStringLiteral("a/./b")));
        QVERIFY(isSafeRelativePath(QStringLiteral("MODULE_a\\b")));  // an ordinary character on Linux
    }

    void rootProblemsAreWords()
    {
        QTemporaryDir tmp;
        QString error;
        LocalCacheStore missing(tmp.path() + QStringLiteral("/nope"));
        QVERIFY(!missing.open(&error));
        QVERIFY(error.contains(QStringLiteral("does not exist")));
        test::writeFile(tmp.path() + QStringLiteral("/file"), "x");
        LocalCacheStore file(tmp.path() + QStringLiteral("/file"));
        QVERIFY(!file.open(&error));
        QVERIFY(error.contains(QStringLiteral("not a folder")));
    }

    void listReportsLinksWithoutFollowing()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/root");
        QDir().mkpath(root + QStringLiteral("/v/m"));
        test::writeFile(tmp.path() + QStringLiteral("/outside.bin"), QByteArray(5000, 'o'));
        const QString blob = tmp.path() + QStringLiteral("/hf/hub/models--aws-neuron--c/blobs/abc");
        test::writeFile(blob, QByteArray(700, 'b'));
        QFile::link(tmp.path() + QStringLiteral("/outside.bin"), root + QStringLiteral("/v/m/out"));
        QFile::link(blob, root + QStringLiteral("/v/m/model.neff"));
        QFile::link(tmp.path() + QStringLiteral("/gone"), root + QStringLiteral("/v/m/broken"));
        test::writeFile(root + QStringLiteral("/v/m/real"), QByteArray(10, 'r'));
        LocalCacheStore store(root);
        QString error;
        QVERIFY(store.open(&error));
        const ListResult lr = store.list(QStringLiteral("v/m"));
        QVERIFY2(lr.ok, qPrintable(lr.error));
        QCOMPARE(lr.entries.size(), 4);
        QHash<QString, StoreEntry> by;
        for (const auto &e : lr.entries)
            by.insert(e.name, e);
        QCOMPARE(by[QStringLiteral("out")].type, StoreEntry::Type::Symlink);
        QVERIFY(by[QStringLiteral("out")].linkOutsideRoot);
        QVERIFY(!by[QStringLiteral("out")].linkToHubBlob);
        QCOMPARE(by[QStringLiteral("out")].size, 5000);
        QVERIFY(by[QStringLiteral("model.neff")].linkToHubBlob);
        QVERIFY(by[QStringLiteral("broken")].linkBroken);
        QCOMPARE(by[QStringLiteral("real")].type, StoreEntry::Type::File);
        QCOMPARE(store.linkTarget(QStringLiteral("v/m/model.neff")), blob);
    }

    void symlinkedFolderIsNeverEntered()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/root");
        QDir().mkpath(root);
        QDir().mkpath(tmp.path() + QStringLiteral("/elsewhere/secret"));
        QFile::link(tmp.path() + QStringLiteral("/elsewhere"), root + QStringLiteral("/v"));
        LocalCacheStore store(root);
        QString error;
        QVERIFY(store.open(&error));
        const ListResult lr = store.list(QStringLiteral("v"));
        QVERIFY(!lr.ok);
        QVERIFY(lr.error.contains(QStringLiteral("symbolic link")));
    }

    void removeNeverFollowsLinksOrLeavesRoot()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/root");
        const QString precious = tmp.path() + QStringLiteral("/precious");
        test::writeFile(precious + QStringLiteral("/data.bin"), "keep me");
        QDir().mkpath(root + QStringLiteral("/v/m/sub"));
        test::writeFile(root + QStringLiteral("/v/m/sub/x"), "x");
        QFile::link(precious, root + QStringLiteral("/v/m/linkdir"));
        QFile::link(precious + QStringLiteral("/data.bin"), root + QStringLiteral("/v/m/linkfile"));
        LocalCacheStore store(root);
        QString error;
        QVERIFY(store.open(&error));
        qint64 freed = 0;
        QVERIFY(!store.remove(QStringLiteral("../precious"), &freed, &error));
        QVERIFY(error.contains(QStringLiteral("outside the cache root")));
        QVERIFY(!store.remove(QString(), &freed, &error));
        QVERIFY(store.remove(QStringLiteral("v/m"), &freed, &error));
        QVERIFY(!QFileInfo::exists(root + QStringLiteral("/v/m")));
        QVERIFY(QFile::exists(precious + QStringLiteral("/data.bin")));
        QCOMPARE(QDir(root + QStringLiteral("/v")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(), 0);
        QVERIFY(!store.remove(QStringLiteral("v/m"), &freed, &error));
        QVERIFY(error.contains(QStringLiteral("no longer exists")));
    }

    void readDoesNotUpdateAccessTime()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/root");
        test::makeModule(root, QStringLiteral("v"), QStringLiteral("m"), {QStringLiteral("model.log")}, 40);
        const QByteArray path = QFile::encodeName(root + QStringLiteral("/v/m/model.log"));
        struct stat before {};
        ::stat(path.constData(), &before);
        LocalCacheStore store(root);
        QString error;
        QVERIFY(store.open(&error));
        QByteArray tail;
        QVERIFY(store.readFile(QStringLiteral("v/m/model.log"), 22, true, &tail, &error));
        QCOMPARE(tail, QByteArray("\nlast line of the log\n"));
        struct stat after {};
        ::stat(path.constData(), &after);
        QCOMPARE(after.st_atim.tv_sec, before.st_atim.tv_sec);
        QVERIFY(!store.readFile(QStringLiteral("v/../../etc/passwd"), 10, false, &tail, &error));
    }

    void findsRunningCompiler()
    {
        QTemporaryDir tmp;
        QVERIFY(findProcesses(QStringLiteral("neuronx-cc")).isEmpty());
        test::FakeCompilerProcess proc(tmp);
        QVERIFY(findProcesses(QStringLiteral("neuronx-cc")).contains(proc.pid()));
        LocalCacheStore store(tmp.path());
        QString error;
        QVERIFY(store.runningCompilers(&error).contains(proc.pid()));
        QVERIFY(error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLocalCacheStore)
#include "tst_localcachestore.moc"
