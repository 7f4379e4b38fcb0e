// Desktop notifications against a real notification server: dunst under Xvfb on a private D-Bus session bus (no
// service activation: only the server the test starts answers). Real jobs (a Python script run by the job runner, the
// cheapest real job: it waits for a file of the test's, then exits or raises) finish and fail while the window is
// not in front; what dunst showed is read back with `dunstctl history` (summary, body, the Open action); the action
// is invoked with `dunstctl action` and the window comes to the front on the job; a kind turned off sends nothing; a
// later notification of the same target replaces the earlier one; a bus without a server gets nothing, said once.
#include "services/jobs/jobservice.h"
#include "services/notify/dbusnotifications.h"
#include "services/notify/eventnotifications.h"
#include "services/notify/notifier.h"
#include "services/hub/secretstore.h"
#include "services/transfer/transferengine.h"
#include "services/transfer/transferqueue.h"
#include "services/util/appsettings.h"
#include "tests/hub/privatebus.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testslurm.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/jobspage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"
#include "ui/transfers/transferspage.h"

#include <QApplication>
#include <QCheckBox>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace ingot;

namespace {

QString serverMissing()
{
    for (const char *p : {"dunst", "dunstctl", "Xvfb", "dbus-daemon"})
        if (QStandardPaths::findExecutable(QString::fromLatin1(p)).isEmpty())
            return QStringLiteral("%1 is not installed (packaging/install-deps.sh --test installs dunst, xvfb and dbus)")
                .arg(QString::fromLatin1(p));
    return {};
}

// What dunst showed, closed into its history: each notification's fields (dunstctl history's JSON, "data" of each).
QVector<QJsonObject> shownHistory()
{
    test::runProgram(QStringLiteral("dunstctl"), {QStringLiteral("close-all")}, 30000);
    const test::ProgramRun r = test::runProgram(QStringLiteral("dunstctl"), {QStringLiteral("history")}, 30000);
    QVector<QJsonObject> out;
    for (const QJsonValue &n : QJsonDocument::fromJson(r.out).object().value(QLatin1String("data")).toArray().at(0).toArray()) {
        QJsonObject flat;
        const QJsonObject o = n.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flat.insert(it.key(), it.value().toObject().value(QLatin1String("data")));
        out << flat;
    }
    return out;
}

// The log's "not shown" lines (ingot.notify), counted.
int saidNoServer = 0;
void countNoServer(QtMsgType, const QMessageLogContext &context, const QString &message)
{
    if (qstrcmp(context.category, "ingot.notify") == 0 && message.contains(QLatin1String("desktop notifications are not shown: nobody owns")))
        ++saidNoServer;
}

int displayedCount()
{
    const test::ProgramRun r = test::runProgram(QStringLiteral("dunstctl"), {QStringLiteral("count"), QStringLiteral("displayed")}, 30000);
    return r.code == 0 ? r.out.trimmed().toInt() : -1;
}

QJsonObject findBySummary(const QVector<QJsonObject> &shown, const QString &summary)
{
    for (const QJsonObject &o : shown)
        if (o.value(QLatin1String("summary")).toString() == summary)
            return o;
    return {};
}

// A job that waits for `go` to exist, then exits 0 or raises `error` (a traceback whose last line is the reason).
QString launchWaitingJob(const QString &dir, const QString &name, const QString &go, const QString &error,
                         const QString &slurmConf = QString())
{
    const QString script = dir + QStringLiteral("/%1.py").arg(name.size());
    QString body = QStringLiteral("import os, time\nwhile not os.path.exists(%1):\n    time.sleep(0.05)\n")
                       .arg(QString::fromUtf8(QJsonDocument(QJsonArray{go}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    if (!error.isEmpty())
        body += QStringLiteral("raise RuntimeError(%1)\n")
                    .arg(QString::fromUtf8(QJsonDocument(QJsonArray{error}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    test::writeFile(script, body.toUtf8());
    JobManager jobs(makeLocalJobRunner());
    JobSpec spec;
    spec.name = name;
    spec.python = QStringLiteral("/usr/bin/python3");
    spec.program = JobProgram::Script;
    spec.script = script;
    spec.passSettings = false;
    if (!slurmConf.isEmpty()) {  // submitted to that Slurm cluster (sbatch here), one process
        spec.nprocPerNode = 1;
        spec.slurm.enabled = true;
        spec.slurm.slurmConf = slurmConf;
    }
    QString why;
    const QString id = test::launchSpec(jobs, spec, &why);
    if (id.isEmpty())
        qWarning("launch: %s", qPrintable(why));
    return id;
}

}  // namespace

class TestNotifications : public QObject
{
    Q_OBJECT

public:
    QString m_skip;
    QTemporaryDir m_dir;
    QProcess m_xvfb, m_dunst;

private Q_SLOTS:
    void initTestCase()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        m_xvfb.start(QStringLiteral("Xvfb"), {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-nolisten"),
                                              QStringLiteral("tcp"), QStringLiteral("-screen"), QStringLiteral("0"),
                                              QStringLiteral("800x600x24")});
        QVERIFY(m_xvfb.waitForStarted(30000));
        QTRY_VERIFY_WITH_TIMEOUT(m_xvfb.canReadLine() || m_xvfb.state() != QProcess::Running, 30000);
        const QByteArray display = m_xvfb.readLine().trimmed();
        QVERIFY2(!display.isEmpty(), m_xvfb.readAllStandardError().constData());
        // dunst: its notifications stay shown until closed (timeout 0), so the test's action reaches one.
        const QString conf = m_dir.filePath(QStringLiteral("dunstrc"));
        test::writeFile(conf, "[global]\n    history_length = 100\n[urgency_low]\n    timeout = 0\n"
                              "[urgency_normal]\n    timeout = 0\n[urgency_critical]\n    timeout = 0\n");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), QLatin1Char(':') + QString::fromLatin1(display));
        m_dunst.setProcessEnvironment(env);
        m_dunst.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_dunst.start(QStringLiteral("dunst"), {QStringLiteral("-config"), conf});
        QVERIFY(m_dunst.waitForStarted(30000));
        QDBusConnectionInterface *bus = QDBusConnection::sessionBus().interface();
        QVERIFY(bus);
        QTRY_VERIFY_WITH_TIMEOUT(bus->isServiceRegistered(QString::fromLatin1(DBusNotifications::service)), 30000);
    }

    void init()
    {
        for (NotifyKind k : allNotifyKinds())
            AppSettings::setNotificationOn(notifyKindName(k), true);
        shownHistory();  // what earlier tests showed is closed
    }

    // A job finishes while the window is not in front: dunst shows it, with Open; Open brings the window to the front
    // on the job.
    void aFinishedJobIsShownAndOpens()
    {
        const QString go = m_dir.filePath(QStringLiteral("go-finish"));
        const QString id = launchWaitingJob(m_dir.path(), QStringLiteral("notify finish"), go, QString());
        QVERIFY(!id.isEmpty());
        MainWindow w;  // not shown: not in front
        QSignalSpy shown(w.notifier(), &Notifier::shown);
        JobService *service = w.jobsPage()->service();
        // Followed and read while it runs: its running state was seen (the notifications follow changes from there).
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).alive && !isFinal(service->status(id).state), 60000);
        test::writeFile(go, "");
        QTRY_COMPARE_WITH_TIMEOUT(service->status(id).state, JobState::Finished, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(displayedCount(), 1, 30000);

        // Open (dunst's default action: what a click does).
        QCOMPARE(test::runProgram(QStringLiteral("dunstctl"), {QStringLiteral("action"), QStringLiteral("0")}, 30000).code, 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.jobsPage()->currentJob(), id, 30000);
        QVERIFY(w.isVisible());
        QCOMPARE(w.navigation()->currentRow(), w.pages().indexOf(w.jobsPage()));
        QTRY_COMPARE_WITH_TIMEOUT(QApplication::activeWindow(), &w, 10000);

        const QJsonObject n = findBySummary(shownHistory(), QStringLiteral("Job finished: notify finish"));
        QVERIFY2(!n.isEmpty(), "dunst showed no \"Job finished\" notification");
        QCOMPARE(n.value(QLatin1String("appname")).toString(), QStringLiteral("Ingot"));
        QCOMPARE(n.value(QLatin1String("body")).toString(), QStringLiteral("It exited with status 0."));
        QCOMPARE(n.value(QLatin1String("default_action_name")).toString(), QStringLiteral("default"));
    }

    // A followed job that stalls (JobService::stallChanged, which the stall rule raises: tst_jobstall makes a real one)
    // is told with why; it stalling again after moving replaces the earlier notification; moving again is not told.
    void aStalledJobIsShown()
    {
        const QString go = m_dir.filePath(QStringLiteral("go-stall"));
        const QString id = launchWaitingJob(m_dir.path(), QStringLiteral("notify stall"), go, QString());
        QVERIFY(!id.isEmpty());
        MainWindow w;  // not shown: not in front
        QSignalSpy shown(w.notifier(), &Notifier::shown);
        JobService *service = w.jobsPage()->service();
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).alive && !isFinal(service->status(id).state), 60000);
        Q_EMIT service->stallChanged(id, true, QStringLiteral("No step for 6 min (threshold 5 min), since 10:02 at step 41"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(displayedCount(), 1, 30000);
        Q_EMIT service->stallChanged(id, false, QString());  // moving again: nothing to tell
        const QJsonObject n = findBySummary(shownHistory(), QStringLiteral("Job stalled: notify stall"));
        QVERIFY2(!n.isEmpty(), "dunst showed no \"Job stalled\" notification");
        QCOMPARE(n.value(QLatin1String("body")).toString(), QStringLiteral("No step for 6 min (threshold 5 min), since 10:02 at step 41"));
        QCOMPARE(shown.count(), 1);
        test::writeFile(go, "");
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(service->status(id).state), 60000);
    }

    // A failure's reason reaches the body escaped: markup in it is shown as text, never read by the server.
    void aFailedJobsReasonIsEscaped()
    {
        const QString go = m_dir.filePath(QStringLiteral("go-fail"));
        const QString id = launchWaitingJob(m_dir.path(), QStringLiteral("notify <i>fail</i>"), go,
                                            QStringLiteral("<b>bad</b> & worse"));
        QVERIFY(!id.isEmpty());
        MainWindow w;
        QSignalSpy shown(w.notifier(), &Notifier::shown);
        JobService *service = w.jobsPage()->service();
        // Followed and read while it runs: its running state was seen (the notifications follow changes from there).
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).alive && !isFinal(service->status(id).state), 60000);
        test::writeFile(go, "");
        QTRY_COMPARE_WITH_TIMEOUT(service->status(id).state, JobState::Failed, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        const QVector<QJsonObject> history = shownHistory();
        const QJsonObject n = findBySummary(history, QStringLiteral("Job failed: notify <i>fail</i>"));
        QStringList summaries;
        for (const QJsonObject &o : history)
            summaries << o.value(QLatin1String("summary")).toString();
        QVERIFY2(!n.isEmpty(), qPrintable(summaries.join(QLatin1String(" | "))));
        const QString body = n.value(QLatin1String("body")).toString();
        QVERIFY2(body.contains(QStringLiteral("&lt;b&gt;bad&lt;/b&gt; &amp; worse")), qPrintable(body));
        QVERIFY2(!body.contains(QLatin1String("<b>")), qPrintable(body));
    }

