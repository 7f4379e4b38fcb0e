// The log of policy runs (services/fleet/gclog): one line per run, newest first when read, bounded, under a lock,
// never through a link, damaged lines skipped.
#include "services/fleet/gclog.h"

#include "services/util/format.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace ingot;

namespace {
GcRun run(qint64 started, qint64 freedA, bool reachedB)
{
    GcRun r;
    r.startedMs = started;
    r.finishedMs = started + 1000;
    r.policy = QStringLiteral("nightly");
    r.trigger = QStringLiteral("schedule");
    GcPlaceResult a;
    a.place = QStringLiteral("/var/tmp/neuron-compile-cache");
    a.kind = QStringLiteral("local");
    a.reached = true;
    a.planned = a.removed = 3;
    a.plannedBytes = a.freedBytes = freedA;
    GcPlaceResult b;
    b.place = QStringLiteral("host:trn-1");
    b.kind = QStringLiteral("host");
    b.reached = reachedB;
    if (!reachedB)
        b.error = QStringLiteral("ssh: connect to host trn-1 port 22: Connection refused");
    r.places << a << b;
    return r;
}
}  // namespace

class TestGcLog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_log;

private Q_SLOTS:
    void init()
    {
        m_log = m_dir.filePath(QStringLiteral("state/ingot/cache-gc.log"));
        QFile::remove(m_log);
        qputenv("INGOT_GC_LOG", QFile::encodeName(m_log));
    }

    void runsComeBackNewestFirstWithTheirFigures()
    {
        QString error;
        QVERIFY2(appendGcRun(run(1000, 41'000'000'000, false), &error), qPrintable(error));
        QVERIFY2(appendGcRun(run(2000, 5, true), &error), qPrintable(error));
        const QVector<GcRun> runs = readGcRuns(10, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].startedMs, 2000);
        QCOMPARE(runs[1].startedMs, 1000);
        QCOMPARE(runs[1].freedBytes(), 41'000'000'000);
        QCOMPARE(runs[1].unreachable(), 1);
        QCOMPARE(runs[1].places[1].error, QStringLiteral("ssh: connect to host trn-1 port 22: Connection refused"));
        QCOMPARE(runs[1].policy, QStringLiteral("nightly"));
        QCOMPARE(runs[1].trigger, QStringLiteral("schedule"));
        QVERIFY2(runs[1].summary().contains(QStringLiteral("2 place")), qPrintable(runs[1].summary()));
        QVERIFY2(runs[1].summary().contains(formatBytes(41'000'000'000) + QStringLiteral(" freed")), qPrintable(runs[1].summary()));
        QVERIFY2(runs[1].summary().contains(QStringLiteral("1 unreachable")), qPrintable(runs[1].summary()));
        QVERIFY(!runs[0].summary().contains(QStringLiteral("unreachable")));
        QCOMPARE(QFile(m_log).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    }

    void aDamagedOrForeignLineIsSkipped()
    {
        QString error;
        QVERIFY(appendGcRun(run(1000, 1, true), &error));
        QFile f(m_log);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{not json\n{\"other\": 1}\n");
        f.close();
        QVERIFY(appendGcRun(run(3000, 1, true), &error));
        const QVector<GcRun> runs = readGcRuns(10, &error);
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].startedMs, 3000);
    }

    void theOldestGoPastTheBound()
    {
        QString error;
        for (int i = 0; i < GcRun::kMaxRuns + 7; ++i)
            QVERIFY2(appendGcRun(run(i, 1, true), &error), qPrintable(error));
        QFile f(m_log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size() - 1, GcRun::kMaxRuns);  // the last split is the empty piece after the final newline
        const QVector<GcRun> newest = readGcRuns(3, &error);
        QCOMPARE(newest.size(), 3);
        QCOMPARE(newest[0].startedMs, GcRun::kMaxRuns + 6);
        const QVector<GcRun> all = readGcRuns(100000, &error);
        QCOMPARE(all.size(), GcRun::kMaxRuns);
        QCOMPARE(all.last().startedMs, 7);
    }

    void aLinkInItsPlaceIsNeverFollowed()
    {
        const QString target = m_dir.filePath(QStringLiteral("elsewhere"));
        QFile t(target);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("precious\n");
        t.close();
        QDir().mkpath(QFileInfo(m_log).absolutePath());
        QVERIFY(QFile::link(target, m_log));
        QString error;
        QVERIFY(!appendGcRun(run(1, 1, true), &error));
        QVERIFY2(error.contains(m_log), qPrintable(error));
        QVERIFY(t.open(QIODevice::ReadOnly));
        QCOMPARE(t.readAll(), QByteArray("precious\n"));
        QFile::remove(m_log);
    }
};

QTEST_GUILESS_MAIN(TestGcLog)
#include "tst_gclog.moc"
