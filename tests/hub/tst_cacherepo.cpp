// `cache create` and `cache set` as services, against the test Hub (a stand-in for huggingface.co): the namespace
// of a bare name, an existing repo used as is, a missing or malformed repo leaving the choice untouched, and a
// choice that cannot be written.
#include "services/hub/cacherepo.h"
#include "tests/support/testhub.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

class TestCacheRepo : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;

    HubClient client(const QString &token = QStringLiteral("hf_alice_write")) const { return HubClient(hub->url(), token); }
    static HubConfig configIn(const QString &hfHome)
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HF_HOME"), hfHome);
        return HubConfig::fromEnvironment(env);
    }
    static QByteArray choiceIn(const HubConfig &c)
    {
        QFile f(c.customCacheRepoFile());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error), qPrintable(error));
        hub->makeRepo(QStringLiteral("neuronorg/team-cache"), true, {{QStringLiteral("registry.json"), "{}"}});
    }
    void cleanupTestCase() { delete hub; }

    void createInYourNamespaceThenUseIt()
    {
        QTemporaryDir home;
        const HubConfig c = configIn(home.path());
        CacheRepoOutcome r = createCacheRepo(client(), c, QStringLiteral("optimum-neuron-cache"), false);
        QVERIFY2(r.error.ok(), qPrintable(r.error.message));
        QCOMPARE(r.repo, QStringLiteral("alice/optimum-neuron-cache"));
        QVERIFY(!r.existed);
        QCOMPARE(choiceIn(c), QByteArray("alice/optimum-neuron-cache"));
        HubError e;
        QVERIFY(client().repoInfo(r.repo, QString(), &e).isPrivate);
        // Again: the repo exists, and is simply used.
        r = createCacheRepo(client(), c, QStringLiteral("alice/optimum-neuron-cache"), false);
        QVERIFY(r.error.ok());
        QVERIFY(r.existed);
    }

    void createRefusals()
    {
        QTemporaryDir home;
        const HubConfig c = configIn(home.path());
        CacheRepoOutcome r = createCacheRepo(client(), c, QStringLiteral("alice/bad name"), false);
        QCOMPARE(r.error.kind, HubError::Kind::InvalidArgument);
        r = createCacheRepo(client(QStringLiteral("hf_bob_read")), c, QStringLiteral("cache"), false);
        QCOMPARE(r.error.kind, HubError::Kind::Forbidden);
        r = createCacheRepo(client(QString()), c, QStringLiteral("cache"), false);
        QCOMPARE(r.error.kind, HubError::Kind::Unauthorized);  // a bare name needs whoami
        QVERIFY(!QFile::exists(c.customCacheRepoFile()));
    }

    void createWhenTheChoiceCannotBeWritten()
    {
        QTemporaryDir home;
        QFile blocker(home.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const HubConfig c = configIn(home.filePath(QStringLiteral("file/hf")));  // HF_HOME below a file
        const CacheRepoOutcome r = createCacheRepo(client(), c, QStringLiteral("alice/unwritable-choice"), false);
        QCOMPARE(r.error.kind, HubError::Kind::Storage);
        QVERIFY2(r.error.message.contains(c.customCacheRepoFile()) || r.error.message.contains(home.path()), qPrintable(r.error.message));
    }

    void setChecksTheRepoFirst()
    {
        QTemporaryDir home;
        const HubConfig c = configIn(home.path());
        CacheRepoOutcome r = setCacheRepo(client(), c, QStringLiteral("neuronorg/team-cache"));
        QVERIFY2(r.error.ok(), qPrintable(r.error.message));
        QCOMPARE(choiceIn(c), QByteArray("neuronorg/team-cache"));
        r = setCacheRepo(client(), c, QStringLiteral("neuronorg/missing"));
        QCOMPARE(r.error.kind, HubError::Kind::NotFound);
        r = setCacheRepo(client(), c, QStringLiteral("not a repo"));
        QCOMPARE(r.error.kind, HubError::Kind::InvalidArgument);
        r = setCacheRepo(client(QString()), c, QStringLiteral("neuronorg/team-cache"));  // private: needs a token
        QCOMPARE(r.error.kind, HubError::Kind::NotFound);
        QCOMPARE(choiceIn(c), QByteArray("neuronorg/team-cache"));  // untouched by every refusal
    }
};

QTEST_GUILESS_MAIN(TestCacheRepo)
#include "tst_cacherepo.moc"
