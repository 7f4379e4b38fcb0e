#include "ui/hub/hubcachepage.h"
#include "ui/hub/hubpageparts.h"

#include "ui/common/keyboard.h"
#include "services/hub/cacherepo.h"
#include "services/hub/lookup.h"
#include "services/hub/repoid.h"
#include "services/hub/secretstore.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/util/format.h"
#include "models/hub/hubtreemodel.h"
#include "models/hub/lookupmodel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QStyle>
#include <QMenu>
#include <QVBoxLayout>

namespace ingot {

using namespace hubpage;

namespace {
QSpinBox *anySpin(QWidget *parent, int max)
{
    auto *s = new QSpinBox(parent);
    s->setRange(0, max);
    s->setSpecialValueText(QCoreApplication::translate("ingot::HubCachePage", "any"));
    return s;
}

// A compiler-version folder is listed recursively in one go, so every module shows its size and file count.
bool listsRecursively(const QString &dirPath)
{
    return dirPath.startsWith(QLatin1String("neuronxcc-")) && !dirPath.contains(QLatin1Char('/'));
}

}  // namespace

HubCachePage::HubCachePage(QWidget *parent)
    : QWidget(parent)
    , m_account(new QLabel(this))
    , m_offline(new QLabel(this))
    , m_loginButton(new QPushButton(tr("Log in…"), this))
    , m_logoutButton(new QPushButton(tr("Log out"), this))
    , m_repos(new QListWidget(this))
    , m_tabs(new QTabWidget(this))
    , m_files(new QTreeView(this))
    , m_tree(new HubTreeModel(this))
    , m_listingBar(new QWidget(this))
    , m_listingStatus(new QLabel(m_listingBar))
    , m_listingCancel(new QPushButton(tr("Cancel"), m_listingBar))
    , m_fileDetails(new QPlainTextEdit(this))
    , m_modelEdit(new QLineEdit(this))
    , m_instance(new QComboBox(this))
    , m_dtype(new QComboBox(this))
    , m_batch(anySpin(this, 4096))
    , m_seq(anySpin(this, 1 << 20))
    , m_tp(anySpin(this, 128))
    , m_lookupButton(new QPushButton(tr("Look up"), this))
    , m_lookupCancel(new QPushButton(tr("Cancel"), this))
    , m_lookupStatus(new QLabel(this))
    , m_lookup(new LookupModel(this))
    , m_lookupView(new QTableView(this))
    , m_raw(new QPlainTextEdit(this))
{
    m_keychain = defaultSecretStore();
    m_tabs->addTab(buildFilesTab(), tr("Files"));
    m_tabs->addTab(buildLookupTab(), tr("Lookup"));
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(buildRepoPanel());
    split->addWidget(m_tabs);
    split->setStretchFactor(1, 3);
    auto *col = new QVBoxLayout(this);
    col->addLayout(buildAccountBar());
    col->addWidget(m_offline);
    col->addWidget(split, 1);
}

HubCachePage::~HubCachePage()
{
    m_fileTask.discard();
    m_lookupTask.discard();
    for (Task &t : m_listings)
        t.discard();
}

// The cache repos on the left, with what can be done to the selected one.
QWidget *HubCachePage::buildRepoPanel()
{
    auto *addRepoBtn = new QPushButton(tr("Add repo…"), this);
    auto *useBtn = new QPushButton(tr("Use as cache repo"), this);
    useBtn->setToolTip(tr("Writes the repo id to $HF_HOME/optimum_neuron_custom_cache, the file optimum-cli reads too."));
    auto *createBtn = new QPushButton(tr("Create cache repo…"), this);
    connect(addRepoBtn, &QPushButton::clicked, this, &HubCachePage::addRepo);
    connect(useBtn, &QPushButton::clicked, this, &HubCachePage::useAsCacheRepo);
    connect(createBtn, &QPushButton::clicked, this, &HubCachePage::createCacheRepo);
    m_repos->setWordWrap(true);
    m_repos->setMinimumWidth(280);
    connect(m_repos, &QListWidget::currentRowChanged, this, [this] {
        if (!currentRepo().isEmpty())
            openRepo(currentRepo());
    });
    auto *left = new QWidget(this);
    auto *ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(new QLabel(tr("Cache repos"), this));
    ll->addWidget(m_repos, 1);
    ll->addWidget(addRepoBtn);
    ll->addWidget(useBtn);
    ll->addWidget(createBtn);
    return left;
}

// The repo's files as a lazy tree, the listings running (with Cancel), and the selected file below.
QWidget *HubCachePage::buildFilesTab()
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_tree);
    proxy->setSortRole(HubTreeModel::SortRole);
    m_files->setModel(proxy);
    m_files->setSortingEnabled(true);
    m_files->sortByColumn(HubTreeModel::NameColumn, Qt::AscendingOrder);
    m_files->setUniformRowHeights(true);
    m_files->setAlternatingRowColors(true);
    m_files->header()->setSectionResizeMode(HubTreeModel::NameColumn, QHeaderView::Stretch);
    m_files->header()->setStretchLastSection(false);
    m_files->setColumnWidth(HubTreeModel::WhereColumn, 130);
    connect(m_tree, &HubTreeModel::fetchRequested, this, &HubCachePage::fetch);
    connect(m_files->selectionModel(), &QItemSelectionModel::currentChanged, this, &HubCachePage::showSelectedFile);
    m_files->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_files->setContextMenuPolicy(Qt::CustomContextMenu);
    addContextMenuShortcut(m_files);
    connect(m_files, &QWidget::customContextMenuRequested, this, &HubCachePage::showFilesMenu);
    m_pull = new QPushButton(style()->standardIcon(QStyle::SP_ArrowDown), tr("&Pull to local cache"), this);
    m_pull->setToolTip(tr("Download the selected \"Hub only\" modules (a folder: every module listed in it) into the local "
                          "compile cache, verified, each appearing whole. Progress in Transfers (Ctrl+5)."));
    m_push = new QPushButton(style()->standardIcon(QStyle::SP_ArrowUp), tr("P&ush to this repo"), this);
    m_push->setToolTip(tr("Upload the selected \"Local only\" modules (successful compiles only) to this repo."));
    connect(m_pull, &QPushButton::clicked, this, &HubCachePage::pullSelected);
    connect(m_push, &QPushButton::clicked, this, &HubCachePage::pushSelected);
    connect(m_files->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HubCachePage::updateTransferButtons);
    connect(m_tree, &QAbstractItemModel::dataChanged, this, &HubCachePage::updateTransferButtons);
    updateTransferButtons();
    auto *actionsRow = new QHBoxLayout;
    actionsRow->addWidget(m_pull);
    actionsRow->addWidget(m_push);
    actionsRow->addStretch(1);
    auto *barRow = new QHBoxLayout(m_listingBar);
    barRow->setContentsMargins(0, 0, 0, 0);
    barRow->addWidget(m_listingStatus, 1);
    barRow->addWidget(m_listingCancel);
    m_listingCancel->setToolTip(tr("Stop listing; the folders not listed yet can be listed again with Refresh."));
    connect(m_listingCancel, &QPushButton::clicked, this, &HubCachePage::cancelListings);
    m_listingStatus->setTextFormat(Qt::PlainText);
    m_listingBar->hide();
    m_fileDetails->setReadOnly(true);
    m_fileDetails->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_fileDetails->setPlaceholderText(tr("Select a registry entry (.json) to read it, or a module to see its files."));
    // The repo's files could not be listed at all: why, and Retry (the tree was blank and said nothing).
    m_treeNotice = new QWidget(this);
    m_treeNoticeText = new QLabel(m_treeNotice);
    m_treeNoticeText->setTextFormat(Qt::PlainText);
    m_treeNoticeText->setWordWrap(true);
    m_treeNoticeText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_retry = new QPushButton(tr("&Retry"), m_treeNotice);
    m_retry->setToolTip(tr("List the repo's files again"));
    connect(m_retry, &QPushButton::clicked, this, [this] {
        if (m_config.offline)
            refresh();  // the environment is read again
        else
            reopenRepo();
    });
    auto *noticeRow = new QHBoxLayout(m_treeNotice);
    noticeRow->setContentsMargins(0, 0, 0, 0);
    noticeRow->addWidget(m_treeNoticeText, 1);
    noticeRow->addWidget(m_retry, 0, Qt::AlignTop);
    m_treeNotice->hide();
    auto *top = new QWidget(this);
    auto *tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(m_listingBar);
    tl->addWidget(m_treeNotice);
    tl->addLayout(actionsRow);
    tl->addWidget(m_files, 1);
    auto *filesSplit = new QSplitter(Qt::Vertical, this);
    filesSplit->addWidget(top);
    filesSplit->addWidget(m_fileDetails);
    filesSplit->setStretchFactor(0, 3);
    filesSplit->setStretchFactor(1, 1);
    return filesSplit;
}

