// RemoteHostSession against a real sshd on 127.0.0.1, without widgets: connect and disconnect; a server that goes away
// is shown as lost and retried with the backoff sequence (2, 4, 8, 16, 32, then 60 s: one "second" made short
// here) and reconnected when it is back; retry now skips the wait; disconnect stops the retries; an unknown host key
// is offered and recorded only when trusted; the folder script on existing, missing, linked and relative folders;
// the compile cache location asked of the host.
#include "services/remote/remotehosts.h"
#include "services/remote/remotehostsession.h"
#include "services/util/appsettings.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace ingot;
using ingot::test::TestSshd;
using State = RemoteHostSession::State;

namespace {

// What a session said, in order.
struct Recorder {
    QVector<int> delays;  // retryScheduled
    int reconnected = 0;
    QVector<HostKeyOffer> offers;
    QVector<CacheLocation> caches;
    QStringList folders;
    QVector<std::pair<QString, RemoteHostSession::FolderProblem>> failures;

    explicit Recorder(RemoteHostSession &s)
    {
        QObject::connect(&s, &RemoteHostSession::retryScheduled, &s, [this](int, int seconds) { delays << seconds; });
        QObject::connect(&s, &RemoteHostSession::reconnected, &s, [this] { ++reconnected; });
        QObject::connect(&s, &RemoteHostSession::hostKeyOffered, &s, [this](const HostKeyOffer &o) { offers << o; });
        QObject::connect(&s, &RemoteHostSession::compileCacheFound, &s, [this](const CacheLocation &l) { caches << l; });
        QObject::connect(&s, &RemoteHostSession::folderFound, &s, [this](const QString &p) { folders << p; });
        QObject::connect(&s, &RemoteHostSession::lookupFailed, &s,
                         [this](const QString &text, RemoteHostSession::FolderProblem p) { failures << std::make_pair(text, p); });
    }
    int answers() const { return int(folders.size() + failures.size()); }
};

}  // namespace

