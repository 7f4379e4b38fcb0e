// Bringing compiled graphs first for a Slurm job (issue 39), on the test Slurm cluster (tests/support/testslurm.h),
// whose nodes share this machine's folders: run 1 (here, the stand-in compiler wrapper of
// tests/support/compile_standin) compiles its graphs into cache A, a folder the team shares; run 2, the same
// settings submitted with `ingot-cli job launch --slurm local --seed-cache A` on an empty cache B, gets them copied
// into B from this machine before sbatch (said so) and compiles nothing: `job graphs` says every graph is a hit.
// Then nodes with caches of their own: `--seed-per-node` puts the step into the batch script (srun ingot-cli cache
// seed on each node), and run 3 on an empty cache C compiles nothing either.
#include "tests/support/comparesupport.h"
#include "tests/fleet/seedsupport.h"
#include "tests/support/testslurm.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using ingot::test::TestSlurm;
using ingot::test::TestSlurmOptions;
using Run = ingot::test::ProgramRun;

class TestCacheSeedSlurm : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TestSlurm> m_slurm;

    Run cli(const QStringList &args, const QString &cache) const
    {
        QProcessEnvironment e = test::seedCliEnvironment(m_slurm->environment(), m_dir.path(), cache);
        // The nodes' ingot-cli (--seed-per-node runs it there: the batch script's step before the training).
        e.insert(QStringLiteral("PATH"), QFileInfo(QStringLiteral(INGOT_CLI_PATH)).absolutePath() + QLatin1Char(':') + e.value(QStringLiteral("PATH")));
        return test::runProgram(QStringLiteral(INGOT_CLI_PATH), args, e, 280000);
    }

    // The same tiny backend run each time (the settings that make run 1 "the last run with these settings"). The
    // backend's folder is named with the stand-in's: a Slurm job's batch script sets a PYTHONPATH the job names in
    // place of the backend's (the wrapper of a job here adds it to the backend's).
    QStringList launch(const QStringList &extra) const
    {
        return QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"),
                           QStringLiteral("--env"), QStringLiteral("PYTHONPATH=" INGOT_SOURCE_DIR "/tests/support/compile_standin:" INGOT_SOURCE_DIR "/resources/backend"),
                           QStringLiteral("--env"), QStringLiteral("INGOT_STANDIN_HLO=") + m_dir.path() + QStringLiteral("/hlo")}
               + extra
               + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2"), QStringLiteral("--block_size"),
                             QStringLiteral("32")};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!TestSlurm::available())
            QSKIP("slurmctld/slurmd/slurm-client are not installed (packaging/install-deps.sh --test)");
        QVERIFY(m_dir.isValid());
        TestSlurmOptions o;
        o.nodes = 1;
        o.cpus = 2;
        m_slurm = std::make_unique<TestSlurm>(o);
        QString error;
        QVERIFY2(m_slurm->start(&error), qPrintable(error));
        test::writeStandInHlo(m_dir.path() + QStringLiteral("/hlo"));
    }

    void cleanupTestCase() { m_slurm.reset(); }

    void aSlurmJobOnAnEmptySharedCacheHitsEveryGraph()
    {
        const QString a = m_dir.path() + QStringLiteral("/team-cache"), b = m_dir.path() + QStringLiteral("/cache-b");
        Run r = cli(launch({}), a);
        QVERIFY2(r.code == 0, r.err.constData());
        const QString first = QString::fromUtf8(r.out).trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), first, QStringLiteral("--timeout"), QStringLiteral("200")}, a);
        QVERIFY2(r.code == 0, QByteArray(r.out + r.err).constData());
        r = cli(launch({QStringLiteral("--slurm"), QStringLiteral("local"), QStringLiteral("--nodes"), QStringLiteral("1"),
                        QStringLiteral("--time"), QStringLiteral("10"), QStringLiteral("--seed-cache"), a}),
                b);
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray launchErr = r.err;
        QVERIFY2(launchErr.contains("A Slurm job: from this machine before sbatch"), launchErr.constData());
        const QByteArray progress = QByteArray("Bringing compiled graphs: 2 of 2 copied from ") + QDir::cleanPath(a).toUtf8();
        QVERIFY2(launchErr.contains(progress), launchErr.constData());
        const QString second = QString::fromUtf8(r.out).trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), second, QStringLiteral("--timeout"), QStringLiteral("240")}, b);
        if (r.code != 0)
            r.out += cli({QStringLiteral("job"), QStringLiteral("logs"), second}, b).out;
        QVERIFY2(r.code == 0, QByteArray(r.out + r.err).constData());
        r = cli({QStringLiteral("job"), QStringLiteral("graphs"), second, QStringLiteral("--json")}, b);
        const QJsonObject counts = QJsonDocument::fromJson(r.out).object().value(QLatin1String("counts")).toObject();
        QVERIFY2(counts.value(QLatin1String("hit")).toInt() == 2, r.out.constData());
        for (auto it = counts.begin(); it != counts.end(); ++it)
            QVERIFY2(it.key() == QLatin1String("hit") || it.value().toInt() == 0, r.out.constData());
        r = cli({QStringLiteral("job"), QStringLiteral("status"), second}, b);
        QVERIFY2(r.out.contains("Compiled graphs brought first: 2 graph"), r.out.constData());
    }

    // Nodes that each keep their own cache (--seed-per-node): nothing is copied from here; the batch script brings
    // the graphs on each node before the training (srun ingot-cli cache seed), and the run compiles nothing.
    void eachNodeBringsThemIntoItsOwnCache()
    {
        const QString a = m_dir.path() + QStringLiteral("/team-cache"), c = m_dir.path() + QStringLiteral("/node-cache-c");
        QVERIFY2(QDir(a).exists(), "runs after the shared-folder case, which compiled into the team's folder");
        Run r = cli(launch({QStringLiteral("--slurm"), QStringLiteral("local"), QStringLiteral("--nodes"), QStringLiteral("1"),
                            QStringLiteral("--time"), QStringLiteral("10"), QStringLiteral("--seed-cache"), a,
                            QStringLiteral("--seed-per-node")}),
                    c);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("are brought on each node before the training"), r.err.constData());
        QVERIFY2(!r.err.contains("Bringing compiled graphs"), r.err.constData());  // not from here
        const QString id = QString::fromUtf8(r.out).trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id, QStringLiteral("--timeout"), QStringLiteral("240")}, c);
        QVERIFY2(r.code == 0, QByteArray(r.out + r.err).constData());
        const QByteArray script = test::readFile(m_dir.path() + QStringLiteral("/data/Ingot/ingot/jobs/") + id + QStringLiteral("/slurm.sh"));
        QVERIFY2(script.contains("--ntasks-per-node=1 ingot-cli cache seed --cache-dir"), script.constData());
        r = cli({QStringLiteral("job"), QStringLiteral("graphs"), id, QStringLiteral("--json")}, c);
        const QJsonObject counts = QJsonDocument::fromJson(r.out).object().value(QLatin1String("counts")).toObject();
        QVERIFY2(counts.value(QLatin1String("hit")).toInt() == 2, r.out.constData());
        for (auto it = counts.begin(); it != counts.end(); ++it)
            QVERIFY2(it.key() == QLatin1String("hit") || it.value().toInt() == 0, r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCacheSeedSlurm)
#include "tst_cacheseedslurm.moc"
