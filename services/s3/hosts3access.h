// An S3 cache reached from a host with the host's own keys: the host's AWS CLI (`aws s3api`) run over the host's SSH
// connection lists, reads and deletes, so no key leaves the host and none is asked of it. What the CLI answers is held
// to the same rules as a direct listing (plain keys under the prefix, bounded output); its endpoint is the host's
// AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL, passed as --endpoint-url (the Debian 12 CLI predates those variables).
// Written for `aws` v2 and checked against Debian's awscli 2.9 and the test S3 server.
#pragma once

#include "services/s3/s3client.h"
#include "services/util/remoteshell.h"

#include <memory>

namespace ingot::s3 {

QString hostS3StoreKind();  // "host-s3": a StoreLocation with the host and the s3:// URL as its path

class HostS3Access final : public S3Access
{
public:
    static constexpr qint64 kMaxListingBytes = 1LL << 30;  // JSON of several million keys
    static constexpr int kTimeoutMs = 10 * 60 * 1000;

    HostS3Access(std::shared_ptr<RemoteShell> shell, QString host, const S3Location &location);

    const S3Location &location() const override { return m_location; }
    QString identity() const override;
    bool list(const QString &prefix, const QString &delimiter, S3Listing *out, QString *error,
              const std::atomic_bool *cancel = nullptr) const override;
    bool get(const QString &key, qint64 offset, qint64 length, QByteArray *out, QString *error,
             qint64 maxBytes = 64 << 20, const std::atomic_bool *cancel = nullptr) const override;
    bool remove(const QStringList &keys, QStringList *failed, QString *error,
                const std::atomic_bool *cancel = nullptr) const override;

private:
    // Runs `aws s3api <args>` on the host; its stdout, or false with words (the CLI's last line of stderr).
    bool aws(const QVector<QByteArray> &args, const QByteArray &input, qint64 maxOut, QByteArray *out, QString *error,
             const QString &what) const;

    std::shared_ptr<RemoteShell> m_shell;
    QString m_host;
    S3Location m_location;
};

}  // namespace ingot::s3
