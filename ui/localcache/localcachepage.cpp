#include "ui/localcache/localcachepage.h"

#include "ui/common/keyboard.h"
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
#include "services/cache/torchneuron.h"
#include "services/s3/s3cachestore.h"
#include "models/cache/statecolors.h"
#include "services/util/names.h"
#include "services/util/format.h"
#include "ui/localcache/torchneurondialog.h"
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
#include <QInputDialog>
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

namespace ingot {

LocalCachePage::LocalCachePage(QWidget *parent)
    : QWidget(parent)
    , m_session(new CacheSession(this))
    , m_model(new CacheTreeModel(this))
    , m_proxy(new CacheFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    m_statsTimer = new QTimer(this);
    m_statsTimer->setSingleShot(true);
    m_statsTimer->setInterval(150);
    connect(m_statsTimer, &QTimer::timeout, this, &LocalCachePage::refreshSummary);
    m_refreshTimer = new QTimer(this);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_session->isScanning())
            m_session->rescan(false);
    });
    buildUi();
    m_session->setWatching(AppSettings::watchForChanges());

    connect(m_session, &CacheSession::rootChanged, this, [this](const QString &root) {
        m_model->clear();
        m_details->clear();
        m_details->setLocation(m_session->location(), [this] { return m_session->listedStore(); });
        updateRemoteUi();
        if (m_session->location().isLocal())
            Q_EMIT rootOpened(root);
        Q_EMIT locationOpened(m_session->location());
    });
    connect(m_session, &CacheSession::scanStarted, this, [this](bool full) {
        m_model->setNow(QDateTime::currentMSecsSinceEpoch());
        // A tree filled from nothing takes its rows unsorted (as the scan hands them out, newest compiler first) and
        // is sorted once at the end: a sorted proxy places each arriving row on its own, which for 100k modules kept
        // the window frozen for seconds (issue 26). Rescans of a shown tree change a few rows and stay sorted.
        if (m_model->entryCount() == 0 && m_proxy->sortColumn() >= 0) {
            m_sortAfterScan = true;
            m_proxy->sort(-1);
        }
        Q_EMIT statusChanged(full ? tr("Scanning %1…").arg(m_session->root()) : tr("Checking for changes…"), true);
    });
    connect(m_session, &CacheSession::delta, this, [this](const ScanDelta &d) {
        const bool first = m_model->entryCount() == 0;
        m_model->applyDelta(d);
        if (first && m_model->rowCount() > 0) {
            m_stack->setCurrentIndex(1);
            m_expandNewest = true;
        }
        // The newest compiler's group (the scan hands it out first, after the root's other items) is opened as soon
        // as it is there.
        for (int r = 0; m_expandNewest && r < m_proxy->rowCount(); ++r) {
            const QModelIndex group = m_proxy->index(r, 0);
            if (!group.data(CacheTreeModel::VersionRole).toString().isEmpty()) {
                m_view->expand(group);
                m_expandNewest = false;
            }
        }
        m_statsTimer->start();
        if (m_session->isScanning())
            Q_EMIT statusChanged(tr("Scanning… %n entries so far", nullptr, m_model->entryCount()), true);
        // Refresh the details only when the entry shown changed on disk.
        const QModelIndex cur = m_proxy->mapToSource(m_view->currentIndex());
        if (const CacheModule *m = m_model->module(cur.siblingAtColumn(0)))
            for (const CacheModule &u : d.upserts)
                if (u.version == m->version && u.name == m->name) {
                    onCurrentChanged();
                    break;
                }
    });
    connect(m_session, &CacheSession::scanFinished, this, &LocalCachePage::onScanFinished);
}

LocalCachePage::~LocalCachePage() = default;

QList<QAction *> LocalCachePage::maintenanceActions() const
{
    return {m_cleanFailed, m_clearLocks, m_removeVersions, m_prune};
}

bool LocalCachePage::showsEmptyState() const
{
    return m_stack->currentIndex() == 0;
}

bool LocalCachePage::showsRemoteCache() const
{
    return m_session->location().isValid() && !m_session->location().isLocal();
}