// Model id, Look up and Cancel; the filters; the result table; its status and the raw entry of the selected row.
QWidget *HubCachePage::buildLookupTab()
{
    m_modelEdit->setPlaceholderText(tr("Model id, e.g. meta-llama/Llama-3.1-8B-Instruct"));
    m_modelEdit->setClearButtonEnabled(true);
    connect(m_modelEdit, &QLineEdit::returnPressed, this, &HubCachePage::runLookup);
    connect(m_lookupButton, &QPushButton::clicked, this, &HubCachePage::runLookup);
    m_lookupCancel->setEnabled(false);
    connect(m_lookupCancel, &QPushButton::clicked, this, &HubCachePage::cancelLookup);
    setUpLookupTable();
    m_raw->setReadOnly(true);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_raw->setPlaceholderText(tr("The raw registry entry of the selected row."));
    m_raw->setMaximumHeight(200);
    m_lookupStatus->setWordWrap(true);
    m_lookupStatus->setTextFormat(Qt::PlainText);  // it quotes the Hub's messages: never read as markup
    m_lookupStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *copyBtn = new QPushButton(tr("Copy rows"), this);
    connect(copyBtn, &QPushButton::clicked, this, &HubCachePage::copySelectedLookupRows);
    auto *lookupTop = new QHBoxLayout;
    lookupTop->addWidget(m_modelEdit, 1);
    lookupTop->addWidget(m_lookupButton);
    lookupTop->addWidget(m_lookupCancel);
    auto *lookupBottom = new QHBoxLayout;
    lookupBottom->addWidget(m_lookupStatus, 1);
    lookupBottom->addWidget(copyBtn);
    auto *lookupTab = new QWidget(this);
    auto *lt = new QVBoxLayout(lookupTab);
    lt->addLayout(lookupTop);
    lt->addLayout(buildLookupFilters());
    lt->addWidget(m_lookupView, 1);
    lt->addLayout(lookupBottom);
    lt->addWidget(m_raw);
    return lookupTab;
}

