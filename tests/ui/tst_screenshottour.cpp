// A tour of the window as a user first sees it — every page at the default size with a sample cache, the Settings
// dialog and the consolidation wizard's first page — in the language of INGOT_LANGUAGE (ctest runs it in English
// and in Chinese). On each stop: no text is clipped (a wrapped label has the height its text needs, a one-line
// label and a button the width theirs needs). With INGOT_SCREENSHOT_DIR set it saves a picture of each stop
// (tests/tools/zh-screenshots.sh keeps the Chinese ones in docs/screenshots/zh_CN/).
#include "models/cache/cachetreemodel.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachesession.h"
#include "services/cache/samplecache.h"
#include "services/util/appsettings.h"
#include "tests/support/testsupport.h"
#include "ui/checkpoint/consolidatewizard.h"
#include "ui/fleet/fleetpage.h"
#include "ui/hub/hubcachepage.h"
#include "ui/jobs/joblauncher.h"
#include "ui/jobs/jobspage.h"
#include "ui/localcache/localcachepage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QAbstractButton>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ingot;

namespace {

QString describe(const QWidget *w, const QString &text)
{
    QString name = w->objectName();
    if (name.isEmpty())
        name = QString::fromLatin1(w->metaObject()->className());
    return QStringLiteral("%1 \"%2\" (%3x%4)").arg(name, text.left(60)).arg(w->width()).arg(w->height());
}

// Visible texts that do not fit the room their widget has.
QStringList clippedTexts(QWidget *root)
{
    QStringList out;
    const QList<QLabel *> labels = root->findChildren<QLabel *>();
    for (QLabel *l : labels) {
        if (!l->isVisibleTo(root) || l->text().trimmed().isEmpty() || l->pixmap().isNull() == false)
            continue;
        if (l->wordWrap()) {
            if (l->heightForWidth(l->width()) > l->height() + 1)
                out << QStringLiteral("wrapped label needs %1 px: ").arg(l->heightForWidth(l->width()))
                           + describe(l, l->text());
        } else if (l->textFormat() != Qt::RichText && !Qt::mightBeRichText(l->text())
                   && l->minimumSizeHint().width() > l->width() + 1) {
            out << QStringLiteral("label needs %1 px: ").arg(l->minimumSizeHint().width()) + describe(l, l->text());
        }
    }
    // Column headers read whole ("sequence length", not "equence length"); the last one may stretch.
    const QList<QHeaderView *> headers = root->findChildren<QHeaderView *>();
    for (QHeaderView *h : headers) {
        if (!h->isVisibleTo(root) || h->orientation() != Qt::Horizontal || !h->model())
            continue;
        const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
        for (int i = 0; i < h->count(); ++i) {
            const QString text = h->model()->headerData(i, Qt::Horizontal).toString();
            if (h->isSectionHidden(i) || text.isEmpty())
                continue;
            int needs = h->fontMetrics().horizontalAdvance(text) + 2 * margin;
            if (h->isSortIndicatorShown() && h->sortIndicatorSection() == i)
                needs += h->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, h) + margin;
            if (h->sectionSize(i) < needs)
                out << QStringLiteral("column header needs %1 px, has %2: ").arg(needs).arg(h->sectionSize(i)) + describe(h, text);
        }
    }
    const QList<QAbstractButton *> buttons = root->findChildren<QAbstractButton *>();
    for (QAbstractButton *b : buttons) {
        if (!b->isVisibleTo(root) || b->text().trimmed().isEmpty())
            continue;
        if (b->minimumSizeHint().width() > b->width() + 1)
            out << QStringLiteral("button needs %1 px: ").arg(b->minimumSizeHint().width()) + describe(b, b->text());
    }
    return out;
}

// A button drawn over a text it does not belong to (a label, a text box): what a squeezed layout does.
QStringList coveredTexts(QWidget *root)
{
    auto shown = [root](QWidget *w) {
        const QRect r = w->visibleRegion().boundingRect();
        return r.isEmpty() ? QRect() : QRect(w->mapTo(root, r.topLeft()), r.size());
    };
    QList<QWidget *> texts;
    for (QLabel *l : root->findChildren<QLabel *>())
        if (l->isVisibleTo(root) && !l->text().trimmed().isEmpty())
            texts << l;
    for (QPlainTextEdit *e : root->findChildren<QPlainTextEdit *>())
        if (e->isVisibleTo(root))
            texts << e;
    QStringList out;
    for (QAbstractButton *b : root->findChildren<QAbstractButton *>()) {
        const QRect button = b->isVisibleTo(root) ? shown(b) : QRect();
        if (button.isEmpty())
            continue;
        for (QWidget *t : std::as_const(texts)) {
            if (t->isAncestorOf(b) || b->isAncestorOf(t))
                continue;
            const QRect text = shown(t);
            if (button.intersects(text)) {
                const auto *label = qobject_cast<QLabel *>(t);
                out << QStringLiteral("%1 covers %2").arg(describe(b, b->text()),
                                                          describe(t, label ? label->text() : QStringLiteral("(text box)")));
            }
        }
    }
    return out;
}

void save(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w->grab().toImage().save(dir + QLatin1Char('/') + name);
}

}  // namespace

