// The Local cache page's widgets: the root row, the filter row, the tree, the details and charts, the remote banner,
// and the actions with their shortcuts. What they do is in localcachepage.cpp.
#include "ui/localcache/localcachepage.h"

#include "ui/common/keyboard.h"
#include "services/s3/hosts3access.h"
#include "services/s3/s3cachestore.h"
#include "services/util/appsettings.h"
#include "ui/localcache/cachechartswidget.h"
#include "models/cache/cachefilterproxy.h"
#include "services/cache/cachesession.h"
#include "services/stores/cachestore.h"
#include "models/cache/cachetreemodel.h"
#include "ui/localcache/emptystatewidget.h"
#include "ui/localcache/maintenancedialog.h"
#include "ui/localcache/moduledetailspane.h"
#include "services/cache/samplecache.h"
#include "models/cache/statecolors.h"
#include "services/util/names.h"
#include "services/util/format.h"
#include "ui/localcache/versionpickerdialog.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

void LocalCachePage::buildUi()
{
    createActions();  // first: menus, buttons, context menus and shortcuts all share them
    QLayout *top = buildRootRow();
    m_empty = new EmptyStateWidget(this);
    connect(m_empty, &EmptyStateWidget::addFolderRequested, this, &LocalCachePage::addFolder);
    connect(m_empty, &EmptyStateWidget::sampleRequested, this, &LocalCachePage::openSampleCache);
    connect(m_empty, &EmptyStateWidget::retryRequested, this, [this] { m_session->rescan(true); });

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(buildContent());

    auto *col = new QVBoxLayout(this);
    col->addWidget(buildRemoteBanner());
    col->addLayout(top);
    col->addWidget(m_whyLabel);
    col->addWidget(m_stack, 1);
}

