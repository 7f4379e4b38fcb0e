// Filtering and sorting the cache tree.
#include "models/cache/cachefilterproxy.h"
#include "models/cache/cachetreemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace ingot;

namespace {
CacheModule mod(const QString &version, const QString &name, ModuleState s, qint64 size, QStringList warnings = {})
{
    CacheModule m;
    m.version = version;
    m.name = name;
    m.state = s;
    m.size = size;
    m.warnings = warnings;
    return m;
}
}  // namespace

class TestCacheFilterProxy : public QObject
{
    Q_OBJECT

    CacheTreeModel *model = nullptr;
    CacheFilterProxy *proxy = nullptr;

    int visibleEntries() const
    {
        int n = 0;
        for (int g = 0; g < proxy->rowCount(); ++g)
            n += proxy->rowCount(proxy->index(g, 0));
        return n;
    }

private Q_SLOTS:
    void init()
    {
        model = new CacheTreeModel(this);
        proxy = new CacheFilterProxy(this);
        proxy->setSourceModel(model);
        new QAbstractItemModelTester(proxy, QAbstractItemModelTester::FailureReportingMode::QtTest, proxy);
        ScanDelta d;
        d.upserts << mod(QStringLiteral("neuronxcc-2.9.0.0+a"), QStringLiteral("MODULE_111+aa"), ModuleState::Success, 300)
                  << mod(QStringLiteral("neuronxcc-2.9.0.0+a"), QStringLiteral("MODULE_222+aa"), ModuleState::Failed, 10)
                  << mod(QStringLiteral("neuronxcc-2.15.0.0+b"), QStringLiteral("MODULE_333+bb"), ModuleState::Success, 50, {QStringLiteral("odd")})
                  << mod(QStringLiteral("neuronxcc-2.15.0.0+b"), QStringLiteral("MODULE_444+bb"), ModuleState::Locked, 70)
                  << mod(QStringLiteral("neuronxcc-2.15.0.0+b"), QStringLiteral("MODULE_555+bb"), ModuleState::Success, 20);
        model->applyDelta(d);
    }
    void cleanup()
    {
        delete proxy;
        delete model;
    }

    void textMatchesEntryOrVersion()
    {
        QCOMPARE(visibleEntries(), 5);
        proxy->setText(QStringLiteral("333"));
        QCOMPARE(proxy->rowCount(), 1);
        QCOMPARE(visibleEntries(), 1);
        proxy->setText(QStringLiteral("2.9.0"));
        QCOMPARE(visibleEntries(), 2);
        proxy->setText(QStringLiteral("nothing-like-this"));
        QCOMPARE(proxy->rowCount(), 0);
        proxy->setText(QString());
        QCOMPARE(visibleEntries(), 5);
    }

    void stateAndProblems()
    {
        proxy->setStateFilter(CacheFilterProxy::StateFilter::Only, ModuleState::Failed);
        QCOMPARE(visibleEntries(), 1);
        proxy->setStateFilter(CacheFilterProxy::StateFilter::Problems);
        QCOMPARE(visibleEntries(), 3);  // failed, locked, and a success with a warning
        proxy->setText(QStringLiteral("444"));
        QCOMPARE(visibleEntries(), 1);
    }

    void versionsSortByNumberSizesByValue()
    {
        proxy->sort(CacheTreeModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(proxy->index(0, 0).data().toString(), QStringLiteral("neuronxcc-2.9.0.0+a"));  // 2.9 < 2.15
        proxy->sort(CacheTreeModel::SizeColumn, Qt::DescendingOrder);
        const QModelIndex g = proxy->index(0, 0);
        QCOMPARE(g.data().toString(), QStringLiteral("neuronxcc-2.9.0.0+a"));  // 310 bytes > 140
        QCOMPARE(proxy->index(0, 0, g).data().toString(), QStringLiteral("MODULE_111+aa"));
    }
};

QTEST_MAIN(TestCacheFilterProxy)
#include "tst_cachefilterproxy.moc"
