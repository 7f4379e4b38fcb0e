#include "ui/shell/mainwindow.h"

#include "ui/common/resources.h"
#include "ui/common/wheelguard.h"

#include "services/s3/s3cachestore.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/cache/cachelocation.h"
#include "services/cache/modulekeys.h"
#include "services/cache/cachesession.h"
#include "models/cache/cachetreemodel.h"
#include "ui/checkpoint/consolidatewizard.h"
#include "ui/fleet/fleetpage.h"
#include "services/fleet/fleetplaces.h"
#include "ui/hub/hubcachepage.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/openrunfolder.h"
#include "ui/jobs/joblauncher.h"
#include "ui/localcache/maintenancedialog.h"
#include "services/cache/cachesession.h"
#include "services/jobs/jobservice.h"
#include "ui/localcache/localcachepage.h"
#include "ui/remote/remotehostspage.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/shortcutsdialog.h"
#include "ui/transfers/transferspage.h"
#include "models/transfer/transfersmodel.h"
#include "services/hub/cacherepo.h"
#include "services/hub/secretstore.h"
#include "services/remote/remotehosts.h"
#include "services/transfer/transferengine.h"
#include "services/notify/dbusnotifications.h"
#include "services/notify/eventnotifications.h"
#include "services/notify/notifier.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QInputDialog>
#include <QMessageBox>
#include <QProcess>
#include <QProgressBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>