void LocalCachePage::createActions()
{
    m_push = new QAction(style()->standardIcon(QStyle::SP_ArrowUp), tr("Push to the Hub cache repo…"), this);
    m_push->setToolTip(tr("Upload the selected successful entries to the Hub cache repo in use (Transfers shows progress)"));
    connect(m_push, &QAction::triggered, this, [this] {
        const QStringList keys = selectedSuccessKeys();
        if (!keys.isEmpty())
            Q_EMIT pushRequested(m_session->location(), keys);
    });
    m_copy = new QAction(style()->standardIcon(QStyle::SP_ArrowRight), tr("Copy to a remote host…"), this);
    connect(m_copy, &QAction::triggered, this, [this] {
        const QStringList keys = selectedSuccessKeys();
        if (!keys.isEmpty())
            Q_EMIT copyRequested(m_session->location(), keys);
    });
    m_rescan = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Rescan"), this);
    m_rescan->setShortcut(QKeySequence::Refresh);
    m_rescan->setToolTip(tr("Look for changes (F5); unchanged entries are not read again"));
    connect(m_rescan, &QAction::triggered, this, [this] { m_session->rescan(false); });
    m_fullRescan = new QAction(tr("Rescan &everything"), this);
    m_fullRescan->setShortcut(QKeySequence(QStringLiteral("Shift+F5")));
    connect(m_fullRescan, &QAction::triggered, this, [this] { m_session->rescan(true); });
    m_addFolder = new QAction(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("&Add cache folder…"), this);
    m_addFolder->setShortcut(QKeySequence::Open);
    connect(m_addFolder, &QAction::triggered, this, &LocalCachePage::addFolder);
    m_openS3 = new QAction(style()->standardIcon(QStyle::SP_DriveNetIcon), tr("Open an S&3 cache…"), this);
    m_openS3->setToolTip(tr("List and maintain an S3 compile cache (s3://bucket/prefix, as NEURON_COMPILE_CACHE_URL names it) "
                            "with this machine's AWS keys"));
    connect(m_openS3, &QAction::triggered, this, &LocalCachePage::openS3Cache);
    m_torchNeuron = new QAction(tr("&TorchNeuron / vLLM-Neuron cache…"), this);
    m_torchNeuron->setToolTip(tr("The other compile-cache format: one folder per key with a .compilation_complete marker"));
    connect(m_torchNeuron, &QAction::triggered, this, [this] { openTorchNeuronCache(); });
    m_sample = new QAction(tr("Open sa&mple cache"), this);
    connect(m_sample, &QAction::triggered, this, &LocalCachePage::openSampleCache);
    m_cleanFailed = new QAction(stateIcon(ModuleState::Failed), tr("Delete &failed entries…"), this);
    m_cleanFailed->setToolTip(tr("Preview, then delete every FAILED entry so the next run compiles it again"));
    connect(m_cleanFailed, &QAction::triggered, this, [this] { startMaintenance(MaintenanceAction::CleanFailed); });
    m_clearLocks = new QAction(stateIcon(ModuleState::Locked), tr("Clear stale &locks…"), this);
    m_clearLocks->setToolTip(tr("Preview, then remove *.lock files; refused while neuronx-cc runs"));
    connect(m_clearLocks, &QAction::triggered, this, [this] { startMaintenance(MaintenanceAction::ClearLocks); });
    m_removeVersions = new QAction(tr("Remove other compiler &versions…"), this);
    connect(m_removeVersions, &QAction::triggered, this, [this] { startMaintenance(MaintenanceAction::RemoveVersions); });
    m_prune = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Prune…"), this);
    m_prune->setToolTip(tr("Preview, then remove entries unused longer than the TTL and least recently used ones "
                           "while the cache is over its size limit"));
    connect(m_prune, &QAction::triggered, this, [this] { startMaintenance(MaintenanceAction::Prune); });
    m_removeMatching = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Remove matching…"), this);
    m_removeMatching->setObjectName(QStringLiteral("removeMatching"));
    m_removeMatching->setToolTip(tr("Preview, then remove the entries the filter's expressions select (never locked ones), "
                                    "as ingot-cli cache rm --filter does"));
    m_removeMatching->setVisible(false);
    connect(m_removeMatching, &QAction::triggered, this, [this] { startMaintenance(MaintenanceAction::RemoveMatching); });
    m_deleteSelected = new QAction(tr("Delete selected failed entries…"), this);
    m_deleteSelected->setShortcut(QKeySequence::Delete);
    m_deleteSelected->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_deleteSelected, &QAction::triggered, this, &LocalCachePage::deleteSelectedFailed);
    m_backToLocal = new QAction(style()->standardIcon(QStyle::SP_ArrowBack), tr("&Back to the local cache"), this);
    m_backToLocal->setToolTip(tr("Show the compile cache of this machine again"));
    connect(m_backToLocal, &QAction::triggered, this, &LocalCachePage::openLocalCache);
}

// Which host's cache this is, said plainly above everything, and the way back.
QWidget *LocalCachePage::buildRemoteBanner()
{
    m_remoteBanner = new QFrame(this);
    m_remoteBanner->setObjectName(QStringLiteral("remoteBanner"));
    m_remoteBanner->setStyleSheet(QStringLiteral("#remoteBanner { background: #e4effa; border: 1px solid #9cc2e5; "
                                                 "border-radius: 3px; } #remoteBanner QLabel { color: #17324d; }"));
    m_remoteLabel = new QLabel(m_remoteBanner);
    m_remoteLabel->setTextFormat(Qt::RichText);
    m_remoteLabel->setWordWrap(true);
    m_remoteLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *back = new QToolButton(m_remoteBanner);
    back->setDefaultAction(m_backToLocal);
    back->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto *row = new QHBoxLayout(m_remoteBanner);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(m_remoteLabel, 1);
    row->addWidget(back);
    m_remoteBanner->hide();
    return m_remoteBanner;
}

