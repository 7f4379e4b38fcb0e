// Where the cache is: the Neuron runtime's order of rules (docs/formats.md#compile-cache).
#include "services/cache/cachelocation.h"

#include <QDir>
#include <QTest>

using namespace ingot;

class TestCacheLocation : public QObject
{
    Q_OBJECT

    static QProcessEnvironment env(std::initializer_list<std::pair<const char *, const char *>> kv)
    {
        QProcessEnvironment e;
        for (const auto &[k, v] : kv)
            e.insert(QString::fromLatin1(k), QString::fromUtf8(v));
        return e;
    }

private Q_SLOTS:
    void defaultWhenNothingIsSet()
    {
        const auto loc = CacheLocation::resolve(env({}));
        QCOMPARE(loc.path, QStringLiteral("/var/tmp/neuron-compile-cache"));
        QCOMPARE(loc.rule, CacheLocation::Rule::Default);
        QVERIFY(loc.isSupported());
        QVERIFY(loc.explanation.contains(QStringLiteral("default")));
    }

    void ccFlagsWinOverUrl()
    {
        const auto loc = CacheLocation::resolve(env({{"NEURON_CC_FLAGS", "--model-type=transformer --cache_dir=/data/my.cache-v2 -O1"},
                                                     {"NEURON_COMPILE_CACHE_URL", "/other"}}));
        QCOMPARE(loc.path, QStringLiteral("/data/my.cache-v2"));
        QCOMPARE(loc.rule, CacheLocation::Rule::CcFlagsCacheDir);
        QVERIFY(loc.explanation.contains(QStringLiteral("--cache_dir")));
    }

    void ccFlagsSeparateValueAndQuotes()
    {
        QCOMPARE(cacheDirFromCcFlags(QStringLiteral("--cache_dir /a/b")), QStringLiteral("/a/b"));
        QCOMPARE(cacheDirFromCcFlags(QStringLiteral("--cache_dir=\"/with space/c\" -O2")), QStringLiteral("/with space/c"));
        QCOMPARE(cacheDirFromCcFlags(QStringLiteral("--cache_dir=/first --cache_dir=/second")), QStringLiteral("/second"));
        QCOMPARE(cacheDirFromCcFlags(QStringLiteral("--model-type=transformer")), QString());
        // A flag that merely contains the text is not the flag.
        QCOMPARE(cacheDirFromCcFlags(QStringLiteral("--not_cache_dir=/x")), QString());
        bool noCache = false;
        cacheDirFromCcFlags(QStringLiteral("--no_cache -O1"), &noCache);
        QVERIFY(noCache);
    }

    void urlWhenNoFlag()
    {
        const auto loc = CacheLocation::resolve(env({{"NEURON_CC_FLAGS", "-O1"}, {"NEURON_COMPILE_CACHE_URL", "/mnt/cache/"}}));
        QCOMPARE(loc.path, QStringLiteral("/mnt/cache"));
        QCOMPARE(loc.rule, CacheLocation::Rule::CompileCacheUrl);
    }

    void homeIsExpanded()
    {
        const auto loc = CacheLocation::resolve(env({{"NEURON_COMPILE_CACHE_URL", "~/neuron"}}));
        QCOMPARE(loc.path, QDir::homePath() + QStringLiteral("/neuron"));
    }

    void s3IsReportedNotCrashed()
    {
        const auto loc = CacheLocation::resolve(env({{"NEURON_COMPILE_CACHE_URL", "s3://my-bucket/neuron-cache"}}));
        QCOMPARE(loc.kind, CacheLocation::Kind::S3);
        QVERIFY(!loc.isSupported());
        QVERIFY(loc.unsupportedReason().contains(QStringLiteral("ingot-cli cache status --cache-dir s3://my-bucket/neuron-cache")));
        QCOMPARE(loc.path, QStringLiteral("s3://my-bucket/neuron-cache"));
    }

    void noCacheIsMentioned()
    {
        const auto loc = CacheLocation::resolve(env({{"NEURON_CC_FLAGS", "--no_cache"}}));
        QVERIFY(loc.cachingDisabled);
        QVERIFY(loc.explanation.contains(QStringLiteral("--no_cache")));
    }
};

QTEST_GUILESS_MAIN(TestCacheLocation)
#include "tst_cachelocation.moc"