QBoxLayout *HubCachePage::buildLookupFilters()
{
    m_instance->addItem(tr("any"), QString());
    for (const char *t : {"trn1", "trn2", "inf2"})
        m_instance->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
    m_dtype->addItem(tr("any"), QString());
    for (const char *d : {"bfloat16", "float16", "float32"})
        m_dtype->addItem(QString::fromLatin1(d), QString::fromLatin1(d));
    auto *filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Instance:"), this));
    filters->addWidget(m_instance);
    filters->addWidget(new QLabel(tr("Batch:"), this));
    filters->addWidget(m_batch);
    filters->addWidget(new QLabel(tr("Sequence:"), this));
    filters->addWidget(m_seq);
    filters->addWidget(new QLabel(tr("TP:"), this));
    filters->addWidget(m_tp);
    filters->addWidget(new QLabel(tr("dtype:"), this));
    filters->addWidget(m_dtype);
    filters->addStretch();
    return filters;
}

// Sortable, rows copy as tab-separated text (Ctrl+C), the selected row's raw entry shows below.
void HubCachePage::setUpLookupTable()
{
    auto *lookupProxy = new QSortFilterProxyModel(this);
    lookupProxy->setSourceModel(m_lookup);
    lookupProxy->setSortRole(LookupModel::SortRole);
    m_lookupView->setModel(lookupProxy);
    m_lookupView->setSortingEnabled(true);
    m_lookupView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_lookupView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lookupView->verticalHeader()->hide();
    m_lookupView->horizontalHeader()->setStretchLastSection(true);
    // Each column as wide as its header before any lookup ("sequence length" whole; showLookupResult fits them to
    // the results), still resizable by hand; the last one stretches (fitting it, or fitting on every model reset,
    // would stop that).
    for (int c = 0; c + 1 < lookupProxy->columnCount(); ++c)
        m_lookupView->resizeColumnToContents(c);
    m_lookupView->setAlternatingRowColors(true);
    m_lookupView->verticalHeader()->setDefaultSectionSize(m_lookupView->fontMetrics().height() + 6);
    auto *copy = new QAction(tr("Copy rows"), m_lookupView);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &HubCachePage::copySelectedLookupRows);
    m_lookupView->addAction(copy);
    m_lookupView->setContextMenuPolicy(Qt::ActionsContextMenu);
    addContextMenuShortcut(m_lookupView);
    connect(m_lookupView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this, lookupProxy](const QModelIndex &i) {
        const QByteArray raw = lookupProxy->mapToSource(i).data(LookupModel::RawRole).toString().toUtf8();
        const QJsonDocument doc = QJsonDocument::fromJson(raw);
        m_raw->setPlainText(doc.isNull() ? QString::fromUtf8(raw) : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)));
    });
}

