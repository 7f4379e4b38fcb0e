// The keys of a role profile (role_arn): STS AssumeRole, signed (SigV4, service "sts") with the source keys, its
// answer's temporary keys kept until five minutes before they expire, as botocore's assume-role provider does.
// Tested against the test S3 server's STS stand-in (a fake), which boto3's STS client checks too.
#pragma once

#include "services/hub/httpclient.h"
#include "services/s3/awsconfig.h"
#include "services/s3/instancerole.h"
#include "services/s3/keycache.h"

#include <QDateTime>

#include <memory>

namespace ingot::s3 {

// One AssumeRole call: the role's keys and when they expire, or false with words (never the secret).
bool assumeRole(const HttpClient &http, const AssumeRoleSpec &spec, const Credentials &source, const QString &region,
                Credentials *out, QDateTime *expiration, QString *error);

class AssumedRole final
{
public:
    static constexpr qint64 kRefreshBeforeMs = 5 * 60 * 1000;
    static constexpr qint64 kRetryAfterFailureMs = 30 * 1000;

    // `region`: the one STS requests are signed for. `instance`: the source keys for credential_source =
    // Ec2InstanceMetadata.
    AssumedRole(AssumeRoleSpec spec, QString region, std::shared_ptr<InstanceRole> instance = nullptr);
    bool credentials(Credentials *out, QString *error);

private:
    AssumeRoleSpec m_spec;
    QString m_region;
    std::shared_ptr<InstanceRole> m_instance;
    HttpClient m_http;
    KeyCache m_cache{kRefreshBeforeMs, kRetryAfterFailureMs};
};

}  // namespace ingot::s3