QString LocalCachePage::currentRoot() const
{
    return m_session->root();
}

void LocalCachePage::rebuildRootCombo()
{
    m_updatingCombo = true;
    m_rootCombo->clear();
    const bool remote = showsRemoteCache();
    const QString current = remote ? QString() : m_session->root();
    auto add = [this](const QString &label, const QString &path, bool resolved) {
        m_rootCombo->addItem(label);
        const int i = m_rootCombo->count() - 1;
        m_rootCombo->setItemData(i, path, PathRole);
        m_rootCombo->setItemData(i, resolved, ResolvedRole);
        m_rootCombo->setItemData(i, path, Qt::ToolTipRole);
    };
    if (m_resolved.isSupported())
        add(tr("%1 (Neuron default for this environment)").arg(m_resolved.path), m_resolved.path, true);
    QStringList roots = AppSettings::cacheRoots();
    if (!current.isEmpty() && current != m_resolved.path && !roots.contains(current))
        roots << current;
    for (const QString &r : std::as_const(roots))
        if (r != m_resolved.path)
            add(r, r, false);
    for (const auto &[loc, why] : std::as_const(m_remoteLocations)) {
        m_rootCombo->addItem(loc.kind == s3::s3StoreKind() ? tr("%1 (S3)").arg(displayName(loc.display()))
                                                           : tr("%1 (remote host)").arg(displayName(loc.display())));
        const int i = m_rootCombo->count() - 1;
        m_rootCombo->setItemData(i, loc.path, PathRole);
        m_rootCombo->setItemData(i, loc.kind, KindRole);
        m_rootCombo->setItemData(i, loc.host, HostRole);
        m_rootCombo->setItemData(i, displayName(loc.display()), Qt::ToolTipRole);
        if (remote && loc == m_session->location())
            m_rootCombo->setCurrentIndex(i);
    }
    for (int i = 0; i < m_rootCombo->count() && !remote; ++i)
        if (m_rootCombo->itemData(i, PathRole).toString() == current
            && m_rootCombo->itemData(i, KindRole).toString().isEmpty())
            m_rootCombo->setCurrentIndex(i);
    m_updatingCombo = false;
    if (remote) {
        QString why;
        for (const auto &[loc, text] : std::as_const(m_remoteLocations))
            if (loc == m_session->location())
                why = text;
        m_whyLabel->setText(why.isEmpty() ? tr("A folder on %1.").arg(displayName(m_session->location().host)) : why);
        return;
    }
    const bool isResolved = current == m_resolved.path;
    m_whyLabel->setText(isResolved ? tr("Why this folder: %1").arg(m_resolved.explanation)
                        : current == AppSettings::sampleCachePath()
                            ? tr("A sample cache Ingot generated, safe to experiment with. The Neuron default here: %1").arg(m_resolved.path)
                            : tr("A folder you added. The Neuron runtime here would use %1 (%2)")
                                  .arg(m_resolved.path, m_resolved.explanation));
}

void LocalCachePage::openInitial(const CacheLocation &resolved)
{
    m_resolved = resolved;
    const QString remembered = AppSettings::currentRoot();
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir()) {
        openRoot(remembered);
        return;
    }
    if (resolved.kind == CacheLocation::Kind::S3) {  // NEURON_COMPILE_CACHE_URL=s3://...
        openLocation({s3::s3StoreKind(), QString(), resolved.path}, resolved.explanation);
        return;
    }
    openRoot(resolved.path);
}

void LocalCachePage::openRoot(const QString &path)
{
    const QString clean = QDir::cleanPath(path);
    if (clean != m_resolved.path && clean != AppSettings::sampleCachePath())
        AppSettings::addCacheRoot(clean);
    AppSettings::setCurrentRoot(clean == m_resolved.path ? QString() : clean);
    m_stack->setCurrentIndex(0);
    m_empty->setMessage(tr("Scanning %1…").arg(clean), QString());
    m_session->setRoot(clean);
    rebuildRootCombo();
}

