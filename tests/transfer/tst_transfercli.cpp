// `ingot-cli transfers list|cancel` run as users run it, against the transfer queue the Ingot window keeps: a real
// TransferQueue in this process (the window's; its engine a scripted stand-in that moves nothing and holds its first
// entry until stopped) and the real ingot-cli beside it, sharing the queue's folder as the two programs do.
#include "services/transfer/transferqueue.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace ingot;

namespace {
// Moves nothing: reports each entry done, except that with `hold` set an entry waits until the queue stops it.
TransferEngine holdingEngine(std::shared_ptr<std::atomic_bool> hold, std::shared_ptr<std::atomic_int> runs)
{
    return [hold, runs](const TransferRecord &, QVector<TransferItem> &items, TransferReporter &rep,
                        const std::atomic_bool *stop) -> QString {
        ++*runs;
        for (int i = 0; i < items.size(); ++i) {
            rep.itemStarted(i, 1000);
            items[i].state = TransferItem::State::Running;
            while (*hold && !*stop)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            if (*stop)
                return QString();
            items[i].state = TransferItem::State::Done;
            items[i].bytesDone = 1000;
            rep.itemFinished(i, TransferItem::State::Done, QString());
        }
        return QString();
    };
}

const TransferPlace kHub = TransferPlace::ofHub(QStringLiteral("neuronorg/team-cache"));
// Made when called: the local store's kind is registered at static initialization too.
TransferPlace localPlace()
{
    return TransferPlace::ofCache(StoreLocation::local(QStringLiteral("/var/tmp/neuron-compile-cache")));
}

QStringList keys(int n, int from)
{
    QStringList k;
    for (int i = from; i < from + n; ++i)
        k << QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_%1+d41d8cd9").arg(i);
    return k;
}
}  // namespace

class TestTransferCli : public QObject
{
    Q_OBJECT

    QTemporaryDir data;  // XDG_DATA_HOME of ingot-cli: its queue folder is <data>/Ingot/ingot/transfers
    QString stateDir;