HubClient HubCachePage::makeClient() const
{
    return HubClient(m_config.endpoint, m_token, m_config.offline);
}

QString HubCachePage::currentRepo() const
{
    const QListWidgetItem *it = m_repos->currentItem();
    return it ? it->data(RepoIdRole).toString() : QString();
}

void HubCachePage::selectRepo(const QString &repo)
{
    for (int i = 0; i < m_repos->count(); ++i)
        if (m_repos->item(i)->data(RepoIdRole).toString() == repo)
            m_repos->setCurrentRow(i);
}

// The repos: the one in use (bold), the public one, and those added here. Returns them.
QStringList HubCachePage::fillRepoList(const CacheRepoChoice &choice)
{
    QStringList repos{choice.repo};
    if (!repos.contains(defaultCacheRepo()))
        repos << defaultCacheRepo();
    for (const QString &r : AppSettings::hubRepos())
        if (!repos.contains(r))
            repos << r;
    m_repos->blockSignals(true);
    m_repos->clear();
    for (const QString &r : std::as_const(repos)) {
        // CUSTOM_CACHE_REPO and the file may hold anything: shown escaped.
        auto *item = new QListWidgetItem(displayName(r), m_repos);
        item->setData(RepoIdRole, r);
        item->setToolTip(r == choice.repo ? tr("The cache repo in use (%1)").arg(displayName(choice.describe())) : QString());
        if (r == choice.repo) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
    }
    m_repos->blockSignals(false);
    return repos;
}

void HubCachePage::openRepo(const QString &repo)
{
    // Answers about the repo shown so far are no longer wanted.
    m_fileTask.discard();
    for (Task &t : m_listings)
        t.discard();
    m_listings.clear();
    m_listingErrors.clear();
    updateListingBar();
    m_tree->setRepo(repo);
    m_tree->setLocalModules(m_localModules ? m_localModules() : QSet<QString>());
    m_fileDetails->clear();
    updateTreeNotice();
    if (m_config.offline)
        return;
    m_tree->fetchMore(QModelIndex());
    Q_EMIT repoOpened(repo);
}

void HubCachePage::reopenRepo()
{
    if (!m_tree->repo().isEmpty())
        openRepo(m_tree->repo());
}

