// Everything Ingot remembers, in QSettings (~/.config/Ingot/ingot.conf). The one place that names settings keys:
// the core, the CLI and the UI all read them through here.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QStringList>

namespace ingot {

class AppSettings final
{
public:
    static QStringList cacheRoots();  // folders the user added
    static void setCacheRoots(const QStringList &roots);
    static void addCacheRoot(const QString &root);
    static QString currentRoot();  // empty: the resolved Neuron location
    static void setCurrentRoot(const QString &root);

    static int ttlDays();  // prune: entries used within this many days are kept (default 30)
    static void setTtlDays(int days);
    static qint64 maxCacheBytes();  // prune: size limit (default 100 GB)
    static void setMaxCacheBytes(qint64 bytes);
    static QStringList keptVersions();
    // The named cache policies (services/cache/cachepolicy), as JSON.
    static QByteArray cachePolicies();
    static void setCachePolicies(const QByteArray &json);
    static void setKeptVersions(const QStringList &v);
    static bool watchForChanges();
    static void setWatchForChanges(bool on);
    // Caches that cannot be watched (a remote host's): look for changes every this many seconds; 0: only on F5.
    static int remoteRefreshSeconds();
    static void setRemoteRefreshSeconds(int seconds);
    // Pulls from the Hub land as optimum-neuron lays them out (blobs in the HF hub cache, linked into the compile
    // cache) instead of plain files.
    static bool pullHubCacheLayout();
    static void setPullHubCacheLayout(bool on);
    static QString sampleCachePath();  // where "Open sample cache" writes (QStandardPaths::AppDataLocation)

    static QStringList hubRepos();  // Hub cache repos the user added
    static void addHubRepo(const QString &repo);
    static QStringList s3Caches();  // s3:// caches opened before (the Local cache page, ingot-cli), newest last
    static void addS3Cache(const QString &url);
    static QStringList recentCheckpoints();  // the consolidation wizard's recent folders, newest first (at most 10)
    static void addRecentCheckpoint(const QString &folder);
    // The job launcher's named presets: name -> the job's settings as JobSpec::toJson() writes them.
    static QMap<QString, QJsonObject> jobPresets();
    static void setJobPresets(const QMap<QString, QJsonObject> &presets);
    // Remote hosts over SSH. The config file is passed to ssh as -F: it is used INSTEAD of ~/.ssh/config (and of
    // /etc/ssh/ssh_config), not in addition; empty: ssh's own defaults.
    static QString sshConfigFile();
    static void setSshConfigFile(const QString &path);
    static QStringList remoteHosts();  // hosts the user added, as typed (an alias, user@host:port, ...)
    static void addRemoteHost(const QString &host);
    static void removeRemoteHost(const QString &host);
    // The language of the interface: "" = the system's (LANGUAGE, LC_ALL, LANG), else a locale name ("zh_CN",
    // "en"). Read once at start (ingot::installTranslations); the environment's INGOT_LANGUAGE overrides it.
    static QString language();
    static void setLanguage(const QString &name);
    static QByteArray windowGeometry();
    static void setWindowGeometry(const QByteArray &geometry);
    // The window's look: "system" (the default), "light" or "dark" (anything else reads as "system").
    static QString appearance();
    static void setAppearance(const QString &appearance);
    // Desktop notifications (services/notify/notifier.h), each kind on or off by its name ("job_finished", ...): on
    // unless turned off.
    static bool notificationOn(const QString &kind);
    static void setNotificationOn(const QString &kind, bool on);
    static QString fileName();  // where the settings are stored
};

}  // namespace ingot
