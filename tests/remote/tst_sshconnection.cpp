// SshConnection against a real OpenSSH server (TestSshd): commands through one multiplexed master, quoting round
// trips, exit codes, bounded output, host keys (unknown: refused until accepted; changed: refused, known_hosts
// untouched), a server that dies and comes back, and hosts that try to be ssh options.
#include "services/util/shellquote.h"
#include "services/remote/sshconnection.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QDir>
#include <QMutex>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ingot;
using ingot::test::TestSshd;

namespace {

SshClientConfig clientFor(const TestSshd &sshd)
{
    SshClientConfig c;
    c.configFile = sshd.sshConfigFile();
    return c;
}

// Whether `dir` is a private folder of this user's: a folder (not a link, none on its path), owned by the effective
// user, mode 0700.
bool isPrivateFolder(const QString &dir)
{
    struct stat st {};
    const QByteArray d = QFile::encodeName(dir);
    return !dir.isEmpty() && ::lstat(d.constData(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid()
           && (st.st_mode & 0777) == 0700 && QFileInfo(dir).canonicalFilePath() == QDir::cleanPath(dir);
}

// A folder another local user made: open to everyone; as root, also owned by nobody.
void makeForeignFolder(const QString &dir)
{
    QDir().mkpath(dir);
    ::chmod(QFile::encodeName(dir).constData(), 0777);
    if (::geteuid() == 0)
        QVERIFY(::chown(QFile::encodeName(dir).constData(), 65534, 65534) == 0);
}

SshHost hostFor(const QString &text)
{
    SshHost h;
    QString error;
    if (!parseSshHost(text, &h, &error))
        qFatal("bad test host");
    return h;
}

// Answers prompts from a list (nullopt: cancel), and remembers what was asked.
class ScriptedAskPass final : public AskPass
{
public:
    explicit ScriptedAskPass(QList<std::optional<QByteArray>> answers) : m_answers(std::move(answers)) {}
    std::optional<QByteArray> ask(const QString &prompt) override
    {
        QMutexLocker lock(&m_mutex);
        m_prompts << prompt;
        return m_answers.isEmpty() ? std::nullopt : m_answers.takeFirst();
    }
    QStringList prompts() const
    {
        QMutexLocker lock(&m_mutex);
        return m_prompts;
    }

private:
    mutable QMutex m_mutex;
    QList<std::optional<QByteArray>> m_answers;
    QStringList m_prompts;
};

}  // namespace

class TestSshConnection : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSshd> m_sshd;  // trusted: its key is in its known_hosts
    std::unique_ptr<SshConnection> m_conn;

private slots:
    void initTestCase()
    {
        m_sshd = std::make_unique<TestSshd>();
        QString error;
        QVERIFY2(m_sshd->start(&error), qPrintable(error));
        QVERIFY(m_sshd->trustHostKey());
        m_conn = std::make_unique<SshConnection>(hostFor(m_sshd->alias()), clientFor(*m_sshd), 60);
    }

    void cleanupTestCase()
    {
        if (m_conn)
            m_conn->close();
    }

    void resolvesTheAlias()
    {
        SshResolved r;
        QString error;
        QVERIFY2(resolveSshHost(clientFor(*m_sshd), hostFor(m_sshd->alias()), &r, &error), qPrintable(error));
        QCOMPARE(r.hostname, QStringLiteral("127.0.0.1"));
        QCOMPARE(r.port, m_sshd->port());
        QCOMPARE(r.user, m_sshd->userName());
        QCOMPARE(r.userKnownHostsFiles.value(0), m_sshd->knownHostsFile());
    }

    void connectsAndReusesTheMaster()
    {
        QCOMPARE(m_conn->state(), SshConnection::State::NotConnected);
        const int loginsBefore = m_sshd->acceptedLogins();
        QVERIFY2(m_conn->connect(), qPrintable(m_conn->errorText()));
        QCOMPARE(m_conn->state(), SshConnection::State::Connected);
        QVERIFY(m_conn->check());
        for (int i = 0; i < 5; ++i) {
            const SshResult r = m_conn->run(QStringLiteral("echo hello"));
            QVERIFY2(r.ok(), qPrintable(r.errorText));
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(r.out, QByteArray("hello\n"));
        }
        // One authentication for the master; the runs went through it.
        QCOMPARE(m_sshd->acceptedLogins(), loginsBefore + 1);
        QVERIFY(QFile::exists(SshConnection::controlDir()));
        QCOMPARE(QFile::permissions(SshConnection::controlDir()) & 0x077, QFileDevice::Permissions());
    }

    void aSpoiledTemporaryFolderIsNotUsedForTheControlSocket()
    {
        // Issue 21: without a usable runtime folder (another user made $TMPDIR/runtime-<user> first, or after su),
        // the control socket went to $TMPDIR/ingot-ssh whoever had made it: another user swapped in a fake master.
        const QByteArray oldRuntime = qgetenv("XDG_RUNTIME_DIR"), oldTmp = qgetenv("TMPDIR");
        QTemporaryDir tmp;
        const QString t = tmp.path();
        makeForeignFolder(t + QStringLiteral("/attacker"));
        const passwd *pw = ::getpwuid(::geteuid());
        const QString runtime = t + QStringLiteral("/runtime-") + QString::fromLocal8Bit(pw ? pw->pw_name : "x");
        if (::geteuid() == 0)
            makeForeignFolder(runtime);  // Qt refuses a runtime folder of someone else's
        else
            QVERIFY(QFile::link(t + QStringLiteral("/attacker"), runtime));  // nor may a link be used
        QVERIFY(QFile::link(t + QStringLiteral("/attacker"), t + QStringLiteral("/ingot-ssh")));
        qunsetenv("XDG_RUNTIME_DIR");
        qputenv("TMPDIR", QFile::encodeName(t));
        QString error;
        const QString dir = SshConnection::controlDir(&error);
        qputenv("XDG_RUNTIME_DIR", oldRuntime);
        qputenv("TMPDIR", oldTmp);
        QVERIFY2(isPrivateFolder(dir), qPrintable(dir + QLatin1Char(' ') + error));
        QVERIFY(!dir.startsWith(t + QStringLiteral("/ingot-ssh/")) && dir != t + QStringLiteral("/ingot-ssh"));
        QVERIFY(!dir.startsWith(runtime));
        QCOMPARE(QDir(t + QStringLiteral("/attacker")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 0);
    }

    void onlyAFolderOfOurOwnHoldsTheControlSocket()
    {
        QTemporaryDir tmp(QStringLiteral("/tmp/ic-XXXXXX"));  // short: a socket path in it fits
        const QString t = tmp.path();
        const QString attacker = t + QStringLiteral("/attacker");
        makeForeignFolder(attacker);
        QString error;
        // A runtime folder that is a link, a shared folder that is a link: neither is used; a folder of this
        // process's own is made with mkdtemp, and the same one is given again.
        QVERIFY(QFile::link(attacker, t + QStringLiteral("/runtime-link")));
        QVERIFY(QFile::link(attacker, t + QStringLiteral("/shared-link")));
        const QString made = SshConnection::chooseControlDir(t + QStringLiteral("/runtime-link"),
                                                             t + QStringLiteral("/shared-link"), t, &error);
        QVERIFY2(isPrivateFolder(made), qPrintable(made + QLatin1Char(' ') + error));
        QVERIFY(made.startsWith(t + QStringLiteral("/ingot-ssh-%1.").arg(::geteuid())));
        QCOMPARE(SshConnection::chooseControlDir(QString(), t + QStringLiteral("/shared-link"), t, &error), made);
        QCOMPARE(QDir(attacker).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 0);
        // A shared folder open to others (or, as root, someone else's) is not used, nor its mode changed.
        const QString open = t + QStringLiteral("/open");
        makeForeignFolder(open);
        QCOMPARE(SshConnection::chooseControlDir(QString(), open, t, &error), made);
        QCOMPARE(QFileInfo(open).permissions() & QFileDevice::WriteOther, QFileDevice::WriteOther);
        // A runtime folder of someone else's, or one whose ingot-ssh is a link or open to others: not used.
        QCOMPARE(SshConnection::chooseControlDir(attacker, QString(), t, &error), made);
        const QString rt = t + QStringLiteral("/rt");
        QVERIFY(QDir().mkpath(rt));
        QVERIFY(QFile::setPermissions(rt, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        QVERIFY(QFile::link(attacker, rt + QStringLiteral("/ingot-ssh")));
        QCOMPARE(SshConnection::chooseControlDir(rt, QString(), t, &error), made);
        QVERIFY(QFile::remove(rt + QStringLiteral("/ingot-ssh")));
        makeForeignFolder(rt + QStringLiteral("/ingot-ssh"));
        QCOMPARE(SshConnection::chooseControlDir(rt, QString(), t, &error), made);
        QVERIFY(QDir(rt + QStringLiteral("/ingot-ssh")).removeRecursively());
        // A good runtime folder: its ingot-ssh, made 0700; a good shared one: used as it is.
        QCOMPARE(SshConnection::chooseControlDir(rt, QString(), t, &error), rt + QStringLiteral("/ingot-ssh"));
        QVERIFY(isPrivateFolder(rt + QStringLiteral("/ingot-ssh")));
        QCOMPARE(SshConnection::chooseControlDir(QString(), t + QStringLiteral("/shared"), t, &error),
                 t + QStringLiteral("/shared"));
        QVERIFY(isPrivateFolder(t + QStringLiteral("/shared")));
        // Nowhere to make one: a clear error, no folder.
        QCOMPARE(SshConnection::chooseControlDir(QString(), open, t + QStringLiteral("/m"), &error), QString());
        QVERIFY(error.contains(QStringLiteral("private folder")));
    }

    void aDeepRuntimeFolderFallsBackToAShortOne()
    {
        // A runtime folder too deep for a unix socket path (108 bytes): the control socket goes to a short folder of
        // this user's (0700) and connecting still works.
        const QByteArray old = qgetenv("XDG_RUNTIME_DIR");
        QTemporaryDir deep(QDir::tempPath() + QStringLiteral("/") + QString(60, QLatin1Char('r')) + QStringLiteral("-XXXXXX"));
        QFile::setPermissions(deep.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(deep.path()));
        const QString dir = SshConnection::controlDir();
        QVERIFY2(QFile::encodeName(dir).size() + 1 + 40 + 17 < 108, qPrintable(dir));
        QVERIFY(!dir.startsWith(deep.path()));
        QCOMPARE(QFile::permissions(dir) & 0x077, QFileDevice::Permissions());
        SshConnection c(hostFor(m_sshd->alias()), clientFor(*m_sshd), 10);
        const bool connected = c.connect(15000);
        const QString why = c.errorText();
        // Not closed: where the test's own runtime folder is too deep as well, this master is the one the other
        // tests share (ControlPersist ends it).
        qputenv("XDG_RUNTIME_DIR", old);
        QVERIFY2(connected, qPrintable(why));
    }

    void quotingRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("space") << QByteArray("a b");
        QTest::newRow("quote") << QByteArray("it's");
        QTest::newRow("double quotes") << QByteArray("say \"hi\"");
        QTest::newRow("newlines") << QByteArray("line1\nline2\n\n");
        QTest::newRow("dollar") << QByteArray("$HOME $(id) ${PATH}");
        QTest::newRow("backticks") << QByteArray("`touch /tmp/ingot-pwned`");
        QTest::newRow("backslashes") << QByteArray("C:\\dir\\");
        QTest::newRow("not utf8") << QByteArray("caf\xe9\xff\xfe");
        QTest::newRow("glob") << QByteArray("*");
        QTest::newRow("option-like") << QByteArray("-e");
        QTest::newRow("empty") << QByteArray();
    }
    void quotingRoundTrips()
    {
        QFETCH(QByteArray, bytes);
        const std::optional<QString> arg = shellQuoteBytes(bytes);
        QVERIFY(arg);
        const SshResult r = m_conn->run(QStringLiteral("printf '%s|' ") + *arg + QStringLiteral(" \"it's\""));
        QVERIFY2(r.ok(), qPrintable(r.errorText));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, bytes + "|it's|");
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/ingot-pwned")));
    }

    void stdinAndExitCodesPassThrough()
    {
        SshResult r = m_conn->run(QStringLiteral("cat; exit 7"), QByteArray("from stdin\n\x00\xff", 13));
        QVERIFY2(r.ok(), qPrintable(r.errorText));
        QCOMPARE(r.exitCode, 7);
        QCOMPARE(r.out, QByteArray("from stdin\n\x00\xff", 13));
        r = m_conn->run(QStringLiteral("echo oops >&2; exit 3"));
        QVERIFY(r.ok());
        QVERIFY(!r.succeeded());
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.err, QByteArray("oops\n"));
        // 255 from the command itself is not an ssh failure.
        r = m_conn->run(QStringLiteral("exit 255"));
        QVERIFY(r.ok());
        QCOMPARE(r.exitCode, 255);
    }

    void outputOverTheLimitIsAnError()
    {
        SshResult r = m_conn->run(QStringLiteral("head -c 100000 /dev/zero"), {}, 30000, 1000);
        QCOMPARE(r.error, SshError::OutputTooLarge);
        QVERIFY(r.out.size() <= 1000);
        QVERIFY(!r.errorText.isEmpty());
        r = m_conn->run(QStringLiteral("head -c 100000 /dev/zero >&2"), {}, 30000, 1000);
        QCOMPARE(r.error, SshError::OutputTooLarge);
        // Endless output stops too.
        r = m_conn->run(QStringLiteral("yes"), {}, 30000, 1 << 20);
        QCOMPARE(r.error, SshError::OutputTooLarge);
        // Exactly the limit is fine.
        r = m_conn->run(QStringLiteral("head -c 1000 /dev/zero"), {}, 30000, 1000);
        QVERIFY2(r.ok(), qPrintable(r.errorText));
        QCOMPARE(r.out.size(), 1000);
    }

    void timeoutStopsTheCommand()
    {
        QElapsedTimer t;
        t.start();
        const SshResult r = m_conn->run(QStringLiteral("sleep 30"), {}, 1000);
        QCOMPARE(r.error, SshError::Timeout);
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(m_conn->run(QStringLiteral("true")).succeeded());
    }

    void hostThatLooksLikeAnOptionIsRefused()
    {
        const QString evil = QStringLiteral("/tmp/ingot-pwned-%1").arg(QCoreApplication::applicationPid());
        QFile::remove(evil);
        SshHost h;
        QString error;
        QVERIFY(!parseSshHost(QStringLiteral("-oProxyCommand=touch ") + evil, &h, &error));
        QVERIFY(!parseSshHost(QStringLiteral("-oProxyCommand=touch_") + evil.mid(5), &h, &error));
        // Even an unchecked SshHost reaches ssh only after "--": ssh takes it as a host name, never an option.
        SshHost raw;
        raw.destination = QStringLiteral("-oProxyCommand=touch ") + evil;
        SshConnection c(raw, clientFor(*m_sshd), 5);
        const SshResult r = c.run(QStringLiteral("true"), {}, 15000);
        QVERIFY(!r.ok());
        QVERIFY(!QFile::exists(evil));
        SshConnection invalid(SshHost(), clientFor(*m_sshd), 5);
        QVERIFY(!invalid.connect());
        QCOMPARE(invalid.error(), SshError::InvalidHost);
    }

    void connectionRefusedIsNamed()
    {
        SshConnection c(hostFor(QStringLiteral("127.0.0.1:1")), clientFor(*m_sshd), 5);
        QVERIFY(!c.connect(10000));
        QCOMPARE(c.state(), SshConnection::State::Failed);
        QCOMPARE(c.error(), SshError::ConnectionRefused);
        QVERIFY(c.errorText().contains(QStringLiteral("refused")));
    }

    void authenticationFailureIsNamed()
    {
        // A user that does not exist there: the server accepts no key.
        SshConnection c(hostFor(QStringLiteral("ingot-no-such-user@") + m_sshd->alias()), clientFor(*m_sshd), 5);
        QVERIFY(!c.connect(15000));
        QCOMPARE(c.error(), SshError::AuthenticationFailed);
    }

    void unknownHostKeyNeedsConsent()
    {
        TestSshd other(QStringLiteral("ingot-other"));
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        const QByteArray before = test::readFile(other.knownHostsFile());
        SshConnection c(hostFor(other.alias()), clientFor(other), 5);
        QVERIFY(!c.connect(15000));
        QCOMPARE(c.error(), SshError::HostKeyUnknown);
        QCOMPARE(test::readFile(other.knownHostsFile()), before);
        QCOMPARE(c.run(QStringLiteral("true")).error, SshError::HostKeyUnknown);

        HostKeyOffer offer;
        QVERIFY2(c.scanHostKey(&offer, &error), qPrintable(error));
        QCOMPARE(offer.fingerprint, other.hostKeyFingerprint());
        QCOMPARE(offer.keyType, QStringLiteral("ED25519"));
        QCOMPARE(offer.knownHostsFile, other.knownHostsFile());
        QCOMPARE(QString::fromLatin1(offer.knownHostsLine), other.hostKeyLine());
        // Scanning wrote nothing, and no authentication was tried.
        QCOMPARE(test::readFile(other.knownHostsFile()), before);
        QCOMPARE(other.acceptedLogins(), 0);
        QVERIFY(!c.connect(15000));

        // The user said yes.
        QVERIFY2(c.acceptHostKey(offer, &error), qPrintable(error));
        QCOMPARE(test::readFile(other.knownHostsFile()), before + offer.knownHostsLine + '\n');
        QVERIFY2(c.connect(15000), qPrintable(c.errorText()));
        QVERIFY(c.run(QStringLiteral("true")).succeeded());
        // Accepting again adds nothing.
        QVERIFY(c.acceptHostKey(offer, &error));
        QCOMPARE(test::readFile(other.knownHostsFile()), before + offer.knownHostsLine + '\n');
        c.close();
        QCOMPARE(c.state(), SshConnection::State::NotConnected);
        QVERIFY(!c.check());
    }

    void changedHostKeyIsRefused()
    {
        TestSshd other(QStringLiteral("ingot-changed"));
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        QVERIFY(other.trustHostKey());
        SshConnection c(hostFor(other.alias()), clientFor(other), 5);
        QVERIFY2(c.connect(15000), qPrintable(c.errorText()));
        c.close();
        // Same host and port, a new key: a reinstalled host, or someone in between.
        other.stop();
        QVERIFY(other.replaceHostKey(&error));
        QVERIFY(other.restart(&error));
        const QByteArray before = test::readFile(other.knownHostsFile());
        QVERIFY(!c.connect(15000));
        QCOMPARE(c.error(), SshError::HostKeyChanged);
        QVERIFY(c.errorText().contains(QStringLiteral("CHANGED")));
        QVERIFY(c.errorText().contains(QStringLiteral("man-in-the-middle")));
        QCOMPARE(c.run(QStringLiteral("true")).error, SshError::HostKeyChanged);
        QCOMPARE(test::readFile(other.knownHostsFile()), before);
        QCOMPARE(other.acceptedLogins(), 1);  // only the login before the change
    }

    void serverDiesAndComesBack()
    {
        QVERIFY(m_conn->run(QStringLiteral("true")).succeeded());
        m_sshd->kill();
        const SshResult r = m_conn->run(QStringLiteral("true"), {}, 15000);
        QVERIFY(!r.ok());
        QVERIFY2(r.error == SshError::ConnectionRefused || r.error == SshError::ConnectionLost,
                 qPrintable(r.errorText));
        QVERIFY(!r.errorText.isEmpty());
        QVERIFY(m_conn->state() != SshConnection::State::Connected);
        QString error;
        QVERIFY2(m_sshd->restart(&error), qPrintable(error));
        const SshResult again = m_conn->run(QStringLiteral("echo back"));
        QVERIFY2(again.ok(), qPrintable(again.errorText));
        QCOMPARE(again.out, QByteArray("back\n"));
        QCOMPARE(m_conn->state(), SshConnection::State::Connected);
    }

    void passphraseIsAskedNeverStored()
    {
        // The same server, logged into with the key that has a passphrase.
        QTemporaryDir dir;
        SshClientConfig client;
        client.configFile = dir.path() + QStringLiteral("/ssh_config");
        client.askPassProgram = QStringLiteral(INGOT_ASKPASS_PATH);
        QByteArray config = test::readFile(m_sshd->sshConfigFile());
        config.replace(QFile::encodeName(m_sshd->identityFile()), QFile::encodeName(m_sshd->passphraseIdentityFile()));
        test::writeFile(client.configFile, config);
        const QByteArray secret = TestSshd::passphrase().toUtf8();
        SshConnection c(hostFor(m_sshd->alias()), client, 5);
        // Connections to the same user, host and port share one master (ControlPath %C): end the other one's.
        m_conn->close();
        QVERIFY(!c.check());

        // Without an AskPass ssh never prompts: the key cannot be used.
        QVERIFY(!c.connect(15000));
        QCOMPARE(c.error(), SshError::AuthenticationFailed);
        // The user cancels.
        ScriptedAskPass cancel({std::nullopt});
        QVERIFY(!c.connect(15000, &cancel));
        QCOMPARE(c.error(), SshError::AuthenticationFailed);
        QCOMPARE(cancel.prompts().size(), 1);
        // A wrong passphrase, then the right one.
        const int logins = m_sshd->acceptedLogins();
        ScriptedAskPass ask({QByteArray("wrong"), secret});
        QVERIFY2(c.connect(15000, &ask), qPrintable(c.errorText()));
        QCOMPARE(ask.prompts().size(), 2);
        QVERIFY2(ask.prompts().at(0).contains(QStringLiteral("passphrase")), qPrintable(ask.prompts().at(0)));
        QVERIFY(ask.prompts().at(0).contains(m_sshd->passphraseIdentityFile()));
        QCOMPARE(m_sshd->acceptedLogins(), logins + 1);
        QVERIFY(c.run(QStringLiteral("true")).succeeded());
        // The master needs no passphrase again.
        QVERIFY(c.connect(15000));
        QCOMPARE(ask.prompts().size(), 2);
        // The secret is nowhere: not in the server's log, the error texts, the files of the test.
        QVERIFY(!m_sshd->log().toUtf8().contains(secret));
        QVERIFY(!c.errorText().toUtf8().contains(secret));
        QVERIFY(!test::readFile(client.configFile).contains(secret));
        // The private folders of the prompts are gone.
        QCOMPARE(QDir(SshConnection::controlDir()).entryList({QStringLiteral("ap-*")}, QDir::Dirs).size(), 0);
        c.close();
    }

    void theAgentIsUsedWhenPresent()
    {
        // The key with a passphrase, held unlocked by a real ssh-agent: no prompt, no AskPass, BatchMode.
        QTemporaryDir dir;
        SshClientConfig client;
        client.configFile = dir.path() + QStringLiteral("/ssh_config");
        QByteArray config = test::readFile(m_sshd->sshConfigFile());
        config.replace(QFile::encodeName(m_sshd->identityFile()), QFile::encodeName(m_sshd->passphraseIdentityFile()));
        test::writeFile(client.configFile, config);
        const QString socket = dir.path() + QStringLiteral("/agent.sock");
        QProcess agent;
        agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), socket});
        QVERIFY(agent.waitForStarted(10000));
        for (int i = 0; i < 500 && !QFile::exists(socket); ++i)
            QTest::qWait(10);
        QVERIFY(QFile::exists(socket));
        // ssh-add reads the passphrase from an askpass script (this test's, not Ingot's: it is the user's own step).
        const QString script = dir.path() + QStringLiteral("/pass.sh");
        test::writeFile(script, "#!/bin/sh\nprintf '%s\\n' '" + TestSshd::passphrase().toUtf8() + "'\n");
        QFile::setPermissions(script, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        QProcess add;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SSH_AUTH_SOCK"), socket);
        env.insert(QStringLiteral("SSH_ASKPASS"), script);
        env.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("force"));
        add.setProcessEnvironment(env);
        add.setStandardInputFile(QProcess::nullDevice());
        add.start(QStringLiteral("ssh-add"), {m_sshd->passphraseIdentityFile()});
        QVERIFY(add.waitForFinished(20000));
        QVERIFY2(add.exitCode() == 0, add.readAllStandardError().constData());

        m_conn->close();  // the same user, host and port share one master
        const QByteArray before = qgetenv("SSH_AUTH_SOCK");
        SshConnection c(hostFor(m_sshd->alias()), client, 5);
        qunsetenv("SSH_AUTH_SOCK");
        QVERIFY(!c.connect(15000));  // no agent: the key needs its passphrase
        QCOMPARE(c.error(), SshError::AuthenticationFailed);
        qputenv("SSH_AUTH_SOCK", QFile::encodeName(socket));
        const bool connected = c.connect(15000);
        const QString why = c.errorText();
        c.close();
        if (before.isEmpty())
            qunsetenv("SSH_AUTH_SOCK");
        else
            qputenv("SSH_AUTH_SOCK", before);
        agent.terminate();
        agent.waitForFinished(5000);
        QVERIFY2(connected, qPrintable(why));
    }

    void askPassHelperRefusesOutsideIngot()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("INGOT_ASKPASS_SOCKET"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(INGOT_ASKPASS_PATH), {QStringLiteral("Password: ")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }

    void throughAJumpHost()
    {
        TestSshd behind(QStringLiteral("ingot-behind"), m_sshd.get());
        QString error;
        QVERIFY2(behind.start(&error), qPrintable(error));
        QVERIFY(behind.trustHostKey());
        SshConnection c(hostFor(behind.alias()), clientFor(behind), 5);
        SshResolved r;
        QVERIFY(resolveSshHost(clientFor(behind), c.host(), &r, &error));
        QCOMPARE(r.proxyJump, m_sshd->alias());
        const int jumpLogins = m_sshd->acceptedLogins();
        QVERIFY2(c.connect(15000), qPrintable(c.errorText()));
        const SshResult run = c.run(QStringLiteral("echo behind"));
        QVERIFY2(run.succeeded(), qPrintable(run.errorText));
        QCOMPARE(run.out, QByteArray("behind\n"));
        QCOMPARE(behind.acceptedLogins(), 1);
        QCOMPARE(m_sshd->acceptedLogins(), jumpLogins + 1);
        c.close();
    }
};

QTEST_GUILESS_MAIN(TestSshConnection)
#include "tst_sshconnection.moc"
