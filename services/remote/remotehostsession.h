// One remote host as the user works with it: the state of its master connection (not connected, connecting,
// connected, failed and why, lost and retrying in N s), a dropped connection retried by itself with backoff (2, 4,
// 8, 16, 32, then 60 s), "retry now", disconnect (which stops the retries), the host key asked on first contact,
// and the two questions asked of the host: where its Neuron tools keep the compile cache, and whether a folder the
// user typed is one there (the folder script, docs/formats.md). The Remote hosts page shows it; ingot-cli's
// `remote connect` (and every --host command) connects through it. Every ssh call runs off the thread of the
// session (runTask); answers to questions no longer asked are dropped.
#pragma once

#include "services/cache/cachelocation.h"
#include "services/remote/sshconnection.h"
#include "services/slurm/slurmcluster.h"
#include "services/util/task.h"

#include <QObject>
#include <QVector>

#include <functional>
#include <memory>

class QTimer;

namespace ingot {

class RemoteHostSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteHostSession)

public:
    // In the order of RemoteHostStatus::State (the list's model).
    enum class State { NotConnected, Connecting, Connected, Failed, Lost };
    struct Status {
        State state = State::NotConnected;
        SshError error = SshError::None;  // Failed, Lost: what ssh said went wrong
        QString reason;                   // Failed, Lost: in a few words (escaped for display)
        QString detail;                   // Failed, Lost: what happened and what to do (escaped for display)
        int retryInSeconds = -1;          // Lost: until the next attempt; 0: trying now; -1: none planned
        bool operator==(const Status &o) const
        {
            return state == o.state && error == o.error && reason == o.reason && detail == o.detail
                && retryInSeconds == o.retryInSeconds;
        }
        bool operator!=(const Status &o) const { return !(*this == o); }
    };
    // Why a folder typed by the user cannot be opened (the folder script's exit status).
    enum class FolderProblem { None, NotChecked, Missing, NotAbsolute, NotAFolder, CannotEnter, Other };

    // `host` as listed (an alias or user@host:port): its connection is RemoteHosts::instance().connection(host).
    explicit RemoteHostSession(QString host, QObject *parent = nullptr);
    ~RemoteHostSession() override;

    QString host() const { return m_host; }
    Status status() const { return m_status; }
    // A connect, disconnect or host key step is under way (connect and disconnect wait for it).
    bool isBusy() const { return m_busyGeneration != 0; }
    // A compile cache lookup or folder check is under way.
    bool isLookingUp() const { return m_lookup.isRunning(); }
    // A check of the master (checkConnection) is under way.
    bool isChecking() const { return m_checking.isRunning(); }
    // The shared connection (nullptr with words in *error when the name does not parse).
    std::shared_ptr<SshConnection> connection(QString *error = nullptr) const;

    // The waits between attempts to reconnect a dropped connection, in seconds (the last repeats).
    static QVector<int> defaultRetryDelays() { return {2, 4, 8, 16, 32, 60}; }
    void setRetryDelays(const QVector<int> &seconds);
    // How long one second of those waits lasts, in ms (1000; tests make it short).
    void setSecondMs(int ms);
    // Checks the master every `ms` while connected (0, the default: only when checkConnection() is called).
    void setCheckIntervalMs(int ms);
    // Makes the AskPass of each connect (a dialog, the terminal); none: ssh never asks (BatchMode).
    void setAskPassFactory(std::function<std::shared_ptr<AskPass>()> factory) { m_askPassFactory = std::move(factory); }
    // Whether an unknown host key, met on a connect the user asked for, is fetched and offered (hostKeyOffered)
    // for trustHostKey() or rejectHostKey(); else the connect fails with HostKeyUnknown. Default: true.
    void setAsksHostKeys(bool ask) { m_asksHostKeys = ask; }

public Q_SLOTS:
    // Connects now (also "retry now" for a lost connection: the wait is skipped).
    void connectToHost();
    // Ends the master connection and stops retrying.
    void disconnectFromHost();
    // Checks the master (ssh -O check, local): a connected host whose master is gone is lost and retried. With
    // `adoptRunning`, a not connected host whose master runs (another Ingot, the CLI) is shown as connected.
    void checkConnection(bool adoptRunning = false);
    // Something that ran on the host failed: check the connection now (if it is meant to be connected).
    void noteTrouble();
    // The answer to hostKeyOffered (ignored when no key is being asked about).
    void trustHostKey(const ingot::HostKeyOffer &offer);
    void rejectHostKey();
    // Connects if needed, then asks the host where its Neuron tools keep the compile cache.
    void lookupCompileCache();
    // Connects if needed, then checks that `path` (absolute, or ~/...) is a folder on the host that can be entered.
    void checkFolder(const QString &path);
    // Drops the answer of a lookup or folder check in flight.
    void cancelLookup();
    // Connects if needed, then asks whether the host is a Slurm login node (sinfo and sbatch there) and what its
    // cluster holds: slurmAnswered.
    void askSlurm();

Q_SIGNALS:
    void statusChanged(const ingot::RemoteHostSession::Status &status);
    // isBusy() or isLookingUp() may have changed.
    void busyChanged();
    // What is happening, for a status bar (escaped for display); `busy` while it goes on.
    void message(const QString &text, bool busy);
    // A dropped connection is back.
    void reconnected();
    // A wait before the next attempt began: `attempt` counts from 1 since the connection dropped.
    void retryScheduled(int attempt, int seconds);
    // First contact: the key the server offers, for the user to check.
    void hostKeyOffered(const ingot::HostKeyOffer &offer);
    // The known key differs: refused. The known_hosts name and file (for the way out) and ssh's words.
    void hostKeyChanged(const QString &knownHostsName, const QString &knownHostsFile, const QString &sshText);
    void compileCacheFound(const ingot::CacheLocation &location);
    // checkFolder(): `path` with ~ expanded.
    void folderFound(const QString &path);
    void slurmAnswered(const ingot::SlurmClusterState &state, const QString &error);
    // A lookup or folder check failed: what to tell the user; `problem` is None for a cache lookup.
    void lookupFailed(const QString &text, ingot::RemoteHostSession::FolderProblem problem);

private:
    struct ConnectOutcome;

    void setStatus(const Status &status);
    void startConnect(bool manual);
    void onConnectFinished(quint64 generation, const ConnectOutcome &o);
    void askHostKey();
    void scheduleRetry(const QString &detail, SshError error);
    void connectionLost();
    void tick();
    void whenConnected(std::function<void()> fn);
    void runCacheLookup();
    void runFolderCheck(const QString &path);
    void failLookup(const QString &text, FolderProblem problem);
    quint64 beginBusy();
    bool endBusy(quint64 generation);

    const QString m_host;
    Status m_status;
    quint64 m_generation = 0;      // bumped by each step: answers to older ones are dropped
    quint64 m_busyGeneration = 0;  // the connect, disconnect or key step in flight; 0: none
    quint64 m_keyGeneration = 0;   // the step whose key is offered; 0: none
    bool m_autoRetry = false;      // the connection dropped: reconnect with backoff
    bool m_manualAttempt = false;
    int m_attempt = 0;
    qint64 m_retryAtMs = 0;
    QVector<std::function<void()>> m_then;  // once connected
    QVector<int> m_delays = defaultRetryDelays();
    int m_secondMs = 1000;
    bool m_asksHostKeys = true;
    std::function<std::shared_ptr<AskPass>()> m_askPassFactory;
    QTimer *m_ticker;
    QTimer *m_checkTimer;
    Task m_checking;
    Task m_lookup;
    Task m_slurm;
};

}  // namespace ingot