void LocalCachePage::openLocation(const StoreLocation &location, const QString &why)
{
    if (location.isLocal()) {
        openRoot(location.path);
        return;
    }
    m_remoteLocations.erase(std::remove_if(m_remoteLocations.begin(), m_remoteLocations.end(),
                                           [&](const auto &r) { return r.first == location; }),
                            m_remoteLocations.end());
    m_remoteLocations.prepend({location, why});
    m_stack->setCurrentIndex(0);
    m_empty->setMessage(location.kind == s3::s3StoreKind() ? tr("Listing %1…").arg(displayName(location.display()))
                                                           : tr("Reading %1 over SSH…").arg(displayName(location.display())),
                        QString());
    m_session->setLocation(location);
    rebuildRootCombo();
}

QString LocalCachePage::localRoot() const
{
    if (m_session->location().isLocal() && !m_session->root().isEmpty())
        return m_session->root();
    const QString remembered = AppSettings::currentRoot();
    return !remembered.isEmpty() && QFileInfo(remembered).isDir() ? remembered : m_resolved.path;
}

void LocalCachePage::openLocalCache()
{
    const QString remembered = AppSettings::currentRoot();
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir())
        openRoot(remembered);
    else
        openInitial(m_resolved);
}

void LocalCachePage::addFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add a Neuron compile cache folder"),
                                                          m_session->root().isEmpty() ? QDir::homePath() : m_session->root());
    if (!dir.isEmpty())
        openRoot(dir);
}

TorchNeuronDialog *LocalCachePage::openTorchNeuronCache(const QString &folder)
{
    auto *dlg = new TorchNeuronDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    if (!folder.isEmpty())
        dlg->openFolder(folder);
    else if (torchNeuronKeysShown() > 0)  // the cache shown holds keys of that format (here, on a host, in S3)
        dlg->openLocation(m_session->location());
    else
        dlg->openFolder(resolveTorchNeuronLocations().local);
    dlg->show();
    return dlg;
}

int LocalCachePage::torchNeuronKeysShown() const
{
    const auto &mods = m_session->snapshot().modules;
    return int(std::count_if(mods.cbegin(), mods.cend(),
                             [](const CacheModule &m) { return m.version.isEmpty() && isTorchNeuronKey(m.name); }));
}

QStringList LocalCachePage::openedS3Caches() const
{
    QStringList urls;
    for (const auto &[loc, why] : m_remoteLocations)
        if (loc.kind == s3::s3StoreKind())
            urls << loc.path;
    return urls;
}

void LocalCachePage::openS3Cache()
{
    const CacheLocation here = CacheLocation::resolve();
    bool ok = false;
    const QString url = QInputDialog::getText(this, tr("Open an S3 cache"),
                                              tr("The S3 compile cache (as NEURON_COMPILE_CACHE_URL names it):"), QLineEdit::Normal,
                                              here.kind == CacheLocation::Kind::S3 ? here.path : QStringLiteral("s3://"), &ok)
                              .trimmed();
    if (ok && !url.isEmpty())
        openS3Url(url);
}

bool LocalCachePage::openS3Url(const QString &url)
{
    s3::S3Location where;
    QString why;
    if (!s3::S3Location::parse(url, &where, &why)) {
        QMessageBox::warning(this, tr("Open an S3 cache"), why);
        return false;
    }
    openLocation({s3::s3StoreKind(), QString(), where.url()},
                 tr("An S3 compile cache, listed with this machine's AWS keys (the environment, AWS_PROFILE, ~/.aws, or the "
                    "instance role)."));
    return true;
}

void LocalCachePage::openSampleCache()
{
    if (m_writingSample.isRunning())
        return;
    const QString path = AppSettings::sampleCachePath();
    Q_EMIT statusChanged(tr("Writing the sample cache to %1…").arg(path), true);
    // Written off the UI thread: a few thousand small files and links, on whatever disk the data folder is.
    m_writingSample = runTask(
        this,
        [path](TaskControl &) {
            QString error;
            if (!QFileInfo::exists(path)) {
                writeSampleCache(path, shownSampleOptions(), nullptr, &error);
            }
            return error;
        },
        [this, path](const QString &error) {
            if (!error.isEmpty()) {
                Q_EMIT statusChanged(tr("Could not write the sample cache."), false);
                QMessageBox::warning(this, tr("Sample cache"), tr("Could not write the sample cache: %1").arg(error));
                return;
            }
            openRoot(path);
        });
}

