// Where S3 requests go and with which keys, found the way the AWS CLI (botocore) finds them, from the environment and
// the shared files; the tests compare with botocore's own resolution. Beyond Debian's botocore 1.29, as the CLI v2
// documents: AWS_REGION before AWS_DEFAULT_REGION, and endpoint URLs (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, a
// profile's endpoint_url, a [services] block's). A role profile (role_arn with source_profile or credential_source)
// is resolved to what STS needs (assumedrole.h asks it). Left out, with words when a profile needs them: credential_process,
// SSO, mfa_serial, a role whose source is another role. The instance role (IMDSv2) is for the S3 client to ask when nothing here gave keys.
#pragma once

#include "services/s3/sigv4.h"

#include <QHash>
#include <QString>

namespace ingot::s3 {

// The environment a resolution reads: the process's by default; tests pass their own.
using Environment = QHash<QString, QString>;
Environment processEnvironment();

// An INI file of the AWS CLI's shape: [section] lines, key = value, a key with an empty value followed by indented
// key = value lines (a nested block, kept as "outer.inner"), comments from # or ; at a line's start.
using IniSections = QHash<QString, QHash<QString, QString>>;
IniSections parseAwsIni(const QByteArray &text);

// A profile that assumes a role (role_arn): whose keys ask STS for the role's, and where STS is.
struct AssumeRoleSpec {
    QString roleArn;
    QString sessionName;       // role_session_name, else "ingot-<time>"
    QString externalId;        // external_id
    int durationSeconds = 3600;
    Credentials source;        // source_profile's keys, or the environment's (credential_source = Environment)
    bool sourceFromInstance = false;  // credential_source = Ec2InstanceMetadata: the instance role's keys
    QString sourceProfile;     // for words
    QString stsEndpoint;       // https://sts.<region>.amazonaws.com, or an endpoint URL for STS
    bool isSet() const { return !roleArn.isEmpty(); }
};

struct AwsSettings {
    QString profile;           // the profile used ("default" when none is named)
    Credentials credentials;   // empty when none was found here (the instance role may still give some)
    QString credentialSource;  // "environment", "shared credentials file", "config file", or empty
    QString region;            // us-east-1 when nothing names one
    QString endpointUrl;       // an S3-compatible store (path-style requests), or empty for AWS itself
    AssumeRoleSpec assumeRole; // the profile assumes a role: keys come from STS (credentials is empty then)
    QString error;             // a profile that cannot be used as it is written, in words; nothing else is set then
};

// Whether `region` may name an AWS region: 1 to 63 ASCII letters, digits and hyphens, a letter or digit at both
// ends, not only digits (botocore's validate_region_name and the host-label rule of its endpoint rules both hold).
// A region becomes part of a host name (s3.REGION.amazonaws.com, sts.REGION.amazonaws.com): anything else could
// send requests elsewhere ("x@127.0.0.1:9000/"). The one rule for every place a region comes from.
bool isValidRegion(const QString &region);

// Whether keys may be sent: no control characters (CR, LF, NUL, other C0, DEL) in any part, since each part goes
// into an HTTP header. Empty when they may; otherwise the name of the first part that may not (never its value).
QString credentialsProblem(const Credentials &c);

// Resolves for `profile` (empty: AWS_PROFILE, else "default"). A profile named explicitly is used even when the
// environment holds keys (the CLI's --profile); AWS_PROFILE is not explicit, so keys in the environment win.
AwsSettings resolveAwsSettings(const QString &profile = QString(), const Environment &env = processEnvironment());

}  // namespace ingot::s3
