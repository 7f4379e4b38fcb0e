// The consolidation wizard driven offscreen: a full run from folder to summary (the output checked bit for bit by
// Python), a run cancelled half way (nothing left behind), and a broken checkpoint that cannot go past Check.
#include "ui/checkpoint/consolidatewizard.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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
        QVERIFY(w.button(QWizard::NextButton)->isEnabled());  // there is room on the disk
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::RunPage));
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.first().first().toBool());
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled() || w.button(QWizard::CommitButton)->isEnabled());
        w.next();
        QCOMPARE(w.currentId(), int(ConsolidateWizard::SummaryPage));
        QVERIFY2(w.summaryLabel()->text().contains(QStringLiteral("Verified")), qPrintable(w.summaryLabel()->text()));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(w.grab().save(shots + QStringLiteral("/consolidate-wizard.png")));
        QVERIFY(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), dir + QStringLiteral("/consolidated")}));
        QVERIFY(ConsolidateWizard::recentFolders().contains(dir));
    }

    void cancelHalfWay()
    {
        const QString dir = tmp.path() + QStringLiteral("/big");
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, 48));
        ConsolidateWizard w;
        QCOMPARE(openAndCheck(w, dir), 0);
        w.next();
        // Cancel at the first progress report.
        connect(&w, &ConsolidateWizard::progressed, &w, [&w] { w.cancelRunButton()->click(); }, Qt::SingleShotConnection);
        QSignalSpy finished(&w, &ConsolidateWizard::runFinished);
        w.next();
        QVERIFY(finished.wait(60000));
        QVERIFY(!finished.first().first().toBool());
        QVERIFY(w.report().cancelled);
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/consolidated")));
        QVERIFY(noLeftovers(dir));
        QVERIFY(!w.button(QWizard::CommitButton)->isEnabled() || !w.button(QWizard::NextButton)->isEnabled());
    }

    void problemsStopAtCheck()
    {
        const QString dir = tmp.path() + QStringLiteral("/broken");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        QFile::remove(dir + QStringLiteral("/shards/done"));
        ConsolidateWizard w;
        QVERIFY(openAndCheck(w, dir) > 0);
        QVERIFY(w.problemList()->item(0)->text().contains(QStringLiteral("done")));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
    }
};

QTEST_MAIN(TestConsolidateWizard)
#include "tst_consolidatewizard.moc"
