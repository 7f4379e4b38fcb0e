// The Hub caches page driven offscreen against the test Hub (a stand-in for huggingface.co): account and write
// access, lazy browsing with local/Hub marks, the registry, lookups with copyable rows and raw entries; what a
// lookup could not read; cancelling lookups and listings; late answers dropped; a folder's details before and after
// its listing; an unreachable Hub told apart from no access; the keychain off the UI thread, and one that does not
// answer (its session bus stopped).
#include "ui/hub/hubcachepage.h"
#include "models/hub/hubtreemodel.h"
#include "models/hub/lookupmodel.h"
#include "services/hub/secretstore.h"
#include "services/util/names.h"
#include "services/hub/token.h"
#include "tests/hub/privatebus.h"
#include "tests/support/testhub.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMutex>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QTreeView>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString kModel = QStringLiteral("meta-llama/Llama-2-7b-hf");

// A FAKE keychain (no keychain service runs on CI machines) that notes the thread of every call.
class RecordingKeychain final : public SecretStore
{
public:
    bool read(const QString &k, QString *v, SecretError *, const std::atomic_bool *) override
    {
        QMutexLocker lock(&mutex);
        note();
        *v = values.value(k);
        return true;
    }
    bool write(const QString &k, const QString &v, SecretError *) override
    {
        QMutexLocker lock(&mutex);
        note();
        values.insert(k, v);
        return true;
    }
    bool remove(const QString &k, SecretError *) override
    {
        QMutexLocker lock(&mutex);
        note();
        values.remove(k);
        return true;
    }
    QString name() const override { return QStringLiteral("the test keychain"); }
    int calls() { QMutexLocker lock(&mutex); return m_calls; }
    int callsOnGuiThread() { QMutexLocker lock(&mutex); return m_onGui; }
    QString value(const QString &k) { QMutexLocker lock(&mutex); return values.value(k); }

    QMutex mutex;
    QHash<QString, QString> values;

private:
    void note()
    {
        ++m_calls;
        if (QThread::currentThread() == QCoreApplication::instance()->thread())
            ++m_onGui;
    }
    int m_calls = 0;
    int m_onGui = 0;
};

// One worker thread: tasks then run one after another, in the order they were started, so a task started last
// finishing proves every task started before it has finished (and delivered, unless it was dropped).
class OnePoolThread
{
public:
    OnePoolThread() { QThreadPool::globalInstance()->setMaxThreadCount(1); }
    ~OnePoolThread() { QThreadPool::globalInstance()->setMaxThreadCount(QThread::idealThreadCount()); }
    Q_DISABLE_COPY_MOVE(OnePoolThread)
};

// Shows the page and waits for its start-up: environment, token, repos, the repo in use opened.
bool start(HubCachePage &page)
{
    page.resize(1300, 800);
    page.show();
    QSignalSpy ready(&page, &HubCachePage::ready);
    page.refresh();
    return ready.wait(10000);
}

// Shown text that cannot act on anything: no control character but line breaks, no bidi or zero-width character.
bool clean(const QString &s)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != '\n') || (u >= 0x7f && u <= 0x9f) || (u >= 0x200b && u <= 0x200f) ||
            (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069))
            return false;
    }
    return true;
}

// A TCP port on 127.0.0.1 that nothing listens on (bound, read, closed).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    const bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
                    ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0;
    if (fd >= 0)
        ::close(fd);
    return ok ? ntohs(a.sin_port) : 0;
}

QModelIndex viewIndex(HubCachePage &page, const QString &path)
{
    auto *proxy = static_cast<QSortFilterProxyModel *>(page.filesView()->model());
    return proxy->mapFromSource(page.filesModel()->indexForPath(path));
}
}  // namespace