void LocalCachePage::onScanFinished(const ScanStats &stats, const QString &fatalError)
{
    if (std::exchange(m_sortAfterScan, false))
        m_proxy->sort(m_view->header()->sortIndicatorSection(), m_view->header()->sortIndicatorOrder());
    if (std::exchange(m_expandNewest, false) && m_proxy->rowCount() > 0)
        m_view->expand(m_proxy->index(0, 0));  // no compiler version folder: the root's items
    refreshSummary();
    if (fatalError.isEmpty() && m_session->location().kind == s3::s3StoreKind())
        AppSettings::addS3Cache(m_session->location().path);  // a place of the fleet from now on
    if (!fatalError.isEmpty() && m_session->location().kind == s3::s3StoreKind()) {
        m_empty->setMessage(tr("The S3 cache %1 cannot be shown").arg(displayName(m_session->location().display())),
                            fatalError + QStringLiteral("\n\n") +
                                tr("Check the AWS keys (the environment, AWS_PROFILE, ~/.aws), the region and the "
                                   "endpoint, press F5 to try again, or go back to the local cache."));
        m_stack->setCurrentIndex(0);
        Q_EMIT statusChanged(fatalError, false);
        return;
    }
    if (!fatalError.isEmpty() && showsRemoteCache()) {
        const QString host = displayName(m_session->location().host);
        m_empty->setMessage(tr("The cache on %1 cannot be shown").arg(host),
                            fatalError + QStringLiteral("\n\n") +
                                tr("Check the connection to %1 on the Remote hosts page (Ctrl+4), press F5 to try "
                                   "again, or go back to the local cache.").arg(host));
        m_stack->setCurrentIndex(0);
        Q_EMIT statusChanged(fatalError, false);
        return;
    }
    if (!fatalError.isEmpty()) {
        const bool isDefault = m_session->root() == m_resolved.path;
        m_empty->setMessage(
            isDefault ? tr("No Neuron compile cache here yet") : tr("This cache cannot be shown"),
            fatalError + QStringLiteral("\n\n") +
                (isDefault ? tr("Ingot looks where the Neuron runtime does. %1\n\nTraining or compiling on this machine "
                                "creates the cache. Meanwhile you can add another folder, or open a sample cache to "
                                "see every feature at work.").arg(m_resolved.explanation)
                           : tr("Choose another folder, or open the sample cache.")));
        m_stack->setCurrentIndex(0);
        Q_EMIT statusChanged(fatalError, false);
        return;
    }
    if (m_model->rowCount() == 0) {
        m_empty->setMessage(tr("The cache is empty"),
                            m_session->canWatch()
                                ? tr("%1 exists but holds no compiled entries yet. It fills as jobs compile; Ingot "
                                     "follows it live.").arg(m_session->root())
                                : tr("%1 exists but holds no compiled entries yet. It fills as jobs compile there; "
                                     "press F5 to look again.").arg(displayName(m_session->root())));
        m_stack->setCurrentIndex(0);
    } else {
        m_stack->setCurrentIndex(1);
    }
    QString text = stats.cancelled ? tr("Scan cancelled: %n entries read.", nullptr, m_model->entryCount())
                                   : tr("%n entries scanned in %1", nullptr, m_model->entryCount())
                                         .arg(stats.elapsedMs < 1000 ? tr("%1 ms").arg(stats.elapsedMs)
                                                                     : tr("%1 s").arg(QLocale().toString(double(stats.elapsedMs) / 1000.0, 'f', 1)));
    if (stats.modulesReused > 0)
        text = tr("%1 (%n unchanged, not read again)", nullptr, stats.modulesReused).arg(text);
    if (m_session->canWatch() && m_session->isWatching())
        text = tr("%1; following changes on disk").arg(text);
    else if (m_refreshTimer->isActive())
        text = tr("%1; looking for changes every %n s", nullptr, m_refreshTimer->interval() / 1000).arg(text);
    else if (!m_session->canWatch())
        text = tr("%1; F5 looks for changes").arg(text);
    Q_EMIT statusChanged(text, false);
}