void HubCachePage::refreshMarks()
{
    m_tree->setLocalModules(m_localModules ? m_localModules() : QSet<QString>());
    updateTransferButtons();
    showSelectedFolder();  // the details pane says where the selected row is now ("Hub and local" after a pull)
}

void HubCachePage::setTransferring(const QSet<QString> &keys)
{
    m_tree->setTransferring(keys);
    showSelectedFolder();
}

QStringList HubCachePage::selectedKeys(int presence) const
{
    auto *proxy = static_cast<QSortFilterProxyModel *>(m_files->model());
    QModelIndexList rows;
    for (const QModelIndex &i : m_files->selectionModel()->selectedRows())
        rows << proxy->mapToSource(i);
    QStringList keys = m_tree->moduleKeys(rows, HubTreeModel::Presence(presence));
    keys.erase(std::remove_if(keys.begin(), keys.end(), [this](const QString &k) { return m_tree->isTransferring(k); }),
               keys.end());
    return keys;
}

void HubCachePage::updateTransferButtons()
{
    if (!m_pull)
        return;
    const int pull = int(selectedKeys(int(HubTreeModel::Presence::HubOnly)).size());
    const int push = int(selectedKeys(int(HubTreeModel::Presence::LocalOnly)).size());
    m_pull->setEnabled(pull > 0 && !m_config.offline);
    m_pull->setText(pull > 0 ? tr("&Pull %n to local cache", nullptr, pull) : tr("&Pull to local cache"));
    m_push->setEnabled(push > 0 && !m_config.offline);
    m_push->setText(push > 0 ? tr("P&ush %n to this repo", nullptr, push) : tr("P&ush to this repo"));
}

void HubCachePage::pullSelected()
{
    const QStringList keys = selectedKeys(int(HubTreeModel::Presence::HubOnly));
    if (!keys.isEmpty())
        Q_EMIT pullRequested(m_tree->repo(), keys);
}

void HubCachePage::pushSelected()
{
    const QStringList keys = selectedKeys(int(HubTreeModel::Presence::LocalOnly));
    if (!keys.isEmpty())
        Q_EMIT pushRequested(m_tree->repo(), keys);
}

void HubCachePage::showFilesMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addAction(m_pull->icon(), m_pull->text(), this, &HubCachePage::pullSelected)->setEnabled(m_pull->isEnabled());
    menu.addAction(m_push->icon(), m_push->text(), this, &HubCachePage::pushSelected)->setEnabled(m_push->isEnabled());
    menu.exec(m_files->viewport()->mapToGlobal(pos));
}

void HubCachePage::fetch(const QString &dirPath)
{
    const bool recursive = listsRecursively(dirPath);
    const HubClient hub = makeClient();
    const QString repo = m_tree->repo();
    Q_EMIT statusChanged(tr("Listing %1/%2…").arg(displayName(repo), displayName(dirPath)), true);
    m_listings.insert(dirPath, runTask(this, [hub, repo, dirPath, recursive](TaskControl &c) {
        HubError e;
        QVector<TreeEntry> entries = hub.listTree(repo, QStringLiteral("main"), dirPath, recursive, &e, c.stopFlag());
        return qMakePair(entries, e);
    }, [this, dirPath, recursive](QPair<QVector<TreeEntry>, HubError> r) {
        listingDone(dirPath, recursive, r.first, r.second);
    }));
    updateListingBar();
    showSelectedFolder();
}

void HubCachePage::listingDone(const QString &dirPath, bool recursive, const QVector<TreeEntry> &entries, const HubError &error)
{
    m_listings.remove(dirPath);
    updateListingBar();
    const QString where = displayName(dirPath.isEmpty() ? m_tree->repo() : dirPath);
    if (error.kind == HubError::Kind::Cancelled) {
        m_listingErrors.insert(dirPath, tr("Listing cancelled: use Refresh to list it again."));
        m_tree->setListingError(dirPath, m_listingErrors.value(dirPath));
        Q_EMIT statusChanged(tr("Listing of %1 cancelled.").arg(where), false);
    } else if (!error.ok()) {
        m_listingErrors.insert(dirPath, error.message);
        m_tree->setListingError(dirPath, error.message);
        Q_EMIT statusChanged(error.message, false);
    } else {
        m_listingErrors.remove(dirPath);
        m_tree->setListing(dirPath, entries, recursive);
        Q_EMIT statusChanged(tr("%1: %n item(s) listed", nullptr, int(entries.size())).arg(where), false);
    }
    updateTreeNotice();
    showSelectedFolder();  // a folder selected before it was listed now has its numbers
}

