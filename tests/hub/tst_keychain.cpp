// The system keychain for real: a private D-Bus session bus and gnome-keyring-daemon (the Secret Service) with their
// own HOME, data and runtime folders, so no real keyring is touched. The token is saved, read and forgotten through
// Ingot from many short-lived pool threads at once; a keychain that stops answering (its daemon SIGSTOPped) times
// out with a clear error and the token file is used; a stopped task and a cancelled pull stop waiting; an application
// quitting while a read is pending exits at once (issue 21). Unlike every other test, this one does not set
// INGOT_KEYCHAIN=none: it is the one that uses a real Secret Service.
#include "services/hub/hubenv.h"
#include "services/hub/secretstore.h"
#include "services/hub/token.h"
#include "services/stores/storelocation.h"
#include "services/transfer/transferengine.h"
#include "services/transfer/transferqueue.h"
#include "services/util/task.h"
#include "tests/hub/privatebus.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSemaphore>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <csignal>
#include <memory>

using namespace ingot;

namespace {
const QString kService = QStringLiteral("ingot-test");
const QString kTokenKey = QStringLiteral("huggingface-token");

// The token's resolution with no HF_TOKEN: the keychain, then the token file.
ResolvedToken resolve(const HubConfig &config, SecretStore *store, const std::atomic_bool *stop = nullptr)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("HF_HOME"), config.hfHome);
    return resolveToken(config, store, env, stop);
}

// The child of quitsWhileAReadIsPending: asks the keychain on a pool thread and, once the read waits for the keychain's
// answer, quits its event loop ("exec") or destroys its application object without running one ("destroy"); prints
// what the read gave. Ingot's keychain must let it exit long before the read's timeout.
int quittingChild(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const HubConfig config = HubConfig::fromEnvironment();
    auto store = std::make_shared<KeychainSecretStore>(kService);  // INGOT_KEYCHAIN_TIMEOUT_MS: a long timeout
    QThreadPool::globalInstance()->start([config, store] {
        const ResolvedToken t = resolve(config, store.get());
        fprintf(stdout, "token=%s\nerror=%s\n", qPrintable(t.token), qPrintable(t.keychainError));
        fflush(stdout);
    });
    QElapsedTimer clock;
    clock.start();
    while (KeychainSecretStore::callsWaiting() == 0 && clock.elapsed() < 30000)
        QThread::msleep(10);  // polls a condition
    if (KeychainSecretStore::callsWaiting() == 0)
        return 3;  // the read never got as far as waiting for the keychain
    if (qEnvironmentVariable("INGOT_TST_KEYCHAIN_CHILD") == QLatin1String("destroy"))
        return 0;  // ~QCoreApplication waits for the pool
    QMetaObject::invokeMethod(&app, &QCoreApplication::quit, Qt::QueuedConnection);
    return app.exec();
}
}  // namespace

