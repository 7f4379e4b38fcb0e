// The "Remote hosts" page: the hosts of the user's ssh config and those added in Ingot, each with the state of its
// one multiplexed master connection; what `ssh -G` resolves a host to; connecting (host keys shown and confirmed,
// passphrases asked in a dialog), dropped connections noticed and retried with backoff; and a host's compile cache
// (resolved as on that host, or a folder chosen there) opened in the cache page. Each host's connection, retries and
// questions are a RemoteHostSession (services/remote); the page shows them. Every ssh call runs off the UI thread.
#pragma once

#include "models/remote/remotehostsmodel.h"
#include "services/remote/remotehostsession.h"
#include "services/stores/storelocation.h"
#include "services/util/task.h"

#include <QHash>
#include <QWidget>

#include <memory>

class QAction;
class QGroupBox;
class QLabel;
class QTimer;
class QTreeView;

namespace ingot {

class GuiAskPass;

class RemoteHostsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteHostsPage)

public:
    explicit RemoteHostsPage(QWidget *parent = nullptr);
    ~RemoteHostsPage() override;

    RemoteHostsModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QString currentHost() const;
    void selectHost(const QString &host);
    RemoteHostStatus status(const QString &host) const { return m_model->status(host); }
    // The session that connects to the host and asks it questions (made on first use).
    RemoteHostSession *session(const QString &host);

    QAction *addHostAction() const { return m_add; }
    QAction *removeHostAction() const { return m_remove; }
    QAction *connectAction() const { return m_connect; }
    QAction *disconnectAction() const { return m_disconnect; }
    QAction *openCacheAction() const { return m_openCache; }
    QAction *openFolderAction() const { return m_openFolder; }
    QAction *checkSlurmAction() const { return m_checkSlurm; }
    QAction *reloadAction() const { return m_reload; }
    // The details pane: what ssh -G resolved for the selected host, by field ("hostname", "user", "port",
    // "identityfile", "proxyjump", "knownhosts"), the state in sentences, and where its compile cache is.
    QLabel *detailLabel(const QString &field) const { return m_fields.value(field); }
    QLabel *stateLabel() const { return m_stateText; }
    QLabel *cacheLabel() const { return m_cacheText; }
    // Whether the host is a Slurm login node, and its cluster (asked once it is connected, and on demand).
    QLabel *slurmLabel() const { return m_slurmText; }
    QGroupBox *localSlurmBox() const { return m_localSlurmBox; }  // this machine as a Slurm login node
    QLabel *localSlurmLabel() const { return m_localSlurmText; }

    // How often the masters of connected hosts are checked while the page is shown (default 10 s).
    void setCheckIntervalMs(int ms);
    // The waits between attempts to reconnect a dropped connection, in seconds (default 2, 4, 8, 16, 32, 60; the
    // last repeats).
    void setRetryDelays(const QVector<int> &seconds);

public Q_SLOTS:
    // Reads the hosts again (the ssh config and its Includes, off the UI thread).
    void reloadHosts();
    // Adds a host by name (an alias, host, user@host, user@host:port), checked with parseSshHost and remembered.
    bool addHost(const QString &text, QString *error = nullptr);
    void showAddHostDialog();
    // Forgets an added host (hosts of the ssh config are edited there).
    bool removeHost(const QString &host);
    void connectHost(const QString &host);
    void disconnectHost(const QString &host);
    // Asks the host where its Neuron tools keep the compile cache, and opens it in the cache page.
    void openCompileCache(const QString &host);
    // Checks that `path` is a folder on the host, and opens it in the cache page.
    void openFolderOnHost(const QString &host, const QString &path);
    void showOpenFolderDialog();
    // Checks the masters of connected hosts now; a gone one is shown as lost and reconnected with backoff.
    void checkConnections();
    // Something that ran on the host failed (a scan): check its connection now.
    void noteConnectionTrouble(const QString &host);

Q_SIGNALS:
    void openCacheRequested(const ingot::StoreLocation &location, const QString &explanation);
    void statusChanged(const QString &text, bool busy);
    void hostsReloaded();
    void hostStatusChanged(const QString &host, const ingot::RemoteHostStatus &status);
    // A dropped connection is back (what showed the host's data may look again).
    void hostReconnected(const QString &host);
    void localSlurmAnswered();  // this machine's Slurm clients answered (the group shows what they said)

protected:
    void showEvent(QShowEvent *e) override;
    void hideEvent(QHideEvent *e) override;

private:
    void buildUi();
    void createActions();
    QWidget *buildDetails();
    QWidget *buildLocalSlurm();
    void askLocalSlurm();
    void refreshSlurm();
    void updateActions();
    void showDetails();
    void notifyHostsChanged();
    void setHostStatus(const QString &host, const RemoteHostStatus &status);
    void cancelLookups();
    void showCache(const QString &host, const QString &path, const QString &text);
    void failCacheLookup(const QString &host, const QString &text, RemoteHostSession::FolderProblem problem);
    bool isBusy(const QString &host) const;
    bool isLookingUp() const;

    RemoteHostsModel *m_model;
    QTreeView *m_view = nullptr;
    QLabel *m_configLabel = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_stateText = nullptr;
    QLabel *m_cacheText = nullptr;
    QLabel *m_slurmText = nullptr;
    QAction *m_checkSlurm = nullptr;
    QHash<QString, QString> m_slurmTexts;  // host -> what its Slurm clients said
    QGroupBox *m_resolvedBox = nullptr;
    QHash<QString, QLabel *> m_fields;
    QAction *m_add = nullptr;
    QAction *m_remove = nullptr;
    QAction *m_connect = nullptr;
    QAction *m_disconnect = nullptr;
    QAction *m_openCache = nullptr;
    QAction *m_openFolder = nullptr;
    QAction *m_reload = nullptr;
    QTimer *m_checkTimer;
    QVector<int> m_delays = RemoteHostSession::defaultRetryDelays();
    QHash<QString, RemoteHostSession *> m_sessions;  // host -> its session (children of the page)
    QHash<QString, QString> m_cacheTexts;  // host -> what the last cache lookup said
    QHash<QString, QString> m_lastFolder;  // host -> the folder last opened there
    QString m_resolvedFor = QStringLiteral("\n");  // the host the ssh -G fields are for (none yet)
    QList<std::weak_ptr<GuiAskPass>> m_askPasses;
    bool m_shownOnce = false;
    bool m_notifying = false;  // notifyHostsChanged() is telling the others
    bool m_firstCheck = true;
    QGroupBox *m_localSlurmBox = nullptr;
    QLabel *m_localSlurmText = nullptr;
    bool m_localSlurmSeen = false;
    Task m_localSlurm;
    int m_ticks = 0;
    static constexpr int slurmEveryTicks = 6;  // Slurm asked again every minute while the page is shown
    Task m_loading;
    Task m_resolving;
};

}  // namespace ingot