void HubCachePage::updateTreeNotice()
{
    QString text;
    const QString repo = displayName(m_tree->repo());
    if (m_tree->repo().isEmpty())
        text.clear();
    else if (m_config.offline)
        text = tr("Offline (HF_HUB_OFFLINE is set): the files of %1 are not listed.").arg(repo);
    else if (m_listingErrors.contains(QString()))
        text = tr("The files of %1 could not be listed: %2").arg(repo, m_listingErrors.value(QString()));
    m_treeNoticeText->setText(text);
    m_treeNotice->setVisible(!text.isEmpty());
}

// Whether a folder selected is being listed now: itself, or within a compiler folder listed recursively.
bool HubCachePage::isBeingListed(const QString &path) const
{
    if (m_listings.contains(path))
        return true;
    for (auto it = m_listings.keyBegin(); it != m_listings.keyEnd(); ++it)
        if (listsRecursively(*it) && path.startsWith(*it + QLatin1Char('/')))
            return true;
    return false;
}

// A folder's details: its size and file count once listed, else that they come with its listing.
QString HubCachePage::folderDetails(const QModelIndex &i) const
{
    const QString path = i.data(HubTreeModel::PathRole).toString();
    const QString shown = displayName(path);  // the Hub's path: its title line cannot be split or turned around
    const QString where = i.siblingAtColumn(HubTreeModel::WhereColumn).data().toString();
    if (HubTreeModel::Presence(i.data(HubTreeModel::PresenceRole).toInt()) == HubTreeModel::Presence::LocalOnly)
        return shown + QLatin1Char('\n') + where;  // not on the Hub: nothing to list
    const QVariant files = i.siblingAtColumn(HubTreeModel::FilesColumn).data();
    if (files.isValid())
        return tr("%1\n%2 in %n file(s)\n%3", nullptr, files.toInt())
            .arg(shown, i.siblingAtColumn(HubTreeModel::SizeColumn).data().toString(), where);
    if (isBeingListed(path))
        return tr("%1\nBeing listed: its size and file count follow.").arg(shown);
    if (m_listingErrors.contains(path))
        return tr("%1\nCould not be listed: %2").arg(shown, m_listingErrors.value(path));
    return tr("%1\nNot listed yet: expand it to see its size and file count.").arg(shown);
}

void HubCachePage::showSelectedFolder()
{
    auto *proxy = static_cast<QSortFilterProxyModel *>(m_files->model());
    const QModelIndex i = proxy->mapToSource(m_files->currentIndex()).siblingAtColumn(0);
    if (i.isValid() && i.data(HubTreeModel::IsDirRole).toBool())
        m_fileDetails->setPlainText(folderDetails(i));
}

void HubCachePage::updateListingBar()
{
    m_listingBar->setVisible(!m_listings.isEmpty());
    if (m_listings.isEmpty())
        return;
    QStringList folders = m_listings.keys();
    folders.sort();
    const QString first = displayName(folders.first().isEmpty() ? m_tree->repo() : folders.first());
    m_listingStatus->setText(folders.size() == 1 ? tr("Listing %1…").arg(first)
                                                 : tr("Listing %1 and %n more folder(s)…", nullptr, int(folders.size()) - 1).arg(first));
}

void HubCachePage::cancelListings()
{
    for (Task &t : m_listings)
        t.stop();  // each answers Cancelled, and its folder says so
}