void LocalCachePage::updateRemoteUi()
{
    const StoreLocation &loc = m_session->location();
    const bool remote = loc.isValid() && !loc.isLocal();
    m_remoteBanner->setVisible(remote);
    if (remote && loc.kind == s3::s3StoreKind())
        m_remoteLabel->setText(tr("<b>S3 cache %1</b><br><small>Listed with this machine's AWS keys (as the AWS CLI finds "
                                  "them). An S3 cache cannot be watched: F5 looks for changes, or let Ingot look every so "
                                  "often. Deleting re-lists each entry right before it goes.</small>")
                                   .arg(displayName(loc.display()).toHtmlEscaped()));
    else if (remote && loc.kind == s3::hostS3StoreKind())
        m_remoteLabel->setText(tr("<b>S3 cache %1 on %2</b><br><small>Read on %2 by its own AWS CLI with its own keys, "
                                  "which never leave it. It cannot be watched: F5 looks for changes, or let Ingot look "
                                  "every so often.</small>")
                                   .arg(displayName(loc.path).toHtmlEscaped(), displayName(loc.host).toHtmlEscaped()));
    else if (remote)
        m_remoteLabel->setText(tr("<b>Remote host %1</b> &mdash; compile cache %2<br><small>Read over SSH. A remote "
                                  "cache cannot be watched: F5 looks for changes, or let Ingot look every so often."
                                  "</small>")
                                   .arg(displayName(loc.host).toHtmlEscaped(),
                                        displayName(loc.display()).toHtmlEscaped()));
    const bool unwatchable = loc.isValid() && !m_session->canWatch();
    m_autoRefreshLabel->setVisible(unwatchable);
    m_autoRefresh->setVisible(unwatchable);
    setAutoRefresh(unwatchable ? m_autoRefresh->currentData().toInt() : 0);
}

int LocalCachePage::autoRefreshMs() const
{
    return m_refreshTimer->isActive() ? m_refreshTimer->interval() : 0;
}

void LocalCachePage::setAutoRefresh(int seconds)
{
    if (seconds > 0)
        m_refreshTimer->start(seconds * 1000);
    else
        m_refreshTimer->stop();
}

// Which cache, and why it is the one.
QLayout *LocalCachePage::buildRootRow()
{
    m_rootCombo = new QComboBox(this);
    m_rootCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_rootCombo->setMinimumContentsLength(40);
    connect(m_rootCombo, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_updatingCombo || i < 0)
            return;
        const QString path = m_rootCombo->itemData(i, PathRole).toString();
        const QString kind = m_rootCombo->itemData(i, KindRole).toString();
        if (!kind.isEmpty()) {
            const StoreLocation loc{kind, m_rootCombo->itemData(i, HostRole).toString(), path};
            if (loc != m_session->location())
                for (const auto &[remote, why] : std::as_const(m_remoteLocations))
                    if (remote == loc) {
                        openLocation(remote, why);
                        break;
                    }
            return;
        }
        if (path != m_session->root() || !m_session->location().isLocal())
            openRoot(path);
    });
    auto *addBtn = new QToolButton(this);
    addBtn->setDefaultAction(m_addFolder);
    addBtn->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto *rescanBtn = new QToolButton(this);
    rescanBtn->setDefaultAction(m_rescan);
    rescanBtn->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_whyLabel = new QLabel(this);
    m_whyLabel->setWordWrap(true);
    m_whyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette pal = m_whyLabel->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::Disabled, QPalette::WindowText));
    m_whyLabel->setPalette(pal);
    m_autoRefreshLabel = new QLabel(tr("Look for changes:"), this);
    m_autoRefresh = new QComboBox(this);
    m_autoRefresh->addItem(tr("only on F5"), 0);
    m_autoRefresh->addItem(tr("every 30 s"), 30);
    m_autoRefresh->addItem(tr("every 2 min"), 120);
    m_autoRefresh->setToolTip(tr("This cache cannot be watched for changes (it is on another host): Ingot can look "
                                 "for changes every so often"));
    const int saved = m_autoRefresh->findData(AppSettings::remoteRefreshSeconds());
    m_autoRefresh->setCurrentIndex(saved < 0 ? 0 : saved);
    connect(m_autoRefresh, &QComboBox::currentIndexChanged, this, [this] {
        const int seconds = m_autoRefresh->currentData().toInt();
        AppSettings::setRemoteRefreshSeconds(seconds);
        setAutoRefresh(m_autoRefresh->isVisibleTo(this) ? seconds : 0);
    });
    m_autoRefreshLabel->hide();
    m_autoRefresh->hide();
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Cache:"), this));
    top->addWidget(m_rootCombo, 1);
    top->addWidget(addBtn);
    top->addWidget(rescanBtn);
    top->addWidget(m_autoRefreshLabel);
    top->addWidget(m_autoRefresh);
    return top;
}

