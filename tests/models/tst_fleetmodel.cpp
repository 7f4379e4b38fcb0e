// The Fleet page's table model: a row per place in the order given, "reading…" while its place is read, the
// figures once read (blank for a place that was not, whose status says why), a place listed again keeping its last
// summary, numbers sorted as numbers; checked by QAbstractItemModelTester throughout.
#include "models/fleet/fleetmodel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ingot;

namespace {

FleetPlace place(FleetPlace::Kind kind, const QString &id)
{
    FleetPlace p;
    p.kind = kind;
    p.id = id;
    p.store = StoreLocation::local(id);
    p.origin = QStringLiteral("added on the Local cache page");
    return p;
}

FleetSummary readSummary(const FleetPlace &p, qint64 bytes, int entries, int failed, QStringList compilers)
{
    FleetSummary s;
    s.place = p;
    s.status = FleetSummary::Status::Read;
    s.bytes = bytes;
    s.entries = entries;
    s.ready = entries - failed;
    s.failed = failed;
    s.compilers = compilers;
    s.lastUsedMs = QDateTime::currentMSecsSinceEpoch() - 3 * 86400000LL;
    s.readAtMs = QDateTime::currentMSecsSinceEpoch();
    s.tookMs = 1200;
    return s;
}

}  // namespace

class TestFleetModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsFollowTheReads()
    {
        FleetModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const FleetPlace a = place(FleetPlace::Kind::Local, QStringLiteral("/cache/a"));
        const FleetPlace b = place(FleetPlace::Kind::Local, QStringLiteral("/cache/b"));
        m.setPlaces({a, b});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.columnCount(), int(FleetModel::ColumnCount));
        QCOMPARE(m.index(0, FleetModel::PlaceColumn).data().toString(), QStringLiteral("/cache/a"));
        QCOMPARE(m.index(0, FleetModel::KindColumn).data().toString(), QStringLiteral("Folder"));
        QCOMPARE(m.index(0, FleetModel::StatusColumn).data().toString(), QStringLiteral("not read yet"));
        m.setReading(0, true);
        QCOMPARE(m.index(0, FleetModel::StatusColumn).data().toString(), QStringLiteral("reading…"));
        QVERIFY(m.index(0, 0).data(FleetModel::ReadingRole).toBool());
        m.setSummary(0, readSummary(a, 5000000000, 120, 3, {QStringLiteral("2.15.128.0+56dc5a86"), QStringLiteral("2.14.227.0+2d4f85be")}));
        QVERIFY(!m.isReading(0));
        QCOMPARE(m.index(0, FleetModel::EntriesColumn).data().toString(), QStringLiteral("120"));
        QCOMPARE(m.index(0, FleetModel::FailedColumn).data().toString(), QStringLiteral("3"));
        QCOMPARE(m.index(0, FleetModel::CompilersColumn).data().toString(), QStringLiteral("2.15.128.0+56dc5a86 (+1)"));
        QCOMPARE(m.index(0, FleetModel::CompilersColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("2.15.128.0+56dc5a86\n2.14.227.0+2d4f85be"));
        m.setNow(QDateTime::currentMSecsSinceEpoch());  // the model's own "now" was taken before the summary's times
        QCOMPARE(m.index(0, FleetModel::LastUsedColumn).data().toString(), QStringLiteral("3 days ago"));
        QCOMPARE(m.index(0, FleetModel::StatusColumn).data().toString(), QStringLiteral("read in 1.2 s"));
        QVERIFY(m.index(0, 0).data(FleetModel::ReadRole).toBool());
        QCOMPARE(m.index(0, FleetModel::SizeColumn).data(FleetModel::SortRole).toLongLong(), 5000000000LL);

        FleetSummary gone;
        gone.place = b;
        gone.status = FleetSummary::Status::Unreachable;
        gone.error = QStringLiteral("/cache/b: no such folder");
        m.setSummary(1, gone);
        QCOMPARE(m.index(1, FleetModel::StatusColumn).data().toString(), QStringLiteral("/cache/b: no such folder"));
        QVERIFY(m.index(1, FleetModel::EntriesColumn).data().toString().isEmpty());
        QVERIFY(!m.index(1, 0).data(FleetModel::ReadRole).toBool());

        // Listed again, in another order and with a new place: each keeps its last summary.
        const FleetPlace c = place(FleetPlace::Kind::S3, QStringLiteral("s3://team/cache"));
        m.setPlaces({c, b, a});
        QCOMPARE(m.rowOf(QStringLiteral("/cache/a")), 2);
        QCOMPARE(m.index(2, FleetModel::EntriesColumn).data().toString(), QStringLiteral("120"));
        QVERIFY(!m.summary(0));
        QCOMPARE(m.index(0, FleetModel::KindColumn).data().toString(), QStringLiteral("S3"));
        QCOMPARE(m.rowOf(QStringLiteral("nowhere")), -1);
    }

    void numbersSortAsNumbers()
    {
        FleetModel m;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(FleetModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const FleetPlace small = place(FleetPlace::Kind::Local, QStringLiteral("/small"));
        const FleetPlace big = place(FleetPlace::Kind::Local, QStringLiteral("/big"));
        m.setPlaces({small, big});
        m.setSummary(0, readSummary(small, 900, 9, 0, {}));       // "900 B" and "9" sort after "1.0 GB" and "10" as text
        m.setSummary(1, readSummary(big, 1000000000, 10, 0, {}));
        proxy.sort(FleetModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, FleetModel::PlaceColumn).data().toString(), QStringLiteral("/big"));
        proxy.sort(FleetModel::EntriesColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, FleetModel::PlaceColumn).data().toString(), QStringLiteral("/small"));
    }
};

QTEST_MAIN(TestFleetModel)
#include "tst_fleetmodel.moc"
