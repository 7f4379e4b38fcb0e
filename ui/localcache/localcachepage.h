// The Local cache page: the cache tree, details, summary and charts, and previewed maintenance.
#pragma once

#include "services/cache/cachelocation.h"
#include "services/cache/maintenance.h"
#include "services/stores/storelocation.h"
#include "services/util/task.h"

#include <QModelIndex>
#include <QWidget>

#include <memory>

class QAction;
class QToolButton;
class QMenu;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QSplitter;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace ingot {
class TorchNeuronDialog;

class CacheChartsWidget;
class CacheFilterProxy;
class CacheSession;
class CacheTreeModel;
class EmptyStateWidget;
class MaintenanceDialog;
class ModuleDetailsPane;
struct ScanStats;

class LocalCachePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalCachePage)

public:
    explicit LocalCachePage(QWidget *parent = nullptr);
    ~LocalCachePage() override;

    // Opens the location the Neuron runtime would use, or the folder remembered from last time.
    void openInitial(const CacheLocation &resolved);
    void openRoot(const QString &path);
    // Opens a cache that is not a local folder (a remote host's, over SSH); `why` says how its path was chosen
    // (which rule won there, or "a folder you chose").
    void openLocation(const StoreLocation &location, const QString &why = QString());
    // Back from a remote cache: the local folder open before, else the Neuron default of this machine.
    void openLocalCache();
    // The cache shown as people see it: a path, or host:path.
    QString currentRoot() const;
    bool showsRemoteCache() const;

    CacheSession *session() const { return m_session; }
    CacheTreeModel *model() const { return m_model; }
    CacheFilterProxy *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    ModuleDetailsPane *details() const { return m_details; }
    CacheChartsWidget *charts() const { return m_charts; }
    EmptyStateWidget *emptyState() const { return m_empty; }
    QLineEdit *filterEdit() const { return m_filter; }
    QAction *removeMatchingAction() const { return m_removeMatching; }
    QComboBox *stateCombo() const { return m_stateCombo; }
    QComboBox *rootCombo() const { return m_rootCombo; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *whyLabel() const { return m_whyLabel; }
    // Shown above everything while a remote host's cache is open: which host, and the way back.
    QWidget *remoteBanner() const { return m_remoteBanner; }
    QLabel *remoteBannerLabel() const { return m_remoteLabel; }
    QAction *backToLocalAction() const { return m_backToLocal; }
    // Looking for changes periodically, for caches that cannot be watched (remote ones): off, 30 s, 2 min.
    QComboBox *autoRefreshCombo() const { return m_autoRefresh; }
    int autoRefreshMs() const;  // 0: off
    bool showsEmptyState() const;
    QList<QAction *> maintenanceActions() const;
    QAction *rescanAction() const { return m_rescan; }
    QAction *fullRescanAction() const { return m_fullRescan; }
    QAction *addFolderAction() const { return m_addFolder; }
    QAction *sampleAction() const { return m_sample; }
    QAction *openS3Action() const { return m_openS3; }
    QAction *torchNeuronAction() const { return m_torchNeuron; }
    // The S3 caches opened in this session (s3://bucket/prefix), newest first: places a copy may go.
    QStringList openedS3Caches() const;
    // How many keys of the TorchNeuron / vLLM-Neuron format the cache shown holds at its root.
    int torchNeuronKeysShown() const;
    QAction *pushAction() const { return m_push; }
    // The local cache folder this page returns to from a host's cache (the one last opened, else the resolved one).
    QString localRoot() const;
    QAction *copyAction() const { return m_copy; }
    // The context menu of the tree at `index` (of the view's model), as right-clicking it shows it.
    std::unique_ptr<QMenu> contextMenu(const QModelIndex &index);

public Q_SLOTS:
    void addFolder();
    void openSampleCache();
    // Asks for an s3://bucket/prefix URL and opens it.
    void openS3Cache();
    // The TorchNeuron / vLLM-Neuron cache window, on `folder`; without one, on the cache shown when it holds keys of
    // that format, else on the local tier. Returned for tests.
    TorchNeuronDialog *openTorchNeuronCache(const QString &folder = QString());
    // Opens the S3 cache at `url` (listed with this machine's AWS keys); false with a warning shown when it is not one.
    bool openS3Url(const QString &url);
    MaintenanceDialog *startMaintenance(ingot::MaintenanceAction action);
    MaintenanceDialog *deleteSelectedFailed();

Q_SIGNALS:
    void statusChanged(const QString &text, bool busy);
    // A local cache folder was opened (the job launcher's default compile cache follows it).
    void rootOpened(const QString &root);
    // Any cache was opened, local or remote.
    void locationOpened(const ingot::StoreLocation &location);
    // Push these (successful) entries of `from` to a Hub cache repo; copy them to another machine's cache.
    void pushRequested(const ingot::StoreLocation &from, const QStringList &keys);
    void copyRequested(const ingot::StoreLocation &from, const QStringList &keys);
    // An entry held by another cache (a path, host:path or hub:org/name) brought into this one.
    void fetchRequested(const QString &fromCache, const ingot::StoreLocation &into, const QStringList &keys);

private:
    enum ComboRole { PathRole = Qt::UserRole + 1, ResolvedRole, KindRole, HostRole };  // the root combo's item data
    void buildUi();
    void updateSelectionActions();
    void showFilterExpressions();
    void createActions();
    QLayout *buildRootRow();
    QLayout *buildFilterRow();
    QTreeView *buildTree();
    QWidget *buildContent();
    void rebuildRootCombo();
    QWidget *buildRemoteBanner();
    void updateRemoteUi();
    void setAutoRefresh(int seconds);
    void onScanFinished(const ScanStats &stats, const QString &fatalError);
    void refreshSummary();
    void onCurrentChanged();
    void showContextMenu(const QPoint &pos);
    void showWarnings();
    MaintenanceDialog *openPlan(MaintenancePlan plan);
    QStringList selectedKeys() const;
    QStringList selectedSuccessKeys() const;

    CacheLocation m_resolved;
    CacheSession *m_session;
    CacheTreeModel *m_model;
    CacheFilterProxy *m_proxy;
    QStackedWidget *m_stack = nullptr;
    EmptyStateWidget *m_empty = nullptr;
    QComboBox *m_rootCombo = nullptr;
    QLabel *m_whyLabel = nullptr;
    QWidget *m_remoteBanner = nullptr;
    QLabel *m_remoteLabel = nullptr;
    QAction *m_backToLocal = nullptr;
    QAction *m_push = nullptr;
    QAction *m_copy = nullptr;
    QLabel *m_autoRefreshLabel = nullptr;
    QComboBox *m_autoRefresh = nullptr;
    QTimer *m_refreshTimer = nullptr;
    // Remote caches opened in this session, newest first, with how each path was chosen.
    QVector<std::pair<StoreLocation, QString>> m_remoteLocations;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_stateCombo = nullptr;
    QTreeView *m_view = nullptr;
    ModuleDetailsPane *m_details = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_warningBanner = nullptr;
    CacheChartsWidget *m_charts = nullptr;
    QTimer *m_statsTimer = nullptr;
    QAction *m_cleanFailed = nullptr;
    QAction *m_clearLocks = nullptr;
    QAction *m_removeVersions = nullptr;
    QAction *m_prune = nullptr;
    QAction *m_removeMatching = nullptr;
    QToolButton *m_removeMatchingButton = nullptr;
    QString m_filterHelp;
    QAction *m_deleteSelected = nullptr;
    QAction *m_rescan = nullptr;
    QAction *m_fullRescan = nullptr;
    QAction *m_addFolder = nullptr;
    QAction *m_sample = nullptr;
    QAction *m_openS3 = nullptr;
    QAction *m_torchNeuron = nullptr;
    bool m_updatingCombo = false;
    bool m_sortAfterScan = false;  // the tree is filled unsorted, then sorted once (see scanStarted)
    bool m_expandNewest = false;   // a tree filled from nothing: its newest compiler's group is opened once there
    Task m_writingSample;
};

}  // namespace ingot
