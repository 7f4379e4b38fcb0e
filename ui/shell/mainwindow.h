// The main window: navigation between Ingot's areas, menus, status bar, settings and About.
#pragma once

#include <QHash>
#include <QMainWindow>
#include <QPair>

class QLabel;
class QListWidget;
class QProgressBar;
class QStackedWidget;
class QToolButton;

namespace ingot {

class EventNotifications;
class FleetPage;
struct FleetPlace;
class HubCachePage;
class JobService;
class Notifier;
struct NotifyTarget;
class JobsPage;
class LocalCachePage;
class MaintenanceDialog;
class RemoteHostsPage;
class TransferQueue;
class TransfersPage;
struct StoreLocation;
struct TransferOptions;
struct TransferPlace;
enum class TransferKind;

struct CacheLocation;
struct ShortcutEntry;
class ShortcutsDialog;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens the cache the Neuron runtime would use (or the one remembered).
    void start(const CacheLocation &resolved);
    LocalCachePage *localCachePage() const { return m_local; }
    HubCachePage *hubCachePage() const { return m_hub; }
    JobsPage *jobsPage() const { return m_jobs; }
    RemoteHostsPage *remoteHostsPage() const { return m_remote; }
    TransfersPage *transfersPage() const { return m_transfersPage; }
    FleetPage *fleetPage() const { return m_fleet; }
    TransferQueue *transferQueue() const { return m_transfers; }
    QListWidget *navigation() const { return m_nav; }
    QLabel *statusText() const { return m_status; }
    // Every shortcut of the window and its pages, grouped by page (what Help ▸ Keyboard shortcuts lists).
    QList<ShortcutEntry> shortcutEntries() const;
    // The pages in the navigation's order.
    QList<QWidget *> pages() const;
    // Desktop notifications (services/notify): when Ingot is not in front, what ended is told there.
    Notifier *notifier() const { return m_notifier; }
    EventNotifications *eventNotifications() const { return m_events; }

public Q_SLOTS:
    void showSettings();
    void showAbout();
    ShortcutsDialog *showShortcuts();  // modeless, deleted on close
    void showConsolidate(const QString &folder);
    // The Local cache page, on `root`, filtered to the entry `key`.
    void showCacheEntry(const QString &root, const QString &key);
    // The launcher's "Clean…": the Local cache page's previewed clean-up of that cache (nullptr while it opens).
    MaintenanceDialog *cleanCompileCache(const QString &root);

protected:
    void closeEvent(QCloseEvent *e) override;

private:
    void buildMenus();
    // The status bar speaks for the page shown: each page's last message is kept, and shown again with its page (a
    // Hub error stayed on every page). setStatus: a message of the page shown now.
    void setStatus(const QString &text, bool busy);
    void setPageStatus(QWidget *page, const QString &text, bool busy);
    void connectPageStatus();  // each page's statusChanged, kept for that page
    void showStatus(const QString &text, bool busy);
    void wireTransfers();
    // Queues a transfer and says so in the status bar (or why it could not be queued).
    void queueTransfer(TransferKind kind, const TransferPlace &from, const TransferPlace &to, const QStringList &keys,
                       const TransferOptions &options);
    void pushFromCache(const StoreLocation &from, const QStringList &keys, const QString &repo);
    void copyFromCache(const StoreLocation &from, const QStringList &keys);
    void updateTransferMarks();
    void transferEnded(const TransferPlace &from, const TransferPlace &to);
    void wireNotifications();
    // A notification's Open: the window in front, on what it told of.
    void openNotified(const NotifyTarget &target);
    // A row of the Fleet page shown on its own page: a cache on the Local cache page (a host's as resolved there),
    // a TorchNeuron cache in its window, a Hub repo on the Hub page.
    void openFleetPlace(const FleetPlace &place);

    QListWidget *m_nav;
    QStackedWidget *m_pages;
    LocalCachePage *m_local;
    HubCachePage *m_hub;
    JobService *m_jobService;
    JobsPage *m_jobs;
    RemoteHostsPage *m_remote;
    TransferQueue *m_transfers;
    TransfersPage *m_transfersPage;
    FleetPage *m_fleet;
    QLabel *m_transferStatus;
    bool m_hubShown = false;
    QLabel *m_status;
    QHash<QWidget *, QPair<QString, bool>> m_pageStatus;
    QProgressBar *m_busy;
    QToolButton *m_cancel;
    Notifier *m_notifier = nullptr;
    EventNotifications *m_events = nullptr;
    QHash<QString, QWidget *> m_consolidations;  // a running or ended wizard by its output folder (while it is open)
};

}  // namespace ingot
