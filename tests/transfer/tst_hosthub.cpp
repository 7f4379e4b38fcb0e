// The moves no single engine makes, through a real sshd on 127.0.0.1 and the test Hub (a stand-in for
// huggingface.co): `ingot-cli cache pull --host` (each entry downloaded here, then sent on over SSH) and
// `ingot-cli cache push --host` (entries fetched here a batch at a time, then pushed). The bytes that arrive are
// the bytes that left; what is there already is skipped; nothing is left on the way; the transfer queue's engine
// does the same for the app.
#include "services/remote/remotehosts.h"
#include "services/transfer/transferengine.h"
#include "services/util/appsettings.h"
#include "tests/support/testhub.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace ingot;

namespace {
using test::randomBytes;
const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString kRepo = QStringLiteral("neuronorg/team-cache");

QString key(int i)
{
    return V + QStringLiteral("/MODULE_%1+d41d8cd9").arg(1000 + i);
}

using CliRun = test::ProgramRun;

CliRun cli(const QStringList &args)
{
    return test::runProgram(QStringLiteral(INGOT_CLI_PATH), args);
}

QMap<QString, QByteArray> filesUnder(const QString &root)
{
    QMap<QString, QByteArray> m;
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        m.insert(f.mid(root.size() + 1), test::readFile(f));
    }
    return m;
}
}  // namespace

class TestHostHub final : public QObject
{
    Q_OBJECT

    test::TestHub m_hub;
    test::TestSshd m_sshd;
    QTemporaryDir m_dir;
    QMap<QString, QByteArray> m_files;  // on the Hub

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        QString error;
        QVERIFY2(m_hub.start(&error, 1000, 200000), qPrintable(error));
        QVERIFY2(m_sshd.start(&error), qPrintable(error));
        QVERIFY(m_sshd.trustHostKey());
        AppSettings::setSshConfigFile(m_sshd.sshConfigFile());
        RemoteHosts::instance().reset();
        registerRemoteStores();
        for (int i = 0; i < 3; ++i) {
            m_files.insert(key(i) + QStringLiteral("/model.neff"), randomBytes(i == 0 ? 1'500'000 : 5000, quint32(i + 1)));
            m_files.insert(key(i) + QStringLiteral("/model.done"), QByteArray());
            m_files.insert(key(i) + QStringLiteral("/compile_flags.json"), "[]");
        }
        m_hub.makeRepo(kRepo, true, m_files);
        qputenv("HF_ENDPOINT", m_hub.url().toUtf8());
        qputenv("HF_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("hf"))));
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("HF_TOKEN", "hf_alice_write");
        qputenv("CUSTOM_CACHE_REPO", kRepo.toUtf8());
        qunsetenv("HF_HUB_OFFLINE");
    }

    void pullToAHost()
    {
        const QString remote = m_dir.filePath(QStringLiteral("host-cache"));
        QDir().mkpath(remote + QLatin1Char('/') + key(2));  // already there (an empty, unfinished entry): left alone
        const CliRun r = cli({QStringLiteral("cache"), QStringLiteral("pull"), QStringLiteral("--all"), QStringLiteral("--host"),
                              m_sshd.alias(), QStringLiteral("--cache-dir"), remote, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("done")).toInt(), 2);
        QCOMPARE(j.value(QStringLiteral("skipped")).toInt(), 1);
        const QMap<QString, QByteArray> got = filesUnder(remote);
        for (auto it = m_files.cbegin(); it != m_files.cend(); ++it)
            if (!it.key().startsWith(key(2)))
                QCOMPARE(got.value(it.key(), "<missing>"), it.value());
        QVERIFY(QDir(remote + QLatin1Char('/') + key(2)).isEmpty());
        // Nothing left on the way: no staging on the host, no download here.
        QCOMPARE(QDir(remote + QLatin1Char('/') + V).entryList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot).size(), 3);
        QDirIterator left(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/ingot/transfers"),
                          QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(!left.hasNext());
        // Again: everything is there, nothing is downloaded.
        m_hub.clearLog();
        const CliRun again = cli({QStringLiteral("cache"), QStringLiteral("pull"), key(0), QStringLiteral("--host"),
                                  m_sshd.alias(), QStringLiteral("--cache-dir"), remote});
        QVERIFY2(again.code == 0, again.err.constData());
        for (const auto &req : m_hub.requestLog())
            QVERIFY2(QString::fromStdString(req["path"].get<std::string>()).indexOf(QStringLiteral("/resolve/")) < 0,
                     req.dump().c_str());
    }

    void pushFromAHost()
    {
        // A host cache with one new SUCCESS entry, a FAILED one and one the Hub has.
        const QString remote = m_dir.filePath(QStringLiteral("host-push"));
        const QString fresh = V + QStringLiteral("/MODULE_77+d41d8cd9");
        const QByteArray neff = randomBytes(900'000, 99);
        test::writeFile(remote + QLatin1Char('/') + fresh + QStringLiteral("/model.neff"), neff);
        test::writeFile(remote + QLatin1Char('/') + fresh + QStringLiteral("/model.done"), QByteArray());
        test::writeFile(remote + QLatin1Char('/') + V + QStringLiteral("/MODULE_88+d41d8cd9/model.log"), "error: failed");
        test::writeFile(remote + QLatin1Char('/') + key(0) + QStringLiteral("/model.neff"), m_files.value(key(0) + QStringLiteral("/model.neff")));
        test::writeFile(remote + QLatin1Char('/') + key(0) + QStringLiteral("/model.done"), QByteArray());
        const CliRun r = cli({QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--host"), m_sshd.alias(),
                              QStringLiteral("--cache-dir"), remote, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("done")).toInt(), 1);
        QCOMPARE(j.value(QStringLiteral("skipped")).toInt(), 1);  // on the Hub already; the FAILED one was never a candidate
        const QString hubFiles = m_hub.dataDir() + QStringLiteral("/models/") + kRepo + QStringLiteral("/files/");
        QCOMPARE(test::readFile(hubFiles + fresh + QStringLiteral("/model.neff")), neff);
        QVERIFY(QFile::exists(hubFiles + fresh + QStringLiteral("/model.done")));
        QVERIFY(!QFile::exists(hubFiles + V + QStringLiteral("/MODULE_88+d41d8cd9/model.log")));
        QDirIterator left(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/ingot/transfers"),
                          QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(!left.hasNext());
    }
};

QTEST_GUILESS_MAIN(TestHostHub)
#include "tst_hosthub.moc"
