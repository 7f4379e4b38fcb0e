// Hosts the user types, the Host lists of ssh configs (Include, wildcards, a config that includes itself), `ssh -G`
// output, and shell quoting checked against a real /bin/sh: every byte arrives as it was.
#include "services/util/shellquote.h"
#include "services/remote/sshhost.h"
#include "services/remote/sshresolve.h"
#include "services/remote/sshstream.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace ingot;

class TestSshHost : public QObject
{
    Q_OBJECT

private slots:
    void parsesWhatUsersType_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("destination");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("port");
        QTest::newRow("alias") << QStringLiteral("trn1-dev") << QStringLiteral("trn1-dev") << QString() << 0;
        QTest::newRow("user@host") << QStringLiteral("ubuntu@10.0.0.5") << QStringLiteral("10.0.0.5")
                                   << QStringLiteral("ubuntu") << 0;
        QTest::newRow("user@host:port") << QStringLiteral("ec2-user@trn.example.com:2222")
                                        << QStringLiteral("trn.example.com") << QStringLiteral("ec2-user") << 2222;
        QTest::newRow("host:port") << QStringLiteral("host:22") << QStringLiteral("host") << QString() << 22;
        QTest::newRow("[v6]:port") << QStringLiteral("[::1]:22") << QStringLiteral("::1") << QString() << 22;
        QTest::newRow("[v6]") << QStringLiteral("[fe80::1%eth0]") << QStringLiteral("fe80::1%eth0") << QString() << 0;
        QTest::newRow("bare v6") << QStringLiteral("::1") << QStringLiteral("::1") << QString() << 0;
        QTest::newRow("spaces around") << QStringLiteral("  host  ") << QStringLiteral("host") << QString() << 0;
    }
    void parsesWhatUsersType()
    {
        QFETCH(QString, text);
        QFETCH(QString, destination);
        QFETCH(QString, user);
        QFETCH(int, port);
        SshHost h;
        QString error;
        QVERIFY2(parseSshHost(text, &h, &error), qPrintable(error));
        QCOMPARE(h.destination, destination);
        QCOMPARE(h.user, user);
        QCOMPARE(h.port, port);
        // What it prints parses back to the same host.
        SshHost again;
        QVERIFY(parseSshHost(h.toString(), &again, &error));
        QVERIFY(again == h);
        // The destination always comes right after "--".
        const QStringList args = h.sshArguments();
        QCOMPARE(args.at(args.size() - 2), QStringLiteral("--"));
        QCOMPARE(args.last(), destination);
    }

    void rejectsOptionsAndJunk_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("option") << QStringLiteral("-oProxyCommand=touch /tmp/pwned");
        QTest::newRow("option no space") << QStringLiteral("-oProxyCommand=touch");
        QTest::newRow("user option") << QStringLiteral("-oProxyCommand=x@host");
        QTest::newRow("host option after @") << QStringLiteral("user@-oProxyCommand=x");
        QTest::newRow("space inside") << QStringLiteral("my host");
        QTest::newRow("tab") << QStringLiteral("host\tx");
        QTest::newRow("newline") << QStringLiteral("host\n-oProxyCommand=x");
        QTest::newRow("control") << QStringLiteral("host\x1b[2J");
        QTest::newRow("shell") << QStringLiteral("host;rm");
        QTest::newRow("quote") << QStringLiteral("host'x");
        QTest::newRow("dollar") << QStringLiteral("$(id)");
        QTest::newRow("port zero") << QStringLiteral("host:0");
        QTest::newRow("port huge") << QStringLiteral("host:65536");
        QTest::newRow("port negative") << QStringLiteral("host:-1");
        QTest::newRow("port text") << QStringLiteral("host:ssh");
        QTest::newRow("empty port") << QStringLiteral("host:");
        QTest::newRow("empty user") << QStringLiteral("@host");
        QTest::newRow("empty host") << QStringLiteral("user@");
        QTest::newRow("open bracket") << QStringLiteral("[::1");
        QTest::newRow("bracket junk") << QStringLiteral("[::1]x");
        QTest::newRow("huge") << QString(300, QLatin1Char('a'));
        QTest::newRow("bidi") << QStringLiteral("host\u202Eevil");
    }
    void rejectsOptionsAndJunk()
    {
        QFETCH(QString, text);
        SshHost h;
        QString error;
        QVERIFY(!parseSshHost(text, &h, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!h.isValid());
    }

    void listsConfigHosts()
    {
        QTemporaryDir dir;
        const QString d = dir.path();
        QDir().mkpath(d + QStringLiteral("/conf.d"));
        test::writeFile(d + QStringLiteral("/config"),
                        "# comment\n"
                        "Host trn1 trn2 *.internal !bad ?x\n"
                        "  HostName 10.0.0.1\n"
                        "Host=\"quoted\"\n"
                        "host lower\n"
                        "Include conf.d/*.conf\n"
                        "Include config\n"  // itself: bounded
                        "Include /nonexistent/*\n"
                        "Match host foo\n"
                        "Host *\n"
                        "Host -oProxyCommand=x trn1\n");
        test::writeFile(d + QStringLiteral("/conf.d/a.conf"), "Host from-a\nInclude " + d.toUtf8()
                                                                  + "/conf.d/b.conf\n");
        test::writeFile(d + QStringLiteral("/conf.d/b.conf"), "HOST from-b trn2\n");
        test::writeFile(d + QStringLiteral("/conf.d/ignored.txt"), "Host not-included\n");
        const QStringList hosts = sshConfigHosts(d + QStringLiteral("/config"), d);
        QCOMPARE(hosts, (QStringList{QStringLiteral("trn1"), QStringLiteral("trn2"), QStringLiteral("quoted"),
                                     QStringLiteral("lower"), QStringLiteral("from-a"), QStringLiteral("from-b")}));
        QVERIFY(sshConfigHosts(d + QStringLiteral("/missing")).isEmpty());
        // Truncated and binary files give what they have, never crash.
        test::writeFile(d + QStringLiteral("/bin"), QByteArray("Host a\n\0\xff\xfe Host\nHost", 20));
        QCOMPARE(sshConfigHosts(d + QStringLiteral("/bin"), d), QStringList{QStringLiteral("a")});
    }

    void parsesSshG()
    {
        const QByteArray out = "user ubuntu\nhostname 10.1.2.3\nport 2222\nidentityfile ~/.ssh/id_ed25519\n"
                               "identityfile /k/two\nproxyjump bastion\nuserknownhostsfile ~/.ssh/known_hosts "
                               "~/.ssh/known_hosts2\nhashknownhosts yes\ngarbage\n\nport notanumber\n";
        const SshResolved r = parseSshG(out);
        QCOMPARE(r.user, QStringLiteral("ubuntu"));
        QCOMPARE(r.hostname, QStringLiteral("10.1.2.3"));
        QCOMPARE(r.port, 2222);
        QCOMPARE(r.identityFiles.size(), 2);
        QCOMPARE(r.identityFiles.at(0), accountHomeDir() + QStringLiteral("/.ssh/id_ed25519"));
        QCOMPARE(r.proxyJump, QStringLiteral("bastion"));
        QCOMPARE(r.userKnownHostsFiles.size(), 2);
        QVERIFY(r.hashKnownHosts);
        QCOMPARE(parseSshG("port 99999\n").port, 22);
        QVERIFY(parseSshG(QByteArray()).hostname.isEmpty());
    }

    void resolvesWithRealSsh()
    {
        QTemporaryDir dir;
        const QString cfg = dir.path() + QStringLiteral("/cfg");
        test::writeFile(cfg, "Host box\n  HostName 192.0.2.7\n  Port 2200\n  User alice\n  ProxyJump jumper\n");
        SshClientConfig c;
        c.configFile = cfg;
        SshHost h;
        QString error;
        QVERIFY(parseSshHost(QStringLiteral("box"), &h, &error));
        SshResolved r;
        QVERIFY2(resolveSshHost(c, h, &r, &error), qPrintable(error));
        QCOMPARE(r.hostname, QStringLiteral("192.0.2.7"));
        QCOMPARE(r.port, 2200);
        QCOMPARE(r.user, QStringLiteral("alice"));
        QCOMPARE(r.proxyJump, QStringLiteral("jumper"));
        // What the user typed overrides the config.
        QVERIFY(parseSshHost(QStringLiteral("bob@box:2300"), &h, &error));
        QVERIFY(resolveSshHost(c, h, &r, &error));
        QCOMPARE(r.user, QStringLiteral("bob"));
        QCOMPARE(r.port, 2300);
        // A config that does not parse is reported.
        test::writeFile(cfg, "NoSuchKeyword x\n");
        QVERIFY(!resolveSshHost(c, h, &r, &error));
        QVERIFY(!error.isEmpty());
    }

    void settingsRemember()
    {
        AppSettings::setSshConfigFile(QStringLiteral("/etc/ingot/ssh_config"));
        QCOMPARE(AppSettings::sshConfigFile(), QStringLiteral("/etc/ingot/ssh_config"));
        QCOMPARE(SshClientConfig::fromSettings().baseArguments(),
                 (QStringList{QStringLiteral("-F"), QStringLiteral("/etc/ingot/ssh_config")}));
        AppSettings::setSshConfigFile(QString());
        QVERIFY(SshClientConfig::fromSettings().baseArguments().isEmpty());
        AppSettings::addRemoteHost(QStringLiteral("trn1"));
        AppSettings::addRemoteHost(QStringLiteral("trn1"));
        AppSettings::addRemoteHost(QStringLiteral("u@trn2:2222"));
        QCOMPARE(AppSettings::remoteHosts(), (QStringList{QStringLiteral("trn1"), QStringLiteral("u@trn2:2222")}));
        AppSettings::removeRemoteHost(QStringLiteral("trn1"));
        QCOMPARE(AppSettings::remoteHosts(), QStringList{QStringLiteral("u@trn2:2222")});
        AppSettings::removeRemoteHost(QStringLiteral("u@trn2:2222"));
    }

    // The quoted form, run by a real POSIX shell (dash and bash), gives back the exact bytes.
    void quotingRoundTripsThroughSh_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("plain") << QByteArray("abc");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("space") << QByteArray("a b");
        QTest::newRow("quote") << QByteArray("it's");
        QTest::newRow("quotes") << QByteArray("'''\"\"");
        QTest::newRow("newline") << QByteArray("a\nb\n");
        QTest::newRow("dollar") << QByteArray("$HOME ${x} $(id)");
        QTest::newRow("backtick") << QByteArray("`id`");
        QTest::newRow("backslash") << QByteArray("a\\b\\");
        QTest::newRow("glob") << QByteArray("* ? [a]");
        QTest::newRow("dash") << QByteArray("-n");
        QTest::newRow("not utf8") << QByteArray("caf\xe9 \xff\xfe\x80");
        QTest::newRow("utf8") << QByteArray("Gr\xc3\xbc\xc3\x9f \xf0\x9f\x98\x80");
        QTest::newRow("astral and surrogate") << QByteArray("\xf0\x90\x82\x80\xdc\x80\xed\xb2\x80");
        QTest::newRow("control") << QByteArray("\x01\x1b[2J\x7f");
    }
    void quotingRoundTripsThroughSh()
    {
        QFETCH(QByteArray, bytes);
        const std::optional<QString> q = shellQuoteBytes(bytes);
        QVERIFY(q.has_value());
        // Quoted unless made only of characters no shell treats specially.
        QCOMPARE(q->startsWith(QLatin1Char('\'')) || q->startsWith(QLatin1Char('"')), *q != QString::fromLatin1(bytes));
        QCOMPARE(shellQuote(nameFromBytes(bytes)), q);
        for (const char *shell : {"/bin/sh", "/bin/bash"}) {
            QProcess p;
            p.start(QLatin1String(shell), {QStringLiteral("-c"), QStringLiteral("printf '%s' ") + *q});
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.readAllStandardOutput(), bytes);
        }
    }

    void quotingRefusesNul()
    {
        QVERIFY(!shellQuoteBytes(QByteArray("a\0b", 3)).has_value());
        QVERIFY(!shellCommand({QStringLiteral("printf"), QString(QChar(0))}).has_value());
        QCOMPARE(*shellCommand({QStringLiteral("printf"), QStringLiteral("%s"), QStringLiteral("a b")}),
                 QStringLiteral("printf %s 'a b'"));
        // A first word that would read as an assignment is quoted; flags and paths stay bare.
        QCOMPARE(*shellQuote(QStringLiteral("X=1")), QStringLiteral("'X=1'"));
        QCOMPARE(*shellQuote(QStringLiteral("--master_port=29500")), QStringLiteral("--master_port=29500"));
        QCOMPARE(*shellQuote(QStringLiteral("/usr/bin/python3")), QStringLiteral("/usr/bin/python3"));
    }

    // A host copy's ssh stream starts its child as runProcess does (spawnChild): an argument's bytes arrive as they
    // are (the stream sent them as UTF-8 text: a name that is not UTF-8 arrived changed), no descriptor of Ingot's
    // reaches it (the stream left every descriptor not marked close-on-exec open in ssh), and it has a process group
    // of its own.
    void theStreamsChildIsSetUpAsRunProcesssIs()
    {
        const QByteArray odd("caf\xe9-\xff");
        const int leaked = ::open("/dev/null", O_RDONLY);  // not close-on-exec
        QVERIFY(leaked > 2);
        SshConnection::StreamCommand c;
        c.program = QStringLiteral("/bin/sh");
        c.arguments = {QStringLiteral("-c"),
                       QStringLiteral("printf '%s\\n' \"$1\"; ls /proc/$$/fd | tr '\\n' ' '; echo; ps -o pgid= -p $$"),
                       QStringLiteral("sh"), nameFromBytes(odd)};
        c.environment = QProcessEnvironment::systemEnvironment();
        SshStream stream(nullptr);
        QString error;
        QVERIFY2(stream.start(c, &error), qPrintable(error));
        stream.closeInput();
        QVERIFY(stream.readToEnd(1 << 16));
        const QList<QByteArray> lines = QByteArray(stream.data(), stream.available()).split('\n');
        QCOMPARE(stream.finish(), 0);
        ::close(leaked);
        QVERIFY(lines.size() >= 3);
        QCOMPARE(lines.at(0), odd);
        QCOMPARE(lines.at(1).trimmed(), QByteArray("0 1 2"));
        QVERIFY2(lines.at(2).trimmed().toLongLong() != qint64(::getpgrp()), lines.at(2).constData());
    }
};

QTEST_GUILESS_MAIN(TestSshHost)
#include "tst_sshhost.moc"
