// The Local cache page's small widgets on their own: the empty state, the compiler-version picker, the charts,
// the maintenance preview, and the settings dialog.
#include "services/cache/cachestats.h"
#include "services/util/appsettings.h"
#include "services/util/format.h"
#include "ui/localcache/cachechartswidget.h"
#include "ui/localcache/emptystatewidget.h"
#include "ui/localcache/maintenancedialog.h"
#include "ui/localcache/versionpickerdialog.h"
#include "tests/support/testsupport.h"
#include "ui/shell/settingsdialog.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTreeWidget>
#include <QValueAxis>

using namespace ingot;

namespace {
void shot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(dir + QLatin1Char('/') + name));
}

VersionStats version(const char *name, qint64 size)
{
    VersionStats v;
    v.version = QString::fromLatin1(name);
    v.size = size;
    v.entries = 1;
    return v;
}

QBarSet *barsOf(QChart *chart)
{
    auto *series = qobject_cast<QBarSeries *>(chart->series().value(0));
    return series && !series->barSets().isEmpty() ? series->barSets().first() : nullptr;
}

QStringList categoriesOf(QChart *chart)
{
    for (QAbstractAxis *a : chart->axes(Qt::Horizontal))
        if (auto *c = qobject_cast<QBarCategoryAxis *>(a))
            return c->categories();
    return {};
}
}  // namespace

