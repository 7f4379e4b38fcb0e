// The job launcher driven offscreen like a user: problems shown by the field they are about (and Launch held back
// until they are fixed), the figures of a layout, the command preview being the plan itself, presets, the form
// round-tripping a JobSpec, a model folder's config checked against the layout, and the compile cache warning. No
// job is launched: planning starts nothing.
#include "ui/jobs/joblauncher.h"

#include "services/jobs/jobservice.h"
#include "services/jobs/jobvalidate.h"
#include "services/util/appsettings.h"
#include "services/util/shellquote.h"
#include "tests/support/launchsupport.h"
#include "tests/support/testsupport.h"
#include "ui/common/wheelguard.h"
#include "ui/jobs/slurmsection.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <memory>

using namespace ingot;

namespace {

// Waits until the form was checked and planned (or found invalid) and the cache scanned.
bool settle(JobLauncher &w)
{
    return QTest::qWaitFor([&] { return !w.isBusy(); }, 30000);
}

// Replaces a spin box's text by typing, as a user would.
void typeInto(QWidget *field, const QString &text)
{
    field->setFocus();
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(field, text);
}

QRadioButton *radio(JobLauncher &w, const QString &text)
{
    for (QRadioButton *r : w.findChildren<QRadioButton *>())
        if (r->text() == text)
            return r;
    return nullptr;
}

void writeConfig(const QString &folder, int vocab, int heads, int kvHeads)
{
    QDir().mkpath(folder);
    test::writeFile(folder + QStringLiteral("/config.json"),
                    QStringLiteral("{\"model_type\": \"llama\", \"vocab_size\": %1, \"hidden_size\": 96, "
                                   "\"intermediate_size\": 256, \"num_hidden_layers\": 2, \"num_attention_heads\": %2, "
                                   "\"num_key_value_heads\": %3}")
                        .arg(vocab).arg(heads).arg(kvHeads).toUtf8());
}

}  // namespace

