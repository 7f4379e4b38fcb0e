// Hub conventions: endpoint, HF_HOME, token resolution order, saving a token, the custom cache repo file.
#include "services/hub/cacherepo.h"
#include "services/hub/hubenv.h"
#include "services/hub/hublogin.h"
#include "services/hub/repoid.h"
#include "services/hub/secretstore.h"
#include "services/hub/token.h"
#include "tests/support/testhub.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
// A FAKE keychain: no keychain service runs on CI machines, so the interface is tested with this stand-in.
class FakeKeychain final : public SecretStore
{
public:
    bool available = true;
    QHash<QString, QString> values;
    bool read(const QString &k, QString *v, SecretError *e, const std::atomic_bool *) override
    {
        if (!available) {
            *e = {SecretError::Kind::NoService, QStringLiteral("No keychain service is running.")};
            return false;
        }
        *v = values.value(k);
        return true;
    }
    bool write(const QString &k, const QString &v, SecretError *e) override
    {
        if (!available) {
            *e = {SecretError::Kind::NoService, QStringLiteral("No keychain service is running.")};
            return false;
        }
        values.insert(k, v);
        return true;
    }
    bool remove(const QString &k, SecretError *) override
    {
        values.remove(k);
        return true;
    }
    QString name() const override { return QStringLiteral("the fake keychain"); }
};

QProcessEnvironment env(std::initializer_list<std::pair<const char *, QString>> kv)
{
    QProcessEnvironment e;
    for (const auto &[k, v] : kv)
        e.insert(QString::fromLatin1(k), v);
    return e;
}
}  // namespace

class TestHubConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void endpointAndHome()
    {
        HubConfig c = HubConfig::fromEnvironment(env({{"HOME", QStringLiteral("/home/u")}}));
        QCOMPARE(c.endpoint, QStringLiteral("https://huggingface.co"));
        QCOMPARE(c.hfHome, QStringLiteral("/home/u/.cache/huggingface"));
        QCOMPARE(c.tokenPath, QStringLiteral("/home/u/.cache/huggingface/token"));
        QVERIFY(!c.offline);
        c = HubConfig::fromEnvironment(env({{"HOME", QStringLiteral("/home/u")}, {"HF_ENDPOINT", QStringLiteral("http://127.0.0.1:9/")},
                                            {"XDG_CACHE_HOME", QStringLiteral("/x/cache")}, {"HF_HUB_OFFLINE", QStringLiteral("1")}}));
        QCOMPARE(c.endpoint, QStringLiteral("http://127.0.0.1:9"));
        QCOMPARE(c.hfHome, QStringLiteral("/x/cache/huggingface"));
        QVERIFY(c.offline);
        c = HubConfig::fromEnvironment(env({{"HOME", QStringLiteral("/home/u")}, {"HF_HOME", QStringLiteral("~/hf")},
                                            {"HF_TOKEN_PATH", QStringLiteral("/secrets/tok")}}));
        QCOMPARE(c.hfHome, QStringLiteral("/home/u/hf"));
        QCOMPARE(c.tokenPath, QStringLiteral("/secrets/tok"));
        QCOMPARE(c.customCacheRepoFile(), QStringLiteral("/home/u/hf/optimum_neuron_custom_cache"));
    }

    void tokenResolutionOrder()
    {
        QTemporaryDir tmp;
        const QProcessEnvironment base = env({{"HF_HOME", tmp.path()}});
        const HubConfig c = HubConfig::fromEnvironment(base);
        FakeKeychain kc;
        QCOMPARE(resolveToken(c, &kc, base).source, ResolvedToken::Source::None);
        QFile f(c.tokenPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("hf_from_file\n");
        f.close();
        ResolvedToken t = resolveToken(c, &kc, base);
        QCOMPARE(t.token, QStringLiteral("hf_from_file"));
        QCOMPARE(t.source, ResolvedToken::Source::TokenFile);
        kc.values.insert(QStringLiteral("huggingface-token"), QStringLiteral("hf_from_keychain"));
        QCOMPARE(resolveToken(c, &kc, base).token, QStringLiteral("hf_from_keychain"));
        QProcessEnvironment e = base;
        e.insert(QStringLiteral("HUGGING_FACE_HUB_TOKEN"), QStringLiteral("hf_legacy"));
        QCOMPARE(resolveToken(c, &kc, e).token, QStringLiteral("hf_legacy"));
        e.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("hf_env"));
        t = resolveToken(c, &kc, e);
        QCOMPARE(t.token, QStringLiteral("hf_env"));
        QCOMPARE(t.describe(), QStringLiteral("HF_TOKEN"));
        QVERIFY(!t.describe().contains(QStringLiteral("hf_env")));  // describing a token never shows it
    }

    void savingATokenPrefersTheKeychainElseAPrivateFile()
    {
        QTemporaryDir tmp;
        const HubConfig c = HubConfig::fromEnvironment(env({{"HF_HOME", tmp.path()}}));
        FakeKeychain kc;
        QString where, error;
        QVERIFY(saveToken(c, &kc, QStringLiteral(" hf_abc "), &where, &error));
        QCOMPARE(where, QStringLiteral("the fake keychain"));
        QCOMPARE(kc.values.value(QStringLiteral("huggingface-token")), QStringLiteral("hf_abc"));
        QVERIFY(!QFile::exists(c.tokenPath));
        kc.available = false;
        QVERIFY(saveToken(c, &kc, QStringLiteral("hf_def"), &where, &error));
        QCOMPARE(where, c.tokenPath);
        QCOMPARE(QFile::permissions(c.tokenPath) & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
                 QFileDevice::Permissions());
        QFile f(c.tokenPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("hf_def"));
        QVERIFY(!saveToken(c, &kc, QStringLiteral("two words"), &where, &error));
        QVERIFY(forgetToken(c, &kc, &error));
        QVERIFY(!QFile::exists(c.tokenPath));
    }

    // The one login the Hub page and `ingot-cli hub login` share: a token is saved only once the Hub accepts it.
    void loginSavesOnlyATokenTheHubAccepts()
    {
        test::TestHub hub;
        QString why;
        QVERIFY2(hub.start(&why), qPrintable(why));
        QTemporaryDir tmp;
        const HubConfig c = HubConfig::fromEnvironment(env({{"HF_HOME", tmp.path()}, {"HF_ENDPOINT", hub.url()}}));
        HubLogin r = logIn(c, nullptr, QStringLiteral("hf_not_valid"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error.kind, HubError::Kind::Unauthorized);
        QVERIFY(!r.saved);
        QVERIFY(!QFile::exists(c.tokenPath));
        // A keychain runs: the token goes there, trimmed.
        FakeKeychain kc;
        r = logIn(c, &kc, QStringLiteral(" hf_alice_write\n"));
        QVERIFY2(r.ok(), qPrintable(r.error.message + r.saveError));
        QCOMPARE(r.me.name, QStringLiteral("alice"));
        QCOMPARE(r.storedIn, QStringLiteral("the fake keychain"));
        QCOMPARE(kc.values.value(QStringLiteral("huggingface-token")), QStringLiteral("hf_alice_write"));
        // None runs: the token file, and the result names the file, never the token.
        kc.available = false;
        r = logIn(c, &kc, QStringLiteral("hf_alice_write"));
        QVERIFY(r.ok());
        QCOMPARE(r.storedIn, c.tokenPath);
        QVERIFY(!r.storedIn.contains(QStringLiteral("hf_alice")));
        QFile f(c.tokenPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("hf_alice_write"));
        // The Hub accepts it but it cannot be saved (the token file's folder is a file): said, and not "logged in".
        QFile blocker(tmp.filePath(QStringLiteral("plain-file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const HubConfig blocked = HubConfig::fromEnvironment(env({{"HF_HOME", tmp.path()}, {"HF_ENDPOINT", hub.url()},
                                                                  {"HF_TOKEN_PATH", blocker.fileName() + QStringLiteral("/token")}}));
        r = logIn(blocked, nullptr, QStringLiteral("hf_alice_write"));
        QVERIFY(r.error.ok());
        QVERIFY(!r.saved);
        QVERIFY(!r.ok());
        QVERIFY(!r.saveError.isEmpty());
    }

    void customCacheRepo()
    {
        QTemporaryDir tmp;
        QProcessEnvironment e = env({{"HF_HOME", tmp.path()}});
        const HubConfig c = HubConfig::fromEnvironment(e);
        CacheRepoChoice r = resolveCacheRepo(c, e);
        QCOMPARE(r.repo, QStringLiteral("aws-neuron/optimum-neuron-cache"));
        QCOMPARE(r.source, CacheRepoChoice::Source::Default);
        QString error;
        QVERIFY(writeCustomCacheRepo(c, QStringLiteral("alice/my-cache"), &error));
        r = resolveCacheRepo(c, e);
        QCOMPARE(r.repo, QStringLiteral("alice/my-cache"));
        QCOMPARE(r.source, CacheRepoChoice::Source::File);
        QFile f(c.customCacheRepoFile());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("alice/my-cache"));  // exactly what optimum-cli writes: the id alone
        e.insert(QStringLiteral("CUSTOM_CACHE_REPO"), QStringLiteral("org/env-cache"));
        QCOMPARE(resolveCacheRepo(c, e).repo, QStringLiteral("org/env-cache"));
        QVERIFY(!writeCustomCacheRepo(c, QStringLiteral("../etc"), &error));
        QVERIFY(error.contains(QStringLiteral("org/name")));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temp files left
    }

    void repoIds()
    {
        QVERIFY(isValidRepoId(QStringLiteral("aws-neuron/optimum-neuron-cache")));
        QVERIFY(isValidRepoId(QStringLiteral("a/b.c_d")));
        QVERIFY(!isValidRepoId(QStringLiteral("noslash")));
        QVERIFY(!isValidRepoId(QStringLiteral("a/b/c")));
        QVERIFY(!isValidRepoId(QStringLiteral("a/..")));
        QVERIFY(!isValidRepoId(QStringLiteral("/a")));
        QVERIFY(!isValidRepoId(QStringLiteral("a b/c")));
    }
};

QTEST_GUILESS_MAIN(TestHubConfig)
#include "tst_hubconfig.moc"
