// The launch form (services/neuron/launchform.h) without a page: the one check (the form's own problems, then
// validateJob's in the service's words, each by its field), the presets, the preview being the plan, and the compile
// cache's warnings the launcher shows and ingot-cli prints. Jobs are planned on this machine; none is launched.
#include "services/neuron/launchform.h"

#include "services/jobs/jobservice.h"
#include "services/util/appsettings.h"
#include "tests/support/launchsupport.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

using test::messagesOf;

namespace {

const QString kVersion = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");

}  // namespace

class TestLaunchForm : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    std::shared_ptr<JobRunner> runner;

    JobSpec tinyTp2() const { return test::tinyTp2(tmp.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnLaunchSettings(QStringLiteral("ingot-tst-launchform"));
        QVERIFY(tmp.isValid());
        runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    }

    // An environment variable's name is the service's rule, in the service's words (the launcher had a second rule
    // of its own whose words hid validateJob's); a name set twice is the form's own.
    void environmentNamesInTheServicesWords()
    {
        LaunchInput in;
        in.spec = tinyTp2();
        in.spec.env = {{QStringLiteral("1BAD"), QStringLiteral("x")}};
        const LaunchCheck c = LaunchForm::checkNow(in, runner.get(), QString());
        const QStringList env = messagesOf(c.problems, QStringLiteral("env"));
        const QStringList service = messagesOf(validateJob(in.spec, gatherJobFacts(in.spec, *runner)), QStringLiteral("env"));
        QCOMPARE(service.size(), 1);
        QCOMPARE(env, service);
        QVERIFY2(env.first().contains(QStringLiteral("not starting with a digit")), qPrintable(env.first()));

        in.spec.env = {{QStringLiteral("A"), QStringLiteral("1")}, {QStringLiteral("A"), QStringLiteral("2")}};
        const QStringList twice = messagesOf(LaunchForm::checkNow(in, runner.get(), QString()).problems, QStringLiteral("env"));
        QCOMPARE(twice, QStringList{QStringLiteral("A is set twice")});
    }

    void whatOnlyAFormHas()
    {
        LaunchInput in;
        in.spec = tinyTp2();
        QVERIFY(LaunchForm::checkNow(in, runner.get(), QString()).problems.isEmpty());

        in.modelFolderChosen = true;  // chosen, nothing typed yet
        in.dataChosen = true;
        in.dataFolder = true;
        in.unreadNumbers = {QStringLiteral("learning_rate"), QStringLiteral("num_train_epochs")};
        bool ok = true;
        in.spec.learningRate = LaunchForm::readNumber(QStringLiteral("1e-3x"), &ok);
        QVERIFY(!ok);
        in.spec.maxSteps = 100;  // by steps: the epochs' text does not count
        const QVector<JobProblem> p = LaunchForm::checkNow(in, runner.get(), QString()).problems;
        QCOMPARE(messagesOf(p, QStringLiteral("model_name_or_path")).size(), 1);
        QVERIFY(messagesOf(p, QStringLiteral("model_name_or_path")).first().contains(QStringLiteral("config.json")));
        QCOMPARE(messagesOf(p, QStringLiteral("train_file")), QStringList{QStringLiteral("choose a folder of text files")});
        // One message a field: the number that does not read, not validateJob's "must not be negative" too.
        QCOMPARE(messagesOf(p, QStringLiteral("learning_rate")), QStringList{QStringLiteral("not a number (write 0.001 or 1e-3)")});
        QVERIFY(messagesOf(p, QStringLiteral("num_train_epochs")).isEmpty());
        QCOMPARE(LaunchForm::readNumber(QStringLiteral(" 2.5e-4 "), &ok), 2.5e-4);
        QVERIFY(ok);

        // Where it runs: a host that cannot be used, and a multi-node job without its hosts.
        LaunchInput far;
        far.spec = tinyTp2();
        far.where = QStringLiteral("trn-host");
        QVERIFY(messagesOf(LaunchForm::checkNow(far, nullptr, QStringLiteral("trn-host cannot be reached")).problems,
                           QStringLiteral("host"))
                    .first()
                    .contains(QStringLiteral("cannot be reached")));
        far.spec.nnodes = 2;
        far.nodes = {QStringLiteral("trn-host")};
        const QStringList nodes = messagesOf(LaunchForm::checkNow(far, runner.get(), QString()).problems, QStringLiteral("nnodes"));
        QVERIFY(nodes.join(QLatin1Char(' ')).contains(QStringLiteral("name the other 1")));
    }

    // A Slurm job's nodes are the scheduler's: two nodes from a login node need no host per node (the form refused
    // them with the rule of a job torchrun starts on hosts, which `job launch --slurm --nodes 2` never had).
    void slurmNodesAreTheSchedulers()
    {
        LaunchInput in;
        in.spec = tinyTp2();
        in.spec.nnodes = 2;
        in.spec.slurm.enabled = true;
        in.spec.outputDir = QString();
        const LaunchCheck slurm = LaunchForm::checkNow(in, runner.get(), QString());
        QVERIFY2(messagesOf(slurm.problems, QStringLiteral("nnodes")).isEmpty(),
                 qPrintable(messagesOf(slurm.problems, QStringLiteral("nnodes")).join(QLatin1Char(' '))));
        in.spec.slurm.enabled = false;  // without the scheduler: this machine runs one node
        QVERIFY(!messagesOf(LaunchForm::checkNow(in, runner.get(), QString()).problems, QStringLiteral("nnodes")).isEmpty());
    }

    // No Python chosen and none there imports torch: one sentence for the launcher and ingot-cli.
    void noPythonWithTorch()
    {
        LaunchInput in;
        in.spec = tinyTp2();
        PythonInfo bare;
        bare.path = QStringLiteral("/usr/bin/python3");
        QVERIFY(LaunchForm::pythonProblem(in, {bare}, QStringLiteral("this machine")).isEmpty());  // one was chosen
        in.spec.python.clear();
        QCOMPARE(LaunchForm::pythonProblem(in, {bare}, QStringLiteral("this machine")),
                 QStringLiteral("no Python with torch was found on this machine: choose one"));
        bare.torchVersion = QStringLiteral("2.6.0");
        QVERIFY(LaunchForm::pythonProblem(in, {bare}, QStringLiteral("this machine")).isEmpty());
        in.where = QStringLiteral("trn-host");
        QVERIFY(LaunchForm::pythonProblem(in, {}, QStringLiteral("this machine")).contains(QStringLiteral("on trn-host:")));
    }

    void presets()
    {
        JobSpec s = tinyTp2();
        s.learningRate = 2.5e-4;
        s.maxSteps = 300;
        s.env = {{QStringLiteral("XLA_USE_BF16"), QStringLiteral("1")}};
        LaunchForm::savePreset(QStringLiteral("tp2 short"), s);
        QCOMPARE(LaunchForm::presetNames(), QStringList{QStringLiteral("tp2 short")});
        JobSpec loaded;
        QString error;
        QVERIFY(LaunchForm::loadPreset(QStringLiteral("tp2 short"), &loaded, &error));
        QCOMPARE(loaded.toJson(), s.toJson());

        QVERIFY(!LaunchForm::loadPreset(QStringLiteral("nothing"), &loaded, &error));
        QVERIFY2(error.contains(QStringLiteral("no preset named")), qPrintable(error));
        // A preset written by a later version with a value of the wrong type: said, and nothing loaded.
        QMap<QString, QJsonObject> all = AppSettings::jobPresets();
        QJsonObject bad = s.toJson();
        bad.insert(QStringLiteral("nproc_per_node"), QStringLiteral("two"));
        all.insert(QStringLiteral("bad"), bad);
        AppSettings::setJobPresets(all);
        error.clear();
        JobSpec untouched = tinyTp2();
        QVERIFY(!LaunchForm::loadPreset(QStringLiteral("bad"), &untouched, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot be used")), qPrintable(error));
        QCOMPARE(untouched.toJson(), tinyTp2().toJson());

        LaunchForm::deletePreset(QStringLiteral("tp2 short"));
        LaunchForm::deletePreset(QStringLiteral("bad"));
        QVERIFY(LaunchForm::presetNames().isEmpty());
    }

    // The preview is the plan: the command launched, or why there is none, by field.
    void previewIsThePlan()
    {
        JobService service(runner);
        LaunchForm form(&service);
        QSignalSpy checked(&form, &LaunchForm::checked);
        QSignalSpy preview(&form, &LaunchForm::previewChanged);
        LaunchInput in;
        in.spec = tinyTp2();
        form.check(in);
        QVERIFY(preview.wait(30000));
        QCOMPARE(checked.size(), 1);
        QVERIFY(form.hasPlan());
        QCOMPARE(form.previewText(), form.plan().commandLine);
        QVERIFY(form.plan().commandLine.contains(QStringLiteral("--tensor_parallel_size 2")));
        QCOMPARE(form.plan().record.spec.toJson(), in.spec.toJson());
        QCOMPARE(form.lastCheck().figures.worldSize, 2);
        QVERIFY(!QFileInfo::exists(form.plan().paths.root));  // planning starts nothing

        form.invalidate();
        QVERIFY(!form.hasPlan());
        in.spec.tensorParallel = 3;
        form.check(in);
        QVERIFY(preview.wait(30000));
        QVERIFY(!form.hasPlan());
        const QString text = form.previewText();
        QVERIFY2(text.startsWith(QStringLiteral("Fix these before launching:")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("--tensor_parallel_size: tp (3)")), qPrintable(text));

        // A Slurm job's preview: the command, then the batch script under its path.
        LaunchPlan slurm;
        slurm.record.spec.slurm.enabled = true;
        slurm.commandLine = QStringLiteral("sbatch /jobs/x/slurm.sh");
        slurm.script = QStringLiteral("#!/bin/bash\n#SBATCH --nodes=2\n");
        slurm.paths.root = QStringLiteral("/jobs/x");
        QCOMPARE(LaunchForm::previewText(slurm),
                 slurm.commandLine + QStringLiteral("\n\n# ") + slurm.paths.slurmScript() + QLatin1Char('\n') + slurm.script);
    }

    // The engine (issue 37): the form asks the job's Python where it runs, off the UI thread, and proposes the engine
    // that fits with why; the check carries the notes, and a refused combination is refused in the service's words.
    void engineProposalAndChecks()
    {
        JobService service(runner);
        LaunchForm form(&service);
        QSignalSpy proposed(&form, &LaunchForm::engineProposed);
        LaunchInput in;
        in.spec = tinyTp2();
        in.spec.python = QStringLiteral(INGOT_SOURCE_DIR "/tests/support/torch2/python3");
        form.proposeEngine(in);
        QVERIFY(!form.engineProposal().known);
        QCOMPARE(form.engineProposal().text(QStringLiteral("auto")), QStringLiteral("Asking the job's Python which engine fits…"));
        QVERIFY(proposed.wait(120000));
        const EngineProposal &p = form.engineProposal();
        QVERIFY2(p.known && p.choice.engine == QLatin1String("native"), qPrintable(p.info.error));
        QVERIFY2(p.text(QStringLiteral("auto")).startsWith(QStringLiteral("Proposed: torch 2.")), qPrintable(p.text(QStringLiteral("auto"))));
        QVERIFY(p.text(QStringLiteral("auto")).contains(QStringLiteral("without torch_xla: native PyTorch")));
        QVERIFY2(p.text(QStringLiteral("xla")).endsWith(QStringLiteral("PyTorch/XLA (Neuron 2.29 and earlier) is chosen.")),
                 qPrintable(p.text(QStringLiteral("xla"))));
        form.proposeEngine(in);  // the same place and Python: nothing asked again
        QVERIFY(form.engineProposal().known && !form.isBusy());
        QCOMPARE(proposed.size(), 1);

        in.spec.python = QStringLiteral("/usr/bin/python3");
        form.proposeEngine(in);
        QVERIFY(proposed.wait(120000));
        QCOMPARE(form.engineProposal().choice.engine, QStringLiteral("xla"));

        // The check: fully sharded with ZeRO-1 is refused, in validateJob's words; XLA chosen warns where torch_xla is not.
        in.spec.engine = QStringLiteral("xla");
        in.spec.fsdp = true;
        in.spec.zero1 = true;
        const LaunchCheck c = LaunchForm::checkNow(in, runner.get(), QString());
        QCOMPARE(messagesOf(c.problems, QStringLiteral("fsdp")), messagesOf(validateJob(in.spec, c.facts), QStringLiteral("fsdp")));
        QCOMPARE(messagesOf(c.problems, QStringLiteral("fsdp")).size(), 2);  // with ZeRO-1, and on the XLA engine
        bool warned = false;
        for (const JobNote &n : c.notes)
            warned = warned || (n.warning && n.field == QLatin1String("engine") && n.message.contains(QLatin1String("no torch_xla")));
        QVERIFY(warned);
    }

    // A cache with a failed entry or a stale lock warns (the launcher in its colour, ingot-cli on stderr); a healthy one
    // only says what it holds.
    void cacheWarnings()
    {
        const QString bad = tmp.path() + QStringLiteral("/cache-bad");
        test::makeModule(bad, kVersion, QStringLiteral("MODULE_abc+def"), {QStringLiteral("model.log")});
        test::makeModule(bad, kVersion, QStringLiteral("MODULE_ok+def"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        const QString good = tmp.path() + QStringLiteral("/cache-good");
        test::makeModule(good, kVersion, QStringLiteral("MODULE_ok+def"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});

        CacheNote note;
        LaunchForm::describeHealth(checkCacheHealth(StoreLocation::local(bad)), &note);
        QVERIFY(note.warning);
        QVERIFY(note.needsCleaning);
        QVERIFY2(note.health.contains(QStringLiteral("1 failed entry")), qPrintable(note.health));
        LaunchForm::describeHealth(checkCacheHealth(StoreLocation::local(good)), &note);
        QVERIFY(!note.warning);
        QVERIFY(!note.needsCleaning);
        QVERIFY2(note.health.contains(QStringLiteral("none failed")), qPrintable(note.health));

        JobManager jobs(runner);
        JobSpec s = tinyTp2();
        s.compileCacheUrl = bad;
        const QStringList warnings = LaunchForm::launchWarnings(jobs, s);
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().contains(bad) && warnings.first().contains(QStringLiteral("1 failed entry")),
                 qPrintable(warnings.first()));
        s.compileCacheUrl = good;
        QVERIFY(LaunchForm::launchWarnings(jobs, s).isEmpty());

        // The form's own check of the job's cache, as the launcher shows it.
        JobService service(runner);
        LaunchForm form(&service);
        QSignalSpy checked(&form, &LaunchForm::cacheChecked);
        LaunchInput in;
        in.spec = tinyTp2();
        in.spec.compileCacheUrl = bad;
        form.checkCache(in);
        QCOMPARE(form.cacheNote().root, bad);
        QVERIFY(form.cacheNote().location.contains(bad));
        QVERIFY(checked.wait(30000));
        QVERIFY(form.cacheNote().warning);
        QVERIFY(form.cacheNote().needsCleaning);
    }
};

QTEST_GUILESS_MAIN(TestLaunchForm)
#include "tst_launchform.moc"
