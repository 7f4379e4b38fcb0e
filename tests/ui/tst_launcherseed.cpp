// The launcher's *Bring compiled graphs first* (issue 39), driven like a user: a run compiled two graphs into cache A
// (a folder added on the Local cache page: a place Ingot knows); the same settings on an empty cache B with the box
// checked and no place typed propose A (where the last run's graphs are), the note says what will be brought, and
// Launch copies both into B before the job starts, its result kept in the job's folder, which the monitor shows.
#include "services/jobs/jobservice.h"
#include "services/neuron/launchseed.h"
#include "services/util/appsettings.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/joblauncher.h"
#include "ui/jobs/jobmonitor.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");

// A run's compile activity as the Neuron compiler wrapper logs it and the entries it leaves (a finished entry is used,
// as the wrapper uses a cached NEFF). (Outside the class: moc does not read raw strings.)
QByteArray compilingScript()
{
    return QStringLiteral(R"(import os
cache = os.environ["NEURON_COMPILE_CACHE_URL"]
root = os.path.join(cache, "%1")
w = "2024-01-11 05:53:27.000498:  741535  INFO ||NEURON_CC_WRAPPER||: "
print(w + "Compile cache path: " + cache, flush=True)
for name in ["MODULE_11+aaaa1111", "MODULE_22+aaaa1111"]:
    d = os.path.join(root, name)
    if os.path.exists(os.path.join(d, "model.done")):
        print(w + "Using a cached neff at " + d + "/model.neff. Exiting with a successfully compiled graph.", flush=True)
        continue
    print(w + "Call compiler with cmd: ['neuronx-cc', 'compile', '--framework=XLA', '/tmp/work/model." + name + ".hlo_module.pb', '--output', '/tmp/work/model." + name + ".neff']", flush=True)
    os.makedirs(d)
    open(os.path.join(d, "model.hlo_module.pb"), "w").write("hlo")
    open(os.path.join(d, "compile_flags.json"), "w").write('["--model-type=transformer"]')
    open(os.path.join(d, "model.neff"), "w").write("neff of " + name)
    open(os.path.join(d, "model.done"), "w").write("")
)").arg(V).toUtf8();
}
}  // namespace

class TestLauncherSeed : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repo in use is not asked over the network here
        qputenv("INGOT_KEYCHAIN", "none");
    }

    void theBoxBringsTheLastRunsGraphsBeforeTheJobStarts()
    {
        QTemporaryDir tmp;
        const QString a = tmp.path() + QStringLiteral("/cache-a"), b = tmp.path() + QStringLiteral("/cache-b");
        const QString script = tmp.path() + QStringLiteral("/compiles.py");
        test::writeFile(script, compilingScript());
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        JobSpec spec;
        spec.python = QStringLiteral("/usr/bin/python3");
        spec.program = JobProgram::Script;
        spec.script = script;
        spec.passSettings = false;
        spec.compileCacheUrl = a;
        QString error;
        const QString first = test::launchSpec(jobs, spec, &error);
        QVERIFY2(!first.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, first).state, JobState::Finished);
        AppSettings::setCacheRoots({a});  // the team's folder, added on the Local cache page

        JobService service(runner);
        service.setPollInterval(100);
        QTRY_VERIFY_WITH_TIMEOUT(service.find(first), 20000);
        JobLauncher launcher(&service);
        launcher.show();
        spec.compileCacheUrl = b;
        launcher.setSpec(spec);
        QSignalSpy seedChecked(&launcher, &JobLauncher::seedChecked);
        QVERIFY(!launcher.seedPlacesEdit()->isEnabled());
        launcher.seedBox()->click();
        QVERIFY(launcher.seedPlacesEdit()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!seedChecked.isEmpty() && !launcher.isBusy() && launcher.hasPlan(), 30000);
        const QString note = launcher.seedLabel()->text();
        QVERIFY2(note.contains(QStringLiteral("Before training: the 2 graph")) && note.contains(first) && note.contains(b), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("found: 2 in ") + a) && note.contains(QStringLiteral("nowhere: 0")), qPrintable(note));

        // A place that is none is said, and nothing would be brought (as --seed-cache refuses it).
        seedChecked.clear();
        launcher.seedPlacesEdit()->setText(QStringLiteral("host:no-such-host"));
        QTRY_VERIFY_WITH_TIMEOUT(!seedChecked.isEmpty() && !launcher.isBusy(), 30000);
        QVERIFY2(launcher.seedLabel()->text().contains(QStringLiteral("no-such-host is not in the host list")),
                 qPrintable(launcher.seedLabel()->text()));
        seedChecked.clear();
        launcher.seedPlacesEdit()->clear();
        QTRY_VERIFY_WITH_TIMEOUT(!seedChecked.isEmpty() && !launcher.isBusy() && launcher.hasPlan(), 30000);
        QVERIFY2(launcher.seedLabel()->text().contains(QStringLiteral("Before training: the 2 graph")), qPrintable(launcher.seedLabel()->text()));

        // Stop while the graphs are brought: no job starts (what was copied stays: whole entries).
        QVERIFY(!launcher.seedStopButton()->isVisible());
        launcher.launchButton()->click();
        QVERIFY(launcher.seedStopButton()->isVisible());
        launcher.seedStopButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(launcher.launchErrorLabel()->text().contains(QStringLiteral("Stopped while bringing compiled graphs")), 60000);
        QVERIFY(!launcher.seedStopButton()->isVisible());
        QCOMPARE(jobs.list().size(), 1);  // the first run only
        QTRY_VERIFY_WITH_TIMEOUT(!launcher.isBusy() && launcher.hasPlan(), 30000);

        QSignalSpy launched(&launcher, &JobLauncher::launched);
        launcher.launchButton()->click();
        QVERIFY(launcher.seedStopButton()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!launched.isEmpty(), 60000);
        QVERIFY(!launcher.seedStopButton()->isVisible());
        const QString second = launched.first().at(0).toString();
        for (const char *name : {"MODULE_11+aaaa1111", "MODULE_22+aaaa1111"})
            QCOMPARE(test::readFile(b + QLatin1Char('/') + V + QLatin1Char('/') + QLatin1String(name) + QStringLiteral("/model.neff")),
                     QByteArray("neff of ") + name);
        QVERIFY2(launcher.seedLabel()->text().contains(QStringLiteral("2 copied (2 from ") + a), qPrintable(launcher.seedLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!seedStatusLine(*runner, jobs.paths(second)).isEmpty(), 20000);
        QVERIFY(seedStatusLine(*runner, jobs.paths(second)).contains(QStringLiteral("2 copied")));
        // The job used both: nothing compiled.
        QCOMPARE(test::waitForEnd(jobs, second).state, JobState::Finished);
        const QByteArray log = test::rankStdout(jobs.paths(second), 0);
        QCOMPARE(log.count("Using a cached neff at "), 2);
        QVERIFY2(!log.contains("Call compiler"), log.constData());
        // The monitor says what was brought, above the job's graphs (both hits).
        JobMonitor monitor(&service);
        QTRY_VERIFY_WITH_TIMEOUT(service.find(second), 20000);
        monitor.setJob(second);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.compileLabel()->text().contains(QStringLiteral("Compiled graphs brought first: 2 graph"))
                                     && monitor.compileLabel()->text().contains(QStringLiteral("2 hit")), 30000);
        AppSettings::setCacheRoots({});
    }
};

QTEST_MAIN(TestLauncherSeed)
#include "tst_launcherseed.moc"
