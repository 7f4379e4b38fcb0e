// Sizes typed by people.
#include "services/util/units.h"

#include <QLocale>
#include <QTest>

using namespace ingot;

class TestUnits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void parseBytes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("plain") << "512" << qint64(512);
        QTest::newRow("GB") << "100GB" << qint64(100) * 1000 * 1000 * 1000;
        QTest::newRow("G") << "100G" << qint64(100) * 1000 * 1000 * 1000;
        QTest::newRow("GiB") << "20GiB" << qint64(20) * 1024 * 1024 * 1024;
        QTest::newRow("fraction") << "1.5T" << qint64(1500) * 1000 * 1000 * 1000;
        QTest::newRow("space") << " 500 MB " << qint64(500) * 1000 * 1000;
        QTest::newRow("lower") << "5k" << qint64(5000);
        QTest::newRow("junk") << "lots" << qint64(-1);
        QTest::newRow("negative") << "-5G" << qint64(-1);
        QTest::newRow("bare i") << "5iB" << qint64(-1);
        QTest::newRow("overflow") << "99999999999T" << qint64(-1);
    }
    void parseBytes()
    {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        QCOMPARE(ingot::parseBytes(text), bytes);
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
