// A Hub repo's files as a lazy tree: listings asked for and answered, sizes and file counts of complete folders,
// modules marked against the local cache, errors, sorting, and a reset for another repo.
#include "models/hub/hubtreemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");

TreeEntry dir(const QString &path)
{
    TreeEntry e;
    e.isDir = true;
    e.path = path;
    return e;
}

TreeEntry file(const QString &path, qint64 size, const QString &lfsOid = QString())
{
    TreeEntry e;
    e.path = path;
    e.size = size;
    e.lfsOid = lfsOid;
    return e;
}

// Asks for `path`'s listing unless the model tester already did.
void fetch(HubTreeModel &m, const QString &path)
{
    const QModelIndex i = m.indexForPath(path);
    if (m.canFetchMore(i))
        m.fetchMore(i);
}
}  // namespace

class TestHubTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The model asks for a folder's listing when a view (here also the model tester) fetches it: each folder once,
    // files never, and nothing of a folder it does not know yet.
    void listsOnlyWhatIsAskedFor()
    {
        HubTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy requested(&m, &HubTreeModel::fetchRequested);
        auto asked = [&requested] {
            QStringList paths;
            for (const QList<QVariant> &args : std::as_const(requested))
                paths << args.first().toString();
            return paths;
        };
        QVERIFY(!m.hasChildren());
        QVERIFY(!m.canFetchMore(QModelIndex()));  // no repo, nothing to ask
        m.setRepo(QStringLiteral("org/cache"));
        QCOMPARE(m.repo(), QStringLiteral("org/cache"));
        QVERIFY(m.hasChildren());
        fetch(m, QString());
        QCOMPARE(asked(), QStringList{QString()});
        QVERIFY(!m.canFetchMore(QModelIndex()));  // asked once, until answered
        m.fetchMore(QModelIndex());
        QCOMPARE(asked(), QStringList{QString()});

        m.setListing(QString(), {file(QStringLiteral("registry.json"), 120), dir(V15), dir(QStringLiteral("0_REGISTRY"))}, false);
        QCOMPARE(m.rowCount(), 3);
        // Folders first, then files, each by name.
        QCOMPARE(m.index(0, HubTreeModel::NameColumn).data().toString(), QStringLiteral("0_REGISTRY"));
        QCOMPARE(m.index(1, HubTreeModel::NameColumn).data().toString(), V15);
        QCOMPARE(m.index(2, HubTreeModel::NameColumn).data().toString(), QStringLiteral("registry.json"));
        const QModelIndex registry = m.indexForPath(QStringLiteral("0_REGISTRY"));
        const QModelIndex json = m.indexForPath(QStringLiteral("registry.json"));
        QVERIFY(m.hasChildren(registry));
        QVERIFY(!m.hasChildren(json) && !m.canFetchMore(json));
        QVERIFY(!json.data(HubTreeModel::IsDirRole).toBool());
        QCOMPARE(json.siblingAtColumn(HubTreeModel::SizeColumn).data(HubTreeModel::SortRole).toLongLong(), 120);
        // A folder not listed yet has no size to show; while it is asked for, it says so.
        QVERIFY(!registry.siblingAtColumn(HubTreeModel::SizeColumn).data().isValid());
        fetch(m, QStringLiteral("0_REGISTRY"));
        fetch(m, V15);
        QCOMPARE(registry.siblingAtColumn(HubTreeModel::WhereColumn).data().toString(), QStringLiteral("loading…"));
        QStringList all = asked();
        all.sort();
        QCOMPARE(all, (QStringList{QString(), QStringLiteral("0_REGISTRY"), V15}));

        m.setListing(QStringLiteral("0_REGISTRY"), {dir(QStringLiteral("0_REGISTRY/0.0.18"))}, false);
        QCOMPARE(m.rowCount(registry), 1);
        const QModelIndex version = m.indexForPath(QStringLiteral("0_REGISTRY/0.0.18"));
        QCOMPARE(version.parent(), registry);
        QVERIFY(!registry.siblingAtColumn(HubTreeModel::WhereColumn).data().isValid());
        // One level only: the next one is asked for in turn.
        QVERIFY(m.hasChildren(version));
        fetch(m, QStringLiteral("0_REGISTRY/0.0.18"));
        QCOMPARE(asked().count(QStringLiteral("0_REGISTRY/0.0.18")), 1);
        // A second answer for the same folder, or one for a folder the model does not know, changes nothing.
        m.setListing(QStringLiteral("0_REGISTRY"), {dir(QStringLiteral("0_REGISTRY/0.0.19"))}, false);
        m.setListing(QStringLiteral("no/such"), {dir(QStringLiteral("no/such/x"))}, false);
        QCOMPARE(m.rowCount(registry), 1);
        QVERIFY(!m.indexForPath(QStringLiteral("no/such/x")).isValid());
        QCOMPARE(asked().size(), 4);
    }

    void recursiveListingSumsAndMarksModules()
    {
        HubTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRepo(QStringLiteral("org/cache"));
        m.setLocalModules({V15 + QStringLiteral("/MODULE_1+aa"), V15 + QStringLiteral("/MODULE_3+cc")});
        fetch(m, QString());
        m.setListing(QString(), {dir(V15)}, false);
        fetch(m, V15);
        m.setListing(V15, {dir(V15 + QStringLiteral("/MODULE_1+aa")), file(V15 + QStringLiteral("/MODULE_1+aa/model.neff"), 5000),
                           file(V15 + QStringLiteral("/MODULE_1+aa/compile_flags.json"), 2),
                           file(V15 + QStringLiteral("/MODULE_2+bb/model.neff"), 1000, QStringLiteral("abc123"))}, true);
        const QModelIndex version = m.indexForPath(V15);
        QCOMPARE(version.siblingAtColumn(HubTreeModel::FilesColumn).data().toInt(), 3);
        QCOMPARE(version.siblingAtColumn(HubTreeModel::SizeColumn).data(HubTreeModel::SortRole).toLongLong(), 6002);
        const QModelIndex m1 = m.indexForPath(V15 + QStringLiteral("/MODULE_1+aa"));
        const QModelIndex m2 = m.indexForPath(V15 + QStringLiteral("/MODULE_2+bb"));  // made from its file's path
        QVERIFY(m2.isValid());
        QCOMPARE(m1.siblingAtColumn(HubTreeModel::FilesColumn).data().toInt(), 2);
        QCOMPARE(m1.siblingAtColumn(HubTreeModel::SizeColumn).data(HubTreeModel::SortRole).toLongLong(), 5002);
        QVERIFY(!m.canFetchMore(m1));  // listed with its parent
        auto presence = [&m](const QString &module) {
            return HubTreeModel::Presence(m.indexForPath(V15 + QLatin1Char('/') + module).data(HubTreeModel::PresenceRole).toInt());
        };
        QCOMPARE(presence(QStringLiteral("MODULE_1+aa")), HubTreeModel::Presence::Both);
        QCOMPARE(presence(QStringLiteral("MODULE_2+bb")), HubTreeModel::Presence::HubOnly);
        QCOMPARE(presence(QStringLiteral("MODULE_3+cc")), HubTreeModel::Presence::LocalOnly);  // a row of its own
        QCOMPARE(m1.siblingAtColumn(HubTreeModel::WhereColumn).data().toString(), QStringLiteral("Hub and local"));
        QCOMPARE(m2.siblingAtColumn(HubTreeModel::WhereColumn).data().toString(), QStringLiteral("Hub only"));
        const QModelIndex m3 = m.indexForPath(V15 + QStringLiteral("/MODULE_3+cc"));
        QCOMPARE(m3.siblingAtColumn(HubTreeModel::WhereColumn).data().toString(), QStringLiteral("Local only"));
        QVERIFY(m3.data(Qt::ToolTipRole).toString().contains(QStringLiteral("candidate to push")));
        QVERIFY(m2.data(Qt::ToolTipRole).toString().contains(QStringLiteral("candidate to pull")));
        QVERIFY(!m.canFetchMore(m3) && !m.hasChildren(m3));  // nothing on the Hub to list
        QVERIFY(!m3.siblingAtColumn(HubTreeModel::SizeColumn).data().isValid());
        QCOMPARE(version.siblingAtColumn(HubTreeModel::FilesColumn).data().toInt(), 3);  // local rows are not counted
        const QModelIndex lfs = m.indexForPath(V15 + QStringLiteral("/MODULE_2+bb/model.neff"));
        QCOMPARE(lfs.data(HubTreeModel::LfsRole).toString(), QStringLiteral("abc123"));
        QVERIFY(lfs.data(Qt::ToolTipRole).toString().contains(QStringLiteral("abc123")));
        // The local cache changes: marks follow.
        m.setLocalModules({V15 + QStringLiteral("/MODULE_2+bb")});
        QCOMPARE(presence(QStringLiteral("MODULE_1+aa")), HubTreeModel::Presence::HubOnly);
        QCOMPARE(presence(QStringLiteral("MODULE_2+bb")), HubTreeModel::Presence::Both);
    }

    void aListingErrorIsShownAndNotRetriedBehindYourBack()
    {
        HubTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy requested(&m, &HubTreeModel::fetchRequested);
        m.setRepo(QStringLiteral("org/cache"));
        fetch(m, QString());
        m.setListing(QString(), {dir(QStringLiteral("0_REGISTRY"))}, false);
        fetch(m, QStringLiteral("0_REGISTRY"));
        const int asked = int(requested.count());
        m.setListingError(QStringLiteral("0_REGISTRY"), QStringLiteral("The Hub failed to answer 0_REGISTRY (HTTP 503)."));
        const QModelIndex registry = m.indexForPath(QStringLiteral("0_REGISTRY"));
        QCOMPARE(registry.siblingAtColumn(HubTreeModel::WhereColumn).data().toString(), QStringLiteral("error"));
        QVERIFY(registry.data(Qt::ToolTipRole).toString().contains(QStringLiteral("HTTP 503")));
        QVERIFY(!m.canFetchMore(registry));
        m.fetchMore(registry);
        QCOMPARE(int(requested.count()), asked);
        QCOMPARE(m.rowCount(registry), 0);
    }

    // What the Hub says goes into tooltips as plain text, escaped: no markup, no control or bidi characters.
    void tooltipsShowTheHubsWordsAsText()
    {
        HubTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRepo(QStringLiteral("org/cache"));
        fetch(m, QString());
        const QString hostileOid = QStringLiteral("abc\x1b]0;owned\x07\u202Efed<img src=x>");
        m.setListing(QString(), {dir(QStringLiteral("0_REGISTRY")), file(QStringLiteral("model.neff"), 10, hostileOid)}, false);
        fetch(m, QStringLiteral("0_REGISTRY"));
        m.setListingError(QStringLiteral("0_REGISTRY"), QStringLiteral("Not allowed: <b>bold</b> \x1b[2J\u202Eevil (HTTP 403)."));
        auto clean = [](const QString &s) {
            for (const QChar c : s)
                if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f) || c.unicode() == 0x202E)
                    return false;
            return true;
        };
        const QString errorTip = m.indexForPath(QStringLiteral("0_REGISTRY")).data(Qt::ToolTipRole).toString();
        QVERIFY2(clean(errorTip), qPrintable(errorTip));
        QVERIFY2(errorTip.contains(QStringLiteral("&lt;b&gt;bold&lt;/b&gt;")), qPrintable(errorTip));
        QVERIFY2(errorTip.contains(QStringLiteral("\\x1b[2J\\u{202e}evil")), qPrintable(errorTip));
        const QString lfsTip = m.indexForPath(QStringLiteral("model.neff")).data(Qt::ToolTipRole).toString();
        QVERIFY2(clean(lfsTip), qPrintable(lfsTip));
        QVERIFY2(lfsTip.contains(QStringLiteral("abc\\x1b]0;owned\\x07\\u{202e}fed&lt;img src=x&gt;")), qPrintable(lfsTip));
    }

    void sortsByNumbersNotText()
    {
        HubTreeModel m;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(HubTreeModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRepo(QStringLiteral("org/cache"));
        fetch(m, QString());
        m.setListing(QString(), {file(QStringLiteral("b.json"), 9), file(QStringLiteral("a.json"), 300), file(QStringLiteral("c.json"), 2000)}, false);
        auto names = [&proxy] {
            QStringList n;
            for (int r = 0; r < proxy.rowCount(); ++r)
                n << proxy.index(r, HubTreeModel::NameColumn).data().toString();
            return n;
        };
        proxy.sort(HubTreeModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(names(), (QStringList{QStringLiteral("c.json"), QStringLiteral("a.json"), QStringLiteral("b.json")}));
        proxy.sort(HubTreeModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(names(), (QStringList{QStringLiteral("a.json"), QStringLiteral("b.json"), QStringLiteral("c.json")}));
        QCOMPARE(m.headerData(HubTreeModel::WhereColumn, Qt::Horizontal).toString(), QStringLiteral("Where"));
    }

    void anotherRepoStartsOver()
    {
        HubTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy requested(&m, &HubTreeModel::fetchRequested);
        m.setRepo(QStringLiteral("org/one"));
        fetch(m, QString());
        m.setListing(QString(), {dir(V15)}, false);
        const int before = int(requested.count());
        m.setRepo(QStringLiteral("org/two"));
        QCOMPARE(m.rowCount(), 0);
        QVERIFY(!m.indexForPath(V15).isValid());
        fetch(m, QString());  // the root of the new repo is asked for again
        QCOMPARE(int(requested.count()), before + 1);
        QCOMPARE(requested.last().first().toString(), QString());
    }
};

QTEST_MAIN(TestHubTreeModel)
#include "tst_hubtreemodel.moc"
