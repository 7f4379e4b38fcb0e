// A second kind of store for tests, registered as "other": a local folder that presents itself as a remote one
// (host:path, not local, not watchable). It shows that a new kind of store is a CacheStore subclass and a
// StoreFactory registration, with no change to the session, the views or maintenance. (The real remote store,
// over SSH, is its own class.)
#pragma once

#include "services/stores/localcachestore.h"
#include "services/stores/storefactory.h"

#include <atomic>

namespace ingot::test {

class OtherHostStore final : public CacheStore
{
public:
    explicit OtherHostStore(const StoreLocation &location) : m_location(location), m_local(location.path) { ++made(); }
    QString displayRoot() const override { return m_location.display(); }
    bool open(QString *error) override { return m_local.open(error); }
    ListResult list(const QString &rel) override { return m_local.list(rel); }
    bool readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error) override
    {
        return m_local.readFile(rel, maxBytes, fromEnd, out, error);
    }
    QString linkTarget(const QString &rel) override { return m_local.linkTarget(rel); }
    bool remove(const QString &rel, qint64 *freed, QString *error) override { return m_local.remove(rel, freed, error); }
    RemoveResult removeEntry(const QString &rel, qint64 *freed, QString *error) override
    {
        return m_local.removeEntry(rel, freed, error);
    }
    QString rootIdentity() const override { return QStringLiteral("other:") + m_local.rootIdentity(); }
    QVector<qint64> runningCompilers(QString *error) override { return m_local.runningCompilers(error); }
    QString fullPath(const QString &rel) const override
    {
        return m_location.host + QLatin1Char(':') + (rel.isEmpty() ? m_location.path : m_location.path + QLatin1Char('/') + rel);
    }
    bool isLocal() const override { return false; }

    // How many stores of this kind were made (every thread makes its own).
    static std::atomic_int &made()
    {
        static std::atomic_int n{0};
        return n;
    }
    static void registerKind()
    {
        StoreFactory::instance().registerKind(QStringLiteral("other"), [](const StoreLocation &loc) {
            return std::make_unique<OtherHostStore>(loc);
        });
    }
    static StoreLocation location(const QString &path)
    {
        return StoreLocation{QStringLiteral("other"), QStringLiteral("trn1-test"), path};
    }

private:
    StoreLocation m_location;
    LocalCacheStore m_local;
};

}  // namespace ingot::test
