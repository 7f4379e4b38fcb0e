// The consolidation wizard driven offscreen: a full run from folder to summary (the output checked bit for bit by
// Python), a run cancelled half way (nothing left behind), a broken checkpoint that cannot go past Check, and the
// output field, whose folder is checked off the UI thread once typing rests and never from a stale answer.
#include "ui/checkpoint/consolidatewizard.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMutex>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

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
        QVERIFY(!w.button(QWizard::CommitButton)->isEnabled() || !w.button(QWizard::NextButton)->isEnabled());
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
            return ConsolidateWizard::OutputSpace{kPlenty, false};
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
                return ConsolidateWizard::OutputSpace{kPlenty, false};
            slowAsked = true;
            letSlowAnswer.acquire();
            slowAnswered = true;
            return ConsolidateWizard::OutputSpace{1, true};
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

    // Issue 10, item 5: with "replace" ticked, an output that holds the checkpoint (or lies inside its shards) went
    // on to the run, which deleted the shards. Next stays off, and the words say why.
    void outputThatHoldsTheCheckpointIsRefused()
    {
        const QString dir = tmp.path() + QStringLiteral("/holds");
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
        ConsolidateWizard w;
        w.setStorageProbe([](const QString &) { return ConsolidateWizard::OutputSpace{kPlenty, true}; });
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
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
    }
};

QTEST_MAIN(TestConsolidateWizard)
#include "tst_consolidatewizard.moc"