class TestRemoteHostSession : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSshd> m_sshd;  // "ingot-test": trusted
    QTemporaryDir m_tmp;
    QStringList m_blocks;

    void addToConfig(const QString &block)
    {
        m_blocks << block;
        const QString file = m_tmp.path() + QStringLiteral("/ssh_config");
        test::writeFile(file, m_blocks.join(QLatin1Char('\n')).toUtf8());
        AppSettings::setSshConfigFile(file);
        RemoteHosts::instance().reset();
    }

    static bool waitFor(RemoteHostSession &s, State state, int ms = 30000)
    {
        QElapsedTimer t;
        t.start();
        while (s.status().state != state && t.elapsed() < ms)
            QTest::qWait(20);
        if (s.status().state == state)
            return true;
        qWarning("state %d, wanted %d: %s %s", int(s.status().state), int(state), qPrintable(s.status().reason),
                 qPrintable(s.status().detail));
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // ingot-cli's settings (this test's own XDG_CONFIG_HOME): `remote connect` reads the same ssh config.
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        qunsetenv("SSH_AUTH_SOCK");  // keys come from the config only
        m_sshd = std::make_unique<TestSshd>();
        QString error;
        QVERIFY2(m_sshd->start(&error), qPrintable(error));
        QVERIFY(m_sshd->trustHostKey());
        addToConfig(m_sshd->configBlock());
    }

    void cleanupTestCase()
    {
        if (auto c = RemoteHosts::instance().connection(m_sshd->alias()))
            c->close();
    }

    void connectsAndDisconnects()
    {
        RemoteHostSession s(m_sshd->alias());
        QSignalSpy busy(&s, &RemoteHostSession::busyChanged);
        QCOMPARE(s.status().state, State::NotConnected);
        s.connectToHost();
        QCOMPARE(s.status().state, State::Connecting);
        QVERIFY(s.isBusy());
        QVERIFY(waitFor(s, State::Connected));
        QVERIFY(!s.isBusy());
        QVERIFY(busy.size() >= 2);
        QVERIFY(s.connection()->check());

        // Another session (another page, the CLI) finds the running master when it looks.
        RemoteHostSession other(m_sshd->alias());
        other.checkConnection();  // not meant to be connected: nothing is checked
        QVERIFY(!other.isChecking());
        QCOMPARE(other.status().state, State::NotConnected);
        other.checkConnection(true);
        QVERIFY(other.isChecking());
        QVERIFY(waitFor(other, State::Connected));

        s.disconnectFromHost();
        QVERIFY(waitFor(s, State::NotConnected));
        QVERIFY(!s.connection()->check());
    }

    void invalidHostFails()
    {
        RemoteHostSession s(QStringLiteral("-oProxyCommand=touch /tmp/ingot-pwned"));
        s.connectToHost();
        QCOMPARE(s.status().state, State::Failed);
        QCOMPARE(s.status().error, SshError::InvalidHost);
        QVERIFY(!s.status().detail.isEmpty());
    }

    void droppedConnectionIsRetriedWithBackoff()
    {
        TestSshd drop(QStringLiteral("ingot-drop"));
        QString error;
        QVERIFY2(drop.start(&error), qPrintable(error));
        QVERIFY(drop.trustHostKey());
        addToConfig(drop.configBlock());

        RemoteHostSession s(drop.alias());
        Recorder rec(s);
        s.setSecondMs(10);  // the waits of 2, 4, 8, 16, 32, 60 s last 20 … 600 ms
        s.setCheckIntervalMs(100);
        QCOMPARE(RemoteHostSession::defaultRetryDelays(), (QVector<int>{2, 4, 8, 16, 32, 60}));
        s.connectToHost();
        QVERIFY(waitFor(s, State::Connected));

        drop.stop();  // the server goes away
        QVERIFY(waitFor(s, State::Lost, 15000));
        QCOMPARE(s.status().error, SshError::ConnectionLost);
        QVERIFY(!s.status().detail.isEmpty());
        // Attempts fail while it is down; each failure plans the next, longer wait; the last one repeats.
        QTRY_VERIFY_WITH_TIMEOUT(rec.delays.size() >= 8, 60000);
        QCOMPARE(rec.delays.mid(0, 8), (QVector<int>{2, 4, 8, 16, 32, 60, 60, 60}));
        QCOMPARE(s.status().state, State::Lost);
        QCOMPARE(rec.reconnected, 0);
        QCOMPARE(drop.acceptedLogins(), 1);

        QVERIFY2(drop.restart(&error), qPrintable(error));
        QVERIFY(waitFor(s, State::Connected, 30000));
        QCOMPARE(rec.reconnected, 1);
        QCOMPARE(drop.acceptedLogins(), 2);
        QCOMPARE(s.status().retryInSeconds, -1);

        // Dropped again: the backoff starts over at the first wait.
        const int before = int(rec.delays.size());
        drop.stop();
        QTRY_VERIFY_WITH_TIMEOUT(rec.delays.size() > before, 15000);
        QCOMPARE(rec.delays.at(before), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!s.isBusy(), 15000);  // disconnect waits for an attempt under way, as the page's action
        s.disconnectFromHost();
        QVERIFY(waitFor(s, State::NotConnected));
        s.connection()->close();
    }

    void retryNowAndDisconnectStopsRetries()
    {
        TestSshd drop(QStringLiteral("ingot-retry"));
        QString error;
        QVERIFY2(drop.start(&error), qPrintable(error));
        QVERIFY(drop.trustHostKey());
        addToConfig(drop.configBlock());

        RemoteHostSession s(drop.alias());
        Recorder rec(s);
        s.setRetryDelays({1000});  // seconds: only "retry now" can bring it back within the test
        s.setCheckIntervalMs(100);
        s.connectToHost();
        QVERIFY(waitFor(s, State::Connected));
        drop.stop();
        QVERIFY(waitFor(s, State::Lost, 15000));
        QCOMPARE(rec.delays, QVector<int>{1000});
        QTRY_VERIFY_WITH_TIMEOUT(s.status().retryInSeconds > 990 && s.status().retryInSeconds <= 1000, 5000);

        QVERIFY2(drop.restart(&error), qPrintable(error));
        s.connectToHost();  // retry now
        QVERIFY(waitFor(s, State::Connected, 30000));
        QCOMPARE(rec.reconnected, 1);
        QCOMPARE(rec.delays, QVector<int>{1000});

        // Lost again, then disconnected: no attempt follows, however long it waits.
        s.setRetryDelays({2});
        s.setSecondMs(10);
        drop.stop();
        QVERIFY(waitFor(s, State::Lost, 15000));
        s.disconnectFromHost();
        QVERIFY(waitFor(s, State::NotConnected));
        const int planned = int(rec.delays.size());
        QCOMPARE(s.status().retryInSeconds, -1);  // no attempt planned
        QTRY_VERIFY_WITH_TIMEOUT(!s.isBusy(), 10000);
        QCOMPARE(s.status().state, State::NotConnected);
        QCOMPARE(int(rec.delays.size()), planned);
    }

    void unknownHostKeyIsOfferedAndRecordedOnlyWhenTrusted()
    {
        TestSshd other(QStringLiteral("ingot-newkey"));
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        addToConfig(other.configBlock());
        const QByteArray before = test::readFile(other.knownHostsFile());

        RemoteHostSession quiet(other.alias());  // the CLI off a terminal: never asks
        Recorder quietRec(quiet);
        quiet.setAsksHostKeys(false);
        quiet.connectToHost();
        QVERIFY(waitFor(quiet, State::Failed));
        QCOMPARE(quiet.status().error, SshError::HostKeyUnknown);
        QVERIFY(quietRec.offers.isEmpty());

        RemoteHostSession s(other.alias());
        Recorder rec(s);
        s.connectToHost();
        QTRY_COMPARE_WITH_TIMEOUT(rec.offers.size(), 1, 30000);
        QCOMPARE(rec.offers.first().fingerprint, other.hostKeyFingerprint());
        s.rejectHostKey();
        QCOMPARE(s.status().state, State::Failed);
        QCOMPARE(s.status().error, SshError::HostKeyUnknown);
        QCOMPARE(test::readFile(other.knownHostsFile()), before);
        s.trustHostKey(rec.offers.first());  // too late: the question is closed, nothing is started
        QVERIFY(!s.isBusy());
        QCOMPARE(s.status().state, State::Failed);
        QCOMPARE(test::readFile(other.knownHostsFile()), before);

        s.connectToHost();
        QTRY_COMPARE_WITH_TIMEOUT(rec.offers.size(), 2, 30000);
        s.trustHostKey(rec.offers.last());
        QVERIFY(waitFor(s, State::Connected));
        QCOMPARE(test::readFile(other.knownHostsFile()), before + other.hostKeyLine().toLatin1() + '\n');
        QCOMPARE(other.acceptedLogins(), 1);
        s.disconnectFromHost();
        QVERIFY(waitFor(s, State::NotConnected));
    }

    void folderChecks()
    {
        using P = RemoteHostSession::FolderProblem;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.path() + QStringLiteral("/cache");
        QVERIFY(QDir().mkpath(folder));
        const QString odd = dir.path() + QStringLiteral("/a cache 'ü' $HOME");  // the argument's bytes, not shell words
        QVERIFY(QDir().mkpath(odd));
        const QString link = dir.path() + QStringLiteral("/link");
        QVERIFY(QFile::link(folder, link));
        const QString dangling = dir.path() + QStringLiteral("/dangling");
        QVERIFY(QFile::link(dir.path() + QStringLiteral("/gone"), dangling));
        test::writeFile(dir.path() + QStringLiteral("/file"), "x");

        RemoteHostSession s(m_sshd->alias());
        Recorder rec(s);
        s.checkFolder(folder);  // connects first
        QTRY_COMPARE_WITH_TIMEOUT(rec.answers(), 1, 30000);
        QCOMPARE(s.status().state, State::Connected);
        QCOMPARE(rec.folders, QStringList{folder});
        QVERIFY(!s.isLookingUp());

        const QVector<std::pair<QString, P>> bad = {
            {dir.path() + QStringLiteral("/no-such-cache"), P::Missing},
            {dangling, P::NotAFolder},
            {dir.path() + QStringLiteral("/file"), P::NotAFolder},
            {QStringLiteral("relative/cache"), P::NotAbsolute},
        };
        for (const auto &[path, problem] : bad) {
            const int n = rec.answers();
            s.checkFolder(path);
            QVERIFY(s.isLookingUp());
            QTRY_COMPARE_WITH_TIMEOUT(rec.answers(), n + 1, 30000);
            QCOMPARE(rec.folders.size(), 1);
            QCOMPARE(int(rec.failures.last().second), int(problem));
            QVERIFY(!rec.failures.last().first.isEmpty());
        }
        QVERIFY(rec.failures.first().first.contains(QStringLiteral("no folder")));

        // A link to a folder is one (opened as typed); ~ is the home folder there; odd names are names.
        s.checkFolder(link);
        QTRY_COMPARE_WITH_TIMEOUT(rec.answers(), 6, 30000);
        QCOMPARE(rec.folders.size(), 2);
        QCOMPARE(rec.folders.last(), link);
        s.checkFolder(QStringLiteral("~"));
        QTRY_COMPARE_WITH_TIMEOUT(rec.answers(), 7, 30000);
        QVERIFY2(rec.folders.size() == 3, qPrintable(rec.failures.last().first));
        QVERIFY(rec.folders.last().startsWith(QLatin1Char('/')));
        QVERIFY(QFileInfo(rec.folders.last()).isDir());
        s.checkFolder(odd);
        QTRY_COMPARE_WITH_TIMEOUT(rec.answers(), 8, 30000);
        QVERIFY2(rec.folders.size() == 4, qPrintable(rec.failures.last().first));
        QCOMPARE(rec.folders.last(), odd);
        QCOMPARE(s.status().state, State::Connected);
    }

    // `ingot-cli remote connect` goes through a session: the master it leaves running is found by the next one;
    // off a terminal an unknown key is not asked about (exit 11, nothing recorded); a bad name is a usage error.
    void theCliConnectsThroughASession()
    {
        if (auto c = RemoteHosts::instance().connection(m_sshd->alias()))
            c->close();
        const test::ProgramRun ok = test::runProgram(QStringLiteral(INGOT_CLI_PATH),
                                                     {QStringLiteral("remote"), QStringLiteral("connect"), m_sshd->alias()});
        QVERIFY2(ok.code == 0, ok.err.constData());
        QVERIFY(ok.out.contains("Connected to"));
        RemoteHostSession s(m_sshd->alias());
        s.checkConnection(true);
        QVERIFY(waitFor(s, State::Connected));

        TestSshd other(QStringLiteral("ingot-cli-newkey"));
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        addToConfig(other.configBlock());
        const QByteArray before = test::readFile(other.knownHostsFile());
        const test::ProgramRun unknown = test::runProgram(QStringLiteral(INGOT_CLI_PATH),
                                                          {QStringLiteral("remote"), QStringLiteral("connect"), other.alias()});
        QCOMPARE(unknown.code, 11);
        QVERIFY2(unknown.err.contains("Not a terminal"), unknown.err.constData());
        QCOMPARE(test::readFile(other.knownHostsFile()), before);
        QCOMPARE(other.acceptedLogins(), 0);

        const test::ProgramRun bad = test::runProgram(QStringLiteral(INGOT_CLI_PATH),
                                                      {QStringLiteral("remote"), QStringLiteral("connect"), QStringLiteral("host;reboot")});
        QCOMPARE(bad.code, 2);
    }

    void compileCacheIsAskedOfTheHost()
    {
        RemoteHostSession s(m_sshd->alias());
        Recorder rec(s);
        s.lookupCompileCache();
        QTRY_COMPARE_WITH_TIMEOUT(rec.caches.size() + rec.failures.size(), 1, 30000);
        QVERIFY2(rec.failures.isEmpty(), qPrintable(rec.failures.value(0).first));
        QCOMPARE(rec.caches.first().path, CacheLocation::defaultPath());
        QVERIFY(rec.caches.first().explanation.contains(QStringLiteral("Neuron default")));

        // A lookup no longer wanted says nothing: the one asked after it is the only one answered.
        s.lookupCompileCache();
        s.cancelLookup();
        QVERIFY(!s.isLookingUp());
        s.lookupCompileCache();
        QTRY_VERIFY_WITH_TIMEOUT(!s.isLookingUp(), 30000);
        QCOMPARE(rec.caches.size() + rec.failures.size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestRemoteHostSession)
#include "tst_remotehostsession.moc"