namespace ingot {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_nav(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_local(new LocalCachePage(this))
    , m_hub(new HubCachePage(this))
    , m_jobService(makeJobService(this))
    , m_jobs(new JobsPage(m_jobService, this))
    , m_remote(new RemoteHostsPage(this))
    , m_transfers(new TransferQueue(TransferQueue::defaultStateDir(),
                                    makeTransferEngine(defaultSecretStore()),
                                    this))
    , m_transfersPage(new TransfersPage(m_transfers, this))
    , m_fleet(new FleetPage(this))
    , m_transferStatus(new QLabel(this))
    , m_status(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    initResources();
    installWheelGuard();  // the wheel over an unfocused field scrolls the page (every page's fields, made above too)
    connectPageStatus();
    setWindowTitle(tr("Ingot"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/ingot.svg")));

    // Areas arrive one by one (Hub caches, training jobs, checkpoints, remote hosts); only working ones are listed.
    m_nav->setIconSize(QSize(22, 22));
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setSpacing(2);
    auto *local = new QListWidgetItem(QIcon(QStringLiteral(":/icons/cache.svg")), tr("Local cache"), m_nav);
    local->setToolTip(tr("The Neuron compile cache on this machine (Ctrl+1)"));
    auto *hub = new QListWidgetItem(QIcon(QStringLiteral(":/icons/hub.svg")), tr("Hub caches"), m_nav);
    hub->setToolTip(tr("Compile caches shared on the Hugging Face Hub: browse, compare, look up (Ctrl+2)"));
    auto *jobs = new QListWidgetItem(QIcon(QStringLiteral(":/icons/jobs.svg")), tr("Jobs"), m_nav);
    jobs->setToolTip(tr("Training jobs: launch, follow their loss and logs, stop, resume (Ctrl+3)"));
    m_pages->addWidget(m_local);
    m_pages->addWidget(m_hub);
    m_pages->addWidget(m_jobs);
    auto *remote = new QListWidgetItem(QIcon(QStringLiteral(":/icons/remote.svg")), tr("Remote hosts"), m_nav);
    remote->setToolTip(tr("trn hosts over SSH: connect, and show their compile caches (Ctrl+4)"));
    m_pages->addWidget(m_remote);
    auto *transfers = new QListWidgetItem(QIcon(QStringLiteral(":/icons/transfers.svg")), tr("Transfers"), m_nav);
    transfers->setToolTip(tr("Pulls, pushes and copies of compiled modules: progress, pause, resume, retry (Ctrl+5)"));
    m_pages->addWidget(m_transfersPage);
    auto *fleet = new QListWidgetItem(QIcon(QStringLiteral(":/icons/fleet.svg")), tr("Fleet"), m_nav);
    fleet->setToolTip(tr("Every cache Ingot knows on one page: this machine's, the hosts', S3's and the Hub's (Ctrl+6)"));
    m_pages->addWidget(m_fleet);
    m_nav->setCurrentRow(0);
    m_nav->setFixedWidth(150);
    m_nav->setAccessibleName(tr("Areas"));
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        m_pages->setCurrentIndex(row);
        showStatus(m_pageStatus.value(m_pages->currentWidget()).first, m_pageStatus.value(m_pages->currentWidget()).second);
        if (m_pages->currentWidget() == m_hub && !m_hubShown) {
            m_hubShown = true;  // the Hub is contacted only once someone looks at it
            m_hub->refresh();
        }
    });
    m_hub->setLocalModulesProvider([this] { return moduleKeys(m_local->model()->modules()); });
    connect(m_jobs, &JobsPage::consolidateRequested, this, &MainWindow::showConsolidate);
    connect(m_jobs, &JobsPage::showCacheEntry, this, &MainWindow::showCacheEntry);
    // The Jobs page's launcher: its default compile cache is the one open on the Local cache page, and "Clean…"
    // opens that page's previewed maintenance.
    auto *launcher = new JobLauncher(m_jobService, m_jobs);
    m_jobs->setLauncher(launcher);
    connect(m_jobs, &JobsPage::launcherSpecRequested, launcher, &JobLauncher::setSpec);
    connect(m_local, &LocalCachePage::rootOpened, launcher, &JobLauncher::setDefaultCompileCache);
    connect(m_jobs, &JobsPage::cleanCacheRequested, this, &MainWindow::cleanCompileCache);

    auto *central = new QWidget(this);
    auto *row = new QHBoxLayout(central);
    row->setContentsMargins(4, 4, 4, 0);
    row->addWidget(m_nav);
    row->addWidget(m_pages, 1);
    setCentralWidget(central);

    m_busy->setRange(0, 0);
    m_busy->setAccessibleName(tr("Busy"));
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(14);
    m_busy->hide();
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_DialogCancelButton));
    m_cancel->setToolTip(tr("Cancel the scan (Esc)"));
    m_cancel->setAccessibleName(tr("Cancel the scan"));
    m_cancel->setAutoRaise(true);
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, [this] { m_local->session()->cancel(); });
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_transferStatus);
    statusBar()->addPermanentWidget(m_busy);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_local, &LocalCachePage::locationOpened, this,
            [this](const StoreLocation &loc) { setWindowTitle(tr("%1 — Ingot").arg(displayName(loc.display()))); });
    // A remote host's cache opens in the cache page; a scan there that fails makes the host's connection checked.
    connect(m_remote, &RemoteHostsPage::hostReconnected, this, [this](const QString &host) {
        const StoreLocation &loc = m_local->session()->location();
        if (!loc.isLocal() && loc.host == host)
            m_local->session()->rescan(false);
    });
    connect(m_remote, &RemoteHostsPage::openCacheRequested, this, [this](const StoreLocation &loc, const QString &why) {
        m_nav->setCurrentRow(m_pages->indexOf(m_local));
        m_local->openLocation(loc, why);
    });
    connect(m_fleet, &FleetPage::openPlaceRequested, this, &MainWindow::openFleetPlace);
    connect(m_local->session(), &CacheSession::scanFinished, this, [this](const ScanStats &, const QString &error) {
        const StoreLocation &loc = m_local->session()->location();
        if (!error.isEmpty() && !loc.isLocal())
            m_remote->noteConnectionTrouble(loc.host);
    });

    wireTransfers();
    wireNotifications();
    buildMenus();
    if (!restoreGeometry(AppSettings::windowGeometry()))
        resize(1280, 820);
}

MainWindow::~MainWindow() = default;

