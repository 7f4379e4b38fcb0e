// The transfer record as the queue saves it: a round trip keeps everything; a hostile or wrong-shaped file is
// refused with words, never a crash; entry keys that could leave a cache are refused.
#include "services/transfer/transfertypes.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace ingot;

class TestTransferTypes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        TransferRecord r;
        r.id = QStringLiteral("t1");
        r.kind = TransferKind::Copy;
        r.from = TransferPlace::ofCache(StoreLocation::local(QStringLiteral("/var/tmp/c")));
        StoreLocation ssh;
        ssh.kind = QStringLiteral("ssh");
        ssh.host = QStringLiteral("trn1");
        ssh.path = QStringLiteral("/var/tmp/neuron-compile-cache");
        r.to = TransferPlace::ofCache(ssh);
        r.options.parallel = 7;
        r.options.hubCacheLayout = true;
        TransferItem a;
        a.key = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+d41d8cd9");
        a.state = TransferItem::State::Failed;
        a.bytesTotal = 1000;
        a.bytesDone = 500;
        a.files = 3;
        a.message = QStringLiteral("sha256 mismatch");
        TransferItem b;
        b.key = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_2");
        r.items = {a, b};
        r.paused = true;
        TransferRecord back;
        QString error;
        QVERIFY2(fromJson(nlohmann::json::parse(toJson(r).dump()), &back, &error), qPrintable(error));
        QCOMPARE(back.id, r.id);
        QCOMPARE(back.kind, TransferKind::Copy);
        QVERIFY(back.from == r.from);
        QVERIFY(back.to == r.to);
        QCOMPARE(back.to.display(), QStringLiteral("trn1:/var/tmp/neuron-compile-cache"));
        QCOMPARE(back.options.parallel, 7);
        QVERIFY(back.options.hubCacheLayout);
        QCOMPARE(back.items.size(), 2);
        QCOMPARE(back.items[0].state, TransferItem::State::Failed);
        QCOMPARE(back.items[0].message, a.message);
        QCOMPARE(back.items[0].bytesDone, 500);
        QCOMPARE(back.items[1].bytesTotal, -1);
        QVERIFY(back.paused);
        QCOMPARE(back.bytesDone(), 500);
        QCOMPARE(back.count(TransferItem::State::Pending), 1);
        QVERIFY(!back.finished());
        QVERIFY(TransferPlace::ofHub(QStringLiteral("a/b")).identity() != TransferPlace::ofCache(StoreLocation::local(QStringLiteral("a/b"))).identity());
    }

    void hostileRecords_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("no id") << QByteArray(R"({"kind":"pull","items":[]})");
        QTest::newRow("unknown kind") << QByteArray(R"({"id":"x","kind":"teleport","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},"items":[]})");
        QTest::newRow("place wrong type") << QByteArray(R"({"id":"x","kind":"pull","from":"hub","to":{"kind":"cache","store":"local","path":"/c"},"items":[]})");
        QTest::newRow("items not array") << QByteArray(R"({"id":"x","kind":"pull","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},"items":{}})");
        QTest::newRow("escaping key") << QByteArray(R"({"id":"x","kind":"pull","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},"items":[{"key":"neuronxcc-1/../../etc","state":"pending"}]})");
        QTest::newRow("bad state") << QByteArray(R"({"id":"x","kind":"pull","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},"items":[{"key":"neuronxcc-1/MODULE_1","state":7}]})");
    }

    void hostileRecords()
    {
        QFETCH(QByteArray, json);
        TransferRecord r;
        QString error;
        QVERIFY(!fromJson(nlohmann::json::parse(json.toStdString()), &r, &error));
        QVERIFY(!error.isEmpty());
    }

    void wrongTypesAreDefaults()
    {
        const QByteArray j = R"({"id":"x","kind":"pull","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},
            "options":{"parallel":"many"},"items":[{"key":"neuronxcc-1/MODULE_1","state":"done","bytesTotal":-99,"bytesDone":"x","files":1e30}],"paused":"yes"})";
        TransferRecord r;
        QString error;
        QVERIFY2(fromJson(nlohmann::json::parse(j.toStdString()), &r, &error), qPrintable(error));
        QCOMPARE(r.options.parallel, 4);
        QCOMPARE(r.items[0].bytesTotal, -1);
        QCOMPARE(r.items[0].bytesDone, 0);
        QCOMPARE(r.items[0].files, 0);
        QVERIFY(!r.paused);
        QVERIFY(r.finished());
    }

    void keys_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("ok");
        QTest::newRow("module") << QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_12486829708343293975+d41d8cd9") << true;
        QTest::newRow("traced") << QStringLiteral("neuronxcc-2.15/MODULE_abc") << true;
        QTest::newRow("no module") << QStringLiteral("neuronxcc-2.15") << false;
        QTest::newRow("deeper") << QStringLiteral("neuronxcc-2.15/MODULE_1/model.neff") << false;
        QTest::newRow("dotdot") << QStringLiteral("neuronxcc-2.15/..") << false;
        QTest::newRow("registry") << QStringLiteral("neuronxcc-2.15/0_REGISTRY") << false;
        QTest::newRow("absolute") << QStringLiteral("/neuronxcc-2.15/MODULE_1") << false;
        QTest::newRow("control") << QStringLiteral("neuronxcc-2.15/MODULE_1\n") << false;
        QTest::newRow("other version dir") << QStringLiteral("etc/MODULE_1") << false;
    }

    void keys()
    {
        QFETCH(QString, key);
        QFETCH(bool, ok);
        QCOMPARE(isTransferableKey(key), ok);
    }
};

QTEST_GUILESS_MAIN(TestTransferTypes)
#include "tst_transfertypes.moc"
