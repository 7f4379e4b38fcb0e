#include "services/util/appsettings.h"

#include <QDir>
#include <QJsonDocument>
#include <QSettings>
#include <QStandardPaths>

namespace ingot {

QStringList AppSettings::cacheRoots()
{
    return QSettings().value(QStringLiteral("cache/roots")).toStringList();
}

void AppSettings::setCacheRoots(const QStringList &roots)
{
    QSettings().setValue(QStringLiteral("cache/roots"), roots);
}

void AppSettings::addCacheRoot(const QString &root)
{
    QStringList roots = cacheRoots();
    const QString clean = QDir::cleanPath(root);
    if (!roots.contains(clean)) {
        roots << clean;
        setCacheRoots(roots);
    }
}

QString AppSettings::currentRoot()
{
    return QSettings().value(QStringLiteral("cache/current")).toString();
}

void AppSettings::setCurrentRoot(const QString &root)
{
    QSettings().setValue(QStringLiteral("cache/current"), root);
}

int AppSettings::ttlDays()
{
    return QSettings().value(QStringLiteral("maintenance/ttlDays"), 30).toInt();
}

void AppSettings::setTtlDays(int days)
{
    QSettings().setValue(QStringLiteral("maintenance/ttlDays"), days);
}

qint64 AppSettings::maxCacheBytes()
{
    return QSettings().value(QStringLiteral("maintenance/maxBytes"), qint64(100) * 1000 * 1000 * 1000).toLongLong();
}

void AppSettings::setMaxCacheBytes(qint64 bytes)
{
    QSettings().setValue(QStringLiteral("maintenance/maxBytes"), bytes);
}

QStringList AppSettings::keptVersions()
{
    return QSettings().value(QStringLiteral("maintenance/keptVersions")).toStringList();
}

void AppSettings::setKeptVersions(const QStringList &v)
{
    QSettings().setValue(QStringLiteral("maintenance/keptVersions"), v);
}

QByteArray AppSettings::cachePolicies()
{
    return QSettings().value(QStringLiteral("maintenance/policies")).toByteArray();
}

void AppSettings::setCachePolicies(const QByteArray &json)
{
    QSettings().setValue(QStringLiteral("maintenance/policies"), json);
}

bool AppSettings::watchForChanges()
{
    return QSettings().value(QStringLiteral("cache/watch"), true).toBool();
}

void AppSettings::setWatchForChanges(bool on)
{
    QSettings().setValue(QStringLiteral("cache/watch"), on);
}

QString AppSettings::sampleCachePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sample/neuron-compile-cache");
}

QStringList AppSettings::hubRepos()
{
    return QSettings().value(QStringLiteral("hub/repos")).toStringList();
}

void AppSettings::addHubRepo(const QString &repo)
{
    QStringList repos = hubRepos();
    if (!repos.contains(repo)) {
        repos << repo;
        QSettings().setValue(QStringLiteral("hub/repos"), repos);
    }
}

QStringList AppSettings::s3Caches()
{
    return QSettings().value(QStringLiteral("cache/s3")).toStringList();
}

void AppSettings::addS3Cache(const QString &url)
{
    QStringList urls = s3Caches();
    if (urls.contains(url) || !url.startsWith(QLatin1String("s3://")))
        return;
    urls << url;
    while (urls.size() > 50)  // bounded: the oldest go
        urls.removeFirst();
    QSettings().setValue(QStringLiteral("cache/s3"), urls);
}

int AppSettings::remoteRefreshSeconds()
{
    return qMax(0, QSettings().value(QStringLiteral("cache/remoteRefreshSeconds"), 0).toInt());
}

void AppSettings::setRemoteRefreshSeconds(int seconds)
{
    QSettings().setValue(QStringLiteral("cache/remoteRefreshSeconds"), qMax(0, seconds));
}

bool AppSettings::pullHubCacheLayout()
{
    return QSettings().value(QStringLiteral("transfers/pullHubCacheLayout"), false).toBool();
}

void AppSettings::setPullHubCacheLayout(bool on)
{
    QSettings().setValue(QStringLiteral("transfers/pullHubCacheLayout"), on);
}

QString AppSettings::sshConfigFile()
{
    return QSettings().value(QStringLiteral("ssh/configFile")).toString();
}

void AppSettings::setSshConfigFile(const QString &path)
{
    QSettings().setValue(QStringLiteral("ssh/configFile"), path);
}

QString AppSettings::language()
{
    return QSettings().value(QStringLiteral("ui/language")).toString();
}

void AppSettings::setLanguage(const QString &name)
{
    QSettings().setValue(QStringLiteral("ui/language"), name);
}

QStringList AppSettings::remoteHosts()
{
    return QSettings().value(QStringLiteral("ssh/hosts")).toStringList();
}

void AppSettings::addRemoteHost(const QString &host)
{
    QStringList hosts = remoteHosts();
    if (!hosts.contains(host)) {
        hosts << host;
        QSettings().setValue(QStringLiteral("ssh/hosts"), hosts);
    }
}

void AppSettings::removeRemoteHost(const QString &host)
{
    QStringList hosts = remoteHosts();
    if (hosts.removeAll(host) > 0)
        QSettings().setValue(QStringLiteral("ssh/hosts"), hosts);
}

QStringList AppSettings::recentCheckpoints()
{
    return QSettings().value(QStringLiteral("consolidate/recent")).toStringList();
}

void AppSettings::addRecentCheckpoint(const QString &folder)
{
    QStringList recent = recentCheckpoints();
    recent.removeAll(folder);
    recent.prepend(folder);
    QSettings().setValue(QStringLiteral("consolidate/recent"), recent.mid(0, 10));
}

QMap<QString, QJsonObject> AppSettings::jobPresets()
{
    QMap<QString, QJsonObject> out;
    const QVariantMap stored = QSettings().value(QStringLiteral("jobs/presets")).toMap();
    for (auto it = stored.begin(); it != stored.end(); ++it) {
        const QJsonDocument doc = QJsonDocument::fromJson(it.value().toString().toUtf8());
        if (doc.isObject())
            out.insert(it.key(), doc.object());
    }
    return out;
}

void AppSettings::setJobPresets(const QMap<QString, QJsonObject> &presets)
{
    QVariantMap stored;
    for (auto it = presets.begin(); it != presets.end(); ++it)
        stored.insert(it.key(), QString::fromUtf8(QJsonDocument(it.value()).toJson(QJsonDocument::Compact)));
    QSettings().setValue(QStringLiteral("jobs/presets"), stored);
}

QByteArray AppSettings::windowGeometry()
{
    return QSettings().value(QStringLiteral("window/geometry")).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    QSettings().setValue(QStringLiteral("window/geometry"), geometry);
}

QString AppSettings::appearance()
{
    const QString v = QSettings().value(QStringLiteral("window/appearance")).toString();
    return v == QLatin1String("light") || v == QLatin1String("dark") ? v : QStringLiteral("system");
}

void AppSettings::setAppearance(const QString &appearance)
{
    QSettings().setValue(QStringLiteral("window/appearance"), appearance);
}

bool AppSettings::notificationOn(const QString &kind)
{
    return QSettings().value(QStringLiteral("notifications/") + kind, true).toBool();
}

void AppSettings::setNotificationOn(const QString &kind, bool on)
{
    QSettings().setValue(QStringLiteral("notifications/") + kind, on);
}

QString AppSettings::fileName()
{
    return QSettings().fileName();
}

}  // namespace ingot
