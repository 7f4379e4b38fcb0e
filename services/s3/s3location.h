// An S3 compile cache's place: s3://bucket/prefix as NEURON_COMPILE_CACHE_URL names it, and where its requests go.
// The prefix is exact: s3://b/team/cache holds the keys under "team/cache/", never "team/cache-other/" nor
// "team/cachex". Requests go path-style to an S3-compatible endpoint (an IP and port, as the AWS CLI does there) and
// virtual-hosted to AWS itself (path-style too for a bucket with a dot, whose name would not match the certificate).
#pragma once

#include "services/s3/awsconfig.h"

#include <QByteArray>
#include <QString>

namespace ingot::s3 {

struct S3Location {
    QString bucket;
    QString prefix;  // empty (the whole bucket) or ending in '/'

    // Parses "s3://bucket[/prefix]"; false with words for anything else (another scheme, a bucket name S3 refuses,
    // a prefix with an empty, "." or ".." part).
    static bool parse(const QString &url, S3Location *out, QString *error);
    QString url() const;  // "s3://bucket/prefix" (without the trailing '/')
    // Whether an object key lies under the prefix (the prefix itself is not a key of the cache).
    bool holds(const QString &key) const { return key.size() > prefix.size() && key.startsWith(prefix); }
};

struct S3Endpoint {
    QByteArray scheme;  // "https" or "http"
    QByteArray host;    // the Host header: name[:port]
    QByteArray base;    // scheme://host
    bool pathStyle = false;
};

// Where requests for `bucket` go with these settings; empty host with words in *error for an endpoint URL that is
// not http(s)://host[:port].
S3Endpoint endpointFor(const AwsSettings &settings, const QString &bucket, QString *error);

// The request path of an object (or of the bucket when `key` is empty), percent-encoded as it goes on the wire.
QByteArray objectPath(const S3Endpoint &endpoint, const QString &bucket, const QString &key);

}  // namespace ingot::s3
