// Everything Ingot remembers, in QSettings (~/.config/Ingot/ingot.conf).
#pragma once

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
    static void setKeptVersions(const QStringList &v);
    static bool watchForChanges();
    static void setWatchForChanges(bool on);
    static QString sampleCachePath();  // where "Open sample cache" writes (QStandardPaths::AppDataLocation)
};

}  // namespace ingot