void HubCachePage::showSelectedFile()
{
    m_fileTask.discard();  // the file selected before is no longer wanted
    auto *proxy = static_cast<QSortFilterProxyModel *>(m_files->model());
    const QModelIndex i = proxy->mapToSource(m_files->currentIndex()).siblingAtColumn(0);
    if (!i.isValid())
        return;
    const QString path = i.data(HubTreeModel::PathRole).toString();
    const QString shown = displayName(path);  // the Hub's path: its title line cannot be split or turned around
    if (i.data(HubTreeModel::IsDirRole).toBool()) {
        m_fileDetails->setPlainText(folderDetails(i));
        return;
    }
    if (!path.endsWith(QLatin1String(".json"))) {
        m_fileDetails->setPlainText(shown);
        return;
    }
    m_fileDetails->setPlainText(tr("Reading %1…").arg(shown));
    const HubClient hub = makeClient();
    const QString repo = m_tree->repo();
    m_fileTask = runTask(this, [hub, repo, path](TaskControl &c) {
        HubError e;
        QByteArray body = hub.readFile(repo, QStringLiteral("main"), path, 1 << 20, &e, nullptr, c.stopFlag());
        return qMakePair(body, e);
    }, [this, shown](QPair<QByteArray, HubError> r) {
        m_fileDetails->setPlainText(r.second.ok() ? shown + QStringLiteral("\n\n") + QString::fromUtf8(r.first) : r.second.message);
    });
}

void HubCachePage::runLookup()
{
    const QString model = m_modelEdit->text().trimmed();
    const QString repo = currentRepo();
    if (model.isEmpty() || repo.isEmpty())
        return;
    LookupFilters f;
    f.instanceType = m_instance->currentData().toString();
    f.dtype = m_dtype->currentData().toString();
    f.batchSize = m_batch->value() > 0 ? m_batch->value() : -1;
    f.sequenceLength = m_seq->value() > 0 ? m_seq->value() : -1;
    f.tensorParallel = m_tp->value() > 0 ? m_tp->value() : -1;
    m_lookupTask.discard();  // Return in the model field while one runs: the new question replaces it
    m_lookupButton->setEnabled(false);
    m_lookupCancel->setEnabled(true);
    m_lookupStatus->setText(tr("Looking up %1 in %2…").arg(displayName(model), displayName(repo)));
    const HubClient hub = makeClient();
    m_lookupTask = runTask(this, [hub, repo, model, f](TaskControl &c) {
        return ingot::lookupModel(hub, repo, model, f, LookupOptions(), c.stopFlag());
    }, [this, model, repo](LookupResult r) { showLookupResult(model, repo, r); });
}

void HubCachePage::cancelLookup()
{
    m_lookupTask.stop();  // the lookup stops early and answers Cancelled
}

void HubCachePage::showLookupResult(const QString &model, const QString &repo, const LookupResult &r)
{
    m_lookupButton->setEnabled(true);
    m_lookupCancel->setEnabled(false);
    if (r.failed()) {
        m_lookup->setEntries({});
        m_lookupStatus->setText(r.error.kind == HubError::Kind::Cancelled
                                    ? tr("Lookup of %1 in %2 cancelled.").arg(displayName(model), displayName(repo)) : r.error.message);
        Q_EMIT lookupFinished(-1);
        return;
    }
    m_lookup->setEntries(r.entries + r.unknown);
    m_lookupView->resizeColumnsToContents();
    QString text = r.entries.isEmpty() ? tr("No cached entries found for %1 in %2.").arg(displayName(model), displayName(repo))
                                       : tr("%n cached entr(ies) for %1 in %2 (%3 registry files read).", nullptr, int(r.entries.size()))
                                             .arg(displayName(model), displayName(repo)).arg(r.fetched);
    if (!r.unknown.isEmpty())
        text += QLatin1Char(' ') + tr("%n entr(ies) of an unknown shape are listed too, raw.", nullptr, int(r.unknown.size()));
    // What could not be read is said with the table, never passed off as "not cached".
    if (r.error.kind == HubError::Kind::Incomplete)
        text += QLatin1Char('\n') + r.error.message;
    m_lookupStatus->setText(text);
    Q_EMIT lookupFinished(int(r.entries.size()));
}