class TestKeychain : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    test::PrivateBus m_bus;
    QProcess m_keyring;
    HubConfig m_config;
    bool m_stopped = false;

    QString path(const QString &rel) const { return m_dir.filePath(rel); }

    // Waits until the keyring daemon owns the Secret Service's name on our bus.
    bool secretServiceUp()
    {
        test::ProgramRun r = test::runProgram(QStringLiteral("dbus-send"),
                                              {QStringLiteral("--session"), QStringLiteral("--print-reply"),
                                               QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/"),
                                               QStringLiteral("org.freedesktop.DBus.NameHasOwner"),
                                               QStringLiteral("string:org.freedesktop.secrets")},
                                              20000);
        return r.code == 0 && r.out.contains("boolean true");
    }

    void writeTokenFile(const QByteArray &token)
    {
        QDir().mkpath(m_config.hfHome);
        test::writeFile(m_config.tokenPath, token);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString keyring = QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon"));
        if (!test::PrivateBus::installed() || keyring.isEmpty())
            QSKIP("dbus-daemon or gnome-keyring-daemon is not installed (packaging/install-deps.sh --test installs them)");
        QVERIFY(m_dir.isValid());
        // Everything the bus, the daemon and libsecret read lives here: never the real keyring of whoever runs this.
        for (const char *d : {"home", "data", "config", "cache", "run", "bus", "hf"})
            QVERIFY(QDir().mkpath(path(QLatin1String(d))));
        QVERIFY(QFile::setPermissions(path(QStringLiteral("run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("HOME", QFile::encodeName(path(QStringLiteral("home"))));
        qputenv("XDG_DATA_HOME", QFile::encodeName(path(QStringLiteral("data"))));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(path(QStringLiteral("config"))));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(path(QStringLiteral("cache"))));
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(path(QStringLiteral("run"))));  // gnome-keyring's control socket
        qputenv("HF_HOME", QFile::encodeName(path(QStringLiteral("hf"))));
        qunsetenv("DISPLAY");  // no X11 autolaunch of another bus
        qunsetenv("INGOT_KEYCHAIN");
        qunsetenv("INGOT_KEYCHAIN_TIMEOUT_MS");
        qunsetenv("HF_TOKEN");
        qunsetenv("HUGGING_FACE_HUB_TOKEN");
        m_config = HubConfig::fromEnvironment();

        QString error;
        QVERIFY2(m_bus.start(path(QStringLiteral("bus")), &error), qPrintable(error));

        // The daemon in the foreground (a child of ours, killed by its pid), its login keyring unlocked with a
        // password read from stdin.
        m_keyring.setStandardOutputFile(QProcess::nullDevice());
        m_keyring.setStandardErrorFile(path(QStringLiteral("keyring.log")));
        m_keyring.start(keyring, {QStringLiteral("--foreground"), QStringLiteral("--unlock"), QStringLiteral("--components=secrets")});
        QVERIFY(m_keyring.waitForStarted(30000));
        m_keyring.write("a test password");
        m_keyring.closeWriteChannel();
        QTRY_VERIFY_WITH_TIMEOUT(secretServiceUp() || m_keyring.state() == QProcess::NotRunning, 60000);
        QVERIFY2(m_keyring.state() == QProcess::Running, test::readFile(path(QStringLiteral("keyring.log"))).constData());
    }

    void cleanupTestCase()
    {
        if (m_stopped)
            ::kill(pid_t(m_keyring.processId()), SIGCONT);
        if (m_keyring.state() != QProcess::NotRunning) {
            m_keyring.kill();
            m_keyring.waitForFinished(30000);
        }
        m_bus.stopAtExit();
    }

    // Saved, read by 32 pool threads at once mixed with writes and reads of other entries, from fresh threads each
    // round (QtKeychain's queue once lived in the first thread that asked, and a job on a thread that had ended
    // never finished), then forgotten.
    void manyThreadsStoreReadAndDelete()
    {
        KeychainSecretStore store(kService, 60000);  // the machine is loaded: roomy, the hang test is below
        QString where, error;
        QVERIFY2(saveToken(m_config, &store, QStringLiteral("hf_in_the_keyring"), &where, &error), qPrintable(error));
        QCOMPARE(where, store.name());
        QVERIFY(!QFile::exists(m_config.tokenPath));  // the keychain took it
        // It is in the Secret Service, where other programs find it (QtKeychain's schema: user, server, type).
        if (!QStandardPaths::findExecutable(QStringLiteral("secret-tool")).isEmpty()) {
            const test::ProgramRun lookup = test::runProgram(QStringLiteral("secret-tool"),
                {QStringLiteral("lookup"), QStringLiteral("user"), kTokenKey, QStringLiteral("server"), kService}, 60000);
            QCOMPARE(lookup.out, QByteArray("hf_in_the_keyring"));
        }

        for (int round = 0; round < 3; ++round) {
            QThreadPool pool;  // its threads end with it: the next round asks from new ones
            pool.setMaxThreadCount(48);
            QMutex mutex;
            QStringList failures;
            auto fail = [&](const QString &what) {
                QMutexLocker lock(&mutex);
                failures << what;
            };
            for (int i = 0; i < 32; ++i) {
                pool.start([&, i] {
                    const ResolvedToken t = resolve(m_config, &store);
                    if (t.token != QLatin1String("hf_in_the_keyring") || t.source != ResolvedToken::Source::Keychain)
                        fail(QStringLiteral("read %1: %2 from %3 (%4)").arg(i).arg(t.token, t.describe(), t.keychainError));
                });
                if (i % 4 == 0) {
                    pool.start([&, i] {
                        const QString key = QStringLiteral("entry-%1-%2").arg(round).arg(i);
                        const QString value = QStringLiteral("value-%1-%2").arg(round).arg(i);
                        SecretError e;
                        QString back;
                        if (!store.write(key, value, &e))
                            fail(QStringLiteral("write %1: %2").arg(key, e.message));
                        else if (!store.read(key, &back, &e) || back != value)
                            fail(QStringLiteral("read back %1: \"%2\" %3").arg(key, back, e.message));
                        else if (!store.remove(key, &e))
                            fail(QStringLiteral("remove %1: %2").arg(key, e.message));
                        else if (!store.read(key, &back, &e) || !back.isEmpty())
                            fail(QStringLiteral("read after remove %1: \"%2\" %3").arg(key, back, e.message));
                    });
                }
            }
            QVERIFY(pool.waitForDone(300000));
            QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
        }

        // Through runTask too, the way the pages ask.
        QObject context;
        ResolvedToken viaTask;
        bool answered = false;
        runTask(&context, [this, &store](TaskControl &c) { return resolve(m_config, &store, c.stopFlag()); },
                [&](ResolvedToken t) { viaTask = t; answered = true; });
        QTRY_VERIFY_WITH_TIMEOUT(answered, 120000);
        QCOMPARE(viaTask.token, QStringLiteral("hf_in_the_keyring"));

        QVERIFY2(forgetToken(m_config, &store, &error), qPrintable(error));
        const ResolvedToken gone = resolve(m_config, &store);
        QCOMPARE(gone.source, ResolvedToken::Source::None);
        QVERIFY2(gone.keychainError.isEmpty(), qPrintable(gone.keychainError));
    }

    // The keyring daemon stops answering: each call gives up after its timeout with a clear error, the token file
    // stands in (reading and saving), logging out says the keychain may still hold the token, a stopped task stops
    // waiting at once; once the daemon answers again the keychain is used again.
    void unansweredKeychainTimesOutToTheTokenFile()
    {
        KeychainSecretStore store(kService, 60000);
        QString where, error;
        QVERIFY2(saveToken(m_config, &store, QStringLiteral("hf_in_the_keyring"), &where, &error), qPrintable(error));
        writeTokenFile("hf_in_the_file");

        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGSTOP) == 0);
        m_stopped = true;
        KeychainSecretStore hung(kService, 2000);
        QElapsedTimer clock;
        clock.start();
        ResolvedToken t = resolve(m_config, &hung);
        QVERIFY2(clock.elapsed() >= 1900 && clock.elapsed() < 30000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(t.token, QStringLiteral("hf_in_the_file"));
        QCOMPARE(t.source, ResolvedToken::Source::TokenFile);
        QVERIFY2(t.keychainError.contains(QStringLiteral("did not answer within 2 s.")), qPrintable(t.keychainError));
        // The next calls do not queue up behind the one the keychain has not answered.
        clock.restart();
        t = resolve(m_config, &hung);
        QCOMPARE(t.token, QStringLiteral("hf_in_the_file"));
        QVERIFY2(t.keychainError.contains(QStringLiteral("is not answering")), qPrintable(t.keychainError));
        QVERIFY(saveToken(m_config, &hung, QStringLiteral("hf_saved_meanwhile"), &where, &error));
        QCOMPARE(where, m_config.tokenPath);
        QCOMPARE(test::readFile(m_config.tokenPath), QByteArray("hf_saved_meanwhile"));
        QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));  // no 2 s wait each
        QVERIFY(!forgetToken(m_config, &hung, &error));
        QVERIFY2(error.contains(QStringLiteral("may still be there")), qPrintable(error));
        QVERIFY(!QFile::exists(m_config.tokenPath));

        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGCONT) == 0);
        m_stopped = false;
        // The daemon answers what it was asked meanwhile, and the keychain is asked again: the token is there.
        QTRY_COMPARE_WITH_TIMEOUT(resolve(m_config, &store).source, ResolvedToken::Source::Keychain, 120000);
        QCOMPARE(resolve(m_config, &store).token, QStringLiteral("hf_in_the_keyring"));

        // A task stopped while it waits on an unanswering keychain (Cancel of a pull) returns at once.
        writeTokenFile("hf_in_the_file");
        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGSTOP) == 0);
        m_stopped = true;
        QObject context;
        ResolvedToken viaTask;
        bool answered = false;
        QSemaphore asking;
        Task task = runTask(&context, [this, &store, &asking](TaskControl &c) {
            asking.release();
            return resolve(m_config, &store, c.stopFlag());  // 60 s timeout
        }, [&](ResolvedToken r) { viaTask = r; answered = true; });
        asking.acquire();
        clock.restart();
        task.stop();
        QTRY_VERIFY_WITH_TIMEOUT(answered, 10000);
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(viaTask.token, QStringLiteral("hf_in_the_file"));
        QVERIFY2(viaTask.keychainError.contains(QStringLiteral("Stopped")), qPrintable(viaTask.keychainError));
        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGCONT) == 0);
        m_stopped = false;
        QTRY_COMPARE_WITH_TIMEOUT(resolve(m_config, &store).source, ResolvedToken::Source::Keychain, 120000);
        QVERIFY2(forgetToken(m_config, &store, &error), qPrintable(error));
    }

    // A pull whose engine waits on the keychain for the token (its daemon stopped, the read's timeout a minute) is
    // cancelled at once: the transfer queue's stop reaches the wait (issue 21: a pull at 0/12 ignored Cancel).
    void cancellingAPullWaitingOnTheToken()
    {
        QFile::remove(m_config.tokenPath);
        qputenv("HF_ENDPOINT", "http://127.0.0.1:9");  // never reached: the pull is cancelled before it asks the Hub
        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGSTOP) == 0);
        m_stopped = true;
        QElapsedTimer clock;
        {
            TransferQueue queue(path(QStringLiteral("transfers")),
                                makeTransferEngine(std::make_shared<KeychainSecretStore>(kService, 60000)));
            QString error;
            const QString id = queue.enqueue(TransferKind::Pull, TransferPlace::ofHub(QStringLiteral("neuronorg/team-cache")),
                                             TransferPlace::ofCache(StoreLocation::local(path(QStringLiteral("cache")))),
                                             {QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_111+d41d8cd9")}, {}, &error);
            QVERIFY2(!id.isEmpty(), qPrintable(error));
            QTRY_VERIFY_WITH_TIMEOUT(queue.isRunning(id) && KeychainSecretStore::callsWaiting() > 0, 30000);
            clock.start();
            queue.cancel(id);
            QTRY_VERIFY_WITH_TIMEOUT(!queue.isRunning(id), 30000);
            QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
            QVERIFY(queue.record(id)->cancelled);
        }
        QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));  // nor did the queue's end wait
        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGCONT) == 0);
        m_stopped = false;
        qunsetenv("HF_ENDPOINT");
    }

    // An application quitting while a read waits on the keychain (its daemon stopped, the read's timeout a minute)
    // exits at once: the read answers an error and the token file, and nothing waits on the keychain's thread.
    void quitsWhileAReadIsPending_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("event loop quits") << QStringLiteral("exec");
        QTest::newRow("application destroyed") << QStringLiteral("destroy");
    }

    void quitsWhileAReadIsPending()
    {
        QFETCH(QString, how);
        KeychainSecretStore store(kService, 60000);
        QString where, error;
        QVERIFY2(saveToken(m_config, &store, QStringLiteral("hf_in_the_keyring"), &where, &error), qPrintable(error));
        writeTokenFile("hf_in_the_file");
        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGSTOP) == 0);
        m_stopped = true;
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("INGOT_TST_KEYCHAIN_CHILD"), how);
        env.insert(QStringLiteral("INGOT_KEYCHAIN_TIMEOUT_MS"), QStringLiteral("60000"));
        child.setProcessEnvironment(env);
        QElapsedTimer clock;
        clock.start();
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted(30000));
        const bool ended = child.waitForFinished(30000);
        const qint64 took = clock.elapsed();
        if (!ended) {
            child.kill();
            child.waitForFinished(30000);
        }
        const QByteArray out = child.readAllStandardOutput();
        QVERIFY(::kill(pid_t(m_keyring.processId()), SIGCONT) == 0);
        m_stopped = false;
        QVERIFY2(ended, "the application did not exit while a keychain read was pending");
        QVERIFY2(took < 30000, qPrintable(QString::number(took)));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode(), 0);
        QVERIFY2(out.contains("token=hf_in_the_file\n"), out.constData());
        QVERIFY2(out.contains("error=Ingot is quitting: the system keychain did not answer."), out.constData());
        QTRY_COMPARE_WITH_TIMEOUT(resolve(m_config, &store).source, ResolvedToken::Source::Keychain, 120000);
        QVERIFY2(forgetToken(m_config, &store, &error), qPrintable(error));
    }
};

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet("INGOT_TST_KEYCHAIN_CHILD"))
        return quittingChild(argc, argv);
    QCoreApplication app(argc, argv);
    TestKeychain test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_keychain.moc"