class TestHubCachePage : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;
    QTemporaryDir home;
    QTemporaryDir busDir;
    test::PrivateBus bus;  // unansweredKeychainIsShown's, stopped (SIGSTOP) until the end

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-hubcachepage"));
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error, 50), qPrintable(error));
        QMap<QString, QByteArray> files = test::registryFixture(QStringLiteral("meta-llama/Llama-2-7b-hf"), 6);
        for (const char *m : {"MODULE_111+d41d8cd9", "MODULE_222+d41d8cd9"}) {
            files.insert(V15 + QLatin1Char('/') + QLatin1String(m) + QStringLiteral("/model.neff"), QByteArray(5000, 'n'));
            files.insert(V15 + QLatin1Char('/') + QLatin1String(m) + QStringLiteral("/compile_flags.json"), "[]");
        }
        hub->makeRepo(QStringLiteral("neuronorg/team-cache"), true, files);
        qputenv("HF_ENDPOINT", hub->url().toUtf8());
        qputenv("HF_HOME", QFile::encodeName(home.path()));
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("HF_TOKEN", "hf_alice_write");
        qputenv("CUSTOM_CACHE_REPO", "neuronorg/team-cache");
        qunsetenv("HF_HUB_OFFLINE");
    }
    void cleanupTestCase()
    {
        bus.stopAtExit();
        delete hub;
    }
    void cleanup() { QVERIFY(hub->clearFaults()); }

    void browseLookupAndCopy()
    {
        HubCachePage page;
        QAbstractItemModelTester tester(page.filesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester lookupTester(page.lookupModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The local cache has one module the Hub has too, and one the Hub lacks.
        page.setLocalModulesProvider([] {
            return QSet<QString>{V15 + QStringLiteral("/MODULE_111+d41d8cd9"), V15 + QStringLiteral("/MODULE_999+d41d8cd9")};
        });
        page.resize(1300, 800);
        page.show();
        QSignalSpy account(&page, &HubCachePage::accountChanged);
        page.refresh();
        QVERIFY(account.wait(10000));
        QVERIFY2(page.accountLabel()->text().contains(QStringLiteral("alice")), qPrintable(page.accountLabel()->text()));
        QCOMPARE(page.currentRepo(), QStringLiteral("neuronorg/team-cache"));
        QTRY_VERIFY_WITH_TIMEOUT(page.repoList()->item(0)->text().contains(QStringLiteral("you can write")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(page.repoList()->item(1)->text().contains(QStringLiteral("no access")), 10000);  // the public default is not on the test Hub

        // Browse: the root lists lazily, a compiler folder lists recursively on expansion.
        HubTreeModel *m = page.filesModel();
        QTRY_VERIFY_WITH_TIMEOUT(m->rowCount() >= 3, 10000);
        const QModelIndex version = m->indexForPath(V15);
        QVERIFY(version.isValid());
        if (m->canFetchMore(version))  // the model tester may have asked already
            m->fetchMore(version);
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15 + QStringLiteral("/MODULE_111+d41d8cd9")).isValid(), 10000);
        auto presence = [m](const QString &module) {
            return HubTreeModel::Presence(m->indexForPath(V15 + QLatin1Char('/') + module).data(HubTreeModel::PresenceRole).toInt());
        };
        QCOMPARE(presence(QStringLiteral("MODULE_111+d41d8cd9")), HubTreeModel::Presence::Both);
        QCOMPARE(presence(QStringLiteral("MODULE_222+d41d8cd9")), HubTreeModel::Presence::HubOnly);
        QCOMPARE(presence(QStringLiteral("MODULE_999+d41d8cd9")), HubTreeModel::Presence::LocalOnly);
        const QModelIndex mod = m->indexForPath(V15 + QStringLiteral("/MODULE_111+d41d8cd9"));
        QCOMPARE(mod.siblingAtColumn(HubTreeModel::FilesColumn).data().toInt(), 2);
        QCOMPARE(mod.siblingAtColumn(HubTreeModel::SizeColumn).data().toString(), QStringLiteral("4.9 KiB"));
        // The registry is browsable, and an entry reads as JSON.
        QVERIFY(m->indexForPath(V15 + QStringLiteral("/0_REGISTRY/0.0.25/llama/meta-llama/Llama-2-7b-hf")).isValid());

        // Lookup in the GUI.
        page.tabs()->setCurrentIndex(1);
        page.modelEdit()->setText(QStringLiteral("meta-llama/Llama-2-7b-hf"));
        QSignalSpy done(&page, &HubCachePage::lookupFinished);
        QTest::mouseClick(page.lookupButton(), Qt::LeftButton);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().first().toInt(), 10);
        QCOMPARE(page.lookupView()->model()->rowCount(), 11);  // and one of an unknown shape, raw
        bool unknownRow = false;
        for (int r = 0; r < page.lookupModel()->rowCount(); ++r)
            unknownRow = unknownRow || page.lookupModel()->index(r, LookupModel::InstanceColumn).data().toString() == QStringLiteral("(unknown shape)");
        QVERIFY(unknownRow);
        QVERIFY(page.lookupStatus()->text().contains(QStringLiteral("unknown shape")));
        // Sorting by batch size, then the raw entry of the selected row on demand.
        page.lookupView()->sortByColumn(LookupModel::BatchColumn, Qt::DescendingOrder);
        page.lookupView()->selectRow(0);
        QVERIFY(page.lookupView()->model()->index(0, LookupModel::BatchColumn).data().toInt() >= 16);
        QVERIFY(page.rawView()->toPlainText().contains(QStringLiteral("\"neuron\"")));
        page.copySelectedLookupRows();
        const QStringList copied = QApplication::clipboard()->text().split(QLatin1Char('\n'));
        QCOMPARE(copied.size(), 2);
        QVERIFY(copied[0].startsWith(QStringLiteral("batch size\tsequence length")));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/hub-lookup.png")));
        page.tabs()->setCurrentIndex(0);
        page.filesView()->expand(static_cast<QSortFilterProxyModel *>(page.filesView()->model())->mapFromSource(version));
        QVERIFY(page.grab().save(shots + QStringLiteral("/hub-files.png")));
    }

    void offlineIsShownAndSilent()
    {
        qputenv("HF_HUB_OFFLINE", "1");
        hub->clearLog();
        OnePoolThread serial;
        HubCachePage page;
        QVERIFY(start(page));
        QVERIFY(page.offlineBanner()->isVisible());
        QVERIFY(page.accountLabel()->text().contains(QStringLiteral("Offline")));
        QCOMPARE(page.filesModel()->repo(), QStringLiteral("neuronorg/team-cache"));  // start-up went as far as opening it
        // A lookup started now finishes after everything the start-up started: then the log is the whole story.
        page.modelEdit()->setText(kModel);
        QSignalSpy done(&page, &HubCachePage::lookupFinished);
        QTest::mouseClick(page.lookupButton(), Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QCOMPARE(done.first().first().toInt(), -1);
        QVERIFY2(page.lookupStatus()->text().contains(QStringLiteral("HF_HUB_OFFLINE")), qPrintable(page.lookupStatus()->text()));
        QCOMPARE(page.filesModel()->rowCount(), 0);
        // The empty tree says why (it was blank).
        QVERIFY(page.treeNotice()->isVisible());
        QVERIFY2(page.treeNoticeLabel()->text().contains(QStringLiteral("HF_HUB_OFFLINE")), qPrintable(page.treeNoticeLabel()->text()));
        QCOMPARE(hub->requestLog().size(), size_t(0));
        qunsetenv("HF_HUB_OFFLINE");
    }

    // The repo's files cannot be listed (the Hub fails): the tree says why, with Retry, which lists them once the Hub
    // answers (the tree was blank, with no message and no Retry).
    void aFailedListingSaysWhyWithRetry()
    {
        QVERIFY(hub->failPersistently(QStringLiteral("/tree/main")));
        HubCachePage page;
        QVERIFY(start(page));
        QTRY_VERIFY_WITH_TIMEOUT(page.treeNotice()->isVisible(), 60000);
        QVERIFY2(page.treeNoticeLabel()->text().contains(QStringLiteral("could not be listed")), qPrintable(page.treeNoticeLabel()->text()));
        QVERIFY(page.retryButton()->isVisible());
        QCOMPARE(page.filesModel()->rowCount(), 0);
        QVERIFY(hub->clearFaults());
        QTest::mouseClick(page.retryButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(page.filesModel()->rowCount() >= 3, 10000);
        QVERIFY(!page.treeNotice()->isVisible());
    }

    // After a pull the details pane says where the selected module is now, as its row does ("Hub only" stayed).
    void detailsFollowTheMarksAfterAPull()
    {
        QSet<QString> local;
        HubCachePage page;
        page.setLocalModulesProvider([&local] { return local; });
        QVERIFY(start(page));
        HubTreeModel *m = page.filesModel();
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15).isValid(), 10000);
        const QModelIndex version = m->indexForPath(V15);
        if (m->canFetchMore(version))
            m->fetchMore(version);
        const QString key = V15 + QStringLiteral("/MODULE_222+d41d8cd9");
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(key).isValid(), 10000);
        auto *proxy = static_cast<QSortFilterProxyModel *>(page.filesView()->model());
        page.filesView()->setCurrentIndex(proxy->mapFromSource(m->indexForPath(key)));
        QTRY_VERIFY2(page.fileDetails()->toPlainText().contains(QStringLiteral("Hub only")), qPrintable(page.fileDetails()->toPlainText()));
        local.insert(key);
        page.refreshMarks();  // what the main window does when a pull ends
        QCOMPARE(HubTreeModel::Presence(m->indexForPath(key).data(HubTreeModel::PresenceRole).toInt()), HubTreeModel::Presence::Both);
        QVERIFY2(page.fileDetails()->toPlainText().contains(QStringLiteral("Hub and local")), qPrintable(page.fileDetails()->toPlainText()));
    }

    // A registry folder that keeps failing: the table shows what was read, and the status names the folder.
    void lookupSaysWhatItCouldNotRead()
    {
        HubCachePage page;
        QVERIFY(start(page));
        QVERIFY(hub->failPersistently(QStringLiteral("tree/main/0_REGISTRY/0.0.18?")));
        page.tabs()->setCurrentIndex(1);
        page.modelEdit()->setText(kModel);
        QSignalSpy done(&page, &HubCachePage::lookupFinished);
        QTest::mouseClick(page.lookupButton(), Qt::LeftButton);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().first().toInt(), 8);  // the two entries of 0.0.18 could not be read
        QCOMPARE(page.lookupModel()->rowCount(), 9);  // and the one of an unknown shape
        const QString status = page.lookupStatus()->text();
        QVERIFY2(status.contains(QStringLiteral("Incomplete")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("0_REGISTRY/0.0.18:")), qPrintable(status));
        QVERIFY(status.contains(QStringLiteral("HTTP 503")));
        QVERIFY(page.lookupButton()->isEnabled());
    }

    void lookupCanBeCancelled()
    {
        HubCachePage page;
        QVERIFY(start(page));
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 300}, {"count", 1000000000}}));
        page.tabs()->setCurrentIndex(1);
        page.modelEdit()->setText(kModel);
        QSignalSpy done(&page, &HubCachePage::lookupFinished);
        QVERIFY(!page.lookupCancelButton()->isEnabled());
        QTest::mouseClick(page.lookupButton(), Qt::LeftButton);
        QVERIFY(!page.lookupButton()->isEnabled());
        QVERIFY(page.lookupCancelButton()->isEnabled());
        QTest::mouseClick(page.lookupCancelButton(), Qt::LeftButton);
        QVERIFY(done.wait(10000));
        QCOMPARE(done.first().first().toInt(), -1);
        QVERIFY2(page.lookupStatus()->text().contains(QStringLiteral("cancelled")), qPrintable(page.lookupStatus()->text()));
        QCOMPARE(page.lookupModel()->rowCount(), 0);
        QVERIFY(page.lookupButton()->isEnabled());
        QVERIFY(!page.lookupCancelButton()->isEnabled());
    }

    void listingCanBeCancelled()
    {
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 2000}, {"path", "/tree/main?"}, {"count", 1000000000}}));
        HubCachePage page;
        QSignalSpy status(&page, &HubCachePage::statusChanged);
        QVERIFY(start(page));
        // The repo's root is being listed (slowly): the bar says so and offers Cancel.
        QVERIFY(page.listingCancelButton()->isVisible());
        QTest::mouseClick(page.listingCancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!page.listingCancelButton()->isVisible(), 10000);
        QCOMPARE(page.filesModel()->rowCount(), 0);
        QVERIFY(!page.filesModel()->canFetchMore(QModelIndex()));  // not asked again behind your back
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("cancelled")), qPrintable(status.last().first().toString()));
        QVERIFY(!status.last().at(1).toBool());
    }

    // The file selected first answers late, after another was selected: its answer is dropped.
    void lateFileAnswersAreDropped()
    {
        HubCachePage page;
        QVERIFY(start(page));
        HubTreeModel *m = page.filesModel();
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15).isValid(), 10000);
        if (m->canFetchMore(m->indexForPath(V15)))
            m->fetchMore(m->indexForPath(V15));
        const QString slow = V15 + QStringLiteral("/0_REGISTRY/0.0.25/llama/") + kModel + QStringLiteral("/weird.json");
        const QString module = V15 + QStringLiteral("/MODULE_111+d41d8cd9");
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(slow).isValid() && m->indexForPath(module).isValid(), 10000);
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 1500}, {"path", "/weird.json"}, {"count", 1}}));
        OnePoolThread serial;
        page.filesView()->setCurrentIndex(viewIndex(page, slow));
        QVERIFY(page.fileDetails()->toPlainText().startsWith(QStringLiteral("Reading ")));
        page.filesView()->setCurrentIndex(viewIndex(page, module));
        const QString shown = page.fileDetails()->toPlainText();
        QVERIFY(shown.startsWith(module));
        // A lookup, started after the slow read on the one worker thread, finishes after the read answered.
        page.modelEdit()->setText(kModel);
        QSignalSpy done(&page, &HubCachePage::lookupFinished);
        QTest::mouseClick(page.lookupButton(), Qt::LeftButton);
        QVERIFY(done.wait(20000));
        QCOMPARE(page.fileDetails()->toPlainText(), shown);
        // The same file selected and left alone does show.
        page.filesView()->setCurrentIndex(viewIndex(page, slow));
        QTRY_VERIFY_WITH_TIMEOUT(page.fileDetails()->toPlainText().contains(QStringLiteral("\"hello\"")), 10000);
    }

    // A folder selected before it is listed says so (not blank numbers), says when it is being listed, and shows its
    // size and file count once the listing arrives.
    void folderDetailsFollowTheListing()
    {
        HubCachePage page;
        QVERIFY(start(page));
        HubTreeModel *m = page.filesModel();
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15).isValid(), 10000);
        QVERIFY(m->canFetchMore(m->indexForPath(V15)));  // not listed yet
        page.filesView()->setCurrentIndex(viewIndex(page, V15));
        QString details = page.fileDetails()->toPlainText();
        QVERIFY2(details.startsWith(V15 + QLatin1Char('\n')), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("Not listed yet")), qPrintable(details));
        QVERIFY2(!details.contains(QStringLiteral(" in  file")), qPrintable(details));
        // Being listed, then cancelled: it says why it has no numbers.
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 1500}, {"path", "/tree/main/neuronxcc-2.15"}, {"count", 1}}));
        m->fetchMore(m->indexForPath(V15));
        QVERIFY2(page.fileDetails()->toPlainText().contains(QStringLiteral("Being listed")), qPrintable(page.fileDetails()->toPlainText()));
        page.cancelListings();
        QTRY_VERIFY_WITH_TIMEOUT(page.fileDetails()->toPlainText().contains(QStringLiteral("Could not be listed: Listing cancelled")), 10000);
        // Listed again (Refresh), selected while being listed.
        page.reopenRepo();
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15).isValid(), 10000);
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 1500}, {"path", "/tree/main/neuronxcc-2.15"}, {"count", 1}}));
        m->fetchMore(m->indexForPath(V15));
        page.filesView()->setCurrentIndex(viewIndex(page, V15));
        QVERIFY2(page.fileDetails()->toPlainText().contains(QStringLiteral("Being listed")), qPrintable(page.fileDetails()->toPlainText()));
        // A module inside it, selected while its compiler folder is listed (recursively), has its numbers with it.
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15 + QStringLiteral("/MODULE_111+d41d8cd9")).isValid(), 10000);
        const QString files = m->indexForPath(V15).siblingAtColumn(HubTreeModel::FilesColumn).data().toString();
        QVERIFY(!files.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(page.fileDetails()->toPlainText().contains((files == QLatin1String("1") ? QStringLiteral(" in 1 file") : QStringLiteral(" in %1 files").arg(files))), 10000);
        details = page.fileDetails()->toPlainText();
        QVERIFY2(!details.contains(QStringLiteral("Being listed")) && !details.contains(QStringLiteral("Not listed")), qPrintable(details));
        page.filesView()->setCurrentIndex(viewIndex(page, V15 + QStringLiteral("/MODULE_111+d41d8cd9")));
        QVERIFY2(page.fileDetails()->toPlainText().contains(QStringLiteral("4.9 KiB in 2 files")), qPrintable(page.fileDetails()->toPlainText()));
    }

    // A Hub that cannot be reached is said so, never taken for a refused token or a repo you may not read.
    void unreachableHubIsNotNoAccess()
    {
        const int port = freePort();  // nothing listens there: every connection is refused
        QVERIFY(port > 0);
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        const QByteArray endpoint = qgetenv("HF_ENDPOINT");
        qputenv("HF_ENDPOINT", url.toUtf8());
        {
            HubCachePage page;
            QSignalSpy account(&page, &HubCachePage::accountChanged);
            QVERIFY(start(page));
            QVERIFY(account.wait(120000));
            const QString label = page.accountLabel()->text();
            QVERIFY2(label.contains(QStringLiteral("Could not reach")), qPrintable(label));
            QVERIFY2(!label.contains(QStringLiteral("refused:")), qPrintable(label));
            for (int i = 0; i < page.repoList()->count(); ++i) {
                QTRY_VERIFY_WITH_TIMEOUT(page.repoList()->item(i)->text().contains(QLatin1Char('\n')), 120000);
                const QString text = page.repoList()->item(i)->text();
                QVERIFY2(text.contains(QStringLiteral("unreachable:")) && !text.contains(QStringLiteral("no access")), qPrintable(text));
            }
        }
        qputenv("HF_ENDPOINT", endpoint);
    }

    // Log in, log out, read the token: the keychain is only ever asked from worker threads.
    void keychainOnlyOffTheUiThread()
    {
        const QByteArray token = qgetenv("HF_TOKEN");
        qunsetenv("HF_TOKEN");
        auto keychain = std::make_shared<RecordingKeychain>();
        keychain->values.insert(QStringLiteral("huggingface-token"), QStringLiteral("hf_alice_write"));
        {
            HubCachePage page;
            page.setSecretStore(keychain);
            QVERIFY(start(page));
            QTRY_VERIFY_WITH_TIMEOUT(page.accountLabel()->text().contains(QStringLiteral("alice")), 10000);
            QVERIFY(page.accountLabel()->text().contains(QStringLiteral("keychain")));
            QSignalSpy ready(&page, &HubCachePage::ready);
            page.logout();
            QVERIFY(ready.wait(10000));
            QVERIFY(keychain->value(QStringLiteral("huggingface-token")).isEmpty());
            QTRY_VERIFY_WITH_TIMEOUT(page.accountLabel()->text().contains(QStringLiteral("Not logged in")), 10000);
            page.login();
            QInputDialog *dialog = page.findChild<QInputDialog *>();
            QVERIFY(dialog);
            QTRY_VERIFY(dialog->isVisible());
            QCOMPARE(dialog->textEchoMode(), QLineEdit::Password);
            dialog->setTextValue(QStringLiteral("hf_alice_write"));
            dialog->accept();
            QVERIFY(ready.wait(10000));
            QCOMPARE(keychain->value(QStringLiteral("huggingface-token")), QStringLiteral("hf_alice_write"));
            QTRY_VERIFY_WITH_TIMEOUT(page.accountLabel()->text().contains(QStringLiteral("alice")), 10000);
        }
        QVERIFY(keychain->calls() >= 4);  // read, remove, read, write (and a read after logging in)
        QCOMPARE(keychain->callsOnGuiThread(), 0);
        qputenv("HF_TOKEN", token);
    }

    // The system keychain does not answer (the session bus it is reached through is stopped): the page leaves
    // "Reading the token…" after the keychain's timeout, logs in with the token file, and says why.
    void unansweredKeychainIsShown()
    {
        if (!test::PrivateBus::installed())
            QSKIP("dbus-daemon is not installed (packaging/install-deps.sh --test installs it)");
        QString error;
        QVERIFY2(bus.start(busDir.path(), &error), qPrintable(error));
        QVERIFY(bus.pause());
        const QByteArray token = qgetenv("HF_TOKEN");
        qunsetenv("HF_TOKEN");
        const QString tokenFile = HubConfig::fromEnvironment().tokenPath;
        test::writeFile(tokenFile, "hf_alice_write");
        {
            HubCachePage page;
            page.setSecretStore(std::make_shared<KeychainSecretStore>(QStringLiteral("ingot-test"), 2000));
            page.resize(1300, 800);
            page.show();
            QSignalSpy ready(&page, &HubCachePage::ready);
            page.refresh();
            QCOMPARE(page.accountLabel()->text(), QStringLiteral("Reading the token…"));
            QVERIFY(ready.wait(30000));
            QTRY_VERIFY_WITH_TIMEOUT(page.accountLabel()->text().contains(QStringLiteral("alice")), 30000);
            const QString label = page.accountLabel()->text();
            QVERIFY2(label.contains(QStringLiteral("the token file")), qPrintable(label));
            QVERIFY2(label.contains(QStringLiteral("The system keychain did not answer within 2 s.")), qPrintable(label));
        }
        QVERIFY(QFile::remove(tokenFile));
        qputenv("HF_TOKEN", token);
    }

    // A Hub whose account name and role, and whose paths, carry escapes, line breaks, bidi overrides and markup:
    // the account bar, the file details, the listing bar and the status messages show them escaped, as text.
    void hostileNamesAreShownEscaped()
    {
        const QString name = QStringLiteral("eve\x1b]0;owned\x07\u202Eevil\nsecond <b>line</b>");
        const QString role = QStringLiteral("<i>read</i>");
        test::TestHub evil({QStringLiteral("hf_evil_read:") + name + QStringLiteral("::") + role});
        QString error;
        QVERIFY2(evil.start(&error), qPrintable(error));
        const QString file = QStringLiteral("\x1b[2Jclear\u202Etxt.exe");
        const QString folder = QStringLiteral("dir\x1b[31m\nred");
        evil.makeRepo(QStringLiteral("evilorg/names"), false, {{file, "1"}, {folder + QStringLiteral("/inner.txt"), "2"}});
        const QByteArray endpoint = qgetenv("HF_ENDPOINT"), token = qgetenv("HF_TOKEN"), repo = qgetenv("CUSTOM_CACHE_REPO");
        qputenv("HF_ENDPOINT", evil.url().toUtf8());
        qputenv("HF_TOKEN", "hf_evil_read");
        qputenv("CUSTOM_CACHE_REPO", "evilorg/names");
        {
            HubCachePage page;
            QSignalSpy status(&page, &HubCachePage::statusChanged);
            QSignalSpy account(&page, &HubCachePage::accountChanged);
            QVERIFY(start(page));
            QTRY_VERIFY_WITH_TIMEOUT(account.count() > 0, 10000);
            const QString label = page.accountLabel()->text();
            QVERIFY2(clean(label), qPrintable(label));
            QVERIFY2(label.contains(displayName(name).toHtmlEscaped()), qPrintable(label));
            QVERIFY2(label.contains(role.toHtmlEscaped()), qPrintable(label));  // markup from the Hub stays text
            QVERIFY(!label.contains(QStringLiteral("<b>line")) && !label.contains(role));

            HubTreeModel *m = page.filesModel();
            QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(file).isValid() && m->indexForPath(folder).isValid(), 10000);
            QCOMPARE(m->indexForPath(file).data().toString(), displayName(file));
            // The details title of a file and of a folder.
            page.filesView()->setCurrentIndex(viewIndex(page, file));
            QCOMPARE(page.fileDetails()->toPlainText(), displayName(file));
            page.filesView()->setCurrentIndex(viewIndex(page, folder));
            QVERIFY2(page.fileDetails()->toPlainText().startsWith(displayName(folder) + QLatin1Char('\n')),
                     qPrintable(page.fileDetails()->toPlainText()));
            QVERIFY(clean(page.fileDetails()->toPlainText()));
            // Listing the folder: the listing bar and the status messages name it escaped.
            QVERIFY(evil.fault({{"kind", "latency"}, {"ms", 500}, {"path", "/tree/"}, {"count", 1}}));
            m->fetchMore(m->indexForPath(folder));
            QVERIFY(page.listingCancelButton()->isVisible());
            QCOMPARE(page.listingStatus()->textFormat(), Qt::PlainText);
            QVERIFY2(page.listingStatus()->text().contains(displayName(folder)), qPrintable(page.listingStatus()->text()));
            QVERIFY(clean(page.listingStatus()->text()));
            QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(folder + QStringLiteral("/inner.txt")).isValid(), 10000);
            QVERIFY(status.count() >= 2);
            bool named = false;
            for (const QList<QVariant> &args : std::as_const(status)) {
                const QString text = args.first().toString();
                QVERIFY2(clean(text), qPrintable(text));
                named = named || text.contains(displayName(folder));
            }
            QVERIFY(named);
        }
        qputenv("HF_ENDPOINT", endpoint);
        qputenv("HF_TOKEN", token);
        qputenv("CUSTOM_CACHE_REPO", repo);
    }

    void systemKeychainRefusesTheUiThread()
    {
#ifndef QT_NO_DEBUG
        QSKIP("debug builds assert instead");
#else
        KeychainSecretStore store(QStringLiteral("ingot-test"));
        QString value;
        SecretError error;
        QVERIFY(!store.read(QStringLiteral("huggingface-token"), &value, &error));
        QVERIFY2(error.message.contains(QStringLiteral("UI thread")), qPrintable(error.message));
#endif
    }
};

QTEST_MAIN(TestHubCachePage)
#include "tst_hubcachepage.moc"