// The one transfer queue: the pages ask for moves, the queue runs them, and the views' marks follow it.
void MainWindow::wireTransfers()
{
    connect(m_hub, &HubCachePage::pullRequested, this, [this](const QString &repo, const QStringList &keys) {
        TransferOptions options;
        options.hubCacheLayout = AppSettings::pullHubCacheLayout();
        queueTransfer(TransferKind::Pull, TransferPlace::ofHub(repo), TransferPlace::ofCache(m_local->session()->location()),
                      keys, options);
    });
    connect(m_hub, &HubCachePage::pushRequested, this, [this](const QString &repo, const QStringList &keys) {
        pushFromCache(m_local->session()->location(), keys, repo);
    });
    connect(m_local, &LocalCachePage::pushRequested, this, [this](const StoreLocation &from, const QStringList &keys) {
        pushFromCache(from, keys, resolveCacheRepo(HubConfig::fromEnvironment()).repo);
    });
    connect(m_local, &LocalCachePage::copyRequested, this, &MainWindow::copyFromCache);
    // "Bring it here" from an explanation: a pull from a Hub repo, or a copy from a host's or another folder's cache.
    connect(m_local, &LocalCachePage::fetchRequested, this, [this](const QString &from, const StoreLocation &into, const QStringList &keys) {
        if (from.startsWith(QLatin1String("hub:"))) {
            TransferOptions options;
            options.hubCacheLayout = AppSettings::pullHubCacheLayout();
            queueTransfer(TransferKind::Pull, TransferPlace::ofHub(from.mid(4)), TransferPlace::ofCache(into), keys, options);
            return;
        }
        const qsizetype colon = from.indexOf(QLatin1Char(':'));
        const StoreLocation source = colon > 0 && !from.left(colon).contains(QLatin1Char('/'))
                                         ? sshStoreLocation(from.left(colon), from.mid(colon + 1))
                                         : StoreLocation::local(from);
        queueTransfer(TransferKind::Copy, TransferPlace::ofCache(source), TransferPlace::ofCache(into), keys, TransferOptions());
    });
    connect(m_transfers, &TransferQueue::activityChanged, this, &MainWindow::updateTransferMarks);
    connect(m_transfers, &TransferQueue::ended, this,
            [this](const QString &, const TransferPlace &from, const TransferPlace &to) { transferEnded(from, to); });
    connect(m_transfersPage, &TransfersPage::summaryChanged, m_transferStatus, &QLabel::setText);
    connect(m_local->model(), &QAbstractItemModel::modelReset, this, &MainWindow::updateTransferMarks);
    connect(m_local->session(), &CacheSession::scanFinished, this, [this] {
        m_hub->refreshMarks();
        updateTransferMarks();
    });
    connect(m_hub, &HubCachePage::repoOpened, this, &MainWindow::updateTransferMarks);
}

void MainWindow::queueTransfer(TransferKind kind, const TransferPlace &from, const TransferPlace &to, const QStringList &keys,
                               const TransferOptions &options)
{
    QString error;
    QStringList skipped;
    const QString id = m_transfers->enqueue(kind, from, to, keys, options, &error, &skipped);
    if (id.isEmpty()) {
        QMessageBox::information(this, tr("Nothing queued"), error);
        return;
    }
    m_transfersPage->select(id);
    QString text = tr("Queued: %1. Progress in Transfers (Ctrl+5).").arg(transferSummary(*m_transfers->record(id)));
    if (!skipped.isEmpty())
        text += QLatin1Char(' ') + tr("%n entries were already on their way and were left out.", nullptr, int(skipped.size()));
    setStatus(text, false);
}

