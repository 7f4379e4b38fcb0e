// The Fleet page's policy actions (FleetGcPanel), driven like a user would: the chosen policy previewed on several
// places at once (each place's plan, what stays and why, places a policy does not apply to or that cannot be read
// said as such, the total), then Apply removes exactly what was previewed (never a locked entry) and logs the run;
// "Run this policy every day" writes the policy's timer and takes it away again.
#include "services/cache/cachepolicy.h"
#include "services/fleet/fleetplaces.h"
#include "services/fleet/gclog.h"
#include "services/fleet/gcschedule.h"
#include "tests/support/testsupport.h"
#include "ui/fleet/fleetgcpanel.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace ingot;

namespace {

const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QStringList OK = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
const QStringList FAILED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};
const QStringList FAILED_LOCKED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.log"), QStringLiteral("model.hlo_module.pb.lock")};

FleetPlace placeOf(const QString &spec)
{
    QString error;
    return fleetPlaceFor(spec, &error).value_or(FleetPlace());
}

bool has(const QString &root, const QString &name)
{
    return QFileInfo::exists(root + QLatin1Char('/') + V15 + QLatin1Char('/') + name);
}

}  // namespace

class TestFleetGcPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-fleetgcpanel"));
        qputenv("INGOT_GC_LOG", QFile::encodeName(m_tmp.path() + QStringLiteral("/gc.log")));
        CachePolicy p;
        p.name = QStringLiteral("no-failed");
        p.removeFailed = true;
        p.unusedDays = 30;
        savePolicy(p);
    }

    void previewThenApplyOnEveryPlace()
    {
        const QString a = m_tmp.path() + QStringLiteral("/a"), b = m_tmp.path() + QStringLiteral("/b");
        test::makeModule(a, V15, QStringLiteral("MODULE_1+a"), OK, 1);
        test::makeModule(a, V15, QStringLiteral("MODULE_2+a"), FAILED, 1);
        test::makeModule(a, V15, QStringLiteral("MODULE_3+a"), FAILED, 1);
        test::makeModule(a, V15, QStringLiteral("MODULE_4+a"), FAILED_LOCKED, 40);  // unused, but a compile holds it: kept
        test::makeModule(b, V15, QStringLiteral("MODULE_5+a"), FAILED, 1);
        const QVector<FleetPlace> places{placeOf(a), placeOf(b), placeOf(QStringLiteral("hub:neuronorg/team-cache")),
                                         placeOf(m_tmp.path() + QStringLiteral("/unplugged"))};
        FleetGcPanel panel([] { return QStringLiteral("no-failed"); });
        panel.setPlaces([places] { return places; });
        panel.resize(1000, 500);
        panel.show();
        QVERIFY(!panel.applyButton()->isEnabled());  // nothing previewed yet
        QSignalSpy previewed(&panel, &FleetGcPanel::previewed);
        QTest::mouseClick(panel.previewButton(), Qt::LeftButton);
        QVERIFY(previewed.wait(30000));
        QCOMPARE(panel.planView()->topLevelItemCount(), 4);
        QTreeWidgetItem *ra = panel.planView()->topLevelItem(0);
        QVERIFY2(ra->text(1).contains(QStringLiteral("2 entries")), qPrintable(ra->text(1)));
        QCOMPARE(ra->text(2), QStringLiteral("1 kept"));
        QStringList listed;
        for (int i = 0; i < ra->childCount(); ++i)
            listed << ra->child(i)->text(0) + QLatin1Char('|') + ra->child(i)->text(2);
        QVERIFY2(listed.contains(V15 + QStringLiteral("/MODULE_4+a|kept")), qPrintable(listed.join(QLatin1Char(' '))));
        QVERIFY(panel.planView()->topLevelItem(1)->text(1).contains(QStringLiteral("1 entry")));
        QVERIFY(panel.planView()->topLevelItem(2)->text(3).startsWith(QStringLiteral("policies do not apply")));
        QVERIFY(panel.planView()->topLevelItem(3)->text(3).startsWith(QStringLiteral("not reached")));
        QVERIFY2(panel.totalLabel()->text().contains(QStringLiteral("in 3 entries")), qPrintable(panel.totalLabel()->text()));
        QVERIFY(panel.totalLabel()->text().contains(QStringLiteral("1 not reached")));
        QVERIFY(has(a, QStringLiteral("MODULE_2+a")));  // a preview removes nothing
        QVERIFY(panel.applyButton()->isEnabled());

        QSignalSpy applied(&panel, &FleetGcPanel::applied);
        QTest::mouseClick(panel.applyButton(), Qt::LeftButton);
        QVERIFY(applied.wait(30000));
        QVERIFY(has(a, QStringLiteral("MODULE_1+a")));
        QVERIFY(!has(a, QStringLiteral("MODULE_2+a")));
        QVERIFY(!has(a, QStringLiteral("MODULE_3+a")));
        QVERIFY(has(a, QStringLiteral("MODULE_4+a")));
        QVERIFY(!has(b, QStringLiteral("MODULE_5+a")));
        QVERIFY2(panel.planView()->topLevelItem(0)->text(3).startsWith(QStringLiteral("2 removed")),
                 qPrintable(panel.planView()->topLevelItem(0)->text(3)));
        QVERIFY(panel.totalLabel()->text().startsWith(QStringLiteral("Done:")));
        QVERIFY(!panel.applyButton()->isEnabled());  // preview again before another run
        const QVector<GcRun> runs = readGcRuns(1);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().policy, QStringLiteral("no-failed"));
        QCOMPARE(runs.first().trigger, QStringLiteral("gui"));
        QCOMPARE(applied.first().first().value<GcRun>().summary(), runs.first().summary());
    }

    void runThisPolicyEveryDay()
    {
        // The ingot-cli the timer runs: this build's (found on PATH, as beside an installed ingot).
        qputenv("PATH", QFile::encodeName(QFileInfo(QStringLiteral(INGOT_CLI_PATH)).absolutePath()) + ':' + qgetenv("PATH"));
        FleetGcPanel panel([] { return QStringLiteral("no-failed"); });
        QSignalSpy changed(&panel, &FleetGcPanel::scheduleChanged);
        panel.show();
        QVERIFY(changed.wait(30000));  // read on first show
        QVERIFY(!panel.dailyBox()->isChecked());
        QTest::mouseClick(panel.dailyBox(), Qt::LeftButton);
        QVERIFY(changed.wait(30000));
        const QString timer = scheduleUnitDir() + QLatin1Char('/') + scheduleUnitName(QStringLiteral("no-failed")) + QStringLiteral(".timer");
        QVERIFY2(panel.dailyBox()->isChecked(), qPrintable(panel.scheduleLabel()->text()));
        QVERIFY(QFileInfo::exists(timer));
        QVERIFY(!panel.scheduleLabel()->text().isEmpty());
        QTest::mouseClick(panel.dailyBox(), Qt::LeftButton);
        QVERIFY(changed.wait(30000));
        QVERIFY(!panel.dailyBox()->isChecked());
        QVERIFY(!QFileInfo::exists(timer));
    }
};

QTEST_MAIN(TestFleetGcPanel)
#include "tst_fleetgcpanel.moc"