class TestLocalCacheWidgets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-localcachewidgets"));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));  // "28.60 GiB"
    }

    void emptyStateButtonsAskForTheirAction()
    {
        EmptyStateWidget w;
        w.setMessage(QStringLiteral("No cache here"), QStringLiteral("Looked in /var/tmp"));
        w.show();
        QVERIFY(w.findChildren<QLabel *>().size() >= 2);
        bool titleShown = false, detailsShown = false;
        for (QLabel *l : w.findChildren<QLabel *>()) {
            titleShown = titleShown || l->text() == QLatin1String("No cache here");
            detailsShown = detailsShown || l->text().contains(QLatin1String("/var/tmp"));
        }
        QVERIFY(titleShown && detailsShown);
        QSignalSpy add(&w, &EmptyStateWidget::addFolderRequested);
        QSignalSpy sample(&w, &EmptyStateWidget::sampleRequested);
        QSignalSpy retry(&w, &EmptyStateWidget::retryRequested);
        QTest::mouseClick(w.sampleButton(), Qt::LeftButton);
        QCOMPARE(sample.size(), 1);
        QCOMPARE(add.size(), 0);
        QTest::mouseClick(w.addFolderButton(), Qt::LeftButton);
        QTest::mouseClick(w.retryButton(), Qt::LeftButton);
        QCOMPARE(add.size(), 1);
        QCOMPARE(retry.size(), 1);
    }

    void versionPickerKeepsTheNewestByDefault()
    {
        const QVector<VersionStats> versions{version("neuronxcc-2.15.128.0+56dc5a86", 10),
                                             version("neuronxcc-2.14.1.0+aaaaaaaa", 20),
                                             version("neuronxcc-2.12.68.0+4480452af", 30)};
        VersionPickerDialog fresh(versions, {});
        QCOMPARE(fresh.list()->count(), 3);
        QCOMPARE(fresh.keptVersions(), QStringList{QStringLiteral("neuronxcc-2.15.128.0+56dc5a86")});
        // What was kept last time is kept again; a remembered version that no longer exists is ignored.
        VersionPickerDialog remembered(versions, {QStringLiteral("neuronxcc-2.14.1.0+aaaaaaaa"), QStringLiteral("neuronxcc-2.1.0.0")});
        QCOMPARE(remembered.keptVersions(), QStringList{QStringLiteral("neuronxcc-2.14.1.0+aaaaaaaa")});
        remembered.list()->item(2)->setCheckState(Qt::Checked);
        QCOMPARE(remembered.keptVersions().size(), 2);
    }

    void chartsShowSizesAndAges()
    {
        CacheStats s;
        s.versions = {version("neuronxcc-2.15.128.0+56dc5a86", qint64(3) << 30),
                      version("neuronxcc-2.12.68.0+4480452af", qint64(1536) << 20)};
        s.ageEntries = {4, 0, 2, 0, 1};
        CacheChartsWidget w;
        w.setStats(s);
        QBarSet *sizes = barsOf(w.sizeChart());
        QVERIFY(sizes);
        QCOMPARE(sizes->count(), 2);
        // Oldest compiler on the left, one unit (GiB, as the sizes everywhere) for every bar.
        QCOMPARE(categoriesOf(w.sizeChart()), (QStringList{QStringLiteral("2.12.68.0"), QStringLiteral("2.15.128.0")}));
        QCOMPARE(sizes->at(0), 1.5);
        QCOMPARE(sizes->at(1), 3.0);
        QBarSet *ages = barsOf(w.ageChart());
        QVERIFY(ages);
        QCOMPARE(ages->count(), CacheStats::AgeBucketCount);
        QCOMPARE(ages->at(0), 4.0);
        QCOMPARE(ages->at(4), 1.0);
        // New numbers replace the old bars instead of adding series.
        s.versions.removeLast();
        w.setStats(s);
        QCOMPARE(w.sizeChart()->series().size(), 1);
        QCOMPARE(barsOf(w.sizeChart())->count(), 1);
    }

    // Issue 21: the compiler versions under the size chart read "2.12.6…"; labels that do not fit their bar turn to
    // run upwards, where they are whole.
    void chartLabelsThatDoNotFitAreTurned()
    {
        CacheStats s;
        for (const char *v : {"neuronxcc-2.12.68.0+4480452af", "neuronxcc-2.13.66.0+6dfecc895", "neuronxcc-2.14.227.0+2d4f85be",
                              "neuronxcc-2.15.128.0+56dc5a86", "neuronxcc-2.16.372.0+4a9b2326"})
            s.versions.prepend(version(v, qint64(2) * 1000 * 1000 * 1000));
        CacheChartsWidget w;
        w.setStats(s);
        w.resize(1200, 260);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto labelsAngle = [&] {
            for (QAbstractAxis *a : w.sizeChart()->axes(Qt::Horizontal))
                return a->labelsAngle();
            return -1;
        };
        QTRY_COMPARE(labelsAngle(), 0);  // 1200 px: room for every version
        w.resize(520, 260);
        QTRY_VERIFY(labelsAngle() != 0);
        QApplication::processEvents();
        shot(&w, QStringLiteral("charts-narrow.png"));
        QCOMPARE(categoriesOf(w.sizeChart()).first(), QStringLiteral("2.12.68.0"));  // whole, never cut
        w.resize(1200, 260);
        QTRY_COMPARE(labelsAngle(), 0);
    }

    // Issue 21: "the cache goes from 30.7 GB to 30.7 GB"; the Entry and Why columns always cut; locked entries
    // without a size.
    void previewSaysWhatGoesPrecisely()
    {
        const QString longKey = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_10342178905512345678+4fb1a2c3d4e5f607");
        MaintenancePlan plan;
        plan.action = MaintenanceAction::Prune;
        PlanItem it;
        it.key = longKey;
        it.bytes = it.size = 12'300'000;
        it.state = ModuleState::Success;
        it.reason = QStringLiteral("Least recently used while the cache is over 30.0 GB, and a reason long enough to be cut in the middle of the column.");
        plan.items << it;
        plan.bytes = it.bytes;
        plan.cacheBytesBefore = 30'710'000'000;
        plan.cacheBytesAfter = plan.cacheBytesBefore - plan.bytes;
        plan.kept.append({QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_9+aa"), QStringLiteral("LOCKED"), 5'000'000'000});
        MaintenanceDialog dlg(plan, StoreLocation::local(QStringLiteral("/nonexistent")));
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        const QString summary = dlg.summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("11.7 MiB")) && summary.contains(QStringLiteral("28.60 GiB"))
                     && summary.contains(QStringLiteral("28.59 GiB")), qPrintable(summary));
        QTreeWidget *items = dlg.itemsView();
        QCOMPARE(items->textElideMode(), Qt::ElideMiddle);
        QCOMPARE(items->topLevelItem(0)->toolTip(0), longKey);
        QCOMPARE(items->topLevelItem(0)->toolTip(4), it.reason);
        for (int c = 0; c < items->columnCount() - 1; ++c)
            QCOMPARE(items->header()->sectionResizeMode(c), QHeaderView::Interactive);
        for (int c : {1, 2, 3})  // state, size, last used: whole
            QVERIFY2(items->columnWidth(c) >= items->header()->sectionSizeHint(c)
                         && items->columnWidth(c) >= static_cast<QAbstractItemView *>(items)->sizeHintForColumn(c), qPrintable(QString::number(c)));
        QVERIFY(items->columnWidth(0) > 300);
        shot(&dlg, QStringLiteral("preview-columns.png"));
        QTreeWidget *kept = dlg.keptView();
        QCOMPARE(kept->topLevelItem(0)->text(1), QStringLiteral("4.7 GiB"));
        QCOMPARE(kept->topLevelItem(0)->toolTip(0), QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_9+aa"));
        // A few bytes of a large cache: what goes, and the size it comes from.
        plan.items[0].bytes = plan.bytes = 1000;
        plan.cacheBytesAfter = plan.cacheBytesBefore - plan.bytes;
        MaintenanceDialog tiny(plan, StoreLocation::local(QStringLiteral("/nonexistent")));
        QVERIFY2(tiny.summaryLabel()->text().contains(QStringLiteral("freeing %1 of the cache's 28.6 GiB").arg(formatBytes(1000))),
                 qPrintable(tiny.summaryLabel()->text()));

        // Clearing locks: each locked entry with its size.
        CacheModule locked;
        locked.version = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        locked.name = QStringLiteral("MODULE_1+aa");
        locked.state = ModuleState::Locked;
        locked.size = 7'000'000;
        CacheFile lock;
        lock.name = QStringLiteral("model.hlo_module.pb.lock");
        locked.files << lock;
        const MaintenancePlan locks = planClearLocks({locked}, RunningCompilers{});
        QCOMPARE(locks.bytes, 0);  // removing locks frees nothing
        MaintenanceDialog clear(locks, StoreLocation::local(QStringLiteral("/nonexistent")));
        QCOMPARE(clear.itemsView()->topLevelItem(0)->text(2), QStringLiteral("6.7 MiB"));
    }

    void chartsWithoutDataShowNoTicks()
    {
        // While a scan has found nothing yet: no "1 1 1 0 0 0" ticks for the empty 0..1 range. With data, labels
        // that differ from tick to tick, whatever the range.
        CacheChartsWidget w;
        w.setStats(CacheStats());
        for (QChart *chart : {w.sizeChart(), w.ageChart()}) {
            auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
            QVERIFY(y);
            QVERIFY(!y->labelsVisible());
            QVERIFY(!y->isTitleVisible());  // no unit squeezed into "⋮" beside an empty axis
        }
        w.resize(700, 260);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(w.grab().save(shots + QStringLiteral("/cache-charts-empty.png")));
        CacheStats s;
        s.ageEntries = {1, 0, 0, 0, 0};
        s.versions = {version("neuronxcc-2.15.128.0+56dc5a86", qint64(400) * 1000)};  // 0.4 MB
        w.setStats(s);
        for (QChart *chart : {w.sizeChart(), w.ageChart()}) {
            auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
            QVERIFY(y);
            QVERIFY(y->labelsVisible());
            QVERIFY(y->isTitleVisible());
            QStringList labels;
            const double step = (y->max() - y->min()) / (y->tickCount() - 1);
            for (int i = 0; i < y->tickCount(); ++i)
                labels << QString::asprintf(qPrintable(y->labelFormat()), y->min() + i * step);
            QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        }
    }

    void settingsDialogSavesOnlyOnOk()
    {
        AppSettings::setTtlDays(30);
        AppSettings::setWatchForChanges(true);
        AppSettings::setCacheRoots({QStringLiteral("/a"), QStringLiteral("/b")});
        {
            SettingsDialog d;
            QCOMPARE(d.ttlSpin()->value(), 30);
            d.ttlSpin()->setValue(7);
            d.reject();
        }
        QCOMPARE(AppSettings::ttlDays(), 30);
        SettingsDialog d;
        d.ttlSpin()->setValue(7);
        d.sizeSpin()->setValue(250);
        d.watchCheck()->setChecked(false);
        auto *roots = d.findChild<QListWidget *>();
        QVERIFY(roots);
        QCOMPARE(roots->count(), 2);
        roots->item(0)->setSelected(true);
        QPushButton *forget = nullptr;
        for (QPushButton *b : d.findChildren<QPushButton *>())
            if (b->text().contains(QStringLiteral("Forget")))
                forget = b;
        QVERIFY(forget);
        QTest::mouseClick(forget, Qt::LeftButton);
        d.accept();
        QCOMPARE(AppSettings::ttlDays(), 7);
        QCOMPARE(AppSettings::maxCacheBytes(), qint64(250) * 1000 * 1000 * 1000);
        QVERIFY(!AppSettings::watchForChanges());
        QCOMPARE(AppSettings::cacheRoots(), QStringList{QStringLiteral("/b")});

        // The ssh config file: a path that is no file keeps the dialog open and the setting as it was.
        const QString before = AppSettings::sshConfigFile();
        SettingsDialog s;
        s.sshConfigEdit()->setText(QStringLiteral("/nonexistent/ssh_config"));
        s.accept();
        QCOMPARE(s.result(), int(QDialog::Rejected));
        QCOMPARE(AppSettings::sshConfigFile(), before);
        QTemporaryDir dir;
        const QString file = dir.path() + QStringLiteral("/ssh_config");
        test::writeFile(file, "Host x\n  HostName 127.0.0.1\n");
        s.sshConfigEdit()->setText(file);
        s.accept();
        QCOMPARE(s.result(), int(QDialog::Accepted));
        QCOMPARE(AppSettings::sshConfigFile(), file);
        AppSettings::setSshConfigFile(before);
    }
};

QTEST_MAIN(TestLocalCacheWidgets)
#include "tst_localcachewidgets.moc"