// The filter, the state choice and the maintenance buttons.
QLayout *LocalCachePage::buildFilterRow()
{
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by entry or compiler version, or size>1GB used>30d state=failed (Ctrl+F)"));
    m_filterHelp = tr("Words to look for in entries' names, or expressions that must all hold (as ingot-cli cache "
                      "list --filter):\nsize>1GB  size<=500MiB  used>30d  used<2h  state=failed  state!=success  "
                      "compiler=2.15  name=MODULE_12*");
    m_filter->setToolTip(m_filterHelp);
    m_filter->setClearButtonEnabled(true);
    auto *focusFilter = new QAction(tr("Find: go to the filter"), this);
    focusFilter->setShortcut(QKeySequence::Find);
    connect(focusFilter, &QAction::triggered, m_filter, [this] { m_filter->setFocus(); m_filter->selectAll(); });
    addAction(focusFilter);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &t) {
        m_proxy->setText(t);
        showFilterExpressions();
        if (!t.isEmpty())
            m_view->expandAll();
    });
    m_stateCombo = new QComboBox(this);
    m_stateCombo->addItem(tr("All states"), -2);
    m_stateCombo->addItem(tr("Problems only"), -1);
    for (ModuleState s : {ModuleState::Success, ModuleState::Failed, ModuleState::Locked, ModuleState::Incomplete,
                          ModuleState::Empty, ModuleState::Unknown})
        m_stateCombo->addItem(stateIcon(s), stateLabel(s), int(s));
    connect(m_stateCombo, &QComboBox::currentIndexChanged, this, [this] {
        const int v = m_stateCombo->currentData().toInt();
        if (v == -2)
            m_proxy->setStateFilter(CacheFilterProxy::StateFilter::All);
        else if (v == -1)
            m_proxy->setStateFilter(CacheFilterProxy::StateFilter::Problems);
        else
            m_proxy->setStateFilter(CacheFilterProxy::StateFilter::Only, ModuleState(v));
        m_view->expandAll();
    });
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 2);
    filterRow->addWidget(m_stateCombo);
    filterRow->addSpacing(12);
    for (QAction *a : {m_removeMatching, m_cleanFailed, m_clearLocks, m_removeVersions, m_prune}) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        filterRow->addWidget(b);
        if (a == m_removeMatching)
            m_removeMatchingButton = b;  // a tool button does not follow its action's visibility: shown with it
    }
    m_removeMatchingButton->setVisible(false);
    return filterRow;
}

QTreeView *LocalCachePage::buildTree()
{
    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(CacheTreeModel::NameColumn, Qt::DescendingOrder);  // newest compiler first
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setUniformRowHeights(true);  // fast with 100k rows
    m_view->setAlternatingRowColors(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    addContextMenuShortcut(m_view);
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(CacheTreeModel::NameColumn, QHeaderView::Stretch);
    // Wide enough for a compiler row's problems in the language shown (an entry's state is shorter).
    const int stateText = m_view->fontMetrics().horizontalAdvance(CacheTreeModel::wideGroupStateSample());
    m_view->setColumnWidth(CacheTreeModel::StateColumn,
                           std::max(190, stateText + 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 12));
    m_view->setColumnWidth(CacheTreeModel::SizeColumn, 90);
    m_view->setColumnWidth(CacheTreeModel::LastUsedColumn, 110);
    m_view->setColumnWidth(CacheTreeModel::FilesColumn, 60);
    m_view->addAction(m_deleteSelected);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &LocalCachePage::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &LocalCachePage::onCurrentChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LocalCachePage::updateSelectionActions);
    return m_view;
}

