// Driving the Local cache page like a user: filter, select, read the details, preview a prune, confirm.
#include "services/util/appsettings.h"
#include "ui/localcache/cachechartswidget.h"
#include "models/cache/cachefilterproxy.h"
#include "services/cache/cachesession.h"
#include "models/cache/cachetreemodel.h"
#include "ui/localcache/emptystatewidget.h"
#include "ui/localcache/localcachepage.h"
#include "ui/localcache/maintenancedialog.h"
#include "ui/localcache/moduledetailspane.h"
#include "services/cache/hlo.h"
#include "ui/localcache/torchneurondialog.h"
#include "ui/localcache/versionpickerdialog.h"
#include "services/cache/samplecache.h"
#include "services/s3/s3cachestore.h"
#include "tests/s3/pythonserver.h"
#include "tests/support/otherstore.h"
#include "tests/support/testsupport.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QBarSet>
#include <QBarSeries>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString V14 = QStringLiteral("neuronxcc-2.14.227.0+2d4f85be");

// Answers the compiler-version picker when it opens (it is modal): keeps only `keep`, then presses OK.
void answerVersionPicker(const QString &keep)
{
    auto *poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, keep] {
        auto *picker = qobject_cast<VersionPickerDialog *>(QApplication::activeModalWidget());
        if (!picker)
            return;
        for (int i = 0; i < picker->list()->count(); ++i) {
            QListWidgetItem *item = picker->list()->item(i);
            item->setCheckState(item->data(Qt::UserRole).toString() == keep ? Qt::Checked : Qt::Unchecked);
        }
        picker->accept();
        poll->deleteLater();
    });
    poll->start(20);
}

int visibleEntries(QAbstractItemModel *m)
{
    int n = 0;
    for (int g = 0; g < m->rowCount(); ++g)
        n += m->rowCount(m->index(g, 0));
    return n;
}

QModelIndex findEntry(QAbstractItemModel *m, const QString &name)
{
    for (int g = 0; g < m->rowCount(); ++g)
        for (int r = 0; r < m->rowCount(m->index(g, 0)); ++r)
            if (m->index(r, 0, m->index(g, 0)).data().toString() == name)
                return m->index(r, 0, m->index(g, 0));
    return {};
}

bool openAndWait(LocalCachePage &page, const QString &root)
{
    QSignalSpy done(page.session(), &CacheSession::scanFinished);
    page.openRoot(root);
    return done.wait(20000);
}
}  // namespace

class TestLocalCachePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-localcachepage"));
        AppSettings::setTtlDays(30);
        AppSettings::setMaxCacheBytes(qint64(100) * 1000 * 1000 * 1000);
    }

    // A tree filled from nothing takes its rows unsorted and is sorted once at the end (issue 26: sorted inserts of
    // 100k rows froze the window): once the scan is over, every group is in the header's order again.
    void firstScanEndsSortedAsTheHeaderSays()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 300, 3);
        LocalCachePage page;
        QAbstractItemModelTester tester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.resize(1200, 800);
        page.show();
        bool unsortedWhileFilling = false;
        connect(page.session(), &CacheSession::delta, &page, [&] { unsortedWhileFilling |= page.proxy()->sortColumn() < 0; });
        QVERIFY(openAndWait(page, root));
        QVERIFY(unsortedWhileFilling);
        // The newest compiler's group is the one opened, though the root's other items arrived before it.
        QStringList expanded;
        for (int g = 0; g < page.proxy()->rowCount(); ++g)
            if (page.view()->isExpanded(page.proxy()->index(g, 0)))
                expanded << page.proxy()->index(g, 0).data(CacheTreeModel::VersionRole).toString();
        QCOMPARE(expanded, QStringList{V15});
        const QHeaderView *header = page.view()->header();
        QCOMPARE(page.proxy()->sortColumn(), header->sortIndicatorSection());
        QCOMPARE(page.proxy()->sortOrder(), header->sortIndicatorOrder());
        // Sorting again changes nothing: it was sorted.
        auto order = [&] {
            QStringList names;
            const QAbstractItemModel *m = page.proxy();
            for (int g = 0; g < m->rowCount(); ++g)
                for (int r = 0; r < m->rowCount(m->index(g, 0)); ++r)
                    names << m->index(r, 0, m->index(g, 0)).data().toString();
            return names;
        };
        const QStringList shown = order();
        page.proxy()->invalidate();
        page.proxy()->sort(-1);
        const QStringList unsorted = order();
        page.proxy()->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
        QCOMPARE(order(), shown);
        QVERIFY(unsorted != shown);  // the check can fail: the scan's own order is not the sorted one
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/local-cache-after-first-scan.png")));
        const int checked = int(shown.size());
        QVERIFY(checked > 250);
        // A rescan of the shown tree keeps it sorted throughout.
        bool unsortedAgain = false;
        connect(page.session(), &CacheSession::delta, &page, [&] { unsortedAgain |= page.proxy()->sortColumn() < 0; });
        QSignalSpy again(page.session(), &CacheSession::scanFinished);
        page.session()->rescan(false);
        QVERIFY(again.wait(20000));
        QVERIFY(!unsortedAgain);
    }

    // A compiler row's State column at the default window size shows its whole text (it was cut to "33 entries, 5
    // failed, 2 unkno…").
    void compilerRowStateShowsWhole()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 300, 3);
        LocalCachePage page;
        page.resize(1400, 900);
        page.show();
        QVERIFY(openAndWait(page, root));
        const int width = page.view()->columnWidth(CacheTreeModel::StateColumn);
        const QFontMetrics fm = page.view()->fontMetrics();
        int problems = 0;
        for (int g = 0; g < page.proxy()->rowCount(); ++g) {
            const QModelIndex state = page.proxy()->index(g, CacheTreeModel::StateColumn);
            const QString text = state.data().toString();
            QVERIFY(!text.isEmpty());
            problems += text.contains(QLatin1String("failed")) || text.contains(QLatin1String("unknown"));
            // The view's own margins: what elides a cell is its rect less the style's text margins.
            QVERIFY2(fm.horizontalAdvance(text) + 8 <= width, qPrintable(QStringLiteral("%1 in %2 px").arg(text).arg(width)));
        }
        QVERIFY(problems > 0);  // the check can fail: some rows hold failed or unknown entries
        QVERIFY(fm.horizontalAdvance(CacheTreeModel::wideGroupStateSample()) + 8 <= width);
    }

    void filterSelectDetails()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        test::makeModule(root, V15, QStringLiteral("MODULE_100+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")});
        test::makeModule(root, V15, QStringLiteral("MODULE_200+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(root, V15, QStringLiteral("MODULE_300+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")});
        LocalCachePage page;
        QAbstractItemModelTester tester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.resize(1200, 800);
        page.show();
        QVERIFY(openAndWait(page, root));
        QVERIFY(!page.showsEmptyState());
        QCOMPARE(visibleEntries(page.proxy()), 3);
        QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("Total size")));

        // Type into the filter, as a user would.
        page.filterEdit()->setFocus();
        QTest::keyClicks(page.filterEdit(), QStringLiteral("100"));
        QCOMPARE(visibleEntries(page.proxy()), 1);
        QTest::keyClick(page.filterEdit(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(page.filterEdit(), Qt::Key_Backspace);
        QCOMPARE(visibleEntries(page.proxy()), 3);
        page.stateCombo()->setCurrentIndex(page.stateCombo()->findText(QStringLiteral("Failed")));
        QCOMPARE(visibleEntries(page.proxy()), 1);
        page.stateCombo()->setCurrentIndex(0);

        // Select the failed entry: the details show its flags and the tail of its log.
        const QModelIndex failed = findEntry(page.proxy(), QStringLiteral("MODULE_100+aa"));
        QVERIFY(failed.isValid());
        page.view()->setCurrentIndex(failed.parent());  // the version row shows a summary
        QVERIFY(page.details()->flagsText().isEmpty());
        QSignalSpy loaded(page.details(), &ModuleDetailsPane::detailsLoaded);
        page.view()->setCurrentIndex(failed);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(page.details()->flagsText(), QStringLiteral("--model-type=transformer"));
        QVERIFY(page.details()->logText().contains(QStringLiteral("last line of the log")));
        QVERIFY(page.details()->currentPath().endsWith(V15 + QStringLiteral("/MODULE_100+aa")));

        // Keyboard: Up moves to the previous entry (names sort descending) and the details follow.
        page.view()->setFocus();
        QTest::keyClick(page.view(), Qt::Key_Up);
        QVERIFY(loaded.wait(5000));
        QVERIFY(!page.details()->currentPath().endsWith(QStringLiteral("MODULE_100+aa")));
    }

    // The HLO behind an entry, and "Why would a job compile it?": an unfinished entry here whose graph is compiled in
    // another cache added on the page.
    void hloSummaryAndWhy()
    {
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repo in use is asked last, and not over the network here
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache"), other = tmp.path() + QStringLiteral("/team-cache");
        const QString name = QStringLiteral("MODULE_5531842278960281633+4497a662");
        HloSketch h;
        h.name = QStringLiteral("SyncTensorsGraph.7012");
        h.parameters = {QStringLiteral("s64[8,4096]"), QStringLiteral("bf16[1000,4096]"), QStringLiteral("bf16[4096,1536]")};
        h.parameterNames = {QStringLiteral("input_ids"), QStringLiteral("model.embed_tokens.weight"),
                            QStringLiteral("model.layers.0.self_attn.qkv_proj.weight")};
        h.result = QStringLiteral("(f32[], bf16[1000,4096])");
        h.instructions = 180;
        h.allReduces = 6;
        h.groupSize = 32;
        h.devices = 32;
        h.collectivePermute = true;
        test::makeModule(root, V15, name, {QStringLiteral("compile_flags.json")});
        test::writeFile(root + QLatin1Char('/') + V15 + QLatin1Char('/') + name + QStringLiteral("/model.hlo_module.pb"), writeHloModule(h));
        test::makeModule(other, V15, name, {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"),
                                            QStringLiteral("model.neff"), QStringLiteral("model.done")});
        AppSettings::addCacheRoot(other);
        LocalCachePage page;
        page.resize(1280, 860);
        page.show();
        QVERIFY(openAndWait(page, root));
        const QModelIndex entry = findEntry(page.proxy(), name);
        QVERIFY(entry.isValid());
        QSignalSpy loaded(page.details(), &ModuleDetailsPane::detailsLoaded);
        page.view()->setCurrentIndex(entry);
        QVERIFY(loaded.wait(5000));
        const QString hlo = page.details()->hloText();
        QVERIFY2(hlo.contains(QStringLiteral("SyncTensorsGraph.7012")), qPrintable(hlo));
        QVERIFY(hlo.contains(QStringLiteral("s64[8,4096] input_ids")));
        QVERIFY(hlo.contains(QStringLiteral("all-reduce ×6 over 1 group")));
        QVERIFY(hlo.contains(QStringLiteral("collective-permute ×1")));
        QSignalSpy explained(page.details(), &ModuleDetailsPane::explained);
        QVERIFY(page.details()->explainButton()->isVisible());
        QTest::mouseClick(page.details()->explainButton(), Qt::LeftButton);
        QVERIFY(explained.wait(20000));
        const QString why = page.details()->explanationText();
        QVERIFY2(why.startsWith(QStringLiteral("In another cache:")), qPrintable(why));
        QVERIFY(why.contains(other));
        QVERIFY(why.contains(QStringLiteral("INCOMPLETE")));
        QVERIFY(why.contains(QStringLiteral("What to do: Pull or copy")));
        // One click brings it here: the page asks for a copy from the cache that holds it into this one.
        QVERIFY(page.details()->explanationAction()->isVisible());
        QCOMPARE(page.details()->explanationAction()->toolTip(), other);
        QSignalSpy fetch(&page, &LocalCachePage::fetchRequested);
        QTest::mouseClick(page.details()->explanationAction(), Qt::LeftButton);
        QCOMPARE(fetch.size(), 1);
        QCOMPARE(fetch.first().at(0).toString(), other);
        QCOMPARE(fetch.first().at(2).toStringList(), QStringList{V15 + QLatin1Char('/') + name});
        // The details scroll: show the answer, as a user scrolls to it.
        for (QWidget *w = page.details(); w; w = w->parentWidget())
            if (auto *area = qobject_cast<QScrollArea *>(w)) {
                test::deliverPostedEvents();  // the answer's lines are laid out
                area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
                break;
            }
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QVERIFY(page.grab().save(shots + QStringLiteral("/module-explain.png")));
        AppSettings::setCacheRoots({});
    }

    void prunePreviewThenConfirm()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        const QStringList ok = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), ok, 100);
        test::makeModule(root, V15, QStringLiteral("MODULE_2+aa"), ok, 45);
        test::makeModule(root, V15, QStringLiteral("MODULE_3+aa"), ok, 2);
        test::makeModule(root, V15, QStringLiteral("MODULE_4+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("x.lock")}, 300);
        LocalCachePage page;
        page.show();
        QVERIFY(openAndWait(page, root));
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::Prune);
        QVERIFY(dlg);
        QVERIFY(dlg->isVisible());
        // The preview lists exactly the expired, unlocked entries; nothing has been touched yet.
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 2);
        QStringList listed{dlg->itemsView()->topLevelItem(0)->text(0), dlg->itemsView()->topLevelItem(1)->text(0)};
        listed.sort();
        QCOMPARE(listed, (QStringList{V15 + QStringLiteral("/MODULE_1+aa"), V15 + QStringLiteral("/MODULE_2+aa")}));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(dlg->confirmButton()->text().contains(QStringLiteral("Delete 2 entries")));
        // The policy is editable right here and the preview follows it.
        auto *ttl = dlg->findChild<QSpinBox *>();
        QVERIFY(ttl);
        QCOMPARE(ttl->value(), 30);
        ttl->setValue(60);
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 1);
        ttl->setValue(365);
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 0);
        QVERIFY(!dlg->confirmButton()->isVisible());
        ttl->setValue(30);
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 2);
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(dlg->grab().save(shots + QStringLiteral("/prune-preview.png")));
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QSignalSpy rescanned(page.session(), &CacheSession::scanFinished);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(10000));
        QCOMPARE(dlg->report().done, 2);
        QCOMPARE(AppSettings::ttlDays(), 30);
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_4+aa")));
        // The page follows: the removed rows go away.
        QVERIFY(rescanned.wait(10000));
        QTRY_COMPARE(visibleEntries(page.proxy()), 2);
        dlg->close();
    }

    // Issue 39: the filter box takes cache list --filter's expressions; one that does not read says why (in red,
    // under the mouse) and filters nothing; ones that read offer Remove matching, whose preview is cache rm's.
    void filterExpressionsAndRemoveMatching()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        const QStringList ok = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
        const QStringList failed = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), failed, 100);
        test::makeModule(root, V15, QStringLiteral("MODULE_2+aa"), failed, 2);
        test::makeModule(root, V15, QStringLiteral("MODULE_3+aa"), ok, 100);
        test::makeModule(root, V15, QStringLiteral("MODULE_4+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("x.lock")}, 300);
        LocalCachePage page;
        page.resize(1200, 800);
        page.show();
        QVERIFY(openAndWait(page, root));
        QCOMPARE(visibleEntries(page.proxy()), 4);
        QVERIFY(!page.removeMatchingAction()->isVisible());
        auto removeMatchingShown = [&page] {
            for (QToolButton *b : page.findChildren<QToolButton *>())
                if (b->defaultAction() == page.removeMatchingAction())
                    return b->isVisible();
            return false;
        };
        QVERIFY(!removeMatchingShown());  // the button too, not only its action
        page.filterEdit()->setFocus();
        QTest::keyClicks(page.filterEdit(), QStringLiteral("state=failed used>30d"));
        QCOMPARE(visibleEntries(page.proxy()), 1);
        QVERIFY(findEntry(page.proxy(), QStringLiteral("MODULE_1+aa")).isValid());
        QVERIFY(page.removeMatchingAction()->isVisible());
        QVERIFY(removeMatchingShown());
        // Half typed: said, nothing filtered, nothing to remove.
        page.filterEdit()->setText(QStringLiteral("used>30"));
        QCOMPARE(visibleEntries(page.proxy()), 4);
        QVERIFY2(page.filterEdit()->toolTip().contains(QStringLiteral("an age such as")), qPrintable(page.filterEdit()->toolTip()));
        QVERIFY(!page.removeMatchingAction()->isVisible());
        // Plain words still look for names.
        page.filterEdit()->setText(QStringLiteral("MODULE_3"));
        QCOMPARE(visibleEntries(page.proxy()), 1);
        QVERIFY(!page.filterEdit()->toolTip().contains(QStringLiteral("an age such as")));
        // used>30d: the old failed and successful entries; the locked one is kept, said in the preview.
        page.filterEdit()->setText(QStringLiteral("used>30d"));
        QCOMPARE(visibleEntries(page.proxy()), 3);
        {
            const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
            QDir().mkpath(shots);
            QVERIFY(page.grab().save(shots + QStringLiteral("/cache-filter-expressions.png")));
        }
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::RemoveMatching);
        QVERIFY(dlg);
        QCOMPARE(dlg->plan().items.size(), 2);
        QCOMPARE(dlg->plan().kept.size(), 1);
        QCOMPARE(dlg->plan().kept[0].key, V15 + QStringLiteral("/MODULE_4+aa"));
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(10000));
        QCOMPARE(dlg->report().done, 2);
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_3+aa")));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+aa")));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_4+aa")));
        QTRY_COMPARE(visibleEntries(page.proxy()), 1);
        dlg->close();
    }

    void cancelLeavesEverything()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), {QStringLiteral("model.log")});
        LocalCachePage page;
        page.show();
        QVERIFY(openAndWait(page, root));
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::CleanFailed);
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 1);
        dlg->reject();
        QVERIFY(!dlg->hasRun());
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.log")));
    }

    // Issue 21: cancelling the preview of "Remove other versions" still saved the versions ticked in the picker.
    void cancelledRemoveVersionsSavesNothing()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        const QStringList ok = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), ok);
        test::makeModule(root, V14, QStringLiteral("MODULE_2+aa"), ok);
        AppSettings::setKeptVersions({V15});
        LocalCachePage page;
        page.show();
        QVERIFY(openAndWait(page, root));
        answerVersionPicker(V14);
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::RemoveVersions);
        QVERIFY(dlg);
        QCOMPARE(dlg->plan().entryCount(), 1);
        QCOMPARE(dlg->plan().items.first().version, V15);
        dlg->reject();
        QCOMPARE(AppSettings::keptVersions(), QStringList{V15});
        // Confirmed, the versions kept become the next default.
        answerVersionPicker(V14);
        dlg = page.startMaintenance(MaintenanceAction::RemoveVersions);
        QVERIFY(dlg);
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(10000));
        QCOMPARE(AppSettings::keptVersions(), QStringList{V14});
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa")));
        dlg->close();
    }

    // Issue 21: the context menu offered "Delete 0 selected failed entries…": an action that would act on nothing is
    // not offered.
    void contextMenuOffersNothingForZeroEntries()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), {QStringLiteral("model.log")});
        test::makeModule(root, V15, QStringLiteral("MODULE_2+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")});
        LocalCachePage page;
        page.show();
        QVERIFY(openAndWait(page, root));
        auto texts = [&](const QModelIndex &at) {
            QStringList out;
            const std::unique_ptr<QMenu> menu = page.contextMenu(at);
            for (QAction *a : menu->actions())
                if (!a->isSeparator() && a->isVisible())
                    out << a->text();
            return out;
        };
        const QModelIndex success = findEntry(page.proxy(), QStringLiteral("MODULE_2+aa"));
        page.view()->setCurrentIndex(success);
        QStringList menu = texts(success);
        for (const QString &t : std::as_const(menu))
            QVERIFY2(!t.contains(QStringLiteral(" 0 ")), qPrintable(menu.join(QLatin1Char('|'))));
        QVERIFY2(menu.contains(QStringLiteral("Push 1 successful entry to the Hub cache repo…")), qPrintable(menu.join(QLatin1Char('|'))));
        QVERIFY(!menu.contains(QStringLiteral("Delete 1 selected failed entry…")));
        const QModelIndex failed = findEntry(page.proxy(), QStringLiteral("MODULE_1+aa"));
        page.view()->setCurrentIndex(failed);
        menu = texts(failed);
        for (const QString &t : std::as_const(menu))
            QVERIFY2(!t.contains(QStringLiteral(" 0 ")), qPrintable(menu.join(QLatin1Char('|'))));
        QVERIFY2(menu.contains(QStringLiteral("Delete 1 selected failed entry…")), qPrintable(menu.join(QLatin1Char('|'))));
        // Nothing selected: only what applies to the whole cache; the Delete key's action keeps a name without a count
        // (the shortcuts list shows it).
        page.view()->clearSelection();
        menu = texts(QModelIndex());
        for (const QString &t : std::as_const(menu))
            QVERIFY2(!t.contains(QStringLiteral(" 0 ")), qPrintable(menu.join(QLatin1Char('|'))));
        QVERIFY(!menu.contains(QStringLiteral("Delete selected failed entries…")));
        for (QAction *a : page.view()->actions())
            if (a->shortcut() == QKeySequence(QKeySequence::Delete)) {
                QCOMPARE(a->text(), QStringLiteral("Delete selected failed entries…"));
                QVERIFY(!a->isEnabled());
            }
    }

    void deleteKeyOnSelectedFailedEntry()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), {QStringLiteral("model.log")});
        test::makeModule(root, V15, QStringLiteral("MODULE_2+aa"), {QStringLiteral("model.log")});
        LocalCachePage page;
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(openAndWait(page, root));
        page.view()->setFocus();
        page.view()->setCurrentIndex(findEntry(page.proxy(), QStringLiteral("MODULE_2+aa")));
        QTest::keyClick(page.view(), Qt::Key_Delete);
        auto *dlg = page.findChild<MaintenanceDialog *>();
        QVERIFY(dlg);
        QCOMPARE(dlg->plan().items.size(), 1);
        QCOMPARE(dlg->plan().items[0].key, V15 + QStringLiteral("/MODULE_2+aa"));
        dlg->reject();
    }

    void clearLocksRefusalIsShown()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")});
        LocalCachePage page;
        page.show();
        QVERIFY(openAndWait(page, root));
        {
            test::FakeCompilerProcess compiler(tmp);
            MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::ClearLocks);
            QVERIFY(!dlg->confirmButton()->isEnabled());  // not before the check
            QTRY_VERIFY(!dlg->isPlanning());                // asked off the UI thread
            QVERIFY(dlg->plan().refusal.contains(QStringLiteral("neuronx-cc is running")));
            QVERIFY(dlg->plan().refusal.contains(QString::number(compiler.pid())));
            QVERIFY(!dlg->confirmButton()->isEnabled());
            dlg->reject();
        }
        // No compiler running: the same preview can be confirmed, and the lock goes.
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::ClearLocks);
        QTRY_VERIFY(!dlg->isPlanning());
        QVERIFY(dlg->plan().refusal.isEmpty());
        QVERIFY(dlg->confirmButton()->isEnabled());
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(10000));
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock")));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb")));
        dlg->close();
    }

    // A second kind of store is a registration: the page's tree, details and maintenance work on it unchanged.
    void anyKindOfStore()
    {
        test::OtherHostStore::registerKind();
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), {QStringLiteral("compile_flags.json"), QStringLiteral("model.log")});
        test::makeModule(root, V15, QStringLiteral("MODULE_2+aa"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        LocalCachePage page;
        page.show();
        QSignalSpy done(page.session(), &CacheSession::scanFinished);
        const int before = test::OtherHostStore::made();
        page.session()->setLocation(test::OtherHostStore::location(root));
        QVERIFY(done.wait(20000));
        QVERIFY(test::OtherHostStore::made() > before);
        QCOMPARE(visibleEntries(page.proxy()), 2);
        QVERIFY(!page.session()->canWatch());
        QSignalSpy loaded(page.details(), &ModuleDetailsPane::detailsLoaded);
        page.view()->setCurrentIndex(findEntry(page.proxy(), QStringLiteral("MODULE_1+aa")));
        QVERIFY(loaded.wait(5000));
        QCOMPARE(page.details()->currentPath(), QStringLiteral("trn1-test:") + root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa"));
        QCOMPARE(page.details()->flagsText(), QStringLiteral("--model-type=transformer"));
        QVERIFY(page.details()->logText().contains(QStringLiteral("last line of the log")));
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::CleanFailed);
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 1);
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(10000));
        QCOMPARE(dlg->report().done, 1);
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+aa")));
        dlg->close();
    }

    // An S3 cache (the test S3 server, a fake for S3 checked with boto3) opens like any other: its entries in their
    // states, the banner and the root combo saying which cache it is, details read with ranged GETs, maintenance.
    void s3Cache()
    {
        QTemporaryDir tmp;
        const QString seed = tmp.path() + QStringLiteral("/seed");
        SampleCacheOptions o;
        o.modules = 30;
        o.oddEntries = false;
        o.hubLinks = false;
        o.minNeffBytes = 100;
        o.maxNeffBytes = 40000;
        QString error;
        QVERIFY2(writeSampleCache(seed + QStringLiteral("/team/cache"), o, nullptr, &error), qPrintable(error));
        const QString journal = tmp.path() + QStringLiteral("/requests.log");
        test::PythonServer server("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--seed"), QStringLiteral("team-cache=") + seed,
                                                         QStringLiteral("--journal"), journal, QStringLiteral("--journal-lists")});
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        qputenv("AWS_ENDPOINT_URL", server.url().toUtf8());
        s3::registerS3Store();
        const QString local = tmp.path() + QStringLiteral("/local");
        QVERIFY2(writeSampleCache(local, o, nullptr, &error), qPrintable(error));
        LocalCachePage page;
        page.resize(1280, 940);
        page.show();
        QVERIFY(openAndWait(page, seed + QStringLiteral("/team/cache")));
        const int onDisk = visibleEntries(page.proxy());
        QVERIFY(onDisk >= 30);
        QAction *clearLocks = page.maintenanceActions().at(1);
        QVERIFY(clearLocks->isEnabled());  // a folder's locks: stale when no neuronx-cc runs
        QSignalSpy done(page.session(), &CacheSession::scanFinished);
        QVERIFY(page.openS3Url(QStringLiteral("s3://team-cache/team/cache")));
        QVERIFY(done.wait(20000));
        // Issue 35: an S3 cache's locks cannot be judged stale from here: the action says they go by an age.
        QVERIFY(clearLocks->isEnabled());
        QVERIFY2(clearLocks->toolTip().contains(QLatin1String("asks for an age")) && clearLocks->toolTip().contains(QLatin1String("cannot be seen")),
                 qPrintable(clearLocks->toolTip()));
        QVERIFY(!page.showsEmptyState());
        QCOMPARE(visibleEntries(page.proxy()), onDisk);
        QVERIFY(page.remoteBanner()->isVisible());
        QVERIFY2(page.remoteBannerLabel()->text().contains(QLatin1String("S3 cache")), qPrintable(page.remoteBannerLabel()->text()));
        QVERIFY(page.rootCombo()->currentText().contains(QLatin1String("(S3)")));
        QVERIFY(page.autoRefreshCombo()->isVisible());
        QSignalSpy loaded(page.details(), &ModuleDetailsPane::detailsLoaded);
        const QModelIndex failed = test::firstChildWith(page.proxy(), CacheTreeModel::StateRole, int(ModuleState::Failed));
        QVERIFY(failed.isValid());
        const qsizetype journalBefore = test::readFile(journal).size();
        page.view()->setCurrentIndex(failed);
        QVERIFY(loaded.wait(10000));
        const QString shown = page.details()->currentPath();
        QVERIFY2(shown.startsWith(QLatin1String("s3://team-cache/team/cache/")), qPrintable(shown));
        QVERIFY(!page.details()->logText().isEmpty());
        // Issue 35: an entry's details are read when shown, from the listing the page has: only GETs of the files
        // shown (its log among them), no LIST of the prefix again.
        const QStringList selecting = QString::fromUtf8(test::readFile(journal).mid(journalBefore)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QString key = page.details()->currentPath().mid(QStringLiteral("s3://team-cache/").size());
        QVERIFY2(selecting.filter(QStringLiteral("LIST ")).isEmpty(), qPrintable(selecting.join(QLatin1Char('\n'))));
        QVERIFY2(!selecting.filter(QStringLiteral("GET ") + key + QStringLiteral("/model.log ")).isEmpty(), qPrintable(selecting.join(QLatin1Char('\n'))));
        QCOMPARE(selecting.filter(QStringLiteral("REQUEST ")).size(), selecting.filter(QStringLiteral("REQUEST GET")).size());
        QCOMPARE(selecting.filter(QStringLiteral("REQUEST GET")).size(), selecting.filter(QRegularExpression(QStringLiteral("^GET "))).size());
        QVERIFY(page.openedS3Caches().contains(QStringLiteral("s3://team-cache/team/cache")));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/s3-cache.png")));
        // Maintenance: the failed entries go from the bucket, nothing else does.
        MaintenanceDialog *dlg = page.startMaintenance(MaintenanceAction::CleanFailed);
        QTRY_VERIFY(!dlg->isPlanning());
        const int failedCount = dlg->itemsView()->topLevelItemCount();
        QVERIFY(failedCount > 0);
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(20000));
        QCOMPARE(dlg->report().done, failedCount);
        dlg->close();
        QVERIFY(done.wait(20000));
        QCOMPARE(visibleEntries(page.proxy()), onDisk - failedCount);
    }

    // Issue 35: Clear stale locks on an S3 cache asks for an age in the preview (the planner ingot-cli's --older-than
    // uses): with none, nothing is planned and nothing can be confirmed; with one, exactly the older lock goes.
    void s3LocksGoByAnAgeSetInThePreview()
    {
        QTemporaryDir tmp;
        const QString v = tmp.path() + QStringLiteral("/seed/team/cache/neuronxcc-2.15.128.0+56dc5a86");
        test::writeFile(v + QStringLiteral("/MODULE_3+c/model.neff"), "neff");
        test::writeFile(v + QStringLiteral("/MODULE_3+c/model.neff.lock"), "");
        test::writeFile(v + QStringLiteral("/MODULE_4+d/model.neff"), "neff");
        test::writeFile(v + QStringLiteral("/MODULE_4+d/model.neff.lock"), "");
        QFile old(v + QStringLiteral("/MODULE_3+c/model.neff.lock"));
        QVERIFY(old.open(QIODevice::ReadWrite));
        QVERIFY(old.setFileTime(QDateTime::currentDateTime().addSecs(-3 * 3600), QFileDevice::FileModificationTime));
        old.close();
        test::PythonServer server("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--seed"), QStringLiteral("team-cache=") + tmp.path() + QStringLiteral("/seed"),
                                                         QStringLiteral("--seed-mtimes")});
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        qputenv("AWS_ENDPOINT_URL", server.url().toUtf8());
        s3::registerS3Store();
        LocalCachePage page;
        page.resize(1280, 940);
        page.show();
        QSignalSpy done(page.session(), &CacheSession::scanFinished);
        QVERIFY(page.openS3Url(QStringLiteral("s3://team-cache/team/cache")));
        QVERIFY(done.wait(20000));
        QAction *clearLocks = page.maintenanceActions().at(1);
        QVERIFY(clearLocks->isEnabled());
        clearLocks->trigger();
        auto *dlg = page.findChild<MaintenanceDialog *>();
        QVERIFY(dlg);
        QVERIFY(dlg->lockAgeBox() && dlg->lockAgeBox()->isVisible());
        QTRY_VERIFY(!dlg->isPlanning());
        // No age: nothing planned, both entries kept, nothing to confirm, and the rule said.
        QCOMPARE(dlg->lockAgeMs(), 0);
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 0);
        QCOMPARE(dlg->keptView()->topLevelItemCount(), 2);
        QVERIFY(!dlg->confirmButton()->isEnabled());
        QVERIFY2(dlg->lockAgeRule()->text().contains(QLatin1String("is not public, so a younger lock is kept")), qPrintable(dlg->lockAgeRule()->text()));
        // Two hours, set as a user does: the three-hour-old lock goes, the fresh one stays.
        QCOMPARE(dlg->lockAgeUnit()->currentText(), QStringLiteral("hours"));
        dlg->lockAgeBox()->setFocus();
        QTest::keyClick(dlg->lockAgeBox(), Qt::Key_Up);
        QTest::keyClick(dlg->lockAgeBox(), Qt::Key_Up);
        QCOMPARE(dlg->lockAgeMs(), 2 * 3600 * 1000);
        QTRY_VERIFY(!dlg->isPlanning());
        QVERIFY2(dlg->lockAgeRule()->text().contains(QLatin1String("older than 2h are removed")), qPrintable(dlg->lockAgeRule()->text()));
        QCOMPARE(dlg->itemsView()->topLevelItemCount(), 1);
        QVERIFY(dlg->itemsView()->topLevelItem(0)->text(0).endsWith(QLatin1String("MODULE_3+c")));
        QCOMPARE(dlg->keptView()->topLevelItemCount(), 1);
        QVERIFY(dlg->keptView()->topLevelItem(0)->text(0).endsWith(QLatin1String("MODULE_4+d")));
        QVERIFY(dlg->confirmButton()->isEnabled());
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QVERIFY(executed.wait(20000));
        QCOMPARE(dlg->report().done, 1);
        QTRY_VERIFY_WITH_TIMEOUT(done.count() >= 2, 20000);  // the page lists the bucket again after the run
        const CacheModule *gone = page.session()->snapshot().find(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_3+c"));
        const CacheModule *kept = page.session()->snapshot().find(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_4+d"));
        QVERIFY(gone && kept);
        QStringList goneFiles;
        for (const CacheFile &f : gone->files)
            goneFiles << f.name;
        QCOMPARE(goneFiles, QStringList{QStringLiteral("model.neff")});  // only its lock went
        QVERIFY(gone->state != ModuleState::Locked);
        QCOMPARE(kept->state, ModuleState::Locked);
        dlg->close();
    }

    // A TorchNeuron / vLLM-Neuron cache (fixture in the documented layout): its window lists every key in its state,
    // offers only the actions with something to do, and clears a stale lock after the preview; the page, opened on
    // the same folder, counts the keys.
    void torchNeuronWindow()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/compile_cache");
        const QString done = QStringLiteral("0123456789abcdef0123456789abcdef");
        const QString stale = QStringLiteral("44444444444444444444444444444444");
        const QString broken = QStringLiteral("55555555555555555555555555555555");
        for (const QString &k : {done, QStringLiteral("1123456789abcdef0123456789abcdef"), QStringLiteral("2123456789abcdef0123456789abcdef")}) {
            test::writeFile(root + QLatin1Char('/') + k + QStringLiteral("/graph.hlo"), QByteArray(3000, 'h'));
            test::writeFile(root + QLatin1Char('/') + k + QStringLiteral("/graph_") + k + QStringLiteral(".neff"), QByteArray(90000, 'n'));
            test::writeFile(root + QLatin1Char('/') + k + QStringLiteral("/.compilation_complete"), "completed:1764000000.5\nneff_size:90000\n");
        }
        test::writeFile(root + QLatin1Char('/') + stale + QStringLiteral("/graph.hlo"), "hlo");
        test::writeFile(root + QLatin1Char('/') + stale + QStringLiteral(".lock"), "");
        test::writeFile(root + QLatin1Char('/') + broken + QStringLiteral("/graph.hlo"), "hlo");
        LocalCachePage page;
        TorchNeuronDialog *dlg = page.openTorchNeuronCache(root);
        QSignalSpy scanned(dlg, &TorchNeuronDialog::scanFinished);
        QVERIFY(scanned.wait(10000));
        QCOMPARE(dlg->entriesView()->topLevelItemCount(), 5);
        QVERIFY2(dlg->summaryLabel()->text().contains(QLatin1String("3 complete")), qPrintable(dlg->summaryLabel()->text()));
        QVERIFY(dlg->actionButton(TorchNeuronAction::ClearLocks)->isEnabled());
        QVERIFY(dlg->actionButton(TorchNeuronAction::CleanIncomplete)->isEnabled());
        QVERIFY(!dlg->actionButton(TorchNeuronAction::Prune)->isEnabled());  // nothing unused for 30 days
        QCOMPARE(dlg->preview(TorchNeuronAction::ClearLocks).size(), 1);
        QVERIFY(dlg->preview(TorchNeuronAction::ClearLocks).first().startsWith(stale + QStringLiteral(".lock")));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(dlg->grab().save(shots + QStringLiteral("/torchneuron-cache.png")));
        QSignalSpy finished(dlg, &TorchNeuronDialog::maintenanceFinished);
        dlg->runAction(TorchNeuronAction::ClearLocks);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().value<TorchNeuronReport>().done, 1);
        QVERIFY(!QFile::exists(root + QLatin1Char('/') + stale + QStringLiteral(".lock")));
        QVERIFY(scanned.wait(10000));
        QVERIFY(!dlg->actionButton(TorchNeuronAction::ClearLocks)->isEnabled());
        dlg->close();
        QVERIFY(openAndWait(page, root));
        QVERIFY2(page.summaryLabel()->text().contains(QLatin1String("TorchNeuron keys")), qPrintable(page.summaryLabel()->text()));
        // The same cache as an S3 prefix, opened in the page: the window opens on it, and a lock there counts as held.
        test::writeFile(root + QLatin1Char('/') + stale + QStringLiteral(".lock"), "");
        test::PythonServer server("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--seed"), QStringLiteral("tnc=") + tmp.path()});
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_ENDPOINT_URL", server.url().toUtf8());
        s3::registerS3Store();
        QSignalSpy listed(page.session(), &CacheSession::scanFinished);
        QVERIFY(page.openS3Url(QStringLiteral("s3://tnc/compile_cache")));
        QVERIFY(listed.wait(20000));
        QCOMPARE(page.torchNeuronKeysShown(), 5);
        TorchNeuronDialog *remote = page.openTorchNeuronCache();
        QSignalSpy remoteScanned(remote, &TorchNeuronDialog::scanFinished);
        QVERIFY(remoteScanned.wait(10000));
        QCOMPARE(remote->folder(), QStringLiteral("s3://tnc/compile_cache"));
        QCOMPARE(remote->entriesView()->topLevelItemCount(), 5);
        QCOMPARE(remote->snapshot().count(TorchNeuronEntry::State::Compiling), 1);
        QVERIFY(!remote->actionButton(TorchNeuronAction::ClearLocks)->isEnabled());
        remote->close();
    }

    void emptyStateOffersTheSample()
    {
        QTemporaryDir tmp;
        qputenv("XDG_DATA_HOME", QFile::encodeName(tmp.path()));
        LocalCachePage page;
        page.show();
        CacheLocation loc;
        loc.path = tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        loc.explanation = QStringLiteral("Neither --cache_dir nor NEURON_COMPILE_CACHE_URL is set.");
        QSignalSpy done(page.session(), &CacheSession::scanFinished);
        AppSettings::setCurrentRoot(QString());
        page.openInitial(loc);
        QVERIFY(done.wait(5000));
        QVERIFY(page.showsEmptyState());
        done.clear();
        // The sample is written off the UI thread; a rescan of the missing default cache (its parent folder changes
        // while the sample is written) may finish first, so wait for the sample's own scan.
        QSignalSpy opened(&page, &LocalCachePage::rootOpened);
        QTest::mouseClick(page.emptyState()->sampleButton(), Qt::LeftButton);
        QVERIFY(opened.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(!page.session()->isScanning() && !page.showsEmptyState(), 20000);
        QVERIFY(page.model()->entryCount() > 40);
        QVERIFY(page.currentRoot().startsWith(tmp.path()));
        // Charts show every compiler version's size.
        auto *series = qobject_cast<QBarSeries *>(page.charts()->sizeChart()->series().value(0));
        QVERIFY(series);
        QCOMPARE(series->barSets().first()->count(), 3);
        qunsetenv("XDG_DATA_HOME");
    }

    // Issue 14: the empty state's explanation was cut ("…so the Neuron") at the default window size. Its labels
    // wrap and get the height their text needs at the main window's default width (1280: the page is some 1130
    // wide), in an 800 px wide window (the page some 650), and with a text as long as a German translation's.
    void emptyStateTextShowsWhole()
    {
        QTemporaryDir tmp;
        LocalCachePage page;
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = tmp.path() + QStringLiteral("/no-cache-here");
        QSignalSpy done(page.session(), &CacheSession::scanFinished);
        AppSettings::setCurrentRoot(QString());
        page.openInitial(loc);
        QVERIFY(done.wait(5000));
        QVERIFY(page.showsEmptyState());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        EmptyStateWidget *empty = page.emptyState();
        QLabel *details = empty->detailsLabel();
        const QString english = details->text();
        QVERIFY2(english.contains(QStringLiteral("Neuron default")), qPrintable(english));
        // About 1.4 times the English, in longer words, as German runs.
        const QString german = QStringLiteral(
            "Der Cache-Ordner %1 existiert nicht.\n\nIngot sucht dort, wo die Neuron-Laufzeitumgebung sucht. Weder "
            "--cache_dir in NEURON_CC_FLAGS noch NEURON_COMPILE_CACHE_URL ist gesetzt, daher wird der Neuron-Standardordner "
            "/var/tmp/neuron-compile-cache verwendet.\n\nDas Trainieren oder Kompilieren auf diesem Rechner legt den "
            "Cache an. Bis dahin können Sie einen anderen Ordner hinzufügen oder einen Beispiel-Cache öffnen, um jede "
            "Funktion in Aktion zu sehen (Zustände, Fehlschläge, Sperren, Diagramme und Wartung).").arg(loc.path);
        for (const QString &text : {english, german}) {
            empty->setMessage(QStringLiteral("Noch kein Neuron-Kompilier-Cache in diesem Ordner vorhanden"), text);
            for (const QSize size : {QSize(1130, 700), QSize(650, 700), QSize(650, 560)}) {
                page.resize(size);
                test::deliverPostedEvents();
                const QString where = QStringLiteral("%1x%2, %3 characters").arg(size.width()).arg(size.height()).arg(text.size());
                for (QLabel *label : {empty->titleLabel(), details}) {
                    QVERIFY2(label->isVisible(), qPrintable(where));
                    QVERIFY2(label->heightForWidth(label->width()) <= label->height(),
                             qPrintable(QStringLiteral("%1: needs %2 px, has %3 (%4 wide)").arg(where).arg(label->heightForWidth(label->width()))
                                            .arg(label->height()).arg(label->width())));
                    QVERIFY2(label->width() <= empty->width(), qPrintable(where));
                    QVERIFY2(label->geometry().bottom() < empty->height(), qPrintable(where));  // not below the page's edge
                }
                QVERIFY2(empty->sampleButton()->geometry().bottom() < empty->height(), qPrintable(where));
            }
        }
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/empty-state-narrow-long.png")));
    }
};

QTEST_MAIN(TestLocalCachePage)
#include "tst_localcachepage.moc"
