// The S3 requests an S3 compile cache needs, signed (SigV4) and sent through the shared HTTP client (retries with
// backoff on 503 SlowDown and network faults, size and time limits, cancellation): listing a prefix page by page,
// reading an object or a range of it, deleting keys in batches. Every key a listing returns must lie under the
// prefix asked for and be a plain relative path; a server that breaks that, repeats a continuation token, sends a
// body past the limit or redirects elsewhere gets a clear error and nothing of its answer is used.
#pragma once

#include "services/hub/httpclient.h"
#include "services/s3/awsconfig.h"
#include "services/s3/instancerole.h"
#include "services/s3/s3location.h"
#include "services/s3/assumedrole.h"

#include <QDateTime>
#include <QStringList>

#include <atomic>
#include <mutex>
#include <functional>
#include <memory>

namespace ingot::s3 {

struct S3Object {
    QString key;
    qint64 size = 0;
    QDateTime lastModified;
    QByteArray etag;  // as S3 gives it, quotes removed
};

struct S3Part {
    int number = 0;
    qint64 size = 0;
    QByteArray etag;  // quotes removed
};

struct S3Listing {
    QList<S3Object> objects;
    QStringList commonPrefixes;  // with the delimiter, each ending in it
};

// What an S3 cache store needs of S3: listing, reading, deleting, within one location. S3Client does it from this
// machine with its keys; HostS3Access (hosts3access.h) runs a host's own AWS CLI over SSH with the host's keys.
class S3Access
{
public:
    virtual ~S3Access();
    virtual const S3Location &location() const = 0;
    // Where the requests are made from and to: the same text, the same place (a store's root identity).
    virtual QString identity() const = 0;
    virtual bool list(const QString &prefix, const QString &delimiter, S3Listing *out, QString *error,
                      const std::atomic_bool *cancel = nullptr) const = 0;
    virtual bool get(const QString &key, qint64 offset, qint64 length, QByteArray *out, QString *error,
                     qint64 maxBytes = 64 << 20, const std::atomic_bool *cancel = nullptr) const = 0;
    virtual bool remove(const QStringList &keys, QStringList *failed, QString *error,
                        const std::atomic_bool *cancel = nullptr) const = 0;
    // Whether a key a listing gave may be taken: under `prefix` (itself under the location's), a plain relative
    // path below the location's prefix, no control characters.
    static bool plainKey(const S3Location &location, const QString &prefix, const QString &key);
};

// What one listing (all the pages of one prefix) may take from a server before it is refused with words: a cache of
// millions of objects is well within it, a server that always says "there is more" is not. S3 gives up to 1,000 keys
// a page; a server that gives pages of (almost) nothing, each with a new token, is stopped after sparsePages.
struct ListBudget {
    int maxPages = 20000;
    qint64 maxKeys = 10'000'000;
    qint64 maxMs = 30LL * 60 * 1000;  // the whole listing, every page and retry
    int sparsePages = 100;            // after this many pages, a listing must average
    int minKeysPerPage = 100;         // at least this many keys a page
};

class S3Client final : public S3Access
{
public:
    static constexpr int kMaxDeleteBatch = 1000;  // S3's own limit per DeleteObjects

    // With no keys in `settings`, the instance role's (IMDSv2) are used: `role`, or one for this process's
    // environment.
    S3Client(const AwsSettings &settings, const S3Location &location, std::shared_ptr<InstanceRole> role = nullptr);

    // False with words when no request can be made: no keys, or an endpoint URL that is not one.
    bool usable(QString *error) const;
    const S3Location &location() const override { return m_location; }
    QString identity() const override;
    QString region() const;  // the settings' region, or the bucket's once S3 said it is another
    // The region an answer says the bucket is in, when it says so in a form that can be trusted; empty otherwise.
    static QString bucketRegionOf(const HttpResponse &r);
    void setRetryPolicy(const RetryPolicy &p) { m_http.setRetryPolicy(p); }
    void setListBudget(const ListBudget &b) { m_budget = b; }