class TestScreenshotTour : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_root;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub page says so instead of trying huggingface.co
        QVERIFY(m_tmp.isValid());
        // In Chinese the window must really speak it (the translation is installed at start, as the app does).
        if (qEnvironmentVariable("INGOT_LANGUAGE").startsWith(QLatin1String("zh")))
            QVERIFY(QCoreApplication::translate("ingot::MainWindow", "Local cache") != QLatin1String("Local cache"));
        SampleCacheOptions o;
        o.modules = 40;
        o.seed = 11;
        m_root = m_tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        QString error;
        QVERIFY2(writeSampleCache(m_root, o, nullptr, &error), qPrintable(error));
        AppSettings::setCurrentRoot(QString());
        // The Fleet page finds this machine's cache as the Neuron tools do: the sample is it.
        qputenv("NEURON_CC_FLAGS", QByteArray("--cache_dir=") + QFile::encodeName(m_root));
        qputenv("VLLM_CACHE_ROOT", QFile::encodeName(m_tmp.path() + QStringLiteral("/vllm")));  // no TorchNeuron tier
    }

    void everyPageShowsItsTextsWhole()
    {
        MainWindow w;
        w.resize(1280, 820);  // the default size
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = m_root;
        LocalCachePage *cache = w.localCachePage();
        QSignalSpy done(cache->session(), &CacheSession::scanFinished);
        w.start(loc);
        QVERIFY(done.wait(20000));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        cache->view()->expandAll();
        const QStringList names{QStringLiteral("tour-cache.png"), QStringLiteral("tour-hub.png"),
                                QStringLiteral("tour-jobs.png"), QStringLiteral("tour-remote.png"),
                                QStringLiteral("tour-transfers.png"), QStringLiteral("tour-fleet.png")};
        for (int page = 0; page < names.size(); ++page) {
            QTest::keyClick(&w, Qt::Key(Qt::Key_1 + page), Qt::ControlModifier);
            test::deliverPostedEvents();
            if (names.at(page) == QLatin1String("tour-fleet.png"))  // its places read in the background
                QTRY_VERIFY_WITH_TIMEOUT(!w.fleetPage()->isReading(), 20000);
            const QStringList clipped = clippedTexts(&w);
            save(&w, names.at(page));
            QVERIFY2(clipped.isEmpty(), qPrintable(names.at(page) + QStringLiteral(": ") + clipped.join(QStringLiteral("\n  "))));
        }
        // The Hub page's Lookup tab, its table's headers.
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        HubCachePage *hub = w.hubCachePage();
        hub->tabs()->setCurrentWidget(hub->tabs()->widget(hub->tabs()->indexOf(hub->lookupView()->parentWidget())));
        QTRY_VERIFY(hub->lookupView()->isVisible());
        test::deliverPostedEvents();
        const QStringList clipped = clippedTexts(&w);
        save(&w, QStringLiteral("tour-hub-lookup.png"));
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QStringLiteral("\n  "))));
    }

    // The launcher at the default size (a new user's first job): nothing cut off, no button over a text (the Copy
    // buttons covered the command, the cache's warnings and "Per rank" were cut).
    void theLauncherShowsItsTextsWholeAndUncovered()
    {
        MainWindow w;
        w.resize(1280, 820);  // the default size
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        JobsPage *jobs = w.jobsPage();
        jobs->newJob();
        auto *launcher = qobject_cast<JobLauncher *>(jobs->launcher());
        QVERIFY(launcher && launcher->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!launcher->isBusy(), 60000);
        test::deliverPostedEvents();
        const QStringList problems = clippedTexts(&w) + coveredTexts(&w);
        save(&w, QStringLiteral("tour-jobs-launcher.png"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n  "))));
        // The command box has room for the command.
        QVERIFY(launcher->preview()->viewport()->height() >= 3 * launcher->preview()->fontMetrics().lineSpacing());
    }

    void theEmptyCachePageShowsItsTextsWhole()
    {
        QTemporaryDir none;
        MainWindow w;
        w.resize(1280, 800);
        CacheLocation loc = CacheLocation::resolve(QProcessEnvironment());
        loc.path = none.path() + QStringLiteral("/no-cache-yet");
        w.start(loc);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY(w.localCachePage()->showsEmptyState());
        test::deliverPostedEvents();
        const QStringList clipped = clippedTexts(&w);
        save(&w, QStringLiteral("tour-empty.png"));
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QStringLiteral("\n  "))));
    }

    void theSettingsDialogShowsItsTextsWhole()
    {
        SettingsDialog dlg;
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        const QStringList clipped = clippedTexts(&dlg);
        save(&dlg, QStringLiteral("tour-settings.png"));
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QStringLiteral("\n  "))));
    }

    void theWizardShowsItsTextsWhole()
    {
        ConsolidateWizard wiz{QString()};
        wiz.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wiz));
        test::deliverPostedEvents();
        const QStringList clipped = clippedTexts(&wiz);
        save(&wiz, QStringLiteral("tour-wizard.png"));
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QStringLiteral("\n  "))));
    }

    void theCheckFindsAClippedText()
    {
        // The check itself: a wrapped label squeezed under its text's height, a button narrower than its text.
        QWidget w;
        auto *label = new QLabel(QStringLiteral("A long explanation that has to wrap over several lines to be read whole."), &w);
        label->setWordWrap(true);
        label->setGeometry(0, 0, 120, 20);
        auto *button = new QPushButton(QStringLiteral("A button with a long text"), &w);
        button->setGeometry(0, 30, 40, 24);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QStringList clipped = clippedTexts(&w);
        QCOMPARE(clipped.size(), 2);
        label->setGeometry(0, 0, 120, label->heightForWidth(120));
        button->setGeometry(0, 30, button->minimumSizeHint().width(), 24);
        QVERIFY2(clippedTexts(&w).isEmpty(), qPrintable(clippedTexts(&w).join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestScreenshotTour)
#include "tst_screenshottour.moc"
