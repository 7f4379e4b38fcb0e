// The Remote hosts page driven like a user against real OpenSSH servers (TestSshd): the list (ssh config hosts and
// added ones), what ssh -G resolves, connecting and disconnecting, first contact with an unknown host key (declined,
// then trusted), a changed key refused, a passphrase asked in a dialog, a dropped connection retried, and a remote
// host's compile cache in the cache page (tree, details, a maintenance action over SSH), plus the README screenshots.
#include "models/cache/cachefilterproxy.h"
#include "models/cache/cachetreemodel.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachesession.h"
#include "services/cache/samplecache.h"
#include "services/jobs/jobservice.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"
#include "ui/localcache/localcachepage.h"
#include "ui/localcache/maintenancedialog.h"
#include "ui/localcache/moduledetailspane.h"
#include "ui/remote/hostkeydialog.h"
#include "ui/remote/passworddialog.h"
#include "ui/remote/remotehostspage.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/joblauncher.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QGroupBox>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace ingot;
using ingot::test::TestSshd;
using State = RemoteHostStatus::State;

namespace {

// The visible one of a kind (a closed dialog may linger until deleteLater runs).
template<class T>
T *visible(QObject *parent, const QString &name = QString())
{
    for (T *w : parent->findChildren<T *>(name))
        if (w->isVisible())
            return w;
    return nullptr;
}

// Every MODULE_* folder of a cache, as version/name.
QStringList moduleKeys(const QString &root)
{
    QStringList keys;
    for (const QString &v : QDir(root).entryList({QStringLiteral("neuronxcc-*")}, QDir::Dirs | QDir::NoDotAndDotDot))
        for (const QString &m : QDir(root + QLatin1Char('/') + v)
                                    .entryList({QStringLiteral("MODULE_*")}, QDir::Dirs | QDir::NoDotAndDotDot))
            keys << v + QLatin1Char('/') + m;
    keys.sort();
    return keys;
}

QStringList modelKeys(CacheTreeModel *m)
{
    QStringList keys;
    for (const CacheModule &mod : m->modules())
        if (mod.isModule())
            keys << mod.key();
    keys.sort();
    return keys;
}

}  // namespace

