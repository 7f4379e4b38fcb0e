// The Local cache page: the cache tree, details, summary and charts, and previewed maintenance.
#pragma once

#include "services/cache/cachelocation.h"
#include "services/cache/maintenance.h"
#include "services/util/task.h"

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QSplitter;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace ingot {

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
    QString currentRoot() const;

    CacheSession *session() const { return m_session; }
    CacheTreeModel *model() const { return m_model; }
    CacheFilterProxy *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    ModuleDetailsPane *details() const { return m_details; }
    CacheChartsWidget *charts() const { return m_charts; }
    EmptyStateWidget *emptyState() const { return m_empty; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *stateCombo() const { return m_stateCombo; }
    QComboBox *rootCombo() const { return m_rootCombo; }
    QLabel *summaryLabel() const { return m_summary; }
    bool showsEmptyState() const;
    QList<QAction *> maintenanceActions() const;
    QAction *rescanAction() const { return m_rescan; }
    QAction *fullRescanAction() const { return m_fullRescan; }
    QAction *addFolderAction() const { return m_addFolder; }
    QAction *sampleAction() const { return m_sample; }

public Q_SLOTS:
    void addFolder();
    void openSampleCache();
    MaintenanceDialog *startMaintenance(ingot::MaintenanceAction action);
    MaintenanceDialog *deleteSelectedFailed();

Q_SIGNALS:
    void statusChanged(const QString &text, bool busy);
    void rootOpened(const QString &root);

private:
    void buildUi();
    void createActions();
    QLayout *buildRootRow();
    QLayout *buildFilterRow();
    QTreeView *buildTree();
    QWidget *buildContent();
    void rebuildRootCombo();
    void onScanFinished(const ScanStats &stats, const QString &fatalError);
    void refreshSummary();
    void onCurrentChanged();
    void showContextMenu(const QPoint &pos);
    void showWarnings();
    MaintenanceDialog *openPlan(MaintenancePlan plan);
    QStringList selectedKeys() const;

    CacheLocation m_resolved;
    CacheSession *m_session;
    CacheTreeModel *m_model;
    CacheFilterProxy *m_proxy;
    QStackedWidget *m_stack = nullptr;
    EmptyStateWidget *m_empty = nullptr;
    QComboBox *m_rootCombo = nullptr;
    QLabel *m_whyLabel = nullptr;
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
    QAction *m_deleteSelected = nullptr;
    QAction *m_rescan = nullptr;
    QAction *m_fullRescan = nullptr;
    QAction *m_addFolder = nullptr;
    QAction *m_sample = nullptr;
    bool m_updatingCombo = false;
    Task m_writingSample;
};

}  // namespace ingot
