// The consolidation wizard driven offscreen: a full run from folder to summary (the output checked bit for bit by
// Python; no way back into it; Finish closes), a run stopped half way or cancelled (nothing left behind), a broken
// checkpoint whose problems stand above its plan, the plan against the service's own, and the folder and output
// fields, looked into off the UI thread once typing rests and never from a stale answer.
#include "ui/checkpoint/consolidatewizard.h"

#include "models/checkpoint/planmodel.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QGroupBox>
#include <QTreeView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QMutex>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSet>
#include <QSemaphore>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QHeaderView>
#include <QSpinBox>
#include <QDoubleSpinBox>
#include <QThreadPool>
#include <QUrl>

#include <atomic>

using namespace ingot;

namespace {
const QString kScript = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");

bool python(const QStringList &args, int scale = 1)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FIXTURE_SCALE"), QString::number(scale));
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{kScript} + args);
    p.waitForFinished(300000);
    if (p.exitCode() != 0)
        qWarning("%s", p.readAll().constData());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

// Opens `dir` in the wizard and goes to the Check page; returns the number of problems (-1 when it timed out).
int openAndCheck(ConsolidateWizard &w, const QString &dir)
{
    w.show();
    QSignalSpy detected(&w, &ConsolidateWizard::detectionFinished);
    w.setFolder(dir);
    if (!detected.wait(10000))
        return -1;
    QSignalSpy checked(&w, &ConsolidateWizard::checkFinished);
    w.next();
    if (!checked.wait(10000))
        return -1;
    return checked.first().first().toInt();
}

// Opens `dir`, checks it and goes on to the Options page; false when something timed out or did not pass.
bool openToOptions(ConsolidateWizard &w, const QString &dir)
{
    if (openAndCheck(w, dir) != 0)
        return false;
    QSignalSpy checked(&w, &ConsolidateWizard::outputChecked);
    w.next();
    return w.currentId() == ConsolidateWizard::OptionsPage && checked.wait(10000);
}

QStringList checkedPaths(const QSignalSpy &spy)
{
    QStringList out;
    for (const auto &args : spy)
        out << args.first().toString();
    return out;
}

constexpr qint64 kPlenty = qint64(1) << 50;

// Saves a picture of `w` where the other screenshots go.
bool screenshot(QWidget &w, const QString &name)
{
    const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
    QDir().mkpath(shots);
    return w.grab().save(shots + QLatin1Char('/') + name);
}

// The plan model's row for output `name` (-1 when none).
int rowOf(const PlanModel *m, const QString &name)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, PlanModel::NameColumn).data().toString() == name)
            return r;
    return -1;
}

bool noLeftovers(const QString &dir)
{
    QDirIterator it(dir, {QStringLiteral(".ingot-*")}, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    return !it.hasNext();
}
}  // namespace