class TestRemoteHostsPage : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSshd> m_sshd;  // "ingot-test": trusted
    QTemporaryDir m_tmp;
    QStringList m_blocks;  // the ssh config every test's ssh reads, block by block

    void addToConfig(const QString &block)
    {
        m_blocks << block;
        QString error;
        test::writeFile(configFile(), m_blocks.join(QLatin1Char('\n')).toUtf8());
        AppSettings::setSshConfigFile(configFile());
        RemoteHosts::instance().reset();  // connections made with the old config are forgotten
    }
    QString configFile() const { return m_tmp.path() + QStringLiteral("/ssh_config"); }

    static bool waitForStatus(RemoteHostsPage &page, const QString &host, State state, int ms = 30000)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms) {
            if (page.status(host).state == state)
                return true;
            QTest::qWait(50);
        }
        qWarning("%s: state %d, wanted %d: %s", qPrintable(host), int(page.status(host).state), int(state),
                 qPrintable(remoteStateText(page.status(host)) + QLatin1Char(' ') + page.status(host).detail));
        return false;
    }

    static bool loadedPage(RemoteHostsPage &page)
    {
        QSignalSpy reloaded(&page, &RemoteHostsPage::hostsReloaded);
        page.show();
        return reloaded.wait(15000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-remotehostspage"));
        qputenv("INGOT_ASKPASS", INGOT_ASKPASS_PATH);
        qunsetenv("SSH_AUTH_SOCK");  // keys come from the config only
        for (const QString &h : AppSettings::remoteHosts())
            AppSettings::removeRemoteHost(h);
        m_sshd = std::make_unique<TestSshd>();
        QString error;
        QVERIFY2(m_sshd->start(&error), qPrintable(error));
        QVERIFY(m_sshd->trustHostKey());
        addToConfig(m_sshd->configBlock());
        registerRemoteStores();
    }

    void cleanupTestCase()
    {
        for (const RemoteHostEntry &h : RemoteHosts::instance().hosts())
            if (auto c = RemoteHosts::instance().connection(h.name))
                c->close();
    }

    void listsConfigHostsAndAddedOnes()
    {
        // Slurm's clients with no cluster behind them (a configuration that is not there): no Slurm group for this
        // machine (tst_slurmgui shows it with a real cluster).
        qputenv("SLURM_CONF", QFile::encodeName(m_tmp.filePath(QStringLiteral("no-slurm.conf"))));
        const auto restore = qScopeGuard([] { qunsetenv("SLURM_CONF"); });
        RemoteHostsPage page;
        QSignalSpy slurm(&page, &RemoteHostsPage::localSlurmAnswered);
        QVERIFY(loadedPage(page));
        QTRY_VERIFY_WITH_TIMEOUT(!slurm.isEmpty(), 30000);
        QVERIFY(!page.localSlurmBox()->isVisible());
        const QModelIndex alias = page.model()->indexOf(m_sshd->alias());
        QVERIFY(alias.isValid());
        QVERIFY(alias.data(RemoteHostsModel::FromSshConfigRole).toBool());
        QCOMPARE(alias.siblingAtColumn(RemoteHostsModel::StateColumn).data().toString(), QStringLiteral("not connected"));

        // Hosts that could be taken as ssh options or shell code are refused and not remembered.
        QString error;
        QVERIFY(!page.addHost(QStringLiteral("-oProxyCommand=touch /tmp/ingot-pwned"), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!page.addHost(QStringLiteral("host;reboot"), &error));
        QVERIFY(AppSettings::remoteHosts().isEmpty());

        QVERIFY2(page.addHost(QStringLiteral("ubuntu@10.0.0.5:2222"), &error), qPrintable(error));
        QCOMPARE(AppSettings::remoteHosts(), QStringList{QStringLiteral("ubuntu@10.0.0.5:2222")});
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->indexOf(QStringLiteral("ubuntu@10.0.0.5:2222")).isValid(), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->hostNames(),
                                  (QStringList{m_sshd->alias(), QStringLiteral("ubuntu@10.0.0.5:2222")}),
                                  15000);  // config hosts first
        QVERIFY(!page.model()->indexOf(QStringLiteral("ubuntu@10.0.0.5:2222"))
                     .data(RemoteHostsModel::FromSshConfigRole).toBool());

        // The dialog checks as you type.
        page.addHostAction()->trigger();
        auto *dlg = visible<QDialog>(&page, QStringLiteral("addHostDialog"));
        QVERIFY(dlg);
        auto *edit = dlg->findChild<QLineEdit *>();
        auto *ok = dlg->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QTest::keyClicks(edit, QStringLiteral("-evil"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(!dlg->findChild<QLabel *>(QStringLiteral("problem"))->text().isEmpty());
        edit->clear();
        QTest::keyClicks(edit, QStringLiteral("trn2@trn2-train:2200"));
        QVERIFY(ok->isEnabled());
        ok->click();
        QVERIFY(AppSettings::remoteHosts().contains(QStringLiteral("trn2@trn2-train:2200")));
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->indexOf(QStringLiteral("trn2@trn2-train:2200")).isValid(), 15000);

        // Remove is for added hosts only.
        page.selectHost(m_sshd->alias());
        QVERIFY(!page.removeHostAction()->isEnabled());
        QVERIFY(!page.removeHost(m_sshd->alias()));
        QVERIFY(page.model()->indexOf(m_sshd->alias()).isValid());
        page.selectHost(QStringLiteral("ubuntu@10.0.0.5:2222"));
        QVERIFY(page.removeHostAction()->isEnabled());
        page.removeHostAction()->trigger();
        QVERIFY(!page.model()->indexOf(QStringLiteral("ubuntu@10.0.0.5:2222")).isValid());
        QCOMPARE(AppSettings::remoteHosts(), QStringList{QStringLiteral("trn2@trn2-train:2200")});
        QVERIFY(page.removeHost(QStringLiteral("trn2@trn2-train:2200")));
        QVERIFY(AppSettings::remoteHosts().isEmpty());
    }

    void hostListsFollowChanges()
    {
        // Hosts added or removed on this page, and another ssh config chosen in Settings, reach the launcher's
        // "Run on" list and this page without a manual Reload.
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        std::unique_ptr<JobService> service(makeJobService(nullptr));
        JobLauncher launcher(service.get());
        launcher.show();
        QVERIFY(QTest::qWaitForWindowExposed(&launcher));
        QComboBox *runOn = launcher.runOnCombo();
        QTRY_VERIFY_WITH_TIMEOUT(runOn->findData(m_sshd->alias()) >= 0, 15000);
        const QString added = QStringLiteral("ubuntu@trn-added.example:2222");
        QCOMPARE(runOn->findData(added), -1);
        QString error;
        QVERIFY2(page.addHost(added, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(runOn->findData(added) >= 0, 15000);
        runOn->setCurrentIndex(runOn->findData(added));
        QVERIFY(page.removeHost(added));
        QTRY_COMPARE_WITH_TIMEOUT(runOn->findData(added), -1, 15000);
        QCOMPARE(runOn->currentData().toString(), QStringLiteral("local"));  // the chosen host went

        // Another ssh config in Settings: both lists read its hosts at once.
        const QString other = m_tmp.path() + QStringLiteral("/other_ssh_config");
        test::writeFile(other, "Host other-config-host\n  HostName 127.0.0.1\n");
        SettingsDialog settings;
        settings.sshConfigEdit()->setText(other);
        QSignalSpy reloaded(&page, &RemoteHostsPage::hostsReloaded);
        settings.accept();
        QVERIFY(reloaded.wait(15000));
        QVERIFY(page.model()->indexOf(QStringLiteral("other-config-host")).isValid());
        QVERIFY(!page.model()->indexOf(m_sshd->alias()).isValid());
        QTRY_VERIFY_WITH_TIMEOUT(runOn->findData(QStringLiteral("other-config-host")) >= 0, 15000);
        QCOMPARE(runOn->findData(m_sshd->alias()), -1);

        // The config edited, then Reload hosts on this page: the launcher follows too.
        test::writeFile(other, "Host other-config-host\n  HostName 127.0.0.1\nHost edited-host\n  HostName 127.0.0.1\n");
        page.reloadAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(runOn->findData(QStringLiteral("edited-host")) >= 0, 15000);

        // Back to this test's config.
        settings.sshConfigEdit()->setText(configFile());
        settings.accept();
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->indexOf(m_sshd->alias()).isValid(), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(runOn->findData(m_sshd->alias()) >= 0, 15000);
    }

    void detailsShowWhatSshResolves()
    {
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(m_sshd->alias());
        QTRY_COMPARE_WITH_TIMEOUT(page.detailLabel(QStringLiteral("hostname"))->text(), QStringLiteral("127.0.0.1"), 15000);
        QCOMPARE(page.detailLabel(QStringLiteral("port"))->text(), QString::number(m_sshd->port()));
        QCOMPARE(page.detailLabel(QStringLiteral("user"))->text(), m_sshd->userName());
        QVERIFY(page.detailLabel(QStringLiteral("identityfile"))->text().contains(m_sshd->identityFile()));
        QCOMPARE(page.detailLabel(QStringLiteral("proxyjump"))->text(), QStringLiteral("none"));
        QVERIFY(page.detailLabel(QStringLiteral("knownhosts"))->text().startsWith(m_sshd->knownHostsFile()));
    }

    void connectAndDisconnect()
    {
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(m_sshd->alias());
        QVERIFY(page.connectAction()->isEnabled());
        QVERIFY(!page.disconnectAction()->isEnabled());
        const int logins = m_sshd->acceptedLogins();
        page.connectAction()->trigger();
        QVERIFY(waitForStatus(page, m_sshd->alias(), State::Connected));
        QCOMPARE(page.model()->indexOf(m_sshd->alias()).siblingAtColumn(RemoteHostsModel::StateColumn).data().toString(),
                 QStringLiteral("connected"));
        QCOMPARE(m_sshd->acceptedLogins(), logins + 1);
        QVERIFY(RemoteHosts::instance().connection(m_sshd->alias())->check());
        QVERIFY(page.disconnectAction()->isEnabled());
        QVERIFY(!page.connectAction()->isEnabled());

        page.disconnectAction()->trigger();
        QVERIFY(waitForStatus(page, m_sshd->alias(), State::NotConnected));
        QVERIFY(!RemoteHosts::instance().connection(m_sshd->alias())->check());

        // A page shown later finds a master that already runs (another window, the CLI).
        QVERIFY(RemoteHosts::instance().connection(m_sshd->alias())->connect(15000));
        RemoteHostsPage second;
        QVERIFY(loadedPage(second));
        QVERIFY(waitForStatus(second, m_sshd->alias(), State::Connected, 15000));
    }

    void unknownHostKeyIsShownAndNeedsConsent()
    {
        TestSshd other(QStringLiteral("ingot-other"));
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        addToConfig(other.configBlock());
        const QByteArray before = test::readFile(other.knownHostsFile());
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(other.alias());

        page.connectAction()->trigger();
        HostKeyDialog *dlg = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dlg = visible<HostKeyDialog>(&page)) != nullptr, 30000);
        QCOMPARE(dlg->fingerprintLabel()->text(), other.hostKeyFingerprint());
        QCOMPARE(dlg->knownHostsLabel()->text(), other.knownHostsFile());
        QCOMPARE(dlg->offer().keyType, QStringLiteral("ED25519"));
        QVERIFY(dlg->cancelButton()->isDefault());  // Enter never trusts a key
        // Declined: nothing recorded, not connected, nobody logged in.
        dlg->cancelButton()->click();
        QVERIFY(waitForStatus(page, other.alias(), State::Failed));
        QCOMPARE(test::readFile(other.knownHostsFile()), before);
        QCOMPARE(other.acceptedLogins(), 0);
        QVERIFY(!RemoteHosts::instance().connection(other.alias())->check());

        // Again, and trusted: recorded, then connected.
        page.connectAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT((dlg = visible<HostKeyDialog>(&page)) != nullptr, 30000);
        QCOMPARE(dlg->fingerprintLabel()->text(), other.hostKeyFingerprint());
        dlg->trustButton()->click();
        QVERIFY(waitForStatus(page, other.alias(), State::Connected));
        QCOMPARE(test::readFile(other.knownHostsFile()), before + other.hostKeyLine().toLatin1() + '\n');
        QCOMPARE(other.acceptedLogins(), 1);
        RemoteHosts::instance().connection(other.alias())->close();
    }

    void changedHostKeyIsRefused()
    {
        TestSshd changed(QStringLiteral("ingot-changed"));
        QString error;
        QVERIFY2(changed.start(&error), qPrintable(error));
        QVERIFY(changed.trustHostKey());
        addToConfig(changed.configBlock());
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(changed.alias());
        page.connectAction()->trigger();
        QVERIFY(waitForStatus(page, changed.alias(), State::Connected));
        page.disconnectAction()->trigger();
        QVERIFY(waitForStatus(page, changed.alias(), State::NotConnected));

        // The same address with another key: a reinstalled host, or someone in between.
        changed.stop();
        QVERIFY(changed.replaceHostKey(&error));
        QVERIFY(changed.restart(&error));
        const QByteArray before = test::readFile(changed.knownHostsFile());
        page.connectAction()->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = visible<QMessageBox>(&page, QStringLiteral("hostKeyChanged"))) != nullptr, 30000);
        QVERIFY(box->text().contains(QStringLiteral("CHANGED")));
        QVERIFY(box->informativeText().contains(QStringLiteral("man-in-the-middle")));
        QVERIFY2(box->informativeText().contains(
                     QStringLiteral("ssh-keygen -R '[127.0.0.1]:%1' -f '%2'").arg(changed.port()).arg(changed.knownHostsFile())),
                 qPrintable(box->informativeText()));
        // No way to accept it from Ingot: Close is the only answer (beside "Show Details…", ssh's own words).
        QCOMPARE(box->standardButtons(), QMessageBox::StandardButtons(QMessageBox::Close));
        for (QAbstractButton *b : box->buttons())
            QVERIFY(box->buttonRole(b) != QMessageBox::AcceptRole && box->buttonRole(b) != QMessageBox::YesRole);
        QVERIFY2(box->detailedText().contains(QStringLiteral("Host key verification failed")), qPrintable(box->detailedText()));
        QVERIFY(!visible<HostKeyDialog>(&page));
        QCOMPARE(page.status(changed.alias()).state, State::Failed);
        QVERIFY(page.status(changed.alias()).reason.contains(QStringLiteral("CHANGED")));
        box->button(QMessageBox::Close)->click();
        QCOMPARE(test::readFile(changed.knownHostsFile()), before);
        QCOMPARE(changed.acceptedLogins(), 1);  // only the login before the change
    }

    void passphraseIsAskedInADialog()
    {
        TestSshd pass(QStringLiteral("ingot-pass"));
        QString error;
        QVERIFY2(pass.start(&error), qPrintable(error));
        QVERIFY(pass.trustHostKey());
        addToConfig(pass.configBlock().replace(pass.identityFile(), pass.passphraseIdentityFile()));
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(pass.alias());

        // Cancelled: not connected, and said why.
        page.connectAction()->trigger();
        PasswordDialog *dlg = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dlg = visible<PasswordDialog>(&page)) != nullptr, 30000);
        QVERIFY2(dlg->promptLabel()->text().contains(QStringLiteral("passphrase")), qPrintable(dlg->promptLabel()->text()));
        QVERIFY(dlg->promptLabel()->text().contains(pass.passphraseIdentityFile()));
        QCOMPARE(dlg->secretEdit()->echoMode(), QLineEdit::Password);
        dlg->reject();
        QVERIFY(waitForStatus(page, pass.alias(), State::Failed));
        QCOMPARE(page.status(pass.alias()).reason, QStringLiteral("authentication failed"));
        QCOMPARE(pass.acceptedLogins(), 0);

        // A wrong passphrase, then the right one: asked twice, connected once.
        page.connectAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT((dlg = visible<PasswordDialog>(&page)) != nullptr, 30000);
        QTest::keyClicks(dlg->secretEdit(), QStringLiteral("wrong"));
        dlg->accept();
        PasswordDialog *second = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((second = visible<PasswordDialog>(&page)) != nullptr && second != dlg, 30000);
        QTest::keyClicks(second->secretEdit(), TestSshd::passphrase());
        second->accept();
        QVERIFY(waitForStatus(page, pass.alias(), State::Connected));
        QCOMPARE(pass.acceptedLogins(), 1);
        // Never stored: not in the settings, not in what the page shows.
        const QByteArray secret = TestSshd::passphrase().toUtf8();
        QVERIFY(!test::readFile(AppSettings::fileName()).contains(secret));
        QVERIFY(!page.stateLabel()->text().toUtf8().contains(secret));
        QVERIFY(!pass.log().toUtf8().contains(secret));
        RemoteHosts::instance().connection(pass.alias())->close();
    }

    void aPromptStillOpenWhenThePageGoesIsCancelled()
    {
        TestSshd pass(QStringLiteral("ingot-pass2"));
        QString error;
        QVERIFY2(pass.start(&error), qPrintable(error));
        QVERIFY(pass.trustHostKey());
        addToConfig(pass.configBlock().replace(pass.identityFile(), pass.passphraseIdentityFile()));
        auto conn = RemoteHosts::instance().connection(pass.alias());
        {
            RemoteHostsPage page;
            QVERIFY(loadedPage(page));
            page.connectHost(pass.alias());
            QTRY_VERIFY_WITH_TIMEOUT(visible<PasswordDialog>(&page) != nullptr, 30000);
        }
        // The worker that waited for the answer was told "cancelled" and ssh gave up.
        QTRY_COMPARE_WITH_TIMEOUT(int(conn->state()), int(SshConnection::State::Failed), 30000);
        QCOMPARE(conn->error(), SshError::AuthenticationFailed);
        QCOMPARE(pass.acceptedLogins(), 0);
    }

    void droppedConnectionIsShownAndRetried()
    {
        TestSshd drop(QStringLiteral("ingot-drop"));
        QString error;
        QVERIFY2(drop.start(&error), qPrintable(error));
        QVERIFY(drop.trustHostKey());
        addToConfig(drop.configBlock());
        RemoteHostsPage page;
        page.setCheckIntervalMs(300);
        page.setRetryDelays({2, 3});
        QVERIFY(loadedPage(page));
        page.selectHost(drop.alias());
        page.connectAction()->trigger();
        QVERIFY(waitForStatus(page, drop.alias(), State::Connected));

        drop.kill();  // the server dies (or the network drops, the laptop sleeps)
        QSignalSpy retries(page.session(drop.alias()), &RemoteHostSession::retryScheduled);
        QVERIFY(waitForStatus(page, drop.alias(), State::Lost, 15000));
        QTRY_VERIFY_WITH_TIMEOUT(remoteStateText(page.status(drop.alias())).contains(QStringLiteral("retrying in")), 5000);
        QVERIFY(page.connectAction()->isEnabled());
        QCOMPARE(page.connectAction()->text(), QStringLiteral("Retry &now"));
        // Attempts fail while it is down and it keeps trying: still lost, a wait planned after each failed attempt.
        QTRY_VERIFY_WITH_TIMEOUT(retries.size() >= 2, 20000);
        QCOMPARE(retries.last().at(0).toInt(), int(retries.size()));
        QCOMPARE(page.status(drop.alias()).state, State::Lost);
        QVERIFY(drop.acceptedLogins() == 1);

        QSignalSpy reconnected(&page, &RemoteHostsPage::hostReconnected);
        QVERIFY2(drop.restart(&error), qPrintable(error));
        QVERIFY(waitForStatus(page, drop.alias(), State::Connected, 30000));
        QCOMPARE(reconnected.size(), 1);
        QCOMPARE(reconnected.first().at(0).toString(), drop.alias());
        QCOMPARE(drop.acceptedLogins(), 2);
        QVERIFY(RemoteHosts::instance().connection(drop.alias())->check());

        // Disconnect stops it all; nothing retries behind the user's back.
        page.disconnectAction()->trigger();
        QVERIFY(waitForStatus(page, drop.alias(), State::NotConnected));
        QCOMPARE(page.status(drop.alias()).retryInSeconds, -1);  // no attempt planned
        QTRY_VERIFY_WITH_TIMEOUT(!page.session(drop.alias())->isBusy(), 10000);
        QCOMPARE(page.status(drop.alias()).state, State::NotConnected);
    }

    void openCompileCacheResolvesOnTheHost()
    {
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(m_sshd->alias());
        QSignalSpy opened(&page, &RemoteHostsPage::openCacheRequested);
        page.openCacheAction()->trigger();  // connects first
        QVERIFY2(opened.wait(30000), qPrintable(page.cacheLabel()->text()));
        const auto loc = opened.first().at(0).value<StoreLocation>();
        const QString why = opened.first().at(1).toString();
        QCOMPARE(loc.kind, sshStoreKind());
        QCOMPARE(loc.host, m_sshd->alias());
        QVERIFY(loc.path.startsWith(QLatin1Char('/')));
        // Which rule won, said on the host's terms.
        QVERIFY2(why.startsWith(QStringLiteral("On %1").arg(m_sshd->alias())), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("NEURON_CC_FLAGS")), qPrintable(why));
        // Nothing sets the variables there: the Neuron default.
        QCOMPARE(loc.path, CacheLocation::defaultPath());
        QVERIFY2(why.contains(QStringLiteral("Neuron default")), qPrintable(why));
        QVERIFY(page.cacheLabel()->text().contains(loc.path));
        QCOMPARE(page.status(m_sshd->alias()).state, State::Connected);
    }

    void openCompileCacheFollowsTheHostsEnvironment()
    {
        // NEURON_CC_FLAGS set there (as a profile would): its --cache_dir wins, and the page says so.
        TestSshd env(QStringLiteral("ingot-env"));
        QString error;
        QVERIFY2(env.start(&error), qPrintable(error));
        QVERIFY(env.trustHostKey());
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cc-cache");
        addToConfig(env.configBlock() + QStringLiteral("  SetEnv NEURON_CC_FLAGS=--cache_dir=%1\n").arg(root));
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(env.alias());
        QSignalSpy opened(&page, &RemoteHostsPage::openCacheRequested);
        page.openCompileCache(env.alias());
        QVERIFY(opened.wait(30000));
        const auto loc = opened.first().at(0).value<StoreLocation>();
        const QString why = opened.first().at(1).toString();
        QCOMPARE(loc, sshStoreLocation(env.alias(), root));
        QVERIFY2(why.contains(QStringLiteral("NEURON_CC_FLAGS contains --cache_dir=%1").arg(root)), qPrintable(why));
        QVERIFY(page.cacheLabel()->text().contains(QStringLiteral("takes precedence")));
        RemoteHosts::instance().connection(env.alias())->close();
    }

    // A host whose runtime uses an S3 cache: the page opens it as read on the host, saying with whose keys.
    void hostWithAnS3Cache()
    {
        TestSshd env(QStringLiteral("ingot-s3env"));
        QString error;
        QVERIFY2(env.start(&error), qPrintable(error));
        QVERIFY(env.trustHostKey());
        addToConfig(env.configBlock() + QStringLiteral("  SetEnv NEURON_COMPILE_CACHE_URL=s3://team-cache/host-cache\n"));
        RemoteHostsPage page;
        QVERIFY(loadedPage(page));
        page.selectHost(env.alias());
        QSignalSpy opened(&page, &RemoteHostsPage::openCacheRequested);
        page.openCompileCache(env.alias());
        QVERIFY(opened.wait(30000));
        const auto loc = opened.first().at(0).value<StoreLocation>();
        QCOMPARE(loc.kind, QStringLiteral("host-s3"));  // read there, by its own AWS CLI with its own keys
        QCOMPARE(loc.host, env.alias());
        QCOMPARE(loc.path, QStringLiteral("s3://team-cache/host-cache"));
        const QString why = opened.first().at(1).toString();
        QVERIFY2(why.contains(QStringLiteral("own AWS CLI and keys")), qPrintable(why));
        RemoteHosts::instance().connection(env.alias())->close();
    }

    void remoteCacheInTheCachePage()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache");
        SampleCacheOptions o;
        o.modules = 30;
        o.seed = 11;
        QString error;
        QVERIFY2(writeSampleCache(root, o, nullptr, &error), qPrintable(error));
        const QStringList onDisk = moduleKeys(root);
        QVERIFY(onDisk.size() >= 20);

        MainWindow w;
        CacheLocation local = CacheLocation::resolve(QProcessEnvironment());
        local.path = tmp.path() + QStringLiteral("/local-cache");
        QDir().mkpath(local.path);
        AppSettings::setCurrentRoot(QString());
        LocalCachePage *cache = w.localCachePage();
        QSignalSpy scanned(cache->session(), &CacheSession::scanFinished);
        w.start(local);
        QVERIFY(scanned.wait(20000));
        RemoteHostsPage *page = w.remoteHostsPage();
        w.navigation()->setCurrentRow(3);
        QSignalSpy reloaded(page, &RemoteHostsPage::hostsReloaded);
        w.show();
        QVERIFY(!reloaded.isEmpty() || reloaded.wait(15000));

        // A folder that is not there: said so, and the cache page stays where it was.
        page->selectHost(m_sshd->alias());
        page->openFolderOnHost(m_sshd->alias(), tmp.path() + QStringLiteral("/no-such-cache"));
        QMessageBox *problem = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((problem = visible<QMessageBox>(page, QStringLiteral("folderProblem"))) != nullptr, 30000);
        QVERIFY(problem->text().contains(QStringLiteral("no folder")));
        problem->close();
        QVERIFY(!cache->showsRemoteCache());

        // The folder, typed in the dialog.
        // The host's scan is waited for by its location: the local cache may still be looked at again after its
        // first scan (a rescan asked while one ran follows it), and that scan's end is not the host's.
        page->openFolderAction()->trigger();
        auto *ask = visible<QInputDialog>(page, QStringLiteral("openFolderDialog"));
        QVERIFY(ask);
        ask->setTextValue(root);
        ask->accept();
        const StoreLocation onHost = sshStoreLocation(m_sshd->alias(), root);
        QTRY_VERIFY_WITH_TIMEOUT(cache->session()->location() == onHost && !cache->session()->isScanning(), 30000);
        QVERIFY(!scanned.isEmpty());
        QVERIFY2(scanned.last().at(1).toString().isEmpty(), qPrintable(scanned.last().at(1).toString()));
        QCOMPARE(w.navigation()->currentRow(), 0);
        QVERIFY(cache->showsRemoteCache());
        // Which host, said plainly.
        const QString where = m_sshd->alias() + QLatin1Char(':') + root;
        QVERIFY(cache->remoteBanner()->isVisible());
        QVERIFY(cache->remoteBannerLabel()->text().contains(where));
        QVERIFY(w.windowTitle().startsWith(where));
        QVERIFY(cache->currentRoot() == where);
        QVERIFY(cache->autoRefreshCombo()->isVisible());  // it cannot be watched
        QVERIFY(!cache->session()->canWatch());
        QCOMPARE(cache->autoRefreshMs(), 0);  // only on F5 unless asked
        cache->autoRefreshCombo()->setCurrentIndex(cache->autoRefreshCombo()->findData(30));
        QCOMPARE(cache->autoRefreshMs(), 30000);
        QCOMPARE(AppSettings::remoteRefreshSeconds(), 30);
        // The same tree as on disk.
        QCOMPARE(modelKeys(cache->model()), onDisk);
        QVERIFY(!cache->showsEmptyState());

        // Details of a failed entry, read over SSH.
        QString failedKey;
        for (const CacheModule &m : cache->model()->modules())
            if (m.state == ModuleState::Failed && failedKey.isEmpty())
                failedKey = m.key();
        QVERIFY(!failedKey.isEmpty());
        const QModelIndex src = cache->model()->indexForKey(failedKey);
        QSignalSpy loaded(cache->details(), &ModuleDetailsPane::detailsLoaded);
        cache->view()->setCurrentIndex(cache->proxy()->mapFromSource(src));
        QVERIFY(loaded.wait(20000));
        QCOMPARE(cache->details()->currentPath(), where + QLatin1Char('/') + failedKey);
        QVERIFY(!cache->details()->logText().isEmpty());
        const QString log = QString::fromUtf8(test::readFile(root + QLatin1Char('/') + failedKey + QStringLiteral("/model.log")));
        QVERIFY(log.trimmed().endsWith(cache->details()->logText()));
        // No local folder to open for a remote entry.
        QPushButton *openFolder = nullptr;
        for (QPushButton *b : cache->details()->findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Open folder"))
                openFolder = b;
        QVERIFY(openFolder);
        QVERIFY(!openFolder->isEnabled());

        // A maintenance action over SSH removes exactly what its preview listed.
        MaintenanceDialog *dlg = cache->startMaintenance(MaintenanceAction::CleanFailed);
        QVERIFY(dlg);
        QTRY_VERIFY_WITH_TIMEOUT(!dlg->isPlanning(), 30000);
        QStringList planned;
        for (const PlanItem &i : dlg->plan().items)
            if (i.op == PlanItem::Op::RemoveEntry)
                planned << i.key;
        QVERIFY(!planned.isEmpty());
        QVERIFY(planned.contains(failedKey));
        QSignalSpy executed(dlg, &MaintenanceDialog::executed);
        QVERIFY(dlg->confirmButton()->isEnabled());
        dlg->confirmButton()->click();
        QVERIFY(executed.wait(60000));
        QCOMPARE(dlg->report().failed, 0);
        QCOMPARE(dlg->report().done, planned.size());
        QStringList expected = onDisk;
        for (const QString &k : planned)
            expected.removeAll(k);
        QCOMPARE(moduleKeys(root), expected);
        dlg->close();
        // The page looked again: the failed entries are gone from the tree too.
        QTRY_COMPARE_WITH_TIMEOUT(modelKeys(cache->model()), expected, 30000);

        // F5 looks for changes: a module removed on the host disappears.
        // The tree is waited for, not a scan's signal: the look after the maintenance may still be ending, and its
        // scanFinished could be the one a spy saw.
        QDir(root + QLatin1Char('/') + expected.first()).removeRecursively();
        QTRY_VERIFY_WITH_TIMEOUT(!cache->session()->isScanning(), 30000);
        cache->rescanAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(modelKeys(cache->model()), expected.mid(1), 30000);

        // And back.
        cache->backToLocalAction()->trigger();
        QVERIFY(!cache->showsRemoteCache());
        QCOMPARE(cache->currentRoot(), local.path);
        QVERIFY(!cache->remoteBanner()->isVisible());
        QVERIFY(!cache->autoRefreshCombo()->isVisible());  // a local cache is watched
        QCOMPARE(cache->autoRefreshMs(), 0);
        QVERIFY(w.windowTitle().startsWith(local.path));
        cache->autoRefreshCombo()->setCurrentIndex(0);
        QCOMPARE(AppSettings::remoteRefreshSeconds(), 0);
    }

    void screenshots()
    {
        // The README's pictures: a host whose NEURON_CC_FLAGS names its cache, opened from the Remote hosts page
        // ("Open compile cache") in the cache page; then the Remote hosts page with that host connected, another
        // that refused, one not connected yet.
        TestSshd trn(QStringLiteral("trn1-dev"));
        QString error;
        QVERIFY2(trn.start(&error), qPrintable(error));
        QVERIFY(trn.trustHostKey());
        QTemporaryDir tmp(QDir::tempPath() + QStringLiteral("/trn1-XXXXXX"));
        const QString root = tmp.path() + QStringLiteral("/neuron-compile-cache");
        SampleCacheOptions o;
        o.modules = 60;
        o.seed = 7;
        QVERIFY2(writeSampleCache(root, o, nullptr, &error), qPrintable(error));
        m_blocks.clear();
        addToConfig(trn.configBlock() + QStringLiteral("  SetEnv NEURON_CC_FLAGS=--cache_dir=%1\n").arg(root));
        addToConfig(QStringLiteral("Host inf2-bench\n  HostName 127.0.0.1\n  Port 1\n"));
        AppSettings::addRemoteHost(QStringLiteral("ubuntu@trn1-train.example.com"));

        MainWindow w;
        w.resize(1400, 900);
        CacheLocation local = CacheLocation::resolve(QProcessEnvironment());
        local.path = tmp.path() + QStringLiteral("/local");
        QDir().mkpath(local.path);
        QSignalSpy scanned(w.localCachePage()->session(), &CacheSession::scanFinished);
        w.start(local);
        QVERIFY(scanned.wait(20000));
        RemoteHostsPage *page = w.remoteHostsPage();
        QSignalSpy reloaded(page, &RemoteHostsPage::hostsReloaded);
        w.navigation()->setCurrentRow(3);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!reloaded.isEmpty() || reloaded.wait(15000));
        page->connectHost(QStringLiteral("inf2-bench"));
        QVERIFY(waitForStatus(*page, QStringLiteral("inf2-bench"), State::Failed));
        page->selectHost(trn.alias());
        page->connectHost(trn.alias());
        QVERIFY(waitForStatus(*page, trn.alias(), State::Connected));

        page->openCacheAction()->trigger();
        LocalCachePage *cache = w.localCachePage();
        // Waited for by its location (a local look may end in between, as in remoteCacheInTheCachePage).
        QTRY_VERIFY_WITH_TIMEOUT(cache->session()->location() == sshStoreLocation(trn.alias(), root)
                                     && !cache->session()->isScanning(),
                                 30000);
        QVERIFY(!scanned.isEmpty());
        QCOMPARE(w.navigation()->currentRow(), 0);
        QVERIFY(!cache->showsEmptyState());
        cache->view()->expandAll();
        QModelIndex failed;
        for (const CacheModule &m : cache->model()->modules())
            if (m.state == ModuleState::Failed && !failed.isValid())
                failed = cache->model()->indexForKey(m.key());
        QVERIFY(failed.isValid());
        QSignalSpy loaded(cache->details(), &ModuleDetailsPane::detailsLoaded);
        const QModelIndex pi = cache->proxy()->mapFromSource(failed);
        cache->view()->setCurrentIndex(pi);
        cache->view()->scrollTo(pi);
        QVERIFY(loaded.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(w.statusText()->text().contains(QStringLiteral("entries scanned")), 15000);
        test::deliverPostedEvents();
        const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(dir);
        QVERIFY(w.grab().save(dir + QStringLiteral("/remote-cache.png")));

        w.navigation()->setCurrentRow(3);
        QTRY_COMPARE_WITH_TIMEOUT(page->detailLabel(QStringLiteral("hostname"))->text(), QStringLiteral("127.0.0.1"), 15000);
        QVERIFY(page->cacheLabel()->text().contains(root));
        test::deliverPostedEvents();
        QVERIFY(w.grab().save(dir + QStringLiteral("/remote-hosts.png")));
        qInfo("screenshots: %s/remote-cache.png, remote-hosts.png", qPrintable(dir));
        AppSettings::removeRemoteHost(QStringLiteral("ubuntu@trn1-train.example.com"));
        RemoteHosts::instance().connection(trn.alias())->close();
    }
};

QTEST_MAIN(TestRemoteHostsPage)
#include "tst_remotehostspage.moc"