void LocalCachePage::refreshSummary()
{
    const CacheStats st = m_model->stats(QDateTime::currentMSecsSinceEpoch());
    QString html = QStringLiteral("<table cellspacing='2'>");
    auto row = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td>%1</td><td align='right'><b>%2</b></td></tr>").arg(k, v);
    };
    row(tr("Total size"), formatBytes(st.size));
    row(tr("Entries"), formatCount(st.entries));
    for (ModuleState s : {ModuleState::Success, ModuleState::Failed, ModuleState::Locked, ModuleState::Incomplete,
                          ModuleState::Empty}) {
        html += QStringLiteral("<tr><td><span style='color:%1'>&#9679;</span> %2</td><td align='right'>%3</td></tr>")
                    .arg(stateColor(s).name(), stateLabel(s))
                    .arg(formatCount(st.perState[int(s)]));
    }
    if (st.unknownItems)
        row(tr("Unknown items"), formatCount(st.unknownItems));
    // Keys of the other format at the root (a vLLM-Neuron cache opened here): File > TorchNeuron / vLLM-Neuron cache.
    if (const int tnKeys = torchNeuronKeysShown())
        row(tr("TorchNeuron keys (File menu)"), formatCount(tnKeys));
    if (st.linkedSize)
        row(tr("Linked (HF hub cache)"), formatBytes(st.linkedSize));
    if (st.allocated < st.size * 9 / 10)
        row(tr("On disk (sparse)"), formatBytes(st.allocated));
    row(tr("Compiler versions"), formatCount(int(st.versions.size())));
    html += QStringLiteral("</table>");
    m_summary->setText(html);
    m_charts->setStats(st);
    m_warningBanner->setVisible(st.warnings > 0 || !m_model->scanWarnings().isEmpty());
    const int w = st.warnings + int(m_model->scanWarnings().size());
    m_warningBanner->setText(tr("⚠ %n warning(s) about this cache: unknown files, odd names, broken or outside links. "
                                "<a href='#'>Show them</a>", nullptr, w));
    m_cleanFailed->setEnabled(st.perState[int(ModuleState::Failed)] > 0);
    // An S3 cache's locks cannot be judged stale from here (a compile on any machine may hold them): by an age the
    // user sets in the preview.
    const bool s3Locks = s3::isS3Location(m_session->location());
    m_clearLocks->setEnabled(st.perState[int(ModuleState::Locked)] > 0);
    m_clearLocks->setToolTip(s3Locks ? tr("Whether a compile on any machine holds an S3 cache's locks cannot be seen from here, "
                                          "so none is cleared as stale: the preview asks for an age, and only lock objects "
                                          "older than it are removed (ingot-cli cache clear-locks --older-than AGE does the same)")
                                     : tr("Preview, then remove *.lock files; refused while neuronx-cc runs"));
    m_removeVersions->setEnabled(st.versions.size() > 1);
    m_prune->setEnabled(st.entries > 0);
}