class TestJobLauncher : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    std::unique_ptr<JobService> service;

    JobSpec tinyTp2() const { return test::tinyTp2(tmp.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnLaunchSettings(QStringLiteral("ingot-tst-joblauncher"));
        QVERIFY(tmp.isValid());
        QVERIFY(QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable());
        service = std::make_unique<JobService>(makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs")));
    }

    void cleanupTestCase() { service.reset(); }

    void shellWords()
    {
        QStringList words;
        QVERIFY(splitShellWords(QStringLiteral("--a 1 --b 'two words' \"it's\" '' x\\ y"), &words));
        QCOMPARE(words, (QStringList{QStringLiteral("--a"), QStringLiteral("1"), QStringLiteral("--b"),
                                     QStringLiteral("two words"), QStringLiteral("it's"), QString(),
                                     QStringLiteral("x y")}));
        QCOMPARE(joinShellWords(words), QStringLiteral("--a 1 --b 'two words' 'it'\\''s' '' 'x y'"));
        QStringList back;
        QVERIFY(splitShellWords(joinShellWords(words), &back));
        QCOMPARE(back, words);
        QVERIFY(!splitShellWords(QStringLiteral("--note \"unterminated"), &words));
        QVERIFY(!splitShellWords(QStringLiteral("--note 'unterminated"), &words));
        QVERIFY(!splitShellWords(QStringLiteral("trailing\\"), &words));
    }

    void layoutProblemIsByItsField()
    {
        JobLauncher w(service.get(), nullptr);
        w.setSpec(tinyTp2());
        w.show();
        QVERIFY(settle(w));
        QVERIFY(w.launchButton()->isEnabled());

        auto *tp = qobject_cast<QSpinBox *>(w.fieldWidget(QStringLiteral("tensor_parallel_size")));
        QVERIFY(tp);
        typeInto(tp, QStringLiteral("3"));
        QCOMPARE(tp->value(), 3);
        QVERIFY(!w.launchButton()->isEnabled());  // at once, before the check: the plan shown is no longer the form
        QVERIFY(settle(w));
        QVERIFY(!w.launchButton()->isEnabled());
        QVERIFY(w.problemText(QStringLiteral("tensor_parallel_size")).contains(QStringLiteral("does not divide")));
        QVERIFY(w.problemLabel(QStringLiteral("tensor_parallel_size"))->isVisible());
        QVERIFY(w.problemText(QStringLiteral("nproc_per_node")).isEmpty());
        QVERIFY(!w.problemLabel(QStringLiteral("nproc_per_node"))->isVisible());
        QVERIFY(w.preview()->toPlainText().contains(QStringLiteral("tensor_parallel_size")));
        QVERIFY(!w.copyButton()->isEnabled());

        typeInto(tp, QStringLiteral("2"));
        QVERIFY(settle(w));
        QVERIFY(w.problemText(QStringLiteral("tensor_parallel_size")).isEmpty());
        QVERIFY(!w.problemLabel(QStringLiteral("tensor_parallel_size"))->isVisible());
        QVERIFY(w.launchButton()->isEnabled());
    }

    void numberThatIsNoNumber()
    {
        JobLauncher w(service.get(), nullptr);
        w.setSpec(tinyTp2());
        w.show();
        auto *lr = qobject_cast<QLineEdit *>(w.fieldWidget(QStringLiteral("learning_rate")));
        QVERIFY(lr);
        typeInto(lr, QStringLiteral("1e-3x"));
        QVERIFY(settle(w));
        QVERIFY(!w.launchButton()->isEnabled());
        QVERIFY(w.problemText(QStringLiteral("learning_rate")).contains(QStringLiteral("not a number")));
        typeInto(lr, QStringLiteral("3e-4"));
        QVERIFY(settle(w));
        QVERIFY(w.launchButton()->isEnabled());
        QCOMPARE(w.spec().learningRate, 3e-4);
    }

    // An environment variable's name is checked once, by the service, and its words are what the field shows (the
    // launcher had a rule of its own whose words replaced validateJob's).
    void environmentNamesInTheServicesWords()
    {
        JobLauncher w(service.get(), nullptr);
        JobSpec s = tinyTp2();
        s.env = {{QStringLiteral("1BAD"), QStringLiteral("x")}};
        w.setSpec(s);
        w.show();
        QVERIFY(settle(w));
        QVERIFY(!w.launchButton()->isEnabled());
        const QStringList expected = test::messagesOf(validateJob(s, gatherJobFacts(s)), QStringLiteral("env"));
        QCOMPARE(expected.size(), 1);
        QCOMPARE(w.problemText(QStringLiteral("env")), expected.first());
        s.env = {{QStringLiteral("A"), QStringLiteral("1")}, {QStringLiteral("A"), QStringLiteral("2")}};
        w.setSpec(s);
        QVERIFY(settle(w));
        QCOMPARE(w.problemText(QStringLiteral("env")), QStringLiteral("A is set twice"));
    }

    // A form the launcher refuses, `ingot-cli job launch` refuses with the same words, field by field: both go
    // through LaunchForm's one check (the CLI had JobManager::plan's own, which never saw a variable set twice).
    void theCliRefusesWhatTheLauncherRefuses()
    {
        JobLauncher w(service.get(), nullptr);
        JobSpec s = tinyTp2();
        s.tensorParallel = 3;  // does not divide 2 processes
        s.env = {{QStringLiteral("A"), QStringLiteral("1")}, {QStringLiteral("A"), QStringLiteral("2")}};
        w.setSpec(s);
        w.show();
        QVERIFY(settle(w));
        QVERIFY(!w.launchButton()->isEnabled());
        QVERIFY(!w.problemText(QStringLiteral("env")).isEmpty());
        QVERIFY(!w.problemText(QStringLiteral("tensor_parallel_size")).isEmpty());

        const test::ProgramRun r = test::runProgram(
            QStringLiteral(INGOT_CLI_PATH),
            {QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--dry-run"), QStringLiteral("--nproc-per-node"),
             QStringLiteral("2"), QStringLiteral("--python"), s.python, QStringLiteral("--env"), QStringLiteral("A=1"),
             QStringLiteral("--env"), QStringLiteral("A=2"), QStringLiteral("--"), QStringLiteral("--tensor_parallel_size"),
             QStringLiteral("3")});
        QCOMPARE(r.code, 2);
        // "error: --FIELD: MESSAGE", a line each: by field, the lines the launcher shows under that field.
        QMap<QString, QStringList> cli;
        for (const QString &line : QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            QVERIFY2(line.startsWith(QStringLiteral("error: --")), qPrintable(line));
            const qsizetype colon = line.indexOf(QStringLiteral(": "), 9);
            cli[line.mid(9, colon - 9)] << line.mid(colon + 2);
        }
        QVERIFY(cli.contains(QStringLiteral("env")) && cli.contains(QStringLiteral("tensor_parallel_size")));
        for (auto it = cli.cbegin(); it != cli.cend(); ++it)
            QCOMPARE(w.problemText(it.key()).split(QLatin1Char('\n')), it.value());
    }

    void figures()
    {
        JobLauncher w(service.get(), nullptr);
        w.show();
        QCOMPARE(qobject_cast<QComboBox *>(w.fieldWidget(QStringLiteral("config_name")))->currentText(),
                 QStringLiteral("tiny"));
        typeInto(w.fieldWidget(QStringLiteral("nproc_per_node")), QStringLiteral("2"));
        typeInto(w.fieldWidget(QStringLiteral("tensor_parallel_size")), QStringLiteral("2"));
        QVERIFY(settle(w));
        const JobSpec s = w.spec();
        QCOMPARE(s.nprocPerNode, 2);
        QCOMPARE(s.tensorParallel, 2);
        const JobFigures &f = w.figures();
        QCOMPARE(f.worldSize, 2);
        QCOMPARE(f.dataParallel, 1);
        QCOMPARE(f.globalBatch, qint64(s.perDeviceBatch) * s.gradientAccumulation);
        QCOMPARE(f.tokensPerStep, f.globalBatch * s.blockSize);
        const ParameterCounts expected = countParameters(builtinModel(QStringLiteral("tiny")), 2, 1, true);
        QVERIFY(expected.total > 0);
        QCOMPARE(f.parameters.total, expected.total);
        QCOMPARE(f.parameters.maxPerRank, expected.maxPerRank);
        QVERIFY(f.parameters.maxPerRank < f.parameters.total);
        const QString text = w.figuresLabel()->text();
        QVERIFY2(text.contains(QLocale().toString(expected.total)), qPrintable(text));
        QVERIFY(text.contains(QLocale().toString(expected.maxPerRank)));
        QVERIFY(text.contains(QLocale().toString(f.tokensPerStep)));
    }

    void previewIsThePlan()
    {
        JobLauncher w(service.get(), nullptr);
        w.setSpec(tinyTp2());
        // Nothing runs for a launcher nobody has seen (Ingot's start-up, a Jobs page never opened).
        QTest::qWait(2 * JobLauncher::kSettleMs + 200);
        QVERIFY(!w.isBusy());
        QVERIFY(!w.hasPlan());
        w.show();
        QVERIFY(settle(w));
        QVERIFY(w.hasPlan());
        const LaunchPlan &plan = w.currentPlan();
        QCOMPARE(w.preview()->toPlainText(), plan.commandLine);
        QVERIFY(plan.commandLine.contains(QStringLiteral("--tensor_parallel_size 2")));
        QVERIFY(plan.commandLine.contains(QStringLiteral("--nproc_per_node=2")));
        QVERIFY(plan.commandLine.contains(QStringLiteral("--master_port=")));
        QCOMPARE(plan.record.spec.toJson(), tinyTp2().toJson());
        QVERIFY(!QFileInfo::exists(plan.paths.root));  // planning starts nothing

        QApplication::clipboard()->clear();
        QTest::mouseClick(w.copyButton(), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), plan.commandLine);
        QTest::mouseClick(w.copyScriptButton(), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), plan.script);
        QVERIFY(plan.script != plan.commandLine);

        // A change plans again: the preview follows the form.
        typeInto(w.fieldWidget(QStringLiteral("per_device_train_batch_size")), QStringLiteral("8"));
        QVERIFY(settle(w));
        QVERIFY(w.hasPlan());
        QVERIFY(w.preview()->toPlainText().contains(QStringLiteral("--per_device_train_batch_size 8")));
        QCOMPARE(w.preview()->toPlainText(), w.currentPlan().commandLine);
    }

    void presets()
    {
        JobSpec s = tinyTp2();
        s.learningRate = 2.5e-4;
        s.maxSteps = 300;
        s.zero1 = true;
        s.bf16 = true;
        s.env = {{QStringLiteral("XLA_USE_BF16"), QStringLiteral("1")}};
        {
            JobLauncher w(service.get(), nullptr);
            w.setSpec(s);
            w.savePreset(QStringLiteral("tp2 short"));
            QCOMPARE(w.presetCombo()->currentText(), QStringLiteral("tp2 short"));
        }
        QVERIFY(AppSettings::jobPresets().contains(QStringLiteral("tp2 short")));

        JobLauncher w(service.get(), nullptr);
        QVERIFY(w.spec().toJson() != s.toJson());
        const int index = w.presetCombo()->findText(QStringLiteral("tp2 short"));
        QVERIFY(index > 0);
        w.presetCombo()->setCurrentIndex(index);
        QCOMPARE(w.spec().toJson(), s.toJson());

        w.deletePreset(QStringLiteral("tp2 short"));
        QVERIFY(!AppSettings::jobPresets().contains(QStringLiteral("tp2 short")));
        QCOMPARE(w.presetCombo()->findText(QStringLiteral("tp2 short")), -1);
    }

    void setSpecRoundTrips()
    {
        JobSpec s;
        s.name = QStringLiteral("my run");
        s.program = JobProgram::Script;
        s.script = tmp.path() + QStringLiteral("/train.py");
        s.module = QStringLiteral("pkg.train");
        s.extraArgs = {QStringLiteral("--note"), QStringLiteral("two words"), QStringLiteral("it's"), QString()};
        s.passSettings = false;
        s.nprocPerNode = 8;
        s.nnodes = 2;
        s.modelPath = tmp.path() + QStringLiteral("/model");
        s.configName = QStringLiteral("tiny");
        s.trainFile = tmp.path() + QStringLiteral("/data.txt");
        s.perDeviceBatch = 4;
        s.gradientAccumulation = 3;
        s.blockSize = 128;
        s.learningRate = 1.5e-5;
        s.weightDecay = 0.01;
        s.warmupSteps = 10;
        s.maxSteps = -1;
        s.epochs = 2.5;
        s.maxGradNorm = 0;
        s.bf16 = true;
        s.zero1 = true;
        s.tensorParallel = 4;
        s.pipelineParallel = 2;
        s.microbatches = 2;
        s.disableSequenceParallel = true;
        s.disableEmbeddingParallel = true;
        s.loggingSteps = 5;
        s.saveSteps = 100;
        s.saveTotalLimit = 3;
        s.outputDir = tmp.path() + QStringLiteral("/out");
        s.resumeFrom = tmp.path() + QStringLiteral("/ckpt");
        s.resumedFromJob = QStringLiteral("20260101-120000-abcd");
        s.seed = 7;
        s.device = QStringLiteral("xla");
        s.python = QStringLiteral("/opt/venv/bin/python3");
        s.neuronCcFlags = QStringLiteral("--model-type=transformer --cache_dir=/tmp/x");
        s.compileCacheUrl = QStringLiteral("s3://bucket/cache");
        s.env = {{QStringLiteral("A"), QStringLiteral("1")}, {QStringLiteral("B_2"), QStringLiteral("x y")}};
        JobLauncher w(service.get(), nullptr);
        w.setSpec(s);
        QCOMPARE(w.spec().toJson(), s.toJson());
        s.program = JobProgram::Module;
        s.maxSteps = 50;
        s.modelPath.clear();
        s.trainFile.clear();
        s.python.clear();
        w.setSpec(s);
        QCOMPARE(w.spec().toJson(), s.toJson());
        w.setSpec(JobSpec{});
        QCOMPARE(w.spec().toJson(), JobSpec{}.toJson());
        // Another checkpoint typed in: it no longer resumes that job.
        s.program = JobProgram::Backend;
        w.setSpec(s);
        QCOMPARE(w.spec().resumedFromJob, s.resumedFromJob);
        auto *resume = qobject_cast<QLineEdit *>(w.fieldWidget(QStringLiteral("resume_from_checkpoint")));
        QVERIFY(resume);
        resume->setText(tmp.path() + QStringLiteral("/elsewhere"));
        QVERIFY(w.spec().resumedFromJob.isEmpty());
    }

    void keepLastCheckpoints()
    {
        // "Keep the last N checkpoints": only with periodic saves, and passed to the backend as --save_total_limit.
        JobLauncher w(service.get(), nullptr);
        JobSpec s = tinyTp2();
        w.setSpec(s);
        auto *keep = qobject_cast<QSpinBox *>(w.fieldWidget(QStringLiteral("save_total_limit")));
        auto *save = qobject_cast<QSpinBox *>(w.fieldWidget(QStringLiteral("save_steps")));
        QVERIFY(keep && save);
        QVERIFY(!keep->isEnabled());
        QCOMPARE(keep->text(), QStringLiteral("all checkpoints"));
        save->setValue(50);
        QVERIFY(keep->isEnabled());
        keep->setValue(2);
        QCOMPARE(w.spec().saveTotalLimit, 2);
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(w.hasPlan() && !w.isBusy(), 30000);
        QVERIFY2(w.preview()->toPlainText().contains(QStringLiteral("--save_steps 50 --save_total_limit 2")),
                 qPrintable(w.preview()->toPlainText()));
    }

    void modelFolderChecksTheLayout()
    {
        const QString heads = tmp.path() + QStringLiteral("/six-heads");
        writeConfig(heads, 1024, 6, 6);
        JobLauncher w(service.get(), nullptr);
        JobSpec s = tinyTp2();
        s.nprocPerNode = 4;
        w.setSpec(s);
        w.show();
        QTest::mouseClick(radio(w, QStringLiteral("Hugging Face folder")), Qt::LeftButton);
        QVERIFY(settle(w));
        QVERIFY(w.problemText(QStringLiteral("model_name_or_path")).contains(QStringLiteral("choose")));
        QTest::keyClicks(w.fieldWidget(QStringLiteral("model_name_or_path")), heads);
        typeInto(w.fieldWidget(QStringLiteral("tensor_parallel_size")), QStringLiteral("4"));
        QVERIFY(settle(w));
        QCOMPARE(w.spec().modelPath, heads);
        QVERIFY(w.problemText(QStringLiteral("model_name_or_path")).isEmpty());
        QVERIFY2(w.problemText(QStringLiteral("tensor_parallel_size")).contains(QStringLiteral("6 attention heads")),
                 qPrintable(w.problemText(QStringLiteral("tensor_parallel_size"))));
        QVERIFY(w.problemLabel(QStringLiteral("tensor_parallel_size"))->isVisible());
        QVERIFY(!w.launchButton()->isEnabled());

        // tp 2 divides the heads; an odd vocabulary is then about embedding parallelism.
        const QString vocab = tmp.path() + QStringLiteral("/odd-vocab");
        writeConfig(vocab, 1001, 6, 6);
        auto *path = qobject_cast<QLineEdit *>(w.fieldWidget(QStringLiteral("model_name_or_path")));
        typeInto(path, vocab);
        typeInto(w.fieldWidget(QStringLiteral("tensor_parallel_size")), QStringLiteral("2"));
        QVERIFY(settle(w));
        QVERIFY(w.problemText(QStringLiteral("tensor_parallel_size")).isEmpty());
        QVERIFY(w.problemText(QStringLiteral("disable_embedding_parallelization")).contains(QStringLiteral("1001")));
        QVERIFY(!w.launchButton()->isEnabled());
        QTest::mouseClick(qobject_cast<QCheckBox *>(w.fieldWidget(QStringLiteral("disable_embedding_parallelization"))),
                          Qt::LeftButton);
        QVERIFY(settle(w));
        QVERIFY(w.problemText(QStringLiteral("disable_embedding_parallelization")).isEmpty());
        QVERIFY(w.launchButton()->isEnabled());
        QVERIFY(w.currentPlan().commandLine.contains(QStringLiteral("--disable_embedding_parallelization")));
    }

    void compileCacheWarning()
    {
        const QString bad = tmp.path() + QStringLiteral("/cache-bad");
        test::makeModule(bad, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_abc+def"),
                         {QStringLiteral("model.log")});
        test::makeModule(bad, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_ok+def"),
                         {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        const QString good = tmp.path() + QStringLiteral("/cache-good");
        test::makeModule(good, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_ok+def"),
                         {QStringLiteral("model.neff"), QStringLiteral("model.done")});

        JobLauncher w(service.get(), nullptr);
        JobSpec s = tinyTp2();
        s.compileCacheUrl.clear();
        w.setSpec(s);
        w.show();
        w.setDefaultCompileCache(good);  // the Local cache page's cache fills an empty field
        auto *url = qobject_cast<QLineEdit *>(w.fieldWidget(QStringLiteral("NEURON_COMPILE_CACHE_URL")));
        QCOMPARE(url->text(), good);
        QVERIFY(settle(w));
        QCOMPARE(w.compileCacheRoot(), good);
        QVERIFY(w.cacheLabel()->text().contains(good));
        QVERIFY(!w.cleanCacheButton()->isVisible());
        QVERIFY(w.cacheWarning()->text().contains(QStringLiteral("none failed")));

        typeInto(url, bad);
        QVERIFY(settle(w));
        QCOMPARE(w.compileCacheRoot(), bad);
        QVERIFY(w.cacheLabel()->text().contains(bad));
        QVERIFY2(w.cacheWarning()->text().contains(QStringLiteral("1 failed entry")),
                 qPrintable(w.cacheWarning()->text()));
        QVERIFY(w.cleanCacheButton()->isVisible());
        QSignalSpy clean(&w, &JobLauncher::cleanCacheRequested);
        QTest::mouseClick(w.cleanCacheButton(), Qt::LeftButton);
        QCOMPARE(clean.size(), 1);
        QCOMPARE(clean.first().first().toString(), bad);
        QVERIFY(QFileInfo::exists(bad + QStringLiteral("/neuronxcc-2.15.128.0+56dc5a86/MODULE_abc+def/model.log")));

        // A lock left by a killed compile (no neuronx-cc runs now) blocks, too.
        const QString locked = tmp.path() + QStringLiteral("/cache-locked");
        test::makeModule(locked, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_lock+def"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")});
        typeInto(url, locked);
        QVERIFY(settle(w));
        QVERIFY2(w.cacheWarning()->text().contains(QStringLiteral("1 locked entry")),
                 qPrintable(w.cacheWarning()->text()));
        QVERIFY(w.cleanCacheButton()->isVisible());
        QTest::mouseClick(w.cleanCacheButton(), Qt::LeftButton);
        QCOMPARE(clean.size(), 2);
        QCOMPARE(clean.last().first().toString(), locked);
        typeInto(url, bad);

        // --cache_dir in NEURON_CC_FLAGS wins over the URL, as for the compiler.
        typeInto(w.fieldWidget(QStringLiteral("NEURON_CC_FLAGS")), QStringLiteral("--cache_dir=") + good);
        QVERIFY(settle(w));
        QCOMPARE(w.compileCacheRoot(), good);
        QVERIFY(!w.cleanCacheButton()->isVisible());

        // A default chosen later does not replace what the user typed.
        w.setDefaultCompileCache(tmp.path() + QStringLiteral("/elsewhere"));
        QCOMPARE(url->text(), bad);
    }

    // The wheel over a field that has no focus scrolls the form: scrolling down the launcher changed gradient
    // accumulation from 1 to 4 on the way. Once clicked into, the wheel changes the field as before.
    void theWheelScrollsTheFormPastUnfocusedFields()
    {
        installWheelGuard();  // as the main window does
        JobLauncher w(service.get(), nullptr);
        w.setSpec(tinyTp2());
        w.resize(1100, 500);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(settle(w));
        auto *scroll = w.findChild<QScrollArea *>(QStringLiteral("launcherForm"));
        QVERIFY(scroll);
        auto *accumulation = qobject_cast<QSpinBox *>(w.fieldWidget(QStringLiteral("gradient_accumulation_steps")));
        QVERIFY(accumulation);
        QCOMPARE(accumulation->focusPolicy(), Qt::StrongFocus);  // the wheel does not give it the focus either
        QVERIFY(!accumulation->hasFocus());
        QScrollBar *bar = scroll->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        const int before = bar->value();
        auto wheel = [accumulation](int delta) {
            const QPointF at = accumulation->rect().center();
            QWheelEvent e(at, accumulation->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
            QApplication::sendEvent(accumulation, &e);
        };
        wheel(120);   // up: would make it 2
        wheel(-120);  // down: scrolls the form
        wheel(-120);
        QCOMPARE(accumulation->value(), 1);
        QVERIFY2(bar->value() > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(bar->value())));
        // Clicked into: the wheel is the field's.
        QApplication::setActiveWindow(&w);
        accumulation->setFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(accumulation->hasFocus());
        const int at = bar->value();
        wheel(120);
        QCOMPARE(accumulation->value(), 2);
        QCOMPARE(bar->value(), at);
    }

    // Precompile first without the Neuron SDK's tool behaves one way in both modes: disabled, with why beside it
    // (locally it was disabled with the reason only in a tooltip; in the Slurm section enabled, and the error came
    // in the command box). A job that asks for it anyway is refused by its field.
    void precompileFirstIsOneRuleInBothModes()
    {
        QVERIFY(QStandardPaths::findExecutable(QStringLiteral("neuron_parallel_compile")).isEmpty());  // no SDK here
        JobLauncher w(service.get(), nullptr);
        w.setSpec(tinyTp2());
        w.resize(1100, 800);
        w.show();
        QVERIFY(settle(w));
        QVERIFY(!w.precompileCheck()->isEnabled());
        QVERIFY(w.precompileReason()->isVisible());
        const QString why = w.precompileReason()->text();
        QVERIFY2(why.contains(QStringLiteral("neuron_parallel_compile")), qPrintable(why));
        SlurmSection *slurm = w.slurmSection();
        slurm->setChecked(true);
        QVERIFY(settle(w));
        QVERIFY(!w.precompileCheck()->isVisible());
        QVERIFY(!w.precompileReason()->isVisible());
        QVERIFY(!slurm->precompileCheck()->isEnabled());
        QVERIFY(slurm->precompileReason()->isVisible());
        QCOMPARE(slurm->precompileReason()->text(), why);
        // Asked for anyway (a preset, a job launched again): the field says why, in both modes; no "No command".
        for (bool viaSlurm : {false, true}) {
            JobSpec s = tinyTp2();
            s.slurm.enabled = viaSlurm;
            s.slurm.precompile = viaSlurm;
            s.precompile = !viaSlurm;
            w.setSpec(s);
            QVERIFY(settle(w));
            QVERIFY(!w.hasPlan());
            QCOMPARE(w.problemText(QStringLiteral("precompile")), why);
            QVERIFY2(!w.preview()->toPlainText().startsWith(QStringLiteral("No command")), qPrintable(w.preview()->toPlainText()));
            QVERIFY((viaSlurm ? slurm->precompileCheck() : w.precompileCheck())->isEnabled());  // so it can be unchecked
        }
    }

    // The engine (issue 37): the combo's words, the proposal once the job's Python was asked (the PyTorch 2 root's:
    // native), the preview's argv with the engine and fully sharded chosen, the notes, and a refused combination's
    // words by its field (validateJob's, as ingot-cli prints them). Its picture: jobs-launcher-native.png.
    void engineChoice()
    {
        JobLauncher w(service.get(), nullptr);
        JobSpec s = tinyTp2();
        s.nprocPerNode = 4;  // dp 2 x tp 2
        s.python = QStringLiteral(INGOT_SOURCE_DIR "/tests/support/torch2/python3");
        w.setSpec(s);
        w.resize(1100, 800);
        w.show();
        QComboBox *engine = w.engineCombo();
        QCOMPARE(engine->count(), 3);
        QCOMPARE(engine->currentData().toString(), QStringLiteral("auto"));
        QCOMPARE(engine->itemText(1), QStringLiteral("Native PyTorch (TorchNeuron, Neuron 2.30 and later)"));
        QCOMPARE(engine->itemText(2), QStringLiteral("PyTorch/XLA (Neuron 2.29 and earlier)"));
        QVERIFY(QTest::qWaitFor([&] { return w.engineProposalLabel()->text().startsWith(QStringLiteral("Proposed:")); }, 120000));
        QVERIFY2(w.engineProposalLabel()->text().contains(QStringLiteral("without torch_xla: native PyTorch")),
                 qPrintable(w.engineProposalLabel()->text()));
        QVERIFY(settle(w));
        QVERIFY(w.hasPlan());
        QVERIFY(!w.preview()->toPlainText().contains(QStringLiteral("--engine")));  // automatic: the backend's default

        engine->setCurrentIndex(engine->findData(QStringLiteral("native")));
        auto *fsdp = qobject_cast<QCheckBox *>(w.fieldWidget(QStringLiteral("fsdp")));
        QVERIFY(fsdp);
        QTest::mouseClick(fsdp, Qt::LeftButton, {}, QPoint(8, fsdp->height() / 2));
        QVERIFY(fsdp->isChecked());
        QVERIFY(settle(w));
        QVERIFY2(w.hasPlan(), qPrintable(w.preview()->toPlainText()));
        const QString preview = w.preview()->toPlainText();
        QCOMPARE(preview, w.currentPlan().commandLine);
        QVERIFY2(preview.contains(QStringLiteral("--fsdp")) && preview.contains(QStringLiteral("--engine native")), qPrintable(preview));
        const QStringList argv = w.currentPlan().record.argv;
        QCOMPARE(argv.value(argv.indexOf(QStringLiteral("--engine")) + 1), QStringLiteral("native"));
        QVERIFY2(w.notesLabel()->isVisible() && w.notesLabel()->text().contains(QStringLiteral("Note: --fsdp: fully sharded over dp 2 on a 2-D mesh")),
                 qPrintable(w.notesLabel()->text()));
        QCOMPARE(w.engineProposalLabel()->text().endsWith(QStringLiteral("is chosen.")), false);  // native is what fits
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        test::deliverPostedEvents();
        QVERIFY(w.grab().save(shots + QStringLiteral("/jobs-launcher-native.png")));

        // Refused: fully sharded with ZeRO-1, by the field, in the service's words; nothing to launch.
        auto *zero1 = qobject_cast<QCheckBox *>(w.fieldWidget(QStringLiteral("zero_1")));
        QTest::mouseClick(zero1, Qt::LeftButton, {}, QPoint(8, zero1->height() / 2));
        QVERIFY(settle(w));
        QVERIFY(!w.hasPlan());
        QVERIFY(!w.launchButton()->isEnabled());
        JobSpec refused = w.spec();
        QCOMPARE(w.problemText(QStringLiteral("fsdp")), validateJob(refused, gatherJobFacts(refused)).first().message);
        QVERIFY(w.problemText(QStringLiteral("fsdp")).contains(QStringLiteral("turn ZeRO-1 off")));

        // PyTorch/XLA chosen: fully sharded is refused, and the proposal says the choice differs from what fits.
        QTest::mouseClick(zero1, Qt::LeftButton, {}, QPoint(8, zero1->height() / 2));
        engine->setCurrentIndex(engine->findData(QStringLiteral("xla")));
        QVERIFY(settle(w));
        QVERIFY2(w.problemText(QStringLiteral("fsdp")).contains(QStringLiteral("fully sharded runs on the native engine only")),
                 qPrintable(w.problemText(QStringLiteral("fsdp"))));
        QVERIFY2(w.engineProposalLabel()->text().endsWith(QStringLiteral("PyTorch/XLA (Neuron 2.29 and earlier) is chosen.")),
                 qPrintable(w.engineProposalLabel()->text()));
        QCOMPARE(w.spec().engine, QStringLiteral("xla"));
    }

    void screenshot()
    {
        JobLauncher w(service.get(), nullptr);
        w.setSpec(tinyTp2());
        w.resize(1100, 800);
        w.show();
        QVERIFY(settle(w));
        QVERIFY(w.launchButton()->isEnabled());
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        test::deliverPostedEvents();
        QVERIFY(w.grab().save(shots + QStringLiteral("/jobs-launcher.png")));
        // The end of the form: saving and the environment.
        auto *scroll = w.findChild<QScrollArea *>(QStringLiteral("launcherForm"));
        QVERIFY(scroll);
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        test::deliverPostedEvents();
        QVERIFY(w.grab().save(shots + QStringLiteral("/jobs-launcher-environment.png")));
        // A problem by its field.
        scroll->verticalScrollBar()->setValue(0);
        typeInto(w.fieldWidget(QStringLiteral("tensor_parallel_size")), QStringLiteral("3"));
        QVERIFY(settle(w));
        QVERIFY(!w.launchButton()->isEnabled());
        test::deliverPostedEvents();
        QVERIFY(w.grab().save(shots + QStringLiteral("/jobs-launcher-problem.png")));
    }
};

QTEST_MAIN(TestJobLauncher)
#include "tst_joblauncher.moc"