// The filter row, the warning banner, the tree beside the details, and the summary beside the charts.
QWidget *LocalCachePage::buildContent()
{
    QLayout *filterRow = buildFilterRow();
    m_warningBanner = new QLabel(this);
    m_warningBanner->setStyleSheet(QStringLiteral("QLabel { background: #fff4e0; color: #6b4300; padding: 4px 8px; border-radius: 3px; }"));
    m_warningBanner->setTextFormat(Qt::RichText);
    m_warningBanner->hide();
    connect(m_warningBanner, &QLabel::linkActivated, this, &LocalCachePage::showWarnings);
    buildTree();
    updateSelectionActions();
    m_details = new ModuleDetailsPane(this);
    connect(m_details, &ModuleDetailsPane::deleteFailedRequested, this, [this] { deleteSelectedFailed(); });
    connect(m_details, &ModuleDetailsPane::clearLocksRequested, this, [this] { startMaintenance(MaintenanceAction::ClearLocks); });
    connect(m_details, &ModuleDetailsPane::fetchRequested, this, [this](const QString &from, const QString &key) {
        Q_EMIT fetchRequested(from, m_session->location(), {key});
    });
    // The details scroll when they are taller than the room they have: what an entry holds never pushes the rest
    // of the page together, nor the window taller.
    auto *detailsArea = new QScrollArea(this);
    detailsArea->setWidget(m_details);
    detailsArea->setWidgetResizable(true);
    detailsArea->setFrameShape(QFrame::NoFrame);
    detailsArea->setFocusPolicy(Qt::NoFocus);  // Tab goes to the buttons and tables inside, which it scrolls to
    auto *hsplit = new QSplitter(Qt::Horizontal, this);
    hsplit->addWidget(m_view);
    hsplit->addWidget(detailsArea);
    hsplit->setStretchFactor(0, 3);
    hsplit->setStretchFactor(1, 2);

    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setMinimumWidth(230);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_charts = new CacheChartsWidget(this);
    auto *bottom = new QWidget(this);
    auto *bl = new QHBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addWidget(m_summary);
    bl->addWidget(m_charts, 1);

    auto *vsplit = new QSplitter(Qt::Vertical, this);
    vsplit->addWidget(hsplit);
    vsplit->addWidget(bottom);
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 1);

    auto *content = new QWidget(this);
    auto *cl = new QVBoxLayout(content);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addLayout(filterRow);
    cl->addWidget(m_warningBanner);
    cl->addWidget(vsplit, 1);
    return content;
}

}  // namespace ingot

namespace ingot {

// Expressions in the filter box: one that does not read is said under the mouse and in red; ones that read offer
// Remove matching (the plan is cache rm --filter's).
void LocalCachePage::showFilterExpressions()
{
    const bool expr = m_proxy->hasExpressions();
    const QString error = m_proxy->expressionError();
    m_filter->setStyleSheet(expr && !error.isEmpty() ? QStringLiteral("QLineEdit { color: #b00020; }") : QString());
    m_filter->setToolTip(expr && !error.isEmpty() ? error : m_filterHelp);
    const bool offer = expr && error.isEmpty() && !m_proxy->expressionFilter().isEmpty();
    m_removeMatching->setVisible(offer);
    m_removeMatching->setEnabled(offer);
    m_removeMatchingButton->setVisible(offer);
}

}  // namespace ingot