    struct Run {
        int code = -1;
        QString out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
    };
    Run cli(const QStringList &args)
    {
        const test::ProgramRun r = test::runProgram(QStringLiteral(INGOT_CLI_PATH), args, 60000);
        return {r.code, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
    }
    // id -> the transfer as `transfers list --json` shows it.
    QHash<QString, QJsonObject> listed()
    {
        const Run r = cli({QStringLiteral("transfers"), QStringLiteral("list"), QStringLiteral("--json")});
        [&] { QCOMPARE(r.code, 0); }();
        QHash<QString, QJsonObject> byId;
        for (const QJsonValue &v : r.json().value(QStringLiteral("transfers")).toArray())
            byId.insert(v[QStringLiteral("id")].toString(), v.toObject());
        return byId;
    }
    // The state file says the transfer's first entry is moving (the queue saves a running transfer every 2 s).
    bool savedRunning(const QString &id)
    {
        for (const TransferRecord &r : TransferQueue::readRecords(stateDir))
            if (r.id == id)
                return r.count(TransferItem::State::Running) > 0;
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("XDG_DATA_HOME", QFile::encodeName(data.path()));
        stateDir = data.path() + QStringLiteral("/Ingot/ingot/transfers");
        QVERIFY(QDir().mkpath(stateDir));
    }

    // The window's queue runs one transfer and holds it; the CLI lists every state and cancels the running one, which
    // the window's queue stops at once, as its Cancel button would.
    void listAndCancelWhileTheWindowRuns()
    {
        auto hold = std::make_shared<std::atomic_bool>(false);
        auto runs = std::make_shared<std::atomic_int>(0);
        TransferQueue q(stateDir, holdingEngine(hold, runs));
        q.setMaxRunning(1);
        QString error;
        const QString done = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(2, 0), {}, &error);
        QVERIFY2(!done.isEmpty(), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(q.record(done)->finished() && !q.isRunning(done), 10000);
        *hold = true;
        const QString running = q.enqueue(TransferKind::Push, localPlace(), kHub, keys(1, 10), {}, &error);
        const QString paused = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(1, 20), {}, &error);
        QVERIFY(!running.isEmpty() && !paused.isEmpty());
        q.pause(paused);
        QTRY_VERIFY_WITH_TIMEOUT(q.isRunning(running) && savedRunning(running) && !q.savesPending(), 10000);

        QHash<QString, QJsonObject> t = listed();
        QCOMPARE(t.size(), 3);
        QCOMPARE(t[done][QStringLiteral("state")].toString(), QStringLiteral("done"));
        QCOMPARE(t[done][QStringLiteral("done")].toInt(), 2);
        QCOMPARE(t[done][QStringLiteral("kind")].toString(), QStringLiteral("pull"));
        QCOMPARE(t[running][QStringLiteral("state")].toString(), QStringLiteral("running"));
        QCOMPARE(t[running][QStringLiteral("kind")].toString(), QStringLiteral("push"));
        QCOMPARE(t[running][QStringLiteral("to")].toString(), QStringLiteral("hub:neuronorg/team-cache"));
        QCOMPARE(t[paused][QStringLiteral("state")].toString(), QStringLiteral("paused"));
        const Run table = cli({QStringLiteral("transfers"), QStringLiteral("list")});
        QCOMPARE(table.code, 0);
        for (const QString &id : {done, running, paused})
            QVERIFY2(table.out.contains(id), qPrintable(table.out));

        QSignalSpy ended(&q, &TransferQueue::ended);
        Run r = cli({QStringLiteral("transfers"), QStringLiteral("cancel"), running});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("Cancel requested")), qPrintable(r.out));
        QTRY_VERIFY_WITH_TIMEOUT(q.record(running)->cancelled && !q.isRunning(running), 10000);
        QCOMPARE(ended.size(), 1);
        QVERIFY(!QFile::exists(stateDir + QLatin1Char('/') + running + QStringLiteral(".cancel")));  // applied once
        QTRY_VERIFY_WITH_TIMEOUT(!q.savesPending(), 10000);
        QCOMPARE(listed()[running][QStringLiteral("state")].toString(), QStringLiteral("cancelled"));
        // The others are left as they were.
        QVERIFY(q.record(paused)->paused && !q.record(paused)->cancelled);
        // A transfer that is over: nothing to cancel, said so, and nothing asked of the queue.
        r = cli({QStringLiteral("transfers"), QStringLiteral("cancel"), done});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QStringLiteral("nothing to cancel")), qPrintable(r.out));
        QVERIFY(!QFile::exists(stateDir + QLatin1Char('/') + done + QStringLiteral(".cancel")));
        *hold = false;
        for (const QString &id : {done, running, paused})
            QVERIFY(q.remove(id));
    }

    // No window runs: the cancel waits in the queue's folder, shows in the list, and the next queue to load applies
    // it before the transfer could run again.
    void cancelWhileNoWindowRuns()
    {
        auto hold = std::make_shared<std::atomic_bool>(true);
        auto runs = std::make_shared<std::atomic_int>(0);
        QString id;
        {
            // Started, held, paused: then the window closes.
            TransferQueue q(stateDir, holdingEngine(hold, runs));
            QString error;
            id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(1, 30), {}, &error);
            QVERIFY2(!id.isEmpty(), qPrintable(error));
            q.pause(id);
            QTRY_VERIFY_WITH_TIMEOUT(q.record(id)->paused && !q.isRunning(id), 10000);
        }
        const int ranBefore = runs->load();
        Run r = cli({QStringLiteral("transfers"), QStringLiteral("cancel"), id, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.json().value(QStringLiteral("cancel_requested")).toBool());
        const QJsonObject shown = listed()[id];
        QCOMPARE(shown[QStringLiteral("state")].toString(), QStringLiteral("paused"));
        QVERIFY(shown[QStringLiteral("cancel_requested")].toBool());
        QVERIFY(cli({QStringLiteral("transfers"), QStringLiteral("list")}).out.contains(QStringLiteral("cancel requested")));

        TransferQueue next(stateDir, holdingEngine(hold, runs));
        QVERIFY(next.record(id)->cancelled);
        next.resume(id);  // a cancelled transfer does not run again unless retried
        test::deliverPostedEvents();
        QVERIFY(!next.isRunning(id));
        QCOMPARE(runs->load(), ranBefore);
        QVERIFY(!QFile::exists(stateDir + QLatin1Char('/') + id + QStringLiteral(".cancel")));
        QTRY_VERIFY_WITH_TIMEOUT(!next.savesPending(), 10000);
        QCOMPARE(listed()[id][QStringLiteral("state")].toString(), QStringLiteral("cancelled"));
        QVERIFY(next.remove(id));
    }

    // Ids that name no transfer, or try to name a path: refused, nothing written.
    void badIdsAreRefused()
    {
        for (const QString &id : {QStringLiteral("20260101-000000-abcdef"), QStringLiteral("../escape"), QStringLiteral("a/b")}) {
            const Run r = cli({QStringLiteral("transfers"), QStringLiteral("cancel"), id});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(QStringLiteral("no transfer")), qPrintable(r.err));
        }
        QCOMPARE(cli({QStringLiteral("transfers"), QStringLiteral("cancel")}).code, 2);
        QVERIFY(QDir(stateDir).entryList(QDir::Files | QDir::Hidden | QDir::System).isEmpty());
        QVERIFY(!QFile::exists(data.path() + QStringLiteral("/Ingot/ingot/escape.cancel")));
        const Run empty = cli({QStringLiteral("transfers"), QStringLiteral("list")});
        QCOMPARE(empty.code, 0);
        QVERIFY(empty.out.contains(QStringLiteral("No transfers")));
    }
};

QTEST_GUILESS_MAIN(TestTransferCli)
#include "tst_transfercli.moc"
