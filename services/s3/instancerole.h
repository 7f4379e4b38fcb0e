// The instance role's keys on an EC2 (trn) instance, through IMDSv2 as the AWS CLI gets them: a session token by
// PUT /latest/api/token (X-aws-ec2-metadata-token-ttl-seconds), then the role's name and its keys from
// /latest/meta-data/iam/security-credentials/, each request carrying the token. Keys are kept until five minutes
// before they expire, then asked for again. AWS_EC2_METADATA_DISABLED=true turns it off;
// AWS_EC2_METADATA_SERVICE_ENDPOINT points it elsewhere (the tests' stand-in). Off an instance the first request
// fails within a second and nothing is asked again for a minute.
#pragma once

#include "services/hub/httpclient.h"
#include "services/s3/awsconfig.h"
#include "services/s3/keycache.h"

#include <QDateTime>


namespace ingot::s3 {

class InstanceRole final
{
public:
    static constexpr int kTimeoutMs = 1000;
    static constexpr qint64 kRefreshBeforeMs = 5 * 60 * 1000;
    static constexpr qint64 kRetryAfterFailureMs = 60 * 1000;

    explicit InstanceRole(const Environment &env = processEnvironment());

    bool enabled() const { return m_enabled; }
    // The role's keys, fetched or refreshed as needed; false with words when there are none.
    bool credentials(Credentials *out, QString *error);
    QDateTime expiration() const;
    int fetches() const;  // how many times keys were asked for (tests)

private:
    bool fetch(Credentials *out, QDateTime *expiration, QString *error) const;

    bool m_enabled = true;
    QString m_endpoint;
    HttpClient m_http;
    KeyCache m_cache{kRefreshBeforeMs, kRetryAfterFailureMs};
};

}  // namespace ingot::s3