    // Every object (and, with a delimiter, every common prefix) under `prefix`, which must lie under the location's
    // prefix (or be it), within the listing budget. False with words on any refusal or fault; *out is then left empty.
    bool list(const QString &prefix, const QString &delimiter, S3Listing *out, QString *error,
              const std::atomic_bool *cancel = nullptr) const override;
    // An object's bytes, or `length` of them from `offset` (length < 0: to its end); at most `maxBytes`.
    bool get(const QString &key, qint64 offset, qint64 length, QByteArray *out, QString *error, qint64 maxBytes = 64 << 20,
             const std::atomic_bool *cancel = nullptr) const override;
    // Deletes keys (all under the location's prefix, else nothing is sent) in batches of kMaxDeleteBatch; keys S3
    // could not delete go to *failed with S3's words.
    bool remove(const QStringList &keys, QStringList *failed, QString *error, const std::atomic_bool *cancel = nullptr) const override;

    // Streams an object from `offset` to its end into `sink` (restart: a retry starts again at `offset`); *etag and
    // *size are the object's as the answer gives them. A 200 to a ranged request is refused (the sink would get the
    // object from its start).
    // `checksum` (optional): the object's SHA-256 as S3 keeps it (base64, x-amz-checksum-sha256), when it was stored
    // with one and the whole object is read; empty otherwise.
    bool download(const QString &key, qint64 offset, const std::function<bool(const char *, size_t, bool restart)> &sink,
                  QByteArray *etag, qint64 *size, QString *error, const std::atomic_bool *cancel = nullptr,
                  QByteArray *checksum = nullptr) const;
    // PutObject of `data` with its Content-MD5 and its SHA-256 (x-amz-checksum-sha256, which S3 checks and keeps for
    // later reads); S3 refuses a body that matches neither. *etag is S3's.
    bool put(const QString &key, const QByteArray &data, QByteArray *etag, QString *error,
             const std::atomic_bool *cancel = nullptr) const;
    // Multipart uploads: create, a part (Content-MD5 checked by S3), the parts there so far, complete, abort.
    bool createUpload(const QString &key, QString *uploadId, QString *error, const std::atomic_bool *cancel = nullptr) const;
    bool uploadPart(const QString &key, const QString &uploadId, int number, const QByteArray &data, QByteArray *etag,
                    QString *error, const std::atomic_bool *cancel = nullptr) const;
    bool listParts(const QString &key, const QString &uploadId, QList<S3Part> *parts, QString *error,
                   const std::atomic_bool *cancel = nullptr) const;
    bool completeUpload(const QString &key, const QString &uploadId, const QList<S3Part> &parts, QByteArray *etag,
                        QString *error, const std::atomic_bool *cancel = nullptr) const;
    bool abortUpload(const QString &key, const QString &uploadId, QString *error) const;

private:
    HttpResponse send(const QByteArray &method, const QString &key, const QList<QPair<QByteArray, QByteArray>> &query,
                      const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body, qint64 maxBytes,
                      const std::atomic_bool *cancel, HttpRequest *streaming = nullptr, bool regionRetried = false) const;
    bool checkKey(const QString &key, QString *error) const;
    QString failureText(const HttpResponse &r, const QString &what) const;
    bool keys(Credentials *out, QString *error) const;

    AwsSettings m_settings;
    S3Location m_location;
    QString m_endpointError;  // before m_endpoint: its initializer writes here
    mutable std::mutex m_regionMutex;  // the bucket's region, learnt from S3 when the settings named another
    mutable S3Endpoint m_endpoint;
    mutable QString m_region;
    HttpClient m_http;
    ListBudget m_budget;
    std::shared_ptr<InstanceRole> m_role;  // when the settings hold no keys
    std::shared_ptr<AssumedRole> m_assumed;  // a role profile
};

}  // namespace ingot::s3