void HubCachePage::copySelectedLookupRows()
{
    auto *proxy = static_cast<QSortFilterProxyModel *>(m_lookupView->model());
    QList<int> rows;
    for (const QModelIndex &i : m_lookupView->selectionModel()->selectedRows())
        rows << proxy->mapToSource(i).row();
    if (rows.isEmpty())
        for (int r = 0; r < m_lookup->rowCount(); ++r)
            rows << r;
    std::sort(rows.begin(), rows.end());
    QApplication::clipboard()->setText(m_lookup->rowsAsText(rows));
}

// A warning that does not block: the dialog is window-modal and deletes itself.
void HubCachePage::warn(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setTextFormat(Qt::PlainText);  // the text quotes the Hub's messages: never read as markup
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void HubCachePage::addRepo()
{
    auto *dlg = new QInputDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Add a cache repo"));
    dlg->setLabelText(tr("Repo id (org/name):"));
    connect(dlg, &QInputDialog::textValueSelected, this, [this](const QString &text) { addRepoNamed(text.trimmed()); });
    dlg->open();
}

void HubCachePage::addRepoNamed(const QString &repo)
{
    if (repo.isEmpty())
        return;
    if (!isValidRepoId(repo)) {
        warn(tr("Add a cache repo"), tr("\"%1\" is not a repo id of the form org/name.").arg(displayName(repo)));
        return;
    }
    AppSettings::addHubRepo(repo);
    connect(this, &HubCachePage::ready, this, [this, repo] { selectRepo(repo); }, Qt::SingleShotConnection);
    refresh();
}

void HubCachePage::useAsCacheRepo()
{
    const QString repo = currentRepo();
    if (repo.isEmpty())
        return;
    const HubConfig cfg = m_config;
    runTask(this, [cfg, repo](TaskControl &) {
        QString error;
        writeCustomCacheRepo(cfg, repo, &error);
        return error;
    }, [this, repo](QString error) {
        if (!error.isEmpty()) {
            warn(tr("Cache repo"), error);
            return;
        }
        Q_EMIT statusChanged(tr("Neuron cache name set locally to %1 in %2.").arg(displayName(repo), displayName(m_config.customCacheRepoFile())), false);
        refresh();
    });
}

void HubCachePage::createCacheRepo()
{
    if (!m_haveMe) {
        auto *box = new QMessageBox(QMessageBox::Information, tr("Create a cache repo"),
                                    tr("Log in first: the repo is created in your namespace."), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    auto *dlg = new QDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Create a cache repo"));
    auto *name = new QLineEdit(m_me.name + QStringLiteral("/optimum-neuron-cache"), dlg);
    auto *pub = new QCheckBox(tr("Public (default: private)"), dlg);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dlg);
    connect(buttons, &QDialogButtonBox::accepted, dlg, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    auto *form = new QFormLayout(dlg);
    form->addRow(tr("Repo:"), name);
    form->addRow(pub);
    form->addRow(buttons);
    connect(dlg, &QDialog::accepted, this, [this, name, pub] { createCacheRepoNamed(name->text().trimmed(), pub->isChecked()); });
    dlg->open();
}

void HubCachePage::createCacheRepoNamed(const QString &repo, bool isPublic)
{
    const HubClient hub = makeClient();
    const HubConfig cfg = m_config;
    runTask(this, [hub, cfg, repo, isPublic](TaskControl &c) {
        return ingot::createCacheRepo(hub, cfg, repo, isPublic, c.stopFlag()).error;
    }, [this, repo](HubError error) {
        if (!error.ok())
            warn(tr("Create a cache repo"), error.message);
        else
            Q_EMIT statusChanged(tr("Neuron cache created on the Hugging Face Hub: %1.").arg(displayName(repo)), false);
        refresh();
    });
}

}  // namespace ingot
