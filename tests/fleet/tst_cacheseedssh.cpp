// Bringing compiled graphs first for a job on an SSH host (issue 39), against a real OpenSSH server on 127.0.0.1
// (TestSshd) and real torchrun there, with the stand-in compiler wrapper of tests/support/compile_standin: run 1 on
// the host compiles its graphs into the host's cache A; run 2, the same settings with `ingot-cli job launch --host
// … --seed-cache TEAM` on the host's empty cache B, reads run 1's graphs from its logs there, brings them from the
// team's folder on this machine into B over SSH, and compiles nothing (`job graphs`: every graph a hit).
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "tests/support/comparesupport.h"
#include "tests/support/testsshd.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using ingot::test::TestSshd;
using Run = ingot::test::ProgramRun;

class TestCacheSeedSsh : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TestSshd> m_host;

    Run cli(const QStringList &args) const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HF_HUB_OFFLINE"), QStringLiteral("1"));
        e.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
        e.remove(QStringLiteral("INGOT_LANGUAGE"));
        return test::runProgram(QStringLiteral(INGOT_CLI_PATH), args, e, 240000);  // no terminal: a prompt would fail
    }

    // The same tiny backend run on the host each time, into `cache` there.
    QStringList launch(const QString &cache, const QStringList &extra) const
    {
        return QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--host"), m_host->alias(),
                           QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"), QStringLiteral("--env"),
                           QStringLiteral("NEURON_COMPILE_CACHE_URL=") + cache, QStringLiteral("--env"),
                           QStringLiteral("PYTHONPATH=" INGOT_SOURCE_DIR "/tests/support/compile_standin"),
                           QStringLiteral("--env"), QStringLiteral("INGOT_STANDIN_HLO=") + m_dir.path() + QStringLiteral("/hlo")}
               + extra
               + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2"), QStringLiteral("--block_size"),
                             QStringLiteral("32")};
    }

    QString launchAndWait(const QStringList &args, QByteArray *launchErr)
    {
        Run r = cli(args);
        *launchErr = r.err;
        if (r.code != 0) {
            qWarning("job launch: %s", r.err.constData());
            return {};
        }
        const QString id = QString::fromUtf8(r.out).trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id, QStringLiteral("--timeout"), QStringLiteral("200")});
        if (r.code != 0) {
            qWarning("job wait: %s%s", r.out.constData(), r.err.constData());
            return {};
        }
        return id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // What ingot-cli (a child) reads too: the same settings.
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        m_host = std::make_unique<TestSshd>(QStringLiteral("ingot-seed-host"));
        QString error;
        QVERIFY2(m_host->start(&error), qPrintable(error));
        QVERIFY(m_host->trustHostKey());
        const QString env = QStringLiteral("  SetEnv XDG_DATA_HOME=\"%1\" XDG_CACHE_HOME=\"%2\"\n")
                                .arg(m_dir.filePath(QStringLiteral("host data")), m_dir.filePath(QStringLiteral("host cache")));
        const QString config = m_dir.filePath(QStringLiteral("ssh_config"));
        test::writeFile(config, (m_host->configBlock() + env).toUtf8());
        AppSettings::setSshConfigFile(config);
        RemoteHosts::instance().reset();
        test::writeStandInHlo(m_dir.path() + QStringLiteral("/hlo"));
    }

    void cleanupTestCase()
    {
        if (auto c = RemoteHosts::instance().connection(m_host->alias()))
            c->close();
        AppSettings::setSshConfigFile(QString());
    }

    void aJobOnAHostGetsItsGraphsFromTheTeamsFolder()
    {
        // The host is this machine through sshd: its caches are folders here, seen from the host.
        const QString a = m_dir.path() + QStringLiteral("/host-cache-a"), b = m_dir.path() + QStringLiteral("/host-cache-b");
        const QString team = m_dir.path() + QStringLiteral("/team");
        QByteArray err;
        const QString first = launchAndWait(launch(a, {}), &err);
        QVERIFY(!first.isEmpty());
        // The team's folder on this machine holds what run 1 compiled (copied as a user would).
        QVERIFY(QDir(a).exists());
        QVERIFY(test::runProgram(QStringLiteral("cp"), {QStringLiteral("-a"), a, team}, 30000).code == 0);
        QVERIFY(QDir().mkpath(b));
        const QString second = launchAndWait(launch(b, {QStringLiteral("--seed-cache"), team}), &err);
        QVERIFY(!second.isEmpty());
        const QByteArray progress = QByteArray("Bringing compiled graphs: 2 of 2 copied from ") + team.toUtf8();
        QVERIFY2(err.contains(progress), err.constData());
        const Run graphs = cli({QStringLiteral("job"), QStringLiteral("graphs"), second, QStringLiteral("--json")});
        const QJsonObject counts = QJsonDocument::fromJson(graphs.out).object().value(QLatin1String("counts")).toObject();
        QVERIFY2(counts.value(QLatin1String("hit")).toInt() == 2, QByteArray(graphs.out + graphs.err + err).constData());
        for (auto it = counts.begin(); it != counts.end(); ++it)
            QVERIFY2(it.key() == QLatin1String("hit") || it.value().toInt() == 0, graphs.out.constData());
        const Run status = cli({QStringLiteral("job"), QStringLiteral("status"), second});
        QVERIFY2(status.out.contains("Compiled graphs brought first: 2 graph"), status.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCacheSeedSsh)
#include "tst_cacheseedssh.moc"
