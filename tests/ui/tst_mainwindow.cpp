// The main window as a whole: navigation, menus, the sample cache, and the README screenshot.
#include "models/cache/cachefilterproxy.h"
#include "services/cache/cachesession.h"
#include "models/cache/cachetreemodel.h"
#include "ui/localcache/localcachepage.h"
#include "ui/localcache/moduledetailspane.h"
#include "ui/localcache/maintenancedialog.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/joblauncher.h"
#include "services/cache/maintenance.h"
#include "ui/shell/mainwindow.h"
#include "ui/hub/hubcachepage.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/shortcutsdialog.h"
#include "ui/common/flagtext.h"
#include "services/cache/explain.h"
#include "tests/support/testsupport.h"
#include "services/util/appsettings.h"
#include "services/cache/cachelocation.h"
#include "services/cache/samplecache.h"

#include <QAction>
#include <QClipboard>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QApplication>
#include <QDir>
#include <QGroupBox>
#include <QTableView>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <QTreeView>
#include <QLabel>
#include <QHeaderView>
#include <QStackedWidget>
#include <QTableView>

using namespace ingot;

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-mainwindow"));
    }

    void navigationListsOnlyWorkingAreas()
    {
        MainWindow w;
        QCOMPARE(w.navigation()->count(), 6);
        QCOMPARE(w.navigation()->item(0)->text(), QStringLiteral("Local cache"));
        QCOMPARE(w.navigation()->item(2)->text(), QStringLiteral("Jobs"));
        QCOMPARE(w.navigation()->item(3)->text(), QStringLiteral("Remote hosts"));
        QCOMPARE(w.navigation()->item(4)->text(), QStringLiteral("Transfers"));
        QCOMPARE(w.navigation()->item(5)->text(), QStringLiteral("Fleet"));
        // Ctrl+1..6 go to the areas in the navigation's order.
        QMenu *go = nullptr;
        for (QAction *a : w.menuBar()->actions())
            if (a->text() == QStringLiteral("&Go"))
                go = a->menu();
        QVERIFY(go);
        QStringList keys;
        for (QAction *a : go->actions())
            keys << a->shortcut().toString();
        QCOMPARE(keys, (QStringList{QStringLiteral("Ctrl+1"), QStringLiteral("Ctrl+2"), QStringLiteral("Ctrl+3"),
                                    QStringLiteral("Ctrl+4"), QStringLiteral("Ctrl+5"), QStringLiteral("Ctrl+6")}));
        go->actions().at(5)->trigger();
        QCOMPARE(w.navigation()->currentRow(), 5);
        go->actions().at(4)->trigger();
        QCOMPARE(w.navigation()->currentRow(), 4);
        go->actions().at(3)->trigger();
        QCOMPARE(w.navigation()->currentRow(), 3);
        go->actions().at(0)->trigger();
        QCOMPARE(w.navigation()->currentRow(), 0);
        QStringList menus;
        for (QAction *a : w.menuBar()->actions())
            menus << a->text();
        QCOMPARE(menus, (QStringList{QStringLiteral("&File"), QStringLiteral("&Tools"), QStringLiteral("&Cache"), QStringLiteral("&Go"), QStringLiteral("&Hub"), QStringLiteral("&Help")}));
    }

    // Issue 35: two File menu items shared the mnemonic C (Open an S3 &cache, &Cancel scan), and S twice (Open
    // &sample cache, &Settings): Alt+F then a letter must reach one item.
    void fileMenuMnemonicsAreUnique()
    {
        MainWindow w;
        QMenu *file = w.menuBar()->actions().first()->menu();
        QVERIFY(file);
        QMap<QChar, QString> seen;
        for (QAction *a : file->actions()) {
            if (a->isSeparator())
                continue;
            const QString text = a->text();
            const qsizetype amp = text.indexOf(QRegularExpression(QStringLiteral("&[^&]")));
            QVERIFY2(amp >= 0, qPrintable(QStringLiteral("no mnemonic: ") + text));
            const QChar key = text.at(amp + 1).toLower();
            QVERIFY2(!seen.contains(key), qPrintable(QStringLiteral("%1 and %2 share &%3").arg(seen.value(key), text, key)));
            seen.insert(key, text);
        }
        QVERIFY(seen.size() >= 8);
    }

    // Issue 35: the user guide's shortcut table said Ctrl+Shift+C copies the entry's flags where the F1 list (read
    // from the code) says Copy path. Each "KEY what it does" of the guide's table is a shortcut of that page (or of
    // every page) in the F1 list, and says what the list says (a word of the list's name, up to its stem).
    void userGuideShortcutsAreTheF1List()
    {
        MainWindow w;
        const QList<ShortcutEntry> entries = w.shortcutEntries();
        const QString guide = QString::fromUtf8(test::readFile(QStringLiteral(INGOT_SOURCE_DIR "/docs/user-guide.md")));
        const qsizetype table = guide.indexOf(QStringLiteral("| Where | Keys |"));
        QVERIFY(table >= 0);
        const auto stems = [](const QString &text) {
            QSet<QString> out;
            for (const QString &word : text.toLower().split(QRegularExpression(QStringLiteral("[^a-z]+")), Qt::SkipEmptyParts))
                if (word.size() >= 4)
                    out.insert(word.left(4));
            return out;
        };
        static const QRegularExpression keyFirst(QStringLiteral("^((?:Ctrl\\+|Shift\\+|Alt\\+)*(?:F\\d+|Delete|Esc|[A-Z0-9,]))\\s+([^…].*)$"));
        int checked = 0;
        for (const QString &line : guide.mid(table).split(QLatin1Char('\n')).mid(2)) {
            if (!line.startsWith(QLatin1Char('|')))
                break;
            const QStringList cells = line.split(QLatin1Char('|'));
            const QString group = cells.value(1).trimmed();
            for (const QString &piece : cells.value(2).split(QLatin1Char(';'))) {
                const QRegularExpressionMatch m = keyFirst.match(piece.trimmed());
                if (!m.hasMatch())
                    continue;
                const QKeySequence key(m.captured(1));
                bool found = false;
                QStringList names;
                for (const ShortcutEntry &e : entries) {
                    if (!e.keys.contains(key) || (e.group != group && e.group != QStringLiteral("Everywhere")))
                        continue;
                    names << e.name;
                    found = found || stems(e.name).intersects(stems(m.captured(2)));
                }
                QVERIFY2(found, qPrintable(QStringLiteral("%1: the guide says \"%2\", the F1 list \"%3\"")
                                               .arg(group, piece.trimmed(), names.join(QStringLiteral("\", \"")))));
                ++checked;
            }
        }
        QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));
    }

    void chineseTranslationIsBuiltIn()
    {
        QTranslator tr;
        QVERIFY(tr.load(QStringLiteral(":/i18n/ingot_zh_CN.qm")));
        QApplication::installTranslator(&tr);
        {
            MainWindow w;
            QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
            QCOMPARE(w.navigation()->item(0)->text(), QStringLiteral("本地缓存"));
        }
        QApplication::removeTranslator(&tr);
    }

    void settingsDialogSavesPrunePolicy()
    {
        SettingsDialog dlg;
        dlg.ttlSpin()->setValue(12);
        dlg.accept();
        QCOMPARE(AppSettings::ttlDays(), 12);
        AppSettings::setTtlDays(30);
    }

    // Tab follows the dialog as it reads: Language, Appearance, then Restart now, OK and Cancel at the bottom (Restart
    // now came after Cancel).
    void settingsTabOrderFollowsTheLayout()
    {
        SettingsDialog dlg;
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        QApplication::setActiveWindow(&dlg);
        QComboBox *language = dlg.languageCombo();
        language->setCurrentIndex(language->currentIndex() == 1 ? 2 : 1);  // another language: Restart now is on
        QVERIFY(dlg.restartButton()->isEnabled());
        auto *buttons = dlg.findChild<QDialogButtonBox *>();
        QVERIFY(buttons);
        QVERIFY(buttons->isAncestorOf(dlg.restartButton()));
        const QList<QWidget *> expected{language, dlg.appearanceCombo(), dlg.restartButton(),
                                        buttons->button(QDialogButtonBox::Ok), buttons->button(QDialogButtonBox::Cancel)};
        language->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(language->hasFocus());
        for (qsizetype i = 1; i < expected.size(); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QVERIFY2(expected[i]->hasFocus(), qPrintable(QStringLiteral("step %1: %2 has the focus").arg(i).arg(
                QApplication::focusWidget() ? QString::fromLatin1(QApplication::focusWidget()->metaObject()->className())
                                                  + QLatin1Char(' ') + QApplication::focusWidget()->objectName()
                                            : QStringLiteral("nothing"))));
        }
        for (qsizetype i = expected.size() - 2; i >= 0; --i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ShiftModifier);
            QVERIFY2(expected[i]->hasFocus(), qPrintable(QStringLiteral("back to %1").arg(i)));
        }
        dlg.reject();
    }

    // Explain's advice names menu items that exist, as they are written (it named "Local cache → Clean failed").
    void explainNamesRealMenuItems()
    {
        MainWindow w;
        auto plain = [](QString t) { return t.remove(QLatin1Char('&')).trimmed(); };
        QHash<QString, QStringList> menus;  // a menu's title: its items
        for (QAction *m : w.menuBar()->actions())
            if (m->menu())
                for (QAction *a : m->menu()->actions())
                    menus[plain(m->text())] << plain(a->text());
        Explanation failed;
        failed.verdict = Verdict::Blocked;
        failed.state = ModuleState::Failed;
        Explanation locked = failed;
        locked.state = ModuleState::Locked;
        static const QRegularExpression named(QStringLiteral("\\(([^()\u2192]+) \u2192 ([^,()]+),"));
        for (const Explanation &e : {failed, locked}) {
            const QRegularExpressionMatch m = named.match(e.fix());
            QVERIFY2(m.hasMatch(), qPrintable(e.fix()));
            QVERIFY2(menus.value(m.captured(1)).contains(m.captured(2)),
                     qPrintable(QStringLiteral("%1 \u2192 %2 is no menu item; the %1 menu has: %3")
                                    .arg(m.captured(1), m.captured(2), menus.value(m.captured(1)).join(QStringLiteral(" | ")))));
        }
    }

    // A flag in wrapping text is never cut at its hyphens ("--" on one line, "enable-saturate-infinity" on the next),
    // and what is copied is the flag as written.
    void flagsAreNeverCutAtTheirHyphens()
    {
        const QString text = QStringLiteral("Flags of this key: --model-type=transformer --enable-saturate-infinity -O1");
        const QFontMetrics fm(QApplication::font());
        const int widest = std::max(fm.horizontalAdvance(QStringLiteral("--model-type=transformer ")),
                                    fm.horizontalAdvance(QStringLiteral("--enable-saturate-infinity ")));
        // The lines wrapping makes of `shown` at `width` (as a wrapping label lays its text out), as written.
        auto cuts = [](const QString &shown, int width) {
            QTextDocument d;
            d.setDefaultFont(QApplication::font());
            d.setPlainText(shown);
            d.setTextWidth(width);
            (void)d.size();
            int n = 0;
            for (QTextBlock b = d.begin(); b.isValid(); b = b.next())
                for (int i = 0; i < b.layout()->lineCount(); ++i) {
                    const QTextLine line = b.layout()->lineAt(i);
                    n += flagsAsWritten(b.text().mid(line.textStart(), line.textLength())).trimmed().endsWith(QLatin1Char('-'));
                }
            return n;
        };
        int cutBefore = 0, cutNow = 0;
        for (int width = widest + 20; width <= 3 * widest; width += 3) {
            cutBefore += cuts(text, width);
            cutNow += cuts(keepFlagsWhole(text), width);
        }
        QVERIFY(cutBefore > 0);  // Qt does cut flags at their hyphens
        QCOMPARE(cutNow, 0);
        QCOMPARE(flagsAsWritten(keepFlagsWhole(text)), text);
        QLabel label(keepFlagsWhole(text));
        label.setWordWrap(true);
        label.setTextInteractionFlags(Qt::TextSelectableByMouse);
        copyFlagsAsWritten(&label);
        label.show();
        QVERIFY(QTest::qWaitForWindowExposed(&label));
        label.setSelection(0, int(label.text().size()));
        QApplication::clipboard()->clear();
        QTest::keySequence(&label, QKeySequence::Copy);
        QCOMPARE(QApplication::clipboard()->text(), text);
    }

    // The status bar speaks for the page shown: a Hub error stayed on every other page.
    void statusMessagesStayWithTheirPage()
    {
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub page asks nobody
        {
            MainWindow w;
            w.resize(1280, 820);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            HubCachePage *hub = w.hubCachePage();
            QSignalSpy ready(hub, &HubCachePage::ready);
            w.navigation()->setCurrentRow(1);
            QVERIFY(ready.wait(10000));
            const QString error = QStringLiteral("Could not reach https://huggingface.co");
            Q_EMIT hub->statusChanged(error, false);
            QCOMPARE(w.statusText()->text(), error);
            w.navigation()->setCurrentRow(2);
            QVERIFY2(w.statusText()->text() != error, qPrintable(w.statusText()->text()));
            w.navigation()->setCurrentRow(1);
            QCOMPARE(w.statusText()->text(), error);
        }
        qunsetenv("HF_HUB_OFFLINE");
    }

    // The caches this environment gives the runtimes, the three formats, with why.
    void settingsDialogShowsTheCacheFormats()
    {
        qputenv("VLLM_CACHE_ROOT", "/data/vllm-root");
        qputenv("TORCH_NEURONX_NEFF_CACHE_DIR", "/data/neff-cache");
        qputenv("NEURON_LIBTORCH_REMOTE_CACHE", "/mnt/fsx/neuron-cache");
        qputenv("NEURON_COMPILE_CACHE_URL", "s3://team-cache/neuron");
        SettingsDialog dlg;
        const QString text = dlg.cachesText();
        qunsetenv("VLLM_CACHE_ROOT");
        qunsetenv("NEURON_LIBTORCH_REMOTE_CACHE");
        qunsetenv("NEURON_COMPILE_CACHE_URL");
        qunsetenv("TORCH_NEURONX_NEFF_CACHE_DIR");
        QVERIFY2(text.contains(QLatin1String("/data/vllm-root/neuron/compile_cache")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("TorchNeuron NEFF cache")) && text.contains(QLatin1String("/data/neff-cache"))
                     && text.contains(QLatin1String("TORCH_NEURONX_NEFF_CACHE_DIR is set")),
                 qPrintable(text));
        QVERIFY(text.contains(QLatin1String("/mnt/fsx/neuron-cache")));
        QVERIFY(text.contains(QLatin1String("s3://team-cache/neuron")));
        dlg.resize(600, 900);
        dlg.show();
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(dlg.grab().save(shots + QStringLiteral("/settings-caches.png")));
    }

    void screenshotWithSampleCache()
    {
        // The README's picture: the sample cache, a failed entry selected so the details show its log.
        QTemporaryDir tmp;
        SampleCacheOptions o;
        o.modules = 60;
        o.seed = 7;
        const QString root = tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        QString error;
        QVERIFY(writeSampleCache(root, o, nullptr, &error));
        MainWindow w;
        w.resize(1400, 900);
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = root;  // as if it were the Neuron default on this machine
        AppSettings::setCurrentRoot(QString());
        LocalCachePage *page = w.localCachePage();
        QSignalSpy done(page->session(), &CacheSession::scanFinished);
        w.start(loc);
        QVERIFY(done.wait(20000));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!page->showsEmptyState());
        page->view()->expandAll();
        // Select the first failed entry.
        CacheTreeModel *m = page->model();
        const QModelIndex failed = test::firstChildWith(m, CacheTreeModel::StateRole, int(ModuleState::Failed));
        QVERIFY(failed.isValid());
        const QModelIndex pi = page->proxy()->mapFromSource(failed);
        QSignalSpy loaded(page->details(), &ModuleDetailsPane::detailsLoaded);
        page->view()->setCurrentIndex(pi);
        page->view()->scrollTo(pi);
        QVERIFY(loaded.wait(10000));  // the log tail is in the picture
        QTRY_VERIFY(w.statusText()->text().contains(QStringLiteral("entries scanned")));
        test::deliverPostedEvents();  // the details' layout takes in what arrived (posted layout requests)
        const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(dir);
        const QString file = dir + QStringLiteral("/main-window.png");
        const QImage img = w.grab().toImage();
        QVERIFY(img.save(file));
        QVERIFY(QFileInfo(file).size() > 10000);
        qInfo("screenshot: %s", qPrintable(file));
    }

    // Issue 21: at the default 1280x820 window the files table's scrollbar covered the "Compile flags" heading, and
    // selecting an entry grew the window to 859 px. Every entry of a sample cache (failed ones with logs, flags,
    // links, warnings, items that are not modules) is selected in turn: the window keeps its size and nothing in
    // the details overlaps.
    void selectingEntriesNeverResizesTheWindow()
    {
        QTemporaryDir tmp;
        SampleCacheOptions o;
        o.modules = 30;
        o.seed = 7;
        const QString root = tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        QString error;
        QVERIFY(writeSampleCache(root, o, nullptr, &error));
        MainWindow w;
        w.resize(1280, 820);
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = root;
        AppSettings::setCurrentRoot(QString());
        LocalCachePage *page = w.localCachePage();
        QSignalSpy done(page->session(), &CacheSession::scanFinished);
        w.start(loc);
        QVERIFY(done.wait(20000));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        page->view()->expandAll();
        QApplication::processEvents();
        const QSize size = w.size();
        QCOMPARE(size, QSize(1280, 820));
        ModuleDetailsPane *details = page->details();
        QAbstractItemModel *proxy = page->view()->model();
        int shown = 0;
        for (int g = 0; g < proxy->rowCount(); ++g)
            for (int r = 0; r < proxy->rowCount(proxy->index(g, 0)); ++r) {
                const QModelIndex i = proxy->index(r, 0, proxy->index(g, 0));
                const bool module = i.data(CacheTreeModel::StateRole).toInt() != int(ModuleState::Unknown);
                QSignalSpy loaded(details, &ModuleDetailsPane::detailsLoaded);
                page->view()->setCurrentIndex(i);
                if (module)
                    QVERIFY(loaded.wait(10000));
                QApplication::processEvents();
                const QString what = i.data().toString();
                QVERIFY2(w.size() == size, qPrintable(QStringLiteral("%1: the window is %2x%3").arg(what).arg(w.width()).arg(w.height())));
                // The parts of the details, top to bottom, each below the one before.
                QList<QWidget *> parts{details->filesView()};
                for (QGroupBox *box : details->findChildren<QGroupBox *>())
                    parts << box;
                int bottom = -1;
                for (QWidget *part : std::as_const(parts)) {
                    if (!part->isVisible())
                        continue;
                    QVERIFY2(part->geometry().top() > bottom, qPrintable(QStringLiteral("%1: %2 overlaps what is above it").arg(what, QString::fromLatin1(part->metaObject()->className()))));
                    // Not squeezed under the height it asks for (its minimum size where set, as layouts read it).
                    const int needs = part->minimumHeight() > 0 ? part->minimumHeight() : part->minimumSizeHint().height();
                    QVERIFY2(part->height() >= needs, qPrintable(what));
                    bottom = part->geometry().bottom();
                }
                if (shown++ == 0 || i.data(CacheTreeModel::StateRole).toInt() == int(ModuleState::Failed)) {
                    const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
                    QDir().mkpath(dir);
                    QVERIFY(w.grab().save(dir + QStringLiteral("/default-size-details.png")));
                }
            }
        QVERIFY(shown > 30);
    }

    void launcherCleanOpensThePreviewedMaintenance()
    {
        // The launcher warns about FAILED entries in the job's compile cache; "Clean…" opens the Local cache page's
        // preview of that cache (another one than the page had open), and nothing is removed without a confirm.
        QTemporaryDir tmp;
        const QString other = tmp.path() + QStringLiteral("/other-cache");
        test::makeModule(other, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_1+2"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.log")});
        test::makeModule(other, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_3+4"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff")});
        MainWindow w;
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = tmp.path() + QStringLiteral("/first-cache");
        QDir().mkpath(loc.path);
        QSignalSpy first(w.localCachePage()->session(), &CacheSession::scanFinished);
        w.start(loc);
        QVERIFY(first.wait(20000));
        auto *launcher = w.findChild<JobLauncher *>();
        QVERIFY(launcher);
        QCOMPARE(w.cleanCompileCache(other), nullptr);  // opens the other cache first
        MaintenanceDialog *dlg = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dlg = w.findChild<MaintenanceDialog *>()) != nullptr, 20000);
        QCOMPARE(w.localCachePage()->currentRoot(), other);
        QCOMPARE(dlg->plan().action, MaintenanceAction::CleanFailed);
        QCOMPARE(dlg->plan().entryCount(), 1);
        QCOMPARE(dlg->plan().items.first().name, QStringLiteral("MODULE_1+2"));
        QVERIFY(!dlg->hasRun());
        QVERIFY(QFileInfo::exists(other + QStringLiteral("/neuronxcc-2.15.128.0+56dc5a86/MODULE_1+2/model.log")));
        dlg->reject();
    }

    void jobsPageAtTheDefaultSize()
    {
        // The Jobs page in a 1280×820 window with no job yet: what to do, and a history with room for rows.
        MainWindow w;
        w.resize(1280, 820);
        w.navigation()->setCurrentRow(2);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        JobsPage *jobs = w.jobsPage();
        QCOMPARE(jobs->detailStack()->currentWidget(), jobs->emptyState());
        QTableView *view = jobs->historyView();
        QVERIFY2(view->viewport()->height() >= 7 * view->verticalHeader()->defaultSectionSize(),
                 qPrintable(QString::number(view->viewport()->height())));
        const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QVERIFY(w.grab().toImage().save(dir + QStringLiteral("/jobs-page-empty.png")));
    }

    void emptyStateOnFirstStart()
    {
        QTemporaryDir tmp;
        MainWindow w;
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = tmp.path() + QStringLiteral("/no-cache-here");
        AppSettings::setCurrentRoot(QString());
        QSignalSpy done(w.localCachePage()->session(), &CacheSession::scanFinished);
        w.start(loc);
        QVERIFY(done.wait(10000));
        w.resize(1100, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.localCachePage()->showsEmptyState());
        const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QVERIFY(w.grab().toImage().save(dir + QStringLiteral("/empty-state.png")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