void MainWindow::pushFromCache(const StoreLocation &from, const QStringList &keys, const QString &repo)
{
    if (repo.isEmpty())
        return;
    if (repo == defaultCacheRepo()) {
        QMessageBox::information(this, tr("Choose a cache repo of your own"),
                                 tr("%1 is the public cache of AWS Neuron, read-only for users. Create or choose a "
                                    "cache repo of your own (Hub ▸ Create cache repo…) and push there.").arg(repo));
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Push to the Hub"),
        tr("Upload %n successful entries from %1 to the Hub repo %2?\n\nOnly each entry's compiled files go "
           "(model.neff, model.done, the HLO module and its flags); failed, locked or unfinished entries, logs and locks "
           "never do. Entries already on the Hub are skipped.", nullptr, int(keys.size()))
            .arg(displayName(from.display()), displayName(repo)));
    if (answer == QMessageBox::Yes)
        queueTransfer(TransferKind::Push, TransferPlace::ofCache(from), TransferPlace::ofHub(repo), keys, TransferOptions());
}

void MainWindow::copyFromCache(const StoreLocation &from, const QStringList &keys)
{
    if (!from.isLocal()) {
        queueTransfer(TransferKind::Copy, TransferPlace::ofCache(from),
                      TransferPlace::ofCache(StoreLocation::local(m_local->localRoot())), keys, TransferOptions());
        return;
    }
    QStringList hosts;
    for (const RemoteHostEntry &h : RemoteHosts::instance().hosts())
        hosts << h.name;
    const QStringList s3Caches = m_local->openedS3Caches();
    if (hosts.isEmpty() && s3Caches.isEmpty()) {
        QMessageBox::information(this, tr("No remote hosts"),
                                 tr("Add a host on the Remote hosts page (Ctrl+4) first, or list it in your ssh config; "
                                    "or open an S3 cache (File menu) to copy to it."));
        return;
    }
    bool ok = false;
    const QString host = QInputDialog::getItem(this, tr("Copy to a remote host"),
                                               tr("Copy %n entries to the compile cache of:", nullptr, int(keys.size())),
                                               s3Caches + hosts, 0, false, &ok);
    if (!ok || host.isEmpty())
        return;
    if (s3Caches.contains(host)) {
        queueTransfer(TransferKind::Copy, TransferPlace::ofCache(from),
                      TransferPlace::ofCache({s3::s3StoreKind(), QString(), host}), keys, TransferOptions());
        return;
    }
    // The host's cache as the Neuron runtime there resolves it, found when the copy starts.
    queueTransfer(TransferKind::Copy, TransferPlace::ofCache(from), TransferPlace::ofCache(sshStoreLocation(host, QString())), keys,
                  TransferOptions());
}

void MainWindow::updateTransferMarks()
{
    const TransferPlace cache = TransferPlace::ofCache(m_local->session()->location());
    const QSet<QString> cacheKeys = m_transfers->activeKeys(cache);
    m_local->model()->setTransferring(cacheKeys);
    const QString repo = m_hub->currentRepo();
    m_hub->setTransferring(repo.isEmpty() ? cacheKeys : cacheKeys + m_transfers->activeKeys(TransferPlace::ofHub(repo)));
}

void MainWindow::transferEnded(const TransferPlace &from, const TransferPlace &to)
{
    const TransferPlace cache = TransferPlace::ofCache(m_local->session()->location());
    if (from == cache || to == cache)
        m_local->session()->rescan(false);  // its end refreshes the Hub page's marks
    const QString repo = m_hub->currentRepo();
    if (!repo.isEmpty() && to == TransferPlace::ofHub(repo))
        m_hub->reopenRepo();
    updateTransferMarks();
}