    // A kind turned off in Settings sends nothing: the job's end is seen, nothing is handed to the server.
    void aKindTurnedOffSendsNothing()
    {
        // Turned off as a person does: Settings, its check unticked, OK.
        {
            SettingsDialog settings;
            const QList<QCheckBox *> checks = settings.notificationChecks();
            QCOMPARE(checks.size(), allNotifyKinds().size());
            const int finished = int(allNotifyKinds().indexOf(NotifyKind::JobFinished));
            QCOMPARE(checks.at(finished)->text(), notifyKindTitle(NotifyKind::JobFinished));
            QVERIFY(checks.at(finished)->isChecked());
            checks.at(finished)->setChecked(false);
            settings.accept();
        }
        QVERIFY(!AppSettings::notificationOn(notifyKindName(NotifyKind::JobFinished)));
        QVERIFY(AppSettings::notificationOn(notifyKindName(NotifyKind::JobStalled)));
        const QString go = m_dir.filePath(QStringLiteral("go-off"));
        const QString id = launchWaitingJob(m_dir.path(), QStringLiteral("notify off"), go, QString());
        QVERIFY(!id.isEmpty());
        MainWindow w;
        QSignalSpy sent(w.notifier(), &Notifier::sent);
        JobService *service = w.jobsPage()->service();
        // Followed and read while it runs: its running state was seen (the notifications follow changes from there).
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).alive && !isFinal(service->status(id).state), 60000);
        test::writeFile(go, "");
        QTRY_COMPARE_WITH_TIMEOUT(service->status(id).state, JobState::Finished, 60000);
        // notify() hands a notification over at once, in the same turn as the job's update: none was.
        QCOMPARE(sent.count(), 0);
        QCOMPARE(displayedCount(), 0);
        QVERIFY(findBySummary(shownHistory(), QStringLiteral("Job finished: notify off")).isEmpty());
        // And the window in front sends nothing either.
        AppSettings::setNotificationOn(notifyKindName(NotifyKind::JobFinished), true);
        DBusNotifications transport;
        Notifier notifier(&transport);
        notifier.setInFront([] { return true; });
        QVERIFY(!notifier.notify(NotifyKind::JobFinished, QStringLiteral("t"), QStringLiteral("b"), {NotifyTarget::Type::Job, id}));
    }

    // A later notification of the same job replaces the earlier one (replaces_id): one shown, not two; another job's
    // stacks beside it.
    void aLaterNotificationReplacesTheEarlier()
    {
        DBusNotifications transport;
        Notifier notifier(&transport);
        QSignalSpy shown(&notifier, &Notifier::shown);
        const NotifyTarget job{NotifyTarget::Type::Job, QStringLiteral("20260101-000000-aaaa")};
        QVERIFY(notifier.notify(NotifyKind::JobStalled, QStringLiteral("Job stalled: a"), QStringLiteral("rank 0 at step 5"), job));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY(notifier.notify(NotifyKind::JobFailed, QStringLiteral("Job failed: a"), QStringLiteral("killed"), job));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 30000);
        QCOMPARE(shown.at(1).at(0).toUInt(), shown.at(0).at(0).toUInt());
        QCOMPARE(displayedCount(), 1);
        QVERIFY(notifier.notify(NotifyKind::JobFailed, QStringLiteral("Job failed: b"), QStringLiteral("killed"),
                                {NotifyTarget::Type::Job, QStringLiteral("20260101-000000-bbbb")}));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 3, 30000);
        QCOMPARE(displayedCount(), 2);
        const QVector<QJsonObject> history = shownHistory();
        QVERIFY(findBySummary(history, QStringLiteral("Job stalled: a")).isEmpty());
        QCOMPARE(findBySummary(history, QStringLiteral("Job failed: a")).value(QLatin1String("body")).toString(), QStringLiteral("killed"));
    }

    // A consolidation's end names its output folder, escaped as text.
    void aConsolidationIsShown()
    {
        DBusNotifications transport;
        Notifier notifier(&transport);
        EventNotifications events(&notifier, nullptr, nullptr);
        QSignalSpy shown(&notifier, &Notifier::shown);
        events.consolidationEnded(QStringLiteral("/data/out <&> model"), true, QString());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QCOMPARE(shown.at(0).at(1).value<NotifyTarget>().type, NotifyTarget::Type::Consolidation);
        const QJsonObject n = findBySummary(shownHistory(), QStringLiteral("Consolidation done"));
        QCOMPARE(n.value(QLatin1String("body")).toString(), QStringLiteral("Output: /data/out &lt;&amp;&gt; model"));
    }

    // A real transfer ends: a copy between two caches of this machine from a source cache that is gone (removed after
    // the entries were chosen), so it ends with every entry failed. Told when it is long enough,
    // with how many entries were done and where to; not when it is shorter than the threshold (30 s by default).
    void aLongTransfersEndIsShown()
    {
        QTemporaryDir src, dst, state;
        const QString root = test::makeSampleCache(src, 6);
        QStringList keys;
        QDirIterator it(root, {QStringLiteral("MODULE_*")}, QDir::Dirs, QDirIterator::Subdirectories);
        while (it.hasNext())
            keys << QDir(root).relativeFilePath(it.next());
        QVERIFY(!keys.isEmpty());
        QVERIFY(QDir(root).removeRecursively());
        TransferQueue queue(state.path(), makeTransferEngine(defaultSecretStore()));
        DBusNotifications transport;
        Notifier told(&transport), notTold(&transport);
        EventNotifications longOnes(&told, nullptr, &queue);
        longOnes.setLongTransferSeconds(0);
        EventNotifications defaults(&notTold, nullptr, &queue);
        QSignalSpy shown(&told, &Notifier::shown);
        QSignalSpy shortSent(&notTold, &Notifier::sent);
        QString error;
        const QString id = queue.enqueue(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(root)),
                                         TransferPlace::ofCache(StoreLocation::local(dst.path())), keys, {}, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(queue.record(id)->finished() && !queue.isRunning(id), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QCOMPARE(shown.at(0).at(1).value<NotifyTarget>().id, id);
        QCOMPARE(shortSent.count(), 0);
        const QVector<QJsonObject> history = shownHistory();
        QStringList shownText;
        for (const QJsonObject &o : history)
            shownText << o.value(QLatin1String("summary")).toString() + QStringLiteral(": ") + o.value(QLatin1String("body")).toString();
        const QString body = findBySummary(history, QStringLiteral("Transfer ended with failed entries")).value(QLatin1String("body")).toString();
        QVERIFY2(body == QStringLiteral("Entries done: 0 of %1, to %2.").arg(keys.size()).arg(dst.path()),
                 qPrintable(shownText.join(QLatin1String(" | "))));
    }

    // The window's own queue: Open on a transfer's notification shows the Transfers page with that transfer selected.
    void openOnATransferShowsIt()
    {
        QTemporaryDir src, dst;
        const QString root = test::makeSampleCache(src, 2);
        QStringList keys;
        QDirIterator it(root, {QStringLiteral("MODULE_*")}, QDir::Dirs, QDirIterator::Subdirectories);
        while (it.hasNext())
            keys << QDir(root).relativeFilePath(it.next());
        MainWindow w;
        w.eventNotifications()->setLongTransferSeconds(0);
        QSignalSpy shown(w.notifier(), &Notifier::shown);
        QString error;
        const QString id = w.transferQueue()->enqueue(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(root)),
                                                      TransferPlace::ofCache(StoreLocation::local(dst.path())), keys, {}, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(displayedCount(), 1, 30000);
        QVERIFY(w.transfersPage()->selected() != id || w.navigation()->currentRow() != w.pages().indexOf(w.transfersPage()));
        QCOMPARE(test::runProgram(QStringLiteral("dunstctl"), {QStringLiteral("action"), QStringLiteral("0")}, 30000).code, 0);
        QTRY_COMPARE_WITH_TIMEOUT(w.navigation()->currentRow(), w.pages().indexOf(w.transfersPage()), 30000);
        QCOMPARE(w.transfersPage()->selected(), id);
        QTRY_COMPARE_WITH_TIMEOUT(QApplication::activeWindow(), &w, 10000);
    }

    // A Slurm job waits in the queue (its node drained), then runs: "Job running" is shown; when it finishes, its
    // "Job finished" replaces that one (one shown for the job, not two). A private cluster of one slurmd on 127.0.0.1.
    void aJobLeavingSlurmsQueueIsShown()
    {
        if (!test::TestSlurm::available())
            QSKIP("slurmctld is not installed (packaging/install-deps.sh --test installs it)");
        test::TestSlurm slurm;
        QString error;
        QVERIFY2(slurm.start(&error), qPrintable(error));
        QVERIFY(slurm.drain(QStringLiteral("n1"), QStringLiteral("held by the test")));
        const QString go = m_dir.filePath(QStringLiteral("go-slurm"));
        const QString id = launchWaitingJob(m_dir.path(), QStringLiteral("notify slurm"), go, QString(), slurm.confPath());
        QVERIFY(!id.isEmpty());
        MainWindow w;
        QSignalSpy sent(w.notifier(), &Notifier::sent);
        QSignalSpy shown(w.notifier(), &Notifier::shown);
        JobService *service = w.jobsPage()->service();
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).state == JobState::Pending && !service->status(id).slurm.jobId.isEmpty(), 60000);
        QVERIFY(slurm.resume(QStringLiteral("n1")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 120000);
        QCOMPARE(sent.at(0).at(0).value<NotifyKind>(), NotifyKind::JobRunning);
        QTRY_COMPARE_WITH_TIMEOUT(displayedCount(), 1, 30000);
        test::writeFile(go, "");
        QTRY_COMPARE_WITH_TIMEOUT(service->status(id).state, JobState::Finished, 120000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 30000);
        QCOMPARE(shown.at(1).at(0).toUInt(), shown.at(0).at(0).toUInt());
        QCOMPARE(displayedCount(), 1);
        const QVector<QJsonObject> history = shownHistory();
        QVERIFY(findBySummary(history, QStringLiteral("Job running: notify slurm")).isEmpty());  // replaced
        QVERIFY(!findBySummary(history, QStringLiteral("Job finished: notify slurm")).isEmpty());
        QVERIFY(slurm.waitQueueEmpty(60000));
    }

    // A bus without a notification server: nothing is shown, and the log says so once, not once per event.
    void noServerIsSaidOnce()
    {
        QTemporaryDir busDir;
        const QByteArray ours = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        test::PrivateBus empty;
        QString error;
        QVERIFY2(empty.start(busDir.path(), &error), qPrintable(error));
        const auto stopEmpty = qScopeGuard([&empty] { ::kill(pid_t(empty.pid()), SIGTERM); });  // however the test ends
        const QByteArray address = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        qputenv("DBUS_SESSION_BUS_ADDRESS", ours);
        {
            QDBusConnection bus = QDBusConnection::connectToBus(QString::fromUtf8(address), QStringLiteral("no-server"));
            QVERIFY(bus.isConnected());
            DBusNotifications transport(bus);
            int answered = 0;
            quint32 lastId = 1;
            saidNoServer = 0;
            const QtMessageHandler previous = qInstallMessageHandler(countNoServer);
            for (int i = 0; i < 3; ++i)
                transport.show(QStringLiteral("s"), QStringLiteral("b"), 0, [&](quint32 id) { ++answered; lastId = id; });
            QTRY_COMPARE_WITH_TIMEOUT(answered, 3, 30000);
            qInstallMessageHandler(previous);
            QCOMPARE(saidNoServer, 1);
            QCOMPARE(lastId, 0u);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("no-server"));
    }

    void cleanupTestCase()
    {
        for (QProcess *p : {&m_dunst, &m_xvfb}) {
            if (p->state() == QProcess::NotRunning)
                continue;
            p->terminate();
            if (!p->waitForFinished(10000)) {
                p->kill();
                p->waitForFinished(10000);
            }
        }
    }
};

// The private bus starts before QApplication: Qt connects to the session bus once, from DBUS_SESSION_BUS_ADDRESS.
int main(int argc, char **argv)
{
    TestNotifications t;
    test::PrivateBus bus;
    t.m_skip = serverMissing();
    if (t.m_skip.isEmpty()) {
        QString error;
        if (!bus.start(t.m_dir.path(), &error))
            t.m_skip = error;
    }
    qputenv("INGOT_KEYCHAIN", "none");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Ingot"));
    QApplication::setApplicationName(QStringLiteral("ingot-tst-notifications"));
    const int rc = QTest::qExec(&t, argc, argv);
    bus.stopAtExit();
    return rc;
}

#include "tst_notifications.moc"
