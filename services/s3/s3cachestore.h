// An S3 compile cache (s3://bucket/prefix, the layout NEURON_COMPILE_CACHE_URL gives the runtime) behind the store
// interface, so the scanner, the states, the charts and maintenance work on it as on a folder. open() lists the
// prefix once, with ListObjectsV2 alone (one pass over its pages, no delimiter, no object read): folders are the key
// prefixes between slashes (S3 has none), their times the newest object under them. Files are read with ranged
// GETs, only when asked for (an entry's details when shown). Removal re-lists what goes right before it goes and deletes only the keys that listing gave, in batches,
// never outside the prefix; an entry holding a *.lock object is left (Locked): S3 has no rename, so the check and
// the delete are as close as two requests make them. S3 has no links. How the runtime marks a compile in progress
// on S3 is not in its public documentation: a *.lock object is taken as live, unless clear-locks is given an age and
// the object is older than it (maintenance.h, planClearLocks).
#pragma once

#include "services/s3/s3client.h"
#include "services/stores/cachestore.h"
#include "services/stores/storelocation.h"

#include <QHash>

#include <memory>
#include <mutex>

namespace ingot::s3 {

QString s3StoreKind();  // "s3"
// Whether a location is an S3 cache, read from here or through a host's AWS CLI: whether a compile holds its locks
// cannot be seen, so they are cleared only by age (ingot-cli cache clear-locks --older-than), never as "stale".
bool isS3Location(const StoreLocation &location);
// Registers the kind with StoreFactory (a location's path is the s3:// URL; keys and region from the environment and
// the AWS files, as the AWS CLI finds them). Called once at start-up by the GUI and the CLI.
void registerS3Store();

class S3CacheStore final : public CacheStore
{
public:
    S3CacheStore(const AwsSettings &settings, const S3Location &location);
    // Through another way of reaching S3 (a host's own AWS CLI), shown as `shownRoot`.
    S3CacheStore(std::shared_ptr<S3Access> access, const QString &shownRoot);

    QString displayRoot() const override;
    // Lists the prefix (again: F5). A clone's open() takes the listing its store made, if there is one yet.
    bool open(QString *error) override;
    ListResult list(const QString &rel) override;
    bool readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error) override;
    QString linkTarget(const QString &) override { return {}; }
    bool remove(const QString &rel, qint64 *freed, QString *error) override;
    RemoveResult removeEntry(const QString &rel, qint64 *freed, QString *error) override;
    QString rootIdentity() const override;
    // Whether a compile is writing an S3 cache cannot be seen from any one machine: words, so that its locks are
    // treated as live (clear-locks refuses without an age) rather than as stale.
    QVector<qint64> runningCompilers(QString *error) override;
    QString fullPath(const QString &rel) const override;
    bool isLocal() const override { return false; }
    std::unique_ptr<CacheStore> clone() const override;

    void setRetryPolicy(const RetryPolicy &p);

private:
    struct Shared;
    explicit S3CacheStore(std::shared_ptr<Shared> shared);
    QString keyOf(const QString &rel) const;
    // Every key under rel (a folder: rel + "/"; a file: itself), listed now; false with words.
    bool listNow(const QString &rel, QList<S3Object> *objects, QString *error);
    // Deletes exactly these keys (what listNow gave) and forgets rel.
    bool deleteListed(const QString &rel, const QList<S3Object> &objects, qint64 *freed, QString *error);
    void forget(const QString &rel);

    std::shared_ptr<Shared> m;
    bool m_clone = false;  // made by clone(): opened, it takes the listing it shares
};

}  // namespace ingot::s3