class TestConsolidateWizard : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-consolidatewizard"));
    }

    void fullRun()
    {
        const QString dir = tmp.path() + QStringLiteral("/run");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("2"), QStringLiteral("bfloat16")}));
        ConsolidateWizard w;
        w.show();
        QSignalSpy detected(&w, &ConsolidateWizard::detectionFinished);
        w.setFolder(dir);
        QVERIFY(detected.wait(10000));
        QCOMPARE(detected.first().first().toInt(), 1);
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
        QSignalSpy checked(&w, &ConsolidateWizard::checkFinished);
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::CheckPage));
        QVERIFY(checked.wait(10000));
        QCOMPARE(checked.first().first().toInt(), 0);
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::OptionsPage));
        QCOMPARE(w.outputEdit()->text(), QFileInfo(dir).absoluteFilePath() + QStringLiteral("/consolidated"));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());  // there is room on the disk (asked off the UI thread)
        QVERIFY2(w.spaceLabel()->text().contains(QStringLiteral("free there")), qPrintable(w.spaceLabel()->text()));
        QCOMPARE(w.button(QWizard::NextButton)->text(), QStringLiteral("Consolidate"));  // says what it does
        // The optimizer state is offered for DCP checkpoints only (tst_dcp writes it); here the box says why not.
        QVERIFY(!w.optimizerCheck()->isEnabled());
        QVERIFY2(w.optimizerCheck()->toolTip().contains(QStringLiteral("(DCP) only")), qPrintable(w.optimizerCheck()->toolTip()));
        QVERIFY(!w.request().options.optimizer);
        QVERIFY(screenshot(w, QStringLiteral("consolidate-options.png")));
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(ConsolidateWizard::RunPage));
        QVERIFY(!w.button(QWizard::BackButton)->isEnabled());  // not while it writes
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.first().first().toBool());
        // A finished run goes on to the summary by itself: no "Commit", no way back into the run.
        QCOMPARE(w.currentId(), int(ConsolidateWizard::SummaryPage));
        QVERIFY(!w.button(QWizard::CommitButton)->isVisible());
        QVERIFY(!w.button(QWizard::BackButton)->isVisible() || !w.button(QWizard::BackButton)->isEnabled());
        QVERIFY(!w.button(QWizard::CancelButton)->isVisible());
        QVERIFY(w.button(QWizard::FinishButton)->isVisible() && w.button(QWizard::FinishButton)->isEnabled());
        const QString out = QFileInfo(dir).absoluteFilePath() + QStringLiteral("/consolidated");
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("Verified")), qPrintable(w.summaryLabel()->text()));
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("model.safetensors")), qPrintable(w.summaryLabel()->text()));
        QVERIFY2(w.summaryLabel()->text().contains(out), qPrintable(w.summaryLabel()->text()));
        QVERIFY2(w.loadSnippet()->text().contains(QStringLiteral("AutoModelForCausalLM.from_pretrained(\"%1\")").arg(out)),
                 qPrintable(w.loadSnippet()->text()));
        QVERIFY(screenshot(w, QStringLiteral("consolidate-summary.png")));
        QVERIFY(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), dir + QStringLiteral("/consolidated")}));
        QVERIFY(ConsolidateWizard::recentFolders().contains(dir));
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QVERIFY(!w.isVisible());
        QCOMPARE(w.result(), int(QDialog::Accepted));
    }

    // A LoRA fine-tune's checkpoint: each adapter is a choice of its own, its plan shows the adapter's tensors under
    // PEFT's names, and the run writes a PEFT folder that the summary tells how to load.
    void loraAdapter()
    {
        const QString dir = tmp.path() + QStringLiteral("/lora");
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_checkpoint_formats.py"), dir,
                                                     QStringLiteral("lora"), QStringLiteral("2")});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAll().constData());
        ConsolidateWizard w;
        w.resize(1180, 640);
        QCOMPARE(openAndCheck(w, dir), 0);
        const QComboBox *combo = nullptr;  // the checkpoint's (the other one lists recent folders)
        for (const QComboBox *c : w.findChildren<QComboBox *>())
            if (c->count() > 0 && c->itemText(0).contains(QStringLiteral("tp=")))
                combo = c;
        QVERIFY(combo);
        // The checkpoint's two adapters are one choice, planned together: one part each, the default one in the
        // output folder, the other in a folder of its name.
        QCOMPARE(combo->count(), 1);
        QVERIFY2(combo->itemText(0).startsWith(QStringLiteral("final, LoRA adapters default, second")), qPrintable(combo->itemText(0)));
        const auto *view = w.findChild<QTreeView *>();
        QVERIFY(view);
        const auto *model = qobject_cast<const PlanModel *>(qobject_cast<const QSortFilterProxyModel *>(view->model())->sourceModel());
        QVERIFY(model);
        QCOMPARE(model->rowCount(), 2 * 28);
        QVERIFY(!view->isColumnHidden(PlanModel::PartColumn));
        QCOMPARE(view->header()->visualIndex(PlanModel::PartColumn), 0);
        QCOMPARE(model->index(0, PlanModel::PartColumn).data().toString(), QStringLiteral("the output folder"));
        QCOMPARE(model->index(28, PlanModel::PartColumn).data().toString(), QStringLiteral("second/"));
        QVERIFY2(w.checkStatusLabel()->text().startsWith(QStringLiteral("2 LoRA adapter")) &&
                     w.checkStatusLabel()->text().contains(QStringLiteral("each written as a folder PEFT loads")),
                 qPrintable(w.checkStatusLabel()->text()));
        QVERIFY(rowOf(model, QStringLiteral("base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight")) >= 0);
        const int kA = rowOf(model, QStringLiteral("base_model.model.model.layers.0.self_attn.k_proj.lora_A.weight"));
        QVERIFY(kA >= 0);
        QCOMPARE(model->index(kA, PlanModel::MergeColumn).data().toString(), QStringLiteral("shared lora_A of qkv_proj, copied (from tp rank 0)"));
        const int upB = rowOf(model, QStringLiteral("base_model.model.model.layers.0.mlp.up_proj.lora_B.weight"));
        QVERIFY(upB >= 0);
        QCOMPARE(model->index(upB, PlanModel::MergeColumn).data().toString(), QStringLiteral("un-fused from gate_up_proj, concatenated on dim 0"));
        QVERIFY(screenshot(w, QStringLiteral("consolidate-adapter-plan.png")));
        QSignalSpy outputChecked(&w, &ConsolidateWizard::outputChecked);
        w.next();
        QVERIFY(outputChecked.wait(10000));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        // Merging is offered for an adapter; Consolidate waits for a base model folder that holds a model.
        QVERIFY(w.mergeCheck()->isVisible());
        w.mergeCheck()->setChecked(true);
        QVERIFY(!w.currentPage()->isComplete());
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::OptionsPage));
        p.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_checkpoint_formats.py"),
                                                     tmp.path() + QStringLiteral("/lora-base"), QStringLiteral("lora-merge")});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAll().constData());
        // A folder without a model is the request's problem, said where the space is; the base model's folder is
        // counted in the space the output needs (the merged model is written there too).
        w.baseModelEdit()->setText(tmp.path() + QStringLiteral("/lora-base/adapter"));
        QTRY_VERIFY2(w.spaceLabel()->text().contains(QStringLiteral("holds no model.safetensors")), qPrintable(w.spaceLabel()->text()));
        QVERIFY(!w.currentPage()->isComplete());
        w.baseModelEdit()->setText(tmp.path() + QStringLiteral("/lora-base/base"));
        QTRY_VERIFY(w.currentPage()->isComplete());
        QVERIFY2(w.spaceLabel()->text().contains(QStringLiteral("of it the merged model")), qPrintable(w.spaceLabel()->text()));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(screenshot(w, QStringLiteral("consolidate-adapter-options.png")));
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.first().first().toBool());
        const QString out = w.outputEdit()->text();
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/adapter_model.safetensors")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/adapter_config.json")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/second/adapter_model.safetensors")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/second/adapter_config.json")));
        QVERIFY(!QFileInfo::exists(out + QStringLiteral("/config.json")));
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("second/adapter_model.safetensors")), qPrintable(w.summaryLabel()->text()));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/merged/model.safetensors")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/merged/config.json")));
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("Merged into the base model: 18 tensor")), qPrintable(w.summaryLabel()->text()));
        QVERIFY2(w.loadSnippet()->text().contains(QStringLiteral("AutoModelForCausalLM.from_pretrained(\"%1/merged\")").arg(QFileInfo(out).absoluteFilePath())),
                 qPrintable(w.loadSnippet()->text()));
        QVERIFY(screenshot(w, QStringLiteral("consolidate-adapter-summary.png")));
    }

    // Re-shard mode: the new layout is planned as it is typed (a layout the model cannot take says why and keeps
    // the button off), the run writes the rank folders with the optimizer state, and the summary says how to resume.
    void reshardMode()
    {
        const QString dir = tmp.path() + QStringLiteral("/reshard");
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("optimizer")}));
        ConsolidateWizard w;
        w.resize(1180, 640);
        QCOMPARE(openAndCheck(w, dir), 0);
        QSignalSpy outputChecked(&w, &ConsolidateWizard::outputChecked);
        w.next();
        QVERIFY(outputChecked.wait(10000));
        QVERIFY(!w.reshardTpSpin()->isVisible());
        w.modeCombo()->setCurrentIndex(1);
        QVERIFY(w.isResharding());
        QVERIFY(w.reshardTpSpin()->isVisible());
        QVERIFY(!w.shardSizeSpin()->isVisible());
        QCOMPARE(w.button(QWizard::NextButton)->text(), QStringLiteral("Re-shard"));
        // Planned off the UI thread: Re-shard waits for the answer about the numbers in the fields.
        QSignalSpy planned(&w, &ConsolidateWizard::reshardPlanned);
        w.reshardTpSpin()->setValue(4);  // 2 key/value heads do not split over 4 ranks
        QVERIFY(!w.currentPage()->isComplete());
        QTRY_VERIFY2(w.reshardNotesLabel()->text().contains(QStringLiteral("2 key/value heads do not split over 4")),
                     qPrintable(w.reshardNotesLabel()->text()));
        QVERIFY(!w.currentPage()->isComplete());
        // tp 3: the root cause alone (it listed 39 "Cannot:" lines, "model.embed_tokens.weight is missing" among
        // them, and the wizard grew for good); the plan's words scroll within the page.
        QCoreApplication::sendPostedEvents();
        const QSize size = w.size();
        w.reshardTpSpin()->setValue(3);
        QTRY_VERIFY2(w.reshardNotesLabel()->text().contains(QStringLiteral("4 attention heads and 2 key/value heads do not split over 3")),
                     qPrintable(w.reshardNotesLabel()->text()));
        QCOMPARE(w.reshardNotesLabel()->text().count(QLatin1Char('\n')), 0);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(w.size(), size);
        auto *notesScroll = w.findChild<QScrollArea *>(QStringLiteral("reshardNotesScroll"));
        QVERIFY(notesScroll && notesScroll->isAncestorOf(w.reshardNotesLabel()));
        QVERIFY(notesScroll->maximumHeight() < 10 * w.reshardNotesLabel()->fontMetrics().lineSpacing());
        w.reshardTpSpin()->setValue(1);
        w.reshardPpSpin()->setValue(2);
        QVERIFY(!w.currentPage()->isComplete());
        QTRY_VERIFY2(w.reshardNotesLabel()->text().contains(QStringLiteral("their optimizer state (step 7), split for tp=1 pp=2")),
                     qPrintable(w.reshardNotesLabel()->text()));
        QVERIFY(planned.size() >= 2);
        QVERIFY2(w.outputEdit()->text().endsWith(QStringLiteral("/resharded-tp1-pp2")), qPrintable(w.outputEdit()->text()));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(screenshot(w, QStringLiteral("reshard-options.png")));
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.first().first().toBool());
        const QString out = w.outputEdit()->text();
        for (const char *f : {"tp_rank_00_pp_rank_00/model.safetensors", "tp_rank_00_pp_rank_01/optimizer.safetensors",
                              "tp_rank_00_pp_rank_01/mp_metadata.json"})
            QVERIFY2(QFileInfo::exists(out + QStringLiteral("/tensor_parallel_shards/") + QLatin1String(f)), f);
        QVERIFY(!QFileInfo::exists(out + QStringLiteral("/tensor_parallel_shards/tp_rank_01_pp_rank_00")));
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("for tp=1 pp=2, in 2 rank folders")), qPrintable(w.summaryLabel()->text()));
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("optimizer state goes with it (step 7)")), qPrintable(w.summaryLabel()->text()));
        QVERIFY2(w.loadSnippet()->text().contains(QStringLiteral("--tensor_parallel_size 1 --pipeline_parallel_size 2")),
                 qPrintable(w.loadSnippet()->text()));
        QVERIFY(w.loadSnippet()->text().contains(QFileInfo(out).absoluteFilePath()));
        QVERIFY(screenshot(w, QStringLiteral("reshard-summary.png")));
    }

    // Every page has a title and a subtitle, so they all look the same (QWizard shows a page without a subtitle
    // with a large heading instead).
    void onePageTitleStyle()
    {
        ConsolidateWizard w;
        QCOMPARE(w.wizardStyle(), QWizard::ModernStyle);
        for (int id : w.pageIds()) {
            QVERIFY2(!w.page(id)->title().isEmpty(), qPrintable(QString::number(id)));
            QVERIFY2(!w.page(id)->subTitle().isEmpty(), qPrintable(w.page(id)->title()));
        }
    }

    // Typed (or pasted) path: the checkpoint is found once typing rests, without Enter; Next waits for it.
    void typingFindsTheCheckpoint()
    {
        const QString dir = tmp.path() + QStringLiteral("/typed");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.show();
        QSignalSpy detected(&w, &ConsolidateWizard::detectionFinished);
        QTest::keyClicks(w.folderEdit(), dir);
        QVERIFY(detected.isEmpty());  // not on every keystroke
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY2(w.detectedLabel()->text().startsWith(QStringLiteral("Looking")), qPrintable(w.detectedLabel()->text()));
        QVERIFY(detected.wait(10000));
        QCOMPARE(detected.size(), 1);
        QCOMPARE(detected.first().first().toInt(), 1);
        QCOMPARE(w.checkpointCombo()->count(), 1);
        QVERIFY(w.chosen());
        QCOMPARE(w.chosen()->tpSize, 2);
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
        QVERIFY2(w.detectedLabel()->text().contains(QStringLiteral("Found 1 checkpoint")), qPrintable(w.detectedLabel()->text()));
        QVERIFY(screenshot(w, QStringLiteral("consolidate-choose.png")));
        // A path that holds none says so inline, and Next stays off.
        detected.clear();
        QTest::keyClicks(w.folderEdit(), QStringLiteral("/nothing-here"));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(detected.wait(10000));
        QCOMPARE(detected.first().first().toInt(), 0);
        QVERIFY(!w.detectedLabel()->text().isEmpty());
        QVERIFY(!w.detectedLabel()->text().startsWith(QStringLiteral("Looking")));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        // Enter looks at once.
        detected.clear();
        w.folderEdit()->selectAll();
        QTest::keyClicks(w.folderEdit(), dir);
        QTest::keyClick(w.folderEdit(), Qt::Key_Return);
        QVERIFY(detected.wait(10000));
        QCOMPARE(detected.first().first().toInt(), 1);
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
    }

    // A folder dropped on the first page is chosen; dropped on a later one it changes nothing under it.
    void aDropCountsOnlyOnTheFirstPage()
    {
        const QString dir = tmp.path() + QStringLiteral("/dropped");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.show();
        const auto drop = [&w](const QString &folder) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(folder)});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&w, &enter);
            QDropEvent e(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&w, &e);
            return enter.isAccepted();
        };
        QSignalSpy detected(&w, &ConsolidateWizard::detectionFinished);
        QVERIFY(drop(dir));
        QCOMPARE(w.folderEdit()->text(), dir);
        QVERIFY(detected.wait(10000));
        QSignalSpy checked(&w, &ConsolidateWizard::checkFinished);
        w.next();
        QVERIFY(checked.wait(10000));
        QVERIFY(!drop(tmp.path()));
        QCOMPARE(w.folderEdit()->text(), dir);
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
    }

    // The path changes while the first one is still being looked into: only the last one's answer is shown.
    void theLastTypedPathWins()
    {
        const QString a = tmp.path() + QStringLiteral("/first-typed"), b = tmp.path() + QStringLiteral("/second-typed");
        QVERIFY(python({a, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        QVERIFY(python({b, QStringLiteral("ingot"), QStringLiteral("4"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.show();
        QSignalSpy detected(&w, &ConsolidateWizard::detectionFinished);
        // Quick changes within the rest: one look, at the last path.
        QTest::keyClicks(w.folderEdit(), a);
        w.folderEdit()->selectAll();
        QTest::keyClicks(w.folderEdit(), b);
        QVERIFY(detected.wait(10000));
        QVERIFY(w.chosen());
        QCOMPARE(w.chosen()->tpSize, 4);
        QCOMPARE(detected.size(), 1);
        // A change while the look at the first path is under way: its answer never shows.
        detected.clear();
        w.folderEdit()->selectAll();
        bool changedWhileLooking = false;
        connect(&w, &ConsolidateWizard::detectionStarted, &w, [&](const QString &folder) {
            if (folder != a)
                return;
            w.folderEdit()->selectAll();
            QTest::keyClicks(w.folderEdit(), b);
            changedWhileLooking = !w.chosen();  // what was found before no longer counts
        });
        QTest::keyClicks(w.folderEdit(), a);
        QTRY_VERIFY(changedWhileLooking);
        QTRY_COMPARE(detected.size(), 1);
        QTest::qWait(ConsolidateWizard::kFolderLookDelayMs + 200);  // nothing later either
        QCOMPARE(detected.size(), 1);
        QVERIFY(w.chosen());
        QCOMPARE(w.chosen()->tpSize, 4);
        QCOMPARE(QFileInfo(w.chosen()->root).absoluteFilePath(), QFileInfo(b).absoluteFilePath());
        // The proposed output follows the folder, until the user types one of their own.
        QCOMPARE(w.outputEdit()->text(), QFileInfo(b).absoluteFilePath() + QStringLiteral("/consolidated"));
    }

    // The Check page lists every output tensor of the service's plan, with its shape, dtype, merge and ranks.
    void planListsEveryTensor()
    {
        const QString dir = tmp.path() + QStringLiteral("/plan");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("2"), QStringLiteral("bfloat16"),
                        QStringLiteral("fused"), QStringLiteral("gqa")}));
        ConsolidateWizard w;
        QCOMPARE(openAndCheck(w, dir), 0);
        QVERIFY(!w.problemBox()->isVisible());
        QVERIFY(w.planView()->isVisible());
        QString error;
        const QVector<CheckpointCandidate> found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        const ConsolidationPlan plan = planConsolidation(found.first());
        QVERIFY(plan.ok());
        const PlanModel *m = w.planModel();
        QCOMPARE(m->rowCount(), int(plan.entries.size()));
        QCOMPARE(w.planView()->model()->rowCount(), int(plan.entries.size()));
        QSet<int> kinds;
        for (const ConsolidatePlanEntry &e : plan.entries) {
            const QString name = QString::fromStdString(e.name);
            const int r = rowOf(m, name);
            QVERIFY2(r >= 0, qPrintable(name));
            const auto cell = [&](int c) { return m->index(r, c).data().toString(); };
            QStringList dims;
            for (auto d : e.shape)
                dims << QString::number(d);
            QCOMPARE(cell(PlanModel::ShapeColumn), QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", "))));
            QCOMPARE(cell(PlanModel::DTypeColumn), QStringLiteral("BF16"));
            const QString merge = cell(PlanModel::MergeColumn);
            const QString ranks = cell(PlanModel::RanksColumn);
            kinds << m->index(r, 0).data(PlanModel::MergeKindRole).toInt();
            if (e.gqaRole >= 0) {
                QVERIFY2(merge.startsWith(QStringLiteral("GQA")), qPrintable(name + QLatin1Char(' ') + merge));
                QCOMPARE(ranks, QStringLiteral("0–1 (pp %1)").arg(e.pp));
            } else if (e.fuseAxis >= 0) {
                QVERIFY2(merge.startsWith(QStringLiteral("un-fused from gate_up_proj")), qPrintable(name + QLatin1Char(' ') + merge));
                QVERIFY2(merge.endsWith(QStringLiteral("concatenated on dim %1").arg(e.partitionDim)), qPrintable(merge));
                QCOMPARE(ranks, QStringLiteral("0–1 (pp %1)").arg(e.pp));
            } else if (e.partitionDim >= 0) {
                QCOMPARE(merge, QStringLiteral("concatenated on dim %1").arg(e.partitionDim));
                QCOMPARE(ranks, QStringLiteral("0–1 (pp %1)").arg(e.pp));
            } else {
                QCOMPARE(merge, QStringLiteral("replicated (from tp rank 0)"));
                QCOMPARE(ranks, QStringLiteral("0 (pp %1)").arg(e.pp));
            }
        }
        // The fixture has every kind of merge a tp checkpoint can have.
        QCOMPARE(kinds, (QSet<int>{int(MergeKind::Replicated), int(MergeKind::Concatenated), int(MergeKind::Unfused), int(MergeKind::Gqa)}));
        QVERIFY2(w.checkStatusLabel()->text().contains(QStringLiteral("%1 output tensor").arg(plan.entries.size())),
                 qPrintable(w.checkStatusLabel()->text()));
        // Filtering by words of the merge.
        w.planFilter()->setText(QStringLiteral("GQA key"));
        QCOMPARE(w.planView()->model()->rowCount(), 4);  // one k_proj per layer, 4 layers
        w.planFilter()->clear();
        // Sorting by size puts the largest last.
        w.planView()->sortByColumn(PlanModel::SizeColumn, Qt::AscendingOrder);
        const QAbstractItemModel *view = w.planView()->model();
        QVERIFY(view->index(0, PlanModel::SizeColumn).data(PlanModel::SortRole).toLongLong()
                <= view->index(view->rowCount() - 1, PlanModel::SizeColumn).data(PlanModel::SortRole).toLongLong());
        w.planView()->sortByColumn(-1, Qt::AscendingOrder);
        QVERIFY(screenshot(w, QStringLiteral("consolidate-wizard.png")));
    }

    void cancelHalfWay()
    {
        const QString dir = tmp.path() + QStringLiteral("/big");
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, 48));
        ConsolidateWizard w;
        QVERIFY(openToOptions(w, dir));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        // Cancel at the first progress report.
        connect(&w, &ConsolidateWizard::progressed, &w, [&w] { w.cancelRunButton()->click(); }, Qt::SingleShotConnection);
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        w.next();
        QVERIFY(finished.wait(60000));
        QVERIFY(!finished.first().first().toBool());
        QVERIFY(w.report().cancelled);
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/consolidated")));
        QVERIFY(noLeftovers(dir));
        // It says what happened, and the way back to the settings is open (there is no finished run to go back into).
        QCOMPARE(w.currentId(), int(ConsolidateWizard::RunPage));
        QVERIFY2(w.runStatusLabel()->text().startsWith(QStringLiteral("Stopped")), qPrintable(w.runStatusLabel()->text()));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(w.button(QWizard::BackButton)->isEnabled());
        w.back();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::OptionsPage));
    }

    // A run that fails says why, leaves nothing, and lets the user go back to change the output.
    void aFailedRunLetsTheUserGoBack()
    {
        const QString dir = tmp.path() + QStringLiteral("/fails");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.setStorageProbe([](const QString &) { return OutputSpace{kPlenty, false, {}, 0, {}}; });
        QVERIFY(openToOptions(w, dir));
        QSignalSpy checked(&w, &ConsolidateWizard::outputChecked);
        const QString output = dir + QStringLiteral("/config.json/consolidated");  // below a file: cannot be made
        w.outputEdit()->setText(output);
        QVERIFY(checked.wait(10000));
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        w.next();
        QVERIFY(finished.wait(30000));
        QVERIFY(!finished.first().first().toBool());
        QVERIFY(!w.report().cancelled);
        QCOMPARE(w.currentId(), int(ConsolidateWizard::RunPage));
        QVERIFY2(w.runStatusLabel()->text().startsWith(QStringLiteral("Failed")), qPrintable(w.runStatusLabel()->text()));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(w.button(QWizard::BackButton)->isEnabled());
        QVERIFY(noLeftovers(dir));
        QVERIFY(QFileInfo(dir + QStringLiteral("/config.json")).isFile());
        w.back();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::OptionsPage));
        checked.clear();
        w.outputEdit()->setText(dir + QStringLiteral("/consolidated"));
        QVERIFY(checked.wait(10000));
        finished.clear();
        w.next();
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.first().first().toBool());
        QCOMPARE(w.currentId(), int(ConsolidateWizard::SummaryPage));
    }

    // The wizard's own Cancel during a run stops it, waits for it to clean up, then closes: no output folder.
    void cancelButtonDuringARun()
    {
        const QString dir = tmp.path() + QStringLiteral("/big2");
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, 48));
        ConsolidateWizard w;
        QVERIFY(openToOptions(w, dir));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        bool closedWhileRunning = false;
        connect(&w, &ConsolidateWizard::progressed, &w, [&] {
            QTest::mouseClick(w.button(QWizard::CancelButton), Qt::LeftButton);
            closedWhileRunning = !w.isVisible();
        }, Qt::SingleShotConnection);
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        QSignalSpy rejected(&w, &QDialog::rejected);
        w.next();
        QVERIFY(finished.wait(60000));
        QVERIFY(!closedWhileRunning);  // not before the run has cleaned up
        QVERIFY(w.report().cancelled);
        QCOMPARE(rejected.size(), 1);
        QVERIFY(!w.isVisible());
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/consolidated")));
        QVERIFY(noLeftovers(dir));
    }

    void outputFolderIsCheckedOnceTypingRests()
    {
        const QString dir = tmp.path() + QStringLiteral("/typing");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        const QString typed = dir + QStringLiteral("/merged-output");
        // Every path the disk was asked about that the typing went through (the probe runs off the UI thread).
        QMutex mutex;
        QStringList asked;
        const auto askedWhileTyping = [&] {
            QMutexLocker lock(&mutex);
            QStringList out;
            for (const QString &p : std::as_const(asked))
                if (typed.startsWith(p))
                    out << p;
            return out;
        };
        ConsolidateWizard w;
        w.setStorageProbe([&](const QString &output) {
            QMutexLocker lock(&mutex);
            asked << output;
            return OutputSpace{kPlenty, false, {}, 0, {}};
        });
        QVERIFY(openToOptions(w, dir));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        QSignalSpy checked(&w, &ConsolidateWizard::outputChecked);
        w.outputEdit()->clear();
        QElapsedTimer typing;
        typing.start();
        QTest::keyClicks(w.outputEdit(), typed);
        const qint64 typed_ms = typing.elapsed();
        // Nothing asked the disk on any keystroke; until it has been asked about this path, Next waits.
        QCOMPARE(askedWhileTyping(), QStringList());
        QVERIFY(checked.isEmpty());
        QVERIFY2(w.spaceLabel()->text().contains(QStringLiteral("Checking")), qPrintable(w.spaceLabel()->text()));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(checked.wait(10000));
        QVERIFY(typing.elapsed() - typed_ms >= ConsolidateWizard::kOutputCheckDelayMs * 8 / 10);  // after the rest
        QCOMPARE(askedWhileTyping(), QStringList{typed});  // once for the whole path, not once per character
        QCOMPARE(checkedPaths(checked), QStringList{typed});
        QVERIFY2(w.spaceLabel()->text().contains(QStringLiteral("free there")), qPrintable(w.spaceLabel()->text()));
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
    }

    void aStaleAnswerIsNeverShown()
    {
        const QString dir = tmp.path() + QStringLiteral("/stale");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        // The disk answers at once, except about ".../slow", which it answers only when the test lets it, and then
        // wrongly for the path in the field by then: no space, a folder full of files.
        QSemaphore letSlowAnswer;
        std::atomic_bool slowAsked{false}, slowAnswered{false};
        const auto release = qScopeGuard([&] {
            letSlowAnswer.release();
            QThreadPool::globalInstance()->waitForDone();  // the probe refers to this function's variables
        });
        ConsolidateWizard w;
        w.setStorageProbe([&](const QString &output) {
            if (!output.endsWith(QLatin1String("/slow")))
                return OutputSpace{kPlenty, false, {}, 0, {}};
            slowAsked = true;
            letSlowAnswer.acquire();
            slowAnswered = true;
            return OutputSpace{1, true, {}, 0, {}};
        });
        QVERIFY(openToOptions(w, dir));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        QSignalSpy checked(&w, &ConsolidateWizard::outputChecked);
        w.outputEdit()->setText(dir + QStringLiteral("/slow"));
        QTRY_VERIFY(slowAsked.load());
        // The answer about the previous path (plenty of space) does not decide for this one.
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::OptionsPage));

        w.outputEdit()->setText(dir + QStringLiteral("/fast"));
        QVERIFY(checked.wait(10000));
        QCOMPARE(checkedPaths(checked), QStringList{dir + QStringLiteral("/fast")});
        letSlowAnswer.release();
        QTRY_VERIFY(slowAnswered.load());
        // One more question: its answer queues behind whatever the slow one would have delivered.
        w.outputEdit()->setText(dir + QStringLiteral("/fast2"));
        QTRY_COMPARE(checkedPaths(checked).size(), 2);
        QCOMPARE(checkedPaths(checked), (QStringList{dir + QStringLiteral("/fast"), dir + QStringLiteral("/fast2")}));
        QVERIFY2(!w.spaceLabel()->text().contains(QStringLiteral("Not enough space")), qPrintable(w.spaceLabel()->text()));
        QVERIFY2(!w.spaceLabel()->text().contains(QStringLiteral("The folder exists")), qPrintable(w.spaceLabel()->text()));
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
    }

    // The request's space check on the Options page (issue 36): the proposed output is the request's one rule, and
    // where its file system has less room than the plan writes, the words say so and Consolidate stays off, however
    // it is pressed; with room, it goes on.
    void notEnoughSpaceKeepsConsolidateOff()
    {
        const QString dir = tmp.path() + QStringLiteral("/no-room");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        std::atomic<qint64> free{1000};
        ConsolidateWizard w;
        w.setStorageProbe([&free](const QString &) { return OutputSpace{free.load(), false, {}, 0, {}}; });
        QVERIFY(openToOptions(w, dir));
        QCOMPARE(w.outputEdit()->text(), w.request().defaultOutput());
        QVERIFY(w.request().bytesToWrite() > 1000);
        QVERIFY2(w.spaceLabel()->text().contains(QStringLiteral("Not enough space.")), qPrintable(w.spaceLabel()->text()));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::OptionsPage));
        QVERIFY(!QFileInfo::exists(w.outputEdit()->text()));
        free = w.request().bytesToWrite() + 1;
        QSignalSpy checked(&w, &ConsolidateWizard::outputChecked);
        w.outputEdit()->setText(dir + QStringLiteral("/roomy"));
        QVERIFY(checked.wait(10000));
        QVERIFY2(!w.spaceLabel()->text().contains(QStringLiteral("Not enough space")), qPrintable(w.spaceLabel()->text()));
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
    }

    // Issue 10, item 5: with "replace" ticked, an output that holds the checkpoint (or lies inside its shards) went
    // on to the run, which deleted the shards. Next stays off, and the words say why.
    void outputThatHoldsTheCheckpointIsRefused()
    {
        const QString dir = tmp.path() + QStringLiteral("/holds");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.setStorageProbe([](const QString &) { return OutputSpace{kPlenty, true, {}, 0, {}}; });
        QVERIFY(openToOptions(w, dir));
        w.overwriteCheck()->setChecked(true);
        QSignalSpy checked(&w, &ConsolidateWizard::outputChecked);
        for (const QString &output : QStringList{dir, dir + QStringLiteral("/shards"), dir + QStringLiteral("/shards/model/inside")}) {
            checked.clear();
            w.outputEdit()->setText(output);
            QVERIFY(checked.wait(10000));
            QVERIFY2(!w.button(QWizard::NextButton)->isEnabled(), qPrintable(output));
            QVERIFY2(w.spaceLabel()->text().contains(QStringLiteral("destroy")), qPrintable(w.spaceLabel()->text()));
        }
        checked.clear();
        w.outputEdit()->setText(dir + QStringLiteral("/consolidated"));
        QVERIFY(checked.wait(10000));
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(QFileInfo(dir + QStringLiteral("/shards/model/dp_rank_00_tp_rank_00_pp_rank_00.pt")).isFile());
    }

    // Outputs inside the shards are refused, so the default output goes beside them when the shards folder itself
    // is chosen.
    void defaultOutputIsBesideTheShards()
    {
        const QString dir = tmp.path() + QStringLiteral("/default-out");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.show();
        QSignalSpy detected(&w, &ConsolidateWizard::detectionFinished);
        w.setFolder(dir + QStringLiteral("/shards"));
        QVERIFY(detected.wait(10000));
        QCOMPARE(w.outputEdit()->text(), QFileInfo(dir).absoluteFilePath() + QStringLiteral("/consolidated"));
    }

    void problemsStopAtCheck()
    {
        const QString dir = tmp.path() + QStringLiteral("/broken");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        QFile::remove(dir + QStringLiteral("/shards/done"));
        ConsolidateWizard w;
        QVERIFY(openAndCheck(w, dir) > 0);
        QVERIFY(w.problemList()->item(0)->text().contains(QStringLiteral("done")));
        QVERIFY(w.problemBox()->isVisible());
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::CheckPage));
    }

    // A missing shard: the problem stands in its box above the plan of what could be read.
    void problemsStandAboveThePlan()
    {
        const QString dir = tmp.path() + QStringLiteral("/missing");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        QVERIFY(QFile::remove(dir + QStringLiteral("/shards/model/dp_rank_00_tp_rank_01_pp_rank_00.pt")));
        ConsolidateWizard w;
        QVERIFY(openAndCheck(w, dir) > 0);
        QVERIFY(w.problemBox()->isVisible());
        QVERIFY2(w.problemList()->count() > 0 && w.problemList()->item(0)->text().contains(QStringLiteral("tp rank 1")),
                 qPrintable(w.problemList()->count() ? w.problemList()->item(0)->text() : QString()));
        QVERIFY(w.problemBox()->height() > 40);
        if (w.planView()->isVisible())
            QVERIFY(w.problemBox()->geometry().bottom() < w.planView()->geometry().top());
        QVERIFY2(w.problemBox()->title().startsWith(QStringLiteral("1 problem")), qPrintable(w.problemBox()->title()));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY(screenshot(w, QStringLiteral("consolidate-problems.png")));
    }
};

QTEST_MAIN(TestConsolidateWizard)
#include "tst_consolidatewizard.moc"