void LocalCachePage::showWarnings()
{
    QStringList lines;
    for (const ScanWarning &w : m_model->scanWarnings())
        lines << QStringLiteral("%1: %2").arg(displayName(w.path.isEmpty() ? m_session->root() : w.path), w.message);
    for (const CacheModule &m : m_model->modules())
        for (const QString &w : m.warnings)
            lines << QStringLiteral("%1: %2").arg(displayName(m.key()), w);
    QMessageBox box(QMessageBox::Warning, tr("Warnings"),
                    tr("%n warning(s) in %1. Ingot never deletes unknown items and never follows links.", nullptr,
                       int(lines.size())).arg(m_session->root()),
                    QMessageBox::Close, this);
    box.setDetailedText(lines.join(QLatin1Char('\n')));
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

void LocalCachePage::onCurrentChanged()
{
    const QModelIndex cur = m_proxy->mapToSource(m_view->currentIndex());
    if (!cur.isValid()) {
        if (!m_details->currentPath().isEmpty())
            m_details->clear();
        return;
    }
    const QModelIndex first = cur.siblingAtColumn(0);
    if (const CacheModule *m = m_model->module(first)) {
        m_details->showModule(*m);
        return;
    }
    const QString version = first.data(CacheTreeModel::VersionRole).toString();
    m_details->showSummary(first.data().toString(), first.siblingAtColumn(CacheTreeModel::StateColumn).data().toString() +
                                                        QStringLiteral(", ") +
                                                        first.siblingAtColumn(CacheTreeModel::SizeColumn).data().toString(),
                           version.isEmpty() ? m_session->root() : m_session->root() + QLatin1Char('/') + version);
}

QStringList LocalCachePage::selectedSuccessKeys() const
{
    QStringList keys;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        if (const CacheModule *m = m_model->module(m_proxy->mapToSource(i));
            m && m->isModule() && m->state == ModuleState::Success && !m_model->isTransferring(m->key()))
            keys << m->key();
    return keys;
}

QStringList LocalCachePage::selectedKeys() const
{
    QStringList keys;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        if (const CacheModule *m = m_model->module(m_proxy->mapToSource(i)))
            keys << m->key();
    return keys;
}

void LocalCachePage::showContextMenu(const QPoint &pos)
{
    const std::unique_ptr<QMenu> menu = contextMenu(m_view->indexAt(pos));
    menu->exec(m_view->viewport()->mapToGlobal(pos));
}

// The selection's own actions say how many entries they act on; one that would act on none is disabled, named
// without a count (as the shortcuts list shows it), and left out of the context menu.
void LocalCachePage::updateSelectionActions()
{
    int failedSelected = 0;
    for (const QString &k : selectedKeys())
        if (const QModelIndex i = m_model->indexForKey(k); i.isValid() && m_model->module(i)->state == ModuleState::Failed)
            ++failedSelected;
    m_deleteSelected->setEnabled(failedSelected > 0);
    m_deleteSelected->setText(failedSelected > 0 ? tr("Delete %n selected failed entries…", nullptr, failedSelected)
                                                 : tr("Delete selected failed entries…"));
    const int success = int(selectedSuccessKeys().size());
    const bool local = m_session->location().isLocal();
    m_push->setEnabled(success > 0);
    m_push->setText(success > 0 ? tr("Push %n successful entries to the Hub cache repo…", nullptr, success)
                                : tr("Push to the Hub cache repo…"));
    m_copy->setEnabled(success > 0);
    m_copy->setText(success == 0 ? tr("Copy to a remote host…")
                    : local      ? tr("Copy %n successful entries to a remote host…", nullptr, success)
                                 : tr("Copy %n successful entries to this machine's cache", nullptr, success));
}

std::unique_ptr<QMenu> LocalCachePage::contextMenu(const QModelIndex &at)
{
    const QModelIndex idx = m_proxy->mapToSource(at);
    auto menu = std::make_unique<QMenu>(this);
    const CacheModule *m = m_model->module(idx.siblingAtColumn(0));
    const QString path = m ? m_session->root() + QLatin1Char('/') + m->key()
                           : idx.isValid() ? m_session->root() + QLatin1Char('/') + idx.data(CacheTreeModel::VersionRole).toString()
                                           : QString();
    if (!path.isEmpty()) {
        menu->addAction(tr("Copy path"), this, [path] { QApplication::clipboard()->setText(path); });
        if (m)
            menu->addAction(tr("Copy name"), this, [name = m->name] { QApplication::clipboard()->setText(name); });
        if (m_session->location().isLocal())
            menu->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open folder"), this,
                            [path] { QDesktopServices::openUrl(QUrl::fromLocalFile(path)); });
        menu->addSeparator();
    }
    updateSelectionActions();
    for (QAction *a : {m_deleteSelected, m_push, m_copy})
        if (a->isEnabled())
            menu->addAction(a);
    menu->addSeparator();
    for (QAction *a : maintenanceActions())
        menu->addAction(a);
    menu->addSeparator();
    menu->addAction(m_rescan);
    return menu;
}

