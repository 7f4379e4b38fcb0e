// Temporary AWS keys kept until shortly before they expire and asked for again then: the one rule of the instance
// role (instancerole.h) and an assumed role (assumedrole.h). While a refresh fails, keys that have not expired yet are still given;
// after a failure with none left, nothing is asked again for a while. Thread-safe.
#pragma once

#include "services/s3/sigv4.h"

#include <QDateTime>
#include <QString>

#include <functional>
#include <mutex>

namespace ingot::s3 {

class KeyCache final
{
public:
    // Fetches fresh keys and when they expire (invalid: they do not), or false with words.
    using Fetch = std::function<bool(Credentials *keys, QDateTime *expiration, QString *error)>;

    KeyCache(qint64 refreshBeforeMs, qint64 retryAfterFailureMs) : m_refreshBeforeMs(refreshBeforeMs), m_retryAfterMs(retryAfterFailureMs) {}

    bool get(Credentials *out, QString *error, const Fetch &fetch);
    QDateTime expiration() const;
    int fetches() const;  // how many times keys were asked for (tests)

private:
    const qint64 m_refreshBeforeMs;
    const qint64 m_retryAfterMs;
    mutable std::mutex m_mutex;
    Credentials m_keys;
    QDateTime m_expiration;
    qint64 m_failedAtMs = 0;
    QString m_lastError;
    int m_fetches = 0;
};

}  // namespace ingot::s3
