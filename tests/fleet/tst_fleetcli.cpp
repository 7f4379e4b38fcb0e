// `ingot-cli cache fleet`, the real program: the table and the JSON of every place Ingot knows (or those named with
// --place), a place that cannot be read said in its row and in the exit code (10, as cache gc --everywhere) while the others are printed, names
// from disk escaped, a place that is none refused (2).
#include "services/util/appsettings.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QStringList OK = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
const QStringList FAILED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};
const QStringList LOCKED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")};

QString makeCache(const QString &root)
{
    test::makeModule(root, V15, QStringLiteral("MODULE_1+a"), OK, 2, 4000);
    test::makeModule(root, V15, QStringLiteral("MODULE_2+a"), OK, 5, 3000);
    test::makeModule(root, V15, QStringLiteral("MODULE_4+a"), FAILED, 3);
    test::makeModule(root, V15, QStringLiteral("MODULE_5+a"), LOCKED, 3);
    return root;
}

test::ProgramRun cli(const QStringList &args)
{
    return test::runProgram(QStringLiteral(INGOT_CLI_PATH), args, 120000);
}

QJsonObject jsonOf(const test::ProgramRun &r)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("not JSON: %s\n%s", r.out.constData(), r.err.constData());
    return d.object();
}

}  // namespace

class TestFleetCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        QSettings().clear();  // the places an earlier run left in the test's settings are none of this one
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repo in use is a place; the test never reaches huggingface.co
        qputenv("VLLM_CACHE_ROOT", QFile::encodeName(m_tmp.path() + QStringLiteral("/no-vllm")));
        qunsetenv("NEURON_LIBTORCH_REMOTE_CACHE");
        qunsetenv("NEURON_COMPILE_CACHE_URL");
        // No host of this account's ssh config: an empty one of the test's.
        test::writeFile(m_tmp.path() + QStringLiteral("/ssh_config"), "");
        AppSettings::setSshConfigFile(m_tmp.path() + QStringLiteral("/ssh_config"));
    }

    void namedPlacesAsJsonAndAnUnreadableOneSaysWhy()
    {
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/cache-a"));
        const QString missing = m_tmp.path() + QStringLiteral("/gone");
        const test::ProgramRun r = cli({QStringLiteral("cache"), QStringLiteral("fleet"), QStringLiteral("--json"),
                                        QStringLiteral("--place"), root, QStringLiteral("--place"), missing});
        QCOMPARE(r.code, 10);
        const QJsonObject doc = jsonOf(r);
        QCOMPARE(doc.value(QStringLiteral("unread")).toInt(), 1);
        const QJsonArray places = doc.value(QStringLiteral("places")).toArray();
        QCOMPARE(places.size(), 2);
        const QJsonObject a = places.at(0).toObject();
        QCOMPARE(a.value(QStringLiteral("place")).toString(), root);
        QCOMPARE(a.value(QStringLiteral("kind")).toString(), QStringLiteral("local"));
        QCOMPARE(a.value(QStringLiteral("origin")).toString(), QStringLiteral("named"));
        QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("read"));
        QCOMPARE(a.value(QStringLiteral("entries")).toInt(), 4);
        QCOMPARE(a.value(QStringLiteral("ready")).toInt(), 2);
        QCOMPARE(a.value(QStringLiteral("failed")).toInt(), 1);
        QCOMPARE(a.value(QStringLiteral("locked")).toInt(), 1);
        QCOMPARE(a.value(QStringLiteral("incomplete")).toInt(), 0);
        QVERIFY(a.value(QStringLiteral("bytes")).toDouble() >= 7000);
        QCOMPARE(a.value(QStringLiteral("compilers")).toArray(), QJsonArray({QStringLiteral("2.15.128.0+56dc5a86")}));
        const QDateTime used = QDateTime::fromString(a.value(QStringLiteral("last_used")).toString(), Qt::ISODateWithMs);
        QVERIFY(used.isValid());
        QVERIFY(qAbs(used.toMSecsSinceEpoch() - (QDateTime::currentMSecsSinceEpoch() - 2 * 86400000LL)) < 120000);
        QVERIFY(!a.contains(QStringLiteral("error")));
        const QJsonObject b = places.at(1).toObject();
        QCOMPARE(b.value(QStringLiteral("status")).toString(), QStringLiteral("unreachable"));
        QVERIFY(b.value(QStringLiteral("error")).toString().contains(QStringLiteral("gone")));
        QCOMPARE(b.value(QStringLiteral("entries")).toInt(), 0);
    }

    void theTableEscapesNamesFromDisk()
    {
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/evil\x1b]0;owned\x07name"));
        const test::ProgramRun r = cli({QStringLiteral("cache"), QStringLiteral("fleet"), QStringLiteral("--place"), root});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("PLACE"), r.out.constData());
        for (const char *column : {"KIND", "SIZE", "ENTRIES", "FAILED", "LOCKED", "COMPILERS", "LAST USED", "STATUS"})
            QVERIFY2(r.out.contains(column), column);
        QVERIFY(!r.out.contains('\x1b'));
        QVERIFY(!r.out.contains('\x07'));
        QVERIFY2(r.out.contains("evil"), r.out.constData());
        QVERIFY(r.out.contains("2.15.128.0+56dc5a86"));
        QVERIFY(r.out.contains("read in"));
        QVERIFY(r.err.isEmpty());
    }

    void everyPlaceIngotKnowsWithoutPlace()
    {
        // This machine's cache as the Neuron tools resolve it, and a folder added on the Local cache page.
        const QString here = makeCache(m_tmp.path() + QStringLiteral("/here"));
        const QString added = makeCache(m_tmp.path() + QStringLiteral("/added"));
        qputenv("NEURON_CC_FLAGS", QFile::encodeName(QStringLiteral("--cache_dir=") + here));
        AppSettings::setCacheRoots({added});
        const test::ProgramRun r = cli({QStringLiteral("cache"), QStringLiteral("fleet"), QStringLiteral("--json")});
        qunsetenv("NEURON_CC_FLAGS");
        QCOMPARE(r.code, 10);  // the Hub cache repo in use cannot be read offline
        const QJsonArray places = jsonOf(r).value(QStringLiteral("places")).toArray();
        QHash<QString, QJsonObject> byId;
        for (const QJsonValue &v : places)
            byId.insert(v.toObject().value(QStringLiteral("place")).toString(), v.toObject());
        QVERIFY2(byId.contains(here), r.out.constData());
        QCOMPARE(byId.value(here).value(QStringLiteral("origin")).toString(), QStringLiteral("the Neuron default here"));
        QCOMPARE(byId.value(here).value(QStringLiteral("status")).toString(), QStringLiteral("read"));
        QCOMPARE(byId.value(added).value(QStringLiteral("origin")).toString(), QStringLiteral("added on the Local cache page"));
        QCOMPARE(byId.value(added).value(QStringLiteral("entries")).toInt(), 4);
        int hubs = 0;
        for (const QJsonObject &o : std::as_const(byId))
            if (o.value(QStringLiteral("kind")).toString() == QLatin1String("hub")) {
                ++hubs;
                QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("unreachable"));
                QVERIFY(o.value(QStringLiteral("error")).toString().contains(QStringLiteral("HF_HUB_OFFLINE")));
            }
        QVERIFY(hubs >= 1);
    }

    void aPlaceThatIsNoneIsRefused()
    {
        const test::ProgramRun r = cli({QStringLiteral("cache"), QStringLiteral("fleet"), QStringLiteral("--place"),
                                        QStringLiteral("ftp://example/cache")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("not a place"));
        const test::ProgramRun host = cli({QStringLiteral("cache"), QStringLiteral("fleet"), QStringLiteral("--place"),
                                           QStringLiteral("host:not-in-the-list")});
        QCOMPARE(host.code, 2);
        QVERIFY(host.err.contains("not in the host list"));
    }
};

QTEST_GUILESS_MAIN(TestFleetCli)
#include "tst_fleetcli.moc"
