// The filter and sort expressions of cache list / cache rm and the cache page's filter box (issue 39).
#include "services/cache/cachefilter.h"

#include <QTest>

using namespace ingot;

namespace {
const qint64 kNow = 1'800'000'000'000;  // a fixed "now"
const qint64 kDay = 86'400'000;

CacheModule module(const QString &version, const QString &name, ModuleState state, qint64 size, int daysAgo)
{
    CacheModule m;
    m.version = version;
    m.name = name;
    m.kind = EntryKind::Module;
    m.state = state;
    m.size = size;
    m.lastUsedMs = kNow - daysAgo * kDay;
    return m;
}

bool matches(const QStringList &exprs, const CacheModule &m)
{
    CacheFilter f;
    QString why;
    if (!CacheFilter::parse(exprs, &f, &why))
        qFatal("%s", qPrintable(why));
    return f.matches(m, kNow);
}
}  // namespace

class TestCacheFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachFieldAndOperator()
    {
        const CacheModule big = module(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_123+aa"),
                                       ModuleState::Failed, 2'000'000'000, 40);
        QVERIFY(matches({QStringLiteral("size>1GB")}, big));
        QVERIFY(!matches({QStringLiteral("size>2GB")}, big));
        QVERIFY(matches({QStringLiteral("size>=2GB")}, big));
        QVERIFY(matches({QStringLiteral("size<2GiB")}, big));  // 2 GiB = 2147483648
        QVERIFY(matches({QStringLiteral("size=2000000000")}, big));
        QVERIFY(matches({QStringLiteral("size!=1")}, big));
        QVERIFY(matches({QStringLiteral("used>30d")}, big));
        QVERIFY(!matches({QStringLiteral("used>6w")}, big));
        QVERIFY(matches({QStringLiteral("used<=40d")}, big));
        QVERIFY(matches({QStringLiteral("state=failed")}, big));
        QVERIFY(matches({QStringLiteral("STATE=FAILED")}, big));
        QVERIFY(matches({QStringLiteral("state!=success")}, big));
        QVERIFY(!matches({QStringLiteral("state=success")}, big));
        QVERIFY(matches({QStringLiteral("compiler=2.15")}, big));
        QVERIFY(matches({QStringLiteral("compiler=neuronxcc-2.15.128")}, big));
        QVERIFY(!matches({QStringLiteral("compiler=2.1")}, big));  // a component boundary: 2.1 is not 2.15
        QVERIFY(matches({QStringLiteral("compiler!=2.14")}, big));
        QVERIFY(matches({QStringLiteral("name=MODULE_12*")}, big));
        QVERIFY(!matches({QStringLiteral("name=MODULE_2*")}, big));
        QVERIFY(matches({QStringLiteral("name!=MODULE_2*")}, big));
        // All must hold.
        QVERIFY(matches({QStringLiteral("size>1GB"), QStringLiteral("used>30d"), QStringLiteral("state=failed")}, big));
        QVERIFY(!matches({QStringLiteral("size>1GB"), QStringLiteral("state=success")}, big));
        // No expression: everything (a module); a folder that is not a module never matches.
        QVERIFY(matches({}, big));
        CacheModule other = big;
        other.kind = EntryKind::UnknownDir;
        QVERIFY(!matches({QStringLiteral("size>1")}, other));
    }

    void badExpressionsAreRefusedWithWords_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("words");
        QTest::newRow("no field") << QStringLiteral("big>1GB") << QStringLiteral("is not a filter");
        QTest::newRow("no operator") << QStringLiteral("size 1GB") << QStringLiteral("is not a filter");
        QTest::newRow("no value") << QStringLiteral("size>") << QStringLiteral("no value");
        QTest::newRow("bad size") << QStringLiteral("size>lots") << QStringLiteral("a size such as");
        QTest::newRow("bad age") << QStringLiteral("used>30") << QStringLiteral("an age such as");
        QTest::newRow("bad state") << QStringLiteral("state=done") << QStringLiteral("a state of");
        QTest::newRow("ordered state") << QStringLiteral("state>failed") << QStringLiteral("takes = or != only");
        QTest::newRow("ordered name") << QStringLiteral("name<abc") << QStringLiteral("takes = or != only");
        QTest::newRow("control bytes") << QStringLiteral("size>\x1b[31m") << QStringLiteral("\\x1b");
    }

    void badExpressionsAreRefusedWithWords()
    {
        QFETCH(QString, expr);
        QFETCH(QString, words);
        CacheFilter f;
        QString why;
        QVERIFY(!CacheFilter::parse({QStringLiteral("size>1"), expr}, &f, &why));
        QVERIFY2(why.contains(words), qPrintable(why));
        QVERIFY(!why.contains(QChar(0x1b)));  // escaped, never raw to a terminal
    }

    void theFilterBoxTellsExpressionsFromWords()
    {
        QVERIFY(CacheFilter::looksLikeExpressions(QStringLiteral("size>1GB used>30d")));
        QVERIFY(CacheFilter::looksLikeExpressions(QStringLiteral("state=")));  // being typed: an expression (not yet read)
        QVERIFY(!CacheFilter::looksLikeExpressions(QStringLiteral("MODULE_123")));
        QVERIFY(!CacheFilter::looksLikeExpressions(QStringLiteral("2.15")));
        QVERIFY(!CacheFilter::looksLikeExpressions(QStringLiteral("sizeable")));
        QCOMPARE(CacheFilter::splitExpressions(QStringLiteral("  size>1GB   used>30d ")),
                 (QStringList{QStringLiteral("size>1GB"), QStringLiteral("used>30d")}));
    }

    void durations()
    {
        QCOMPARE(parseFilterDuration(QStringLiteral("90m")), 90 * 60'000LL);
        QCOMPARE(parseFilterDuration(QStringLiteral("2w")), 14 * kDay);
        QCOMPARE(parseFilterDuration(QStringLiteral("0d")), 0LL);
        QCOMPARE(parseFilterDuration(QStringLiteral("-3d")), -1LL);
        QCOMPARE(parseFilterDuration(QStringLiteral("3y")), -1LL);
        QCOMPARE(parseFilterDuration(QStringLiteral("99999999999d")), -1LL);
    }

    void sorting()
    {
        const QVector<CacheModule> ms{module(QStringLiteral("neuronxcc-2.9.1.0+aa"), QStringLiteral("MODULE_b"), ModuleState::Success, 30, 1),
                                      module(QStringLiteral("neuronxcc-2.15.1.0+aa"), QStringLiteral("MODULE_a"), ModuleState::Failed, 10, 50),
                                      module(QStringLiteral("neuronxcc-2.15.1.0+aa"), QStringLiteral("MODULE_c"), ModuleState::Locked, 20, 9)};
        auto order = [&](const QString &text) {
            CacheSort s;
            QString why;
            if (!CacheSort::parse(text, &s, &why))
                return QStringList{why};
            QVector<const CacheModule *> rows;
            for (const CacheModule &m : ms)
                rows << &m;
            s.apply(rows);
            QStringList names;
            for (const CacheModule *m : rows)
                names << m->name;
            return names;
        };
        QCOMPARE(order(QStringLiteral("size")), (QStringList{QStringLiteral("MODULE_b"), QStringLiteral("MODULE_c"), QStringLiteral("MODULE_a")}));
        QCOMPARE(order(QStringLiteral("size:asc")), (QStringList{QStringLiteral("MODULE_a"), QStringLiteral("MODULE_c"), QStringLiteral("MODULE_b")}));
        QCOMPARE(order(QStringLiteral("used")), (QStringList{QStringLiteral("MODULE_a"), QStringLiteral("MODULE_c"), QStringLiteral("MODULE_b")}));
        QCOMPARE(order(QStringLiteral("name:desc")), (QStringList{QStringLiteral("MODULE_c"), QStringLiteral("MODULE_b"), QStringLiteral("MODULE_a")}));
        QCOMPARE(order(QStringLiteral("compiler")), (QStringList{QStringLiteral("MODULE_b"), QStringLiteral("MODULE_a"), QStringLiteral("MODULE_c")}));
        QCOMPARE(order(QStringLiteral("state")), (QStringList{QStringLiteral("MODULE_a"), QStringLiteral("MODULE_c"), QStringLiteral("MODULE_b")}));
        QVERIFY(order(QStringLiteral("colour")).first().contains(QStringLiteral("--sort takes")));
        QVERIFY(order(QStringLiteral("size:up")).first().contains(QStringLiteral("asc or desc")));
    }
};

QTEST_GUILESS_MAIN(TestCacheFilter)
#include "tst_cachefilter.moc"