void MainWindow::start(const CacheLocation &resolved)
{
    m_local->openInitial(resolved);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_local->addFolderAction());
    file->addAction(m_local->openS3Action());
    file->addAction(m_local->torchNeuronAction());
    file->addAction(m_local->sampleAction());
    QAction *openRun = file->addAction(tr("&Open a run folder…"), this, [this] {
        openRunFolder(this, m_jobService, [this](const QString &id) {
            m_nav->setCurrentRow(m_pages->indexOf(m_jobs));
            if (m_jobs->monitor()->jobId() == id)
                m_jobs->monitor()->setJob(QString());  // refreshed while shown: its points are read again, not added
            m_jobs->showJob(id);
        });
    });
    openRun->setObjectName(QStringLiteral("openRunFolderAction"));
    openRun->setToolTip(tr("Adopt a training run Ingot did not launch (trainer_state.json, TorchTitan logs, TensorBoard events)"));
    file->addSeparator();
    file->addAction(m_local->rescanAction());
    file->addAction(m_local->fullRescanAction());
    QAction *cancel = file->addAction(tr("&Cancel scan"), this, [this] { m_local->session()->cancel(); });
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel->setShortcutContext(Qt::WindowShortcut);
    file->addSeparator();
    QAction *settings = file->addAction(tr("&Settings…"), this, &MainWindow::showSettings);
    settings->setShortcut(QKeySequence::Preferences);
    if (settings->shortcut().isEmpty())
        settings->setShortcut(QKeySequence(QStringLiteral("Ctrl+,")));
    settings->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    if (quit->shortcut().isEmpty())
        quit->setShortcut(QKeySequence(QStringLiteral("Ctrl+Q")));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    QAction *consolidateAction = tools->addAction(tr("&Consolidate a checkpoint…"), this, [this] { showConsolidate(QString()); });
    consolidateAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+K")));

    QMenu *cache = menuBar()->addMenu(tr("&Cache"));
    for (QAction *a : m_local->maintenanceActions())
        cache->addAction(a);

    QMenu *go = menuBar()->addMenu(tr("&Go"));
    QAction *toLocal = go->addAction(tr("&Local cache"), this, [this] { m_nav->setCurrentRow(0); });
    toLocal->setShortcut(QKeySequence(QStringLiteral("Ctrl+1")));
    QAction *toHub = go->addAction(tr("&Hub caches"), this, [this] { m_nav->setCurrentRow(1); });
    toHub->setShortcut(QKeySequence(QStringLiteral("Ctrl+2")));
    QAction *toJobs = go->addAction(tr("&Jobs"), this, [this] { m_nav->setCurrentRow(2); });
    toJobs->setShortcut(QKeySequence(QStringLiteral("Ctrl+3")));
    QAction *toRemote = go->addAction(tr("&Remote hosts"), this, [this] { m_nav->setCurrentRow(m_pages->indexOf(m_remote)); });
    toRemote->setShortcut(QKeySequence(QStringLiteral("Ctrl+4")));
    QAction *toTransfers = go->addAction(tr("&Transfers"), this, [this] { m_nav->setCurrentRow(m_pages->indexOf(m_transfersPage)); });
    toTransfers->setShortcut(QKeySequence(QStringLiteral("Ctrl+5")));
    QAction *toFleet = go->addAction(tr("&Fleet"), this, [this] { m_nav->setCurrentRow(m_pages->indexOf(m_fleet)); });
    toFleet->setShortcut(QKeySequence(QStringLiteral("Ctrl+6")));

    QMenu *hubMenu = menuBar()->addMenu(tr("&Hub"));
    hubMenu->addAction(tr("&Log in…"), m_hub, &HubCachePage::login);
    hubMenu->addAction(tr("Log &out"), m_hub, &HubCachePage::logout);
    hubMenu->addSeparator();
    hubMenu->addAction(tr("&Add cache repo…"), m_hub, &HubCachePage::addRepo);
    hubMenu->addAction(tr("&Create cache repo…"), m_hub, &HubCachePage::createCacheRepo);
    hubMenu->addAction(tr("&Use selected repo as cache repo"), m_hub, &HubCachePage::useAsCacheRepo);
    hubMenu->addSeparator();
    hubMenu->addAction(tr("&Refresh"), m_hub, &HubCachePage::refresh);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard shortcuts…"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence::HelpContents);
    if (keys->shortcut().isEmpty())
        keys->setShortcut(QKeySequence(Qt::Key_F1));
    help->addSeparator();
    help->addAction(tr("&About Ingot"), this, &MainWindow::showAbout)->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::connectPageStatus()
{
    connect(m_hub, &HubCachePage::statusChanged, this, [this](const QString &text, bool busy) { setPageStatus(m_hub, text, busy); });
    connect(m_local, &LocalCachePage::statusChanged, this, [this](const QString &text, bool busy) { setPageStatus(m_local, text, busy); });
    connect(m_fleet, &FleetPage::statusChanged, this, [this](const QString &text, bool busy) { setPageStatus(m_fleet, text, busy); });
    connect(m_remote, &RemoteHostsPage::statusChanged, this,
            [this](const QString &text, bool busy) { setPageStatus(m_remote, text, busy); });
}