MaintenanceDialog *LocalCachePage::openPlan(MaintenancePlan plan)
{
    plan.rootIdentity = m_session->snapshot().rootIdentity;  // the plan runs only on the folder previewed
    auto *dlg = new MaintenanceDialog(std::move(plan), m_session->location(), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &MaintenanceDialog::executed, this, [this] { m_session->rescan(false); });
    dlg->open();
    return dlg;
}

MaintenanceDialog *LocalCachePage::deleteSelectedFailed()
{
    const QStringList keys = selectedKeys();
    if (keys.isEmpty())
        return nullptr;
    return openPlan(planCleanFailed(m_model->modules(), keys));
}

MaintenanceDialog *LocalCachePage::startMaintenance(MaintenanceAction action)
{
    const QVector<CacheModule> modules = m_model->modules();
    switch (action) {
    case MaintenanceAction::CleanFailed: return openPlan(planCleanFailed(modules));
    case MaintenanceAction::ClearLocks: {
        if (s3::isS3Location(m_session->location())) {
            // Whether a compile holds an S3 cache's locks cannot be seen: they go by an age the user sets, as with
            // ingot-cli cache clear-locks --older-than (the same planner; nothing without an age).
            MaintenanceDialog *dlg = openPlan(planClearLocks(modules, RunningCompilers{{}, tr("A compile on any machine may hold these locks.")}));
            dlg->offerLockAge([modules](CacheStore &store, qint64 olderThanMs) {
                return planClearLocks(modules, queryRunningCompilers(store), olderThanMs, QDateTime::currentMSecsSinceEpoch());
            });
            return dlg;
        }
        // Whether neuronx-cc runs is asked of the store off the UI thread; the preview waits for the answer.
        MaintenanceDialog *dlg = openPlan(planClearLocks(modules, RunningCompilers{}));
        dlg->planAsync(tr("Checking whether neuronx-cc is running…"), [modules](CacheStore &store) {
            return planClearLocks(modules, queryRunningCompilers(store));
        });
        return dlg;
    }
    case MaintenanceAction::RemoveVersions: {
        const CacheStats st = m_model->stats(QDateTime::currentMSecsSinceEpoch());
        VersionPickerDialog picker(st.versions, AppSettings::keptVersions(), this);
        if (picker.exec() != QDialog::Accepted)
            return nullptr;
        // The versions ticked become the defaults only once the removal runs: a cancelled preview saves nothing.
        const QStringList kept = picker.keptVersions();
        MaintenanceDialog *dlg = openPlan(planRemoveVersions(modules, kept));
        connect(dlg, &MaintenanceDialog::executed, this, [kept] { AppSettings::setKeptVersions(kept); });
        return dlg;
    }
    case MaintenanceAction::Policy:
        return nullptr;  // a named policy is applied by ingot-cli cache gc --policy (the fleet's tool), not from one page
    case MaintenanceAction::RemoveMatching:
        // What the filter box's expressions select, as cache rm --filter plans it (re-checked against them before
        // each removal).
        return openPlan(planRemoveMatching(modules, m_proxy->expressionFilter(), QDateTime::currentMSecsSinceEpoch()));
    case MaintenanceAction::Prune: {
        PruneOptions o;
        o.ttlDays = AppSettings::ttlDays();
        o.maxBytes = AppSettings::maxCacheBytes();
        o.nowMs = QDateTime::currentMSecsSinceEpoch();
        MaintenanceDialog *dlg = openPlan(planPrune(modules, o));
        dlg->setPruneReplanner(o.ttlDays, o.maxBytes, [modules, o](int ttl, qint64 maxBytes) {
            PruneOptions p = o;
            p.ttlDays = ttl;
            p.maxBytes = maxBytes;
            return planPrune(modules, p);
        });
        // The numbers used for a confirmed prune become the defaults.
        connect(dlg, &MaintenanceDialog::executed, this, [dlg] {
            AppSettings::setTtlDays(dlg->pruneTtlDays());
            AppSettings::setMaxCacheBytes(dlg->pruneMaxBytes());
        });
        return dlg;
    }
    }
    return nullptr;
}

}  // namespace ingot
