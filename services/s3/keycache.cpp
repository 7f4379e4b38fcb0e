#include "services/s3/keycache.h"

namespace ingot::s3 {

bool KeyCache::get(Credentials *out, QString *error, const Fetch &fetch)
{
    std::lock_guard lock(m_mutex);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool expired = m_expiration.isValid() && m_expiration.toMSecsSinceEpoch() <= now;
    const bool fresh = m_keys.isValid() && (!m_expiration.isValid() || m_expiration.toMSecsSinceEpoch() - now > m_refreshBeforeMs);
    if (fresh) {
        *out = m_keys;
        return true;
    }
    if (m_failedAtMs && now - m_failedAtMs < m_retryAfterMs) {  // failed a moment ago: not asked again yet
        if (m_keys.isValid() && !expired) {
            *out = m_keys;
            return true;
        }
        *error = m_lastError;
        return false;
    }
    ++m_fetches;
    Credentials keys;
    QDateTime expiration;
    QString why;
    if (!fetch(&keys, &expiration, &why)) {
        m_failedAtMs = now;
        m_lastError = why;
        if (m_keys.isValid() && !expired) {  // still good a while
            *out = m_keys;
            return true;
        }
        *error = why;
        return false;
    }
    m_failedAtMs = 0;
    m_keys = keys;
    m_expiration = expiration;
    *out = m_keys;
    return true;
}

QDateTime KeyCache::expiration() const
{
    std::lock_guard lock(m_mutex);
    return m_expiration;
}

int KeyCache::fetches() const
{
    std::lock_guard lock(m_mutex);
    return m_fetches;
}

}  // namespace ingot::s3