void MainWindow::setStatus(const QString &text, bool busy)
{
    setPageStatus(m_pages->currentWidget(), text, busy);
}

void MainWindow::setPageStatus(QWidget *page, const QString &text, bool busy)
{
    m_pageStatus.insert(page, {text, busy});
    if (page == m_pages->currentWidget())
        showStatus(text, busy);
}

void MainWindow::showStatus(const QString &text, bool busy)
{
    m_status->setText(text);
    m_busy->setVisible(busy);
    m_cancel->setVisible(busy && m_pages->currentWidget() == m_local);  // it cancels scans; ssh work ends by itself
}

void MainWindow::showSettings()
{
    SettingsDialog dlg(this);
    if (dlg.exec() != QDialog::Accepted)
        return;
    m_local->session()->setWatching(AppSettings::watchForChanges());
    // Another language: the same program with the same arguments, once this window has closed (it may refuse).
    // Detached, not runProcess: the new window outlives this process (docs/architecture.md).
    if (dlg.restartRequested() && close())
        QProcess::startDetached(QCoreApplication::applicationFilePath(), QCoreApplication::arguments().mid(1));
}

void MainWindow::showConsolidate(const QString &folder)
{
    auto *w = new ConsolidateWizard(folder, this);
    w->setAttribute(Qt::WA_DeleteOnClose);
    // Its end is told (while Ingot is not in front); Open shows the wizard again while it is open.
    connect(w, &ConsolidateWizard::runFinished, this, [this, w](bool ok) {
        const QString output = w->outputEdit()->text();
        m_consolidations.insert(output, w);
        m_events->consolidationEnded(output, ok, QString());
    });
    connect(w, &QObject::destroyed, this, [this, w] {
        m_consolidations.removeIf([w](const auto &it) { return it.value() == w; });
    });
    w->open();
}

void MainWindow::wireNotifications()
{
    auto *transport = new DBusNotifications(this);
    m_notifier = new Notifier(transport, this);
    // In front: a window of Ingot's (this one, a wizard, a dialog) is the active one.
    m_notifier->setInFront([] { return QApplication::activeWindow() != nullptr; });
    m_events = new EventNotifications(m_notifier, m_jobService, m_transfers, this);
    connect(m_notifier, &Notifier::activated, this, &MainWindow::openNotified);
}

void MainWindow::openNotified(const NotifyTarget &target)
{
    QWidget *front = this;
    switch (target.type) {
    case NotifyTarget::Type::Job:
        m_nav->setCurrentRow(m_pages->indexOf(m_jobs));
        m_jobs->showJob(target.id);
        break;
    case NotifyTarget::Type::Transfer:
        m_nav->setCurrentRow(m_pages->indexOf(m_transfersPage));
        m_transfersPage->select(target.id);
        break;
    case NotifyTarget::Type::Consolidation:
        if (QWidget *w = m_consolidations.value(target.id))
            front = w;
        break;
    }
    if (isMinimized())
        showNormal();
    show();
    raise();
    activateWindow();
    if (front != this) {
        front->raise();
        front->activateWindow();
    }
}

