#include "ui/shell/mainwindow.h"

#include "ui/common/resources.h"

#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachesession.h"
#include "models/cache/cachetreemodel.h"
#include "ui/checkpoint/consolidatewizard.h"
#include "ui/hub/hubcachepage.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/launcherwidget.h"
#include "ui/localcache/maintenancedialog.h"
#include "services/cache/cachesession.h"
#include "services/jobs/jobservice.h"
#include "ui/localcache/localcachepage.h"
#include "ui/remote/remotehostspage.h"
#include "ui/shell/settingsdialog.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
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
    , m_status(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    initResources();
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
    m_nav->setCurrentRow(0);
    m_nav->setFixedWidth(150);
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        m_pages->setCurrentIndex(row);
        if (m_pages->currentWidget() == m_hub && !m_hubShown) {
            m_hubShown = true;  // the Hub is contacted only once someone looks at it
            m_hub->refresh();
        }
    });
    m_hub->setLocalModulesProvider([this] {
        QSet<QString> keys;
        for (const CacheModule &m : m_local->model()->modules())
            if (m.isModule())
                keys.insert(m.key());
        return keys;
    });
    connect(m_hub, &HubCachePage::statusChanged, this, &MainWindow::setStatus);
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
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(14);
    m_busy->hide();
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_DialogCancelButton));
    m_cancel->setToolTip(tr("Cancel the scan (Esc)"));
    m_cancel->setAutoRaise(true);
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, [this] { m_local->session()->cancel(); });
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_busy);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_local, &LocalCachePage::statusChanged, this, &MainWindow::setStatus);
    connect(m_local, &LocalCachePage::locationOpened, this,
            [this](const StoreLocation &loc) { setWindowTitle(tr("%1 — Ingot").arg(displayName(loc.display()))); });
    // A remote host's cache opens in the cache page; a scan there that fails makes the host's connection checked.
    connect(m_remote, &RemoteHostsPage::statusChanged, this, [this](const QString &text, bool busy) {
        setStatus(text, busy);
        m_cancel->hide();  // it cancels scans; ssh work ends by itself (time limits)
    });
    connect(m_remote, &RemoteHostsPage::hostReconnected, this, [this](const QString &host) {
        const StoreLocation &loc = m_local->session()->location();
        if (!loc.isLocal() && loc.host == host)
            m_local->session()->rescan(false);
    });
    connect(m_remote, &RemoteHostsPage::openCacheRequested, this, [this](const StoreLocation &loc, const QString &why) {
        m_nav->setCurrentRow(m_pages->indexOf(m_local));
        m_local->openLocation(loc, why);
    });
    connect(m_local->session(), &CacheSession::scanFinished, this, [this](const ScanStats &, const QString &error) {
        const StoreLocation &loc = m_local->session()->location();
        if (!error.isEmpty() && !loc.isLocal())
            m_remote->noteConnectionTrouble(loc.host);
    });

    buildMenus();
    if (!restoreGeometry(AppSettings::windowGeometry()))
        resize(1280, 820);
}

MainWindow::~MainWindow() = default;

void MainWindow::start(const CacheLocation &resolved)
{
    m_local->openInitial(resolved);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_local->addFolderAction());
    file->addAction(m_local->sampleAction());
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
    help->addAction(tr("&About Ingot"), this, &MainWindow::showAbout)->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::setStatus(const QString &text, bool busy)
{
    m_status->setText(text);
    m_busy->setVisible(busy);
    m_cancel->setVisible(busy);
}

void MainWindow::showSettings()
{
    SettingsDialog dlg(this);
    if (dlg.exec() == QDialog::Accepted)
        m_local->session()->setWatching(AppSettings::watchForChanges());
}

void MainWindow::showConsolidate(const QString &folder)
{
    auto *w = new ConsolidateWizard(folder, this);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->open();
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