void MainWindow::openFleetPlace(const FleetPlace &place)
{
    switch (place.kind) {
    case FleetPlace::Kind::Hub: {
        const bool listed = m_hubShown;
        m_nav->setCurrentRow(m_pages->indexOf(m_hub));  // the first look lists the repos: select it once they are
        if (listed)
            m_hub->selectRepo(place.repo);
        else
            connect(m_hub, &HubCachePage::ready, this, [this, repo = place.repo] { m_hub->selectRepo(repo); },
                    Qt::SingleShotConnection);
        return;
    }
    case FleetPlace::Kind::TorchNeuron:
        m_local->openTorchNeuronCache(place.store.path);
        return;
    case FleetPlace::Kind::Host:
        if (!place.store.isValid()) {  // not read yet: the Remote hosts page resolves its cache there, then opens it
            m_remote->openCompileCache(place.host);
            return;
        }
        break;
    case FleetPlace::Kind::Local:
    case FleetPlace::Kind::S3:
        break;
    }
    m_nav->setCurrentRow(m_pages->indexOf(m_local));
    m_local->openLocation(place.store, tr("%1 (from the Fleet page: %2)").arg(displayName(place.shown()), place.origin));
}

void MainWindow::showCacheEntry(const QString &root, const QString &key)
{
    m_nav->setCurrentRow(m_pages->indexOf(m_local));
    if (m_local->currentRoot() != root)
        m_local->openRoot(root);
    m_local->filterEdit()->setText(key);  // the entry, found by its key
}

MaintenanceDialog *MainWindow::cleanCompileCache(const QString &root)
{
    m_nav->setCurrentRow(m_pages->indexOf(m_local));
    auto preview = [this]() -> MaintenanceDialog * {
        // FAILED entries first (they block recompiling); else the locks.
        bool failed = false;
        for (const CacheModule &m : m_local->model()->modules())
            failed = failed || m.state == ModuleState::Failed;
        return m_local->startMaintenance(failed ? MaintenanceAction::CleanFailed : MaintenanceAction::ClearLocks);
    };
    if (m_local->currentRoot() == root)
        return preview();
    // Another cache: open it, and preview once it is scanned.
    auto *once = new QObject(this);
    connect(m_local->session(), &CacheSession::scanFinished, once, [once, preview](const ScanStats &, const QString &error) {
        once->deleteLater();
        if (error.isEmpty())
            preview();
    });
    m_local->openRoot(root);
    return nullptr;
}

QList<QWidget *> MainWindow::pages() const
{
    QList<QWidget *> list;
    for (int i = 0; i < m_pages->count(); ++i)
        list << m_pages->widget(i);
    return list;
}

QList<ShortcutEntry> MainWindow::shortcutEntries() const
{
    QList<ShortcutGroup> groups;
    for (int i = 0; i < m_pages->count() && i < m_nav->count(); ++i)
        groups.append({m_pages->widget(i), m_nav->item(i)->text()});
    return collectShortcuts(const_cast<MainWindow *>(this), groups, tr("Everywhere"));
}

ShortcutsDialog *MainWindow::showShortcuts()
{
    auto *dlg = new ShortcutsDialog(shortcutEntries(), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QDialog::finished, dlg, &QObject::deleteLater);  // Esc hides it
    dlg->show();
    return dlg;
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Ingot"),
        tr("<h3>Ingot %1</h3>"
           "<p>Compile caches, Hub caches, training jobs and checkpoints for AWS Trainium with optimum-neuron and "
           "torch-neuronx.</p>"
           "<p>Ingot shows what the opaque Neuron compile cache holds, which entries failed, which locks are stale and "
           "what can go, and maintains it safely: every action is previewed first.</p>"
           "<p>Built with Qt %2. Settings: <tt>%3</tt></p>")
            .arg(QStringLiteral(INGOT_VERSION), QString::fromLatin1(qVersion()), AppSettings::fileName()));
}

void MainWindow::closeEvent(QCloseEvent *e)
{
    AppSettings::setWindowGeometry(saveGeometry());
    QMainWindow::closeEvent(e);
}

}  // namespace ingot
