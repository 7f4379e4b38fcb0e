// HTTP for the Hub client: libcurl with connection reuse, retries with backoff (Retry-After honoured),
// redirects followed by hand so a token never travels to another host, size and time limits, cancellation.
// A hostile or broken server cannot hold a call: every transfer that stays below kLowSpeedBytes per second for
// kLowSpeedSeconds fails, a request with a timeout fails when it runs out (redirects included), and a redirect to
// anything but http(s) fails at once, without a retry. A header whose name is not an HTTP token, or whose value (the
// bearer token and the User-Agent included) holds a control character, is refused before anything is sent, with
// words that name the header but never hold its value: a CR/LF in a key would otherwise become headers of its own.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <atomic>
#include <functional>

namespace ingot {

// The low-speed rule, for every transfer (API calls and downloads alike).
constexpr long kLowSpeedBytes = 1024;
constexpr long kLowSpeedSeconds = 15;
// The whole of a small request (an API call, a registry file), redirects included.
constexpr int kApiTimeoutMs = 30000;

struct HttpRequest {
    QByteArray method = "GET";
    QString url;
    QList<QPair<QByteArray, QByteArray>> headers;  // never put Authorization here: set `bearer`
    QByteArray body;
    QString bearer;                        // sent only to the origin of `trustedOrigin` (and never logged)
    QString trustedOrigin;                 // "http://host:port" the token belongs to
    qint64 maxBytes = 64LL * 1024 * 1024;  // a larger body is an error, not a memory hog
    int timeoutMs = kApiTimeoutMs;         // whole transfer, redirects included; 0 = none (large downloads: the
                                           // low-speed rule alone)
    // How many attempts may time out (stall below the low-speed limit, or run out of time) before the call gives
    // up. A server that answered too slowly once does so again: small requests do not retry a timeout; a large
    // download may retry a stall once.
    int timeoutAttempts = 1;
    // Redirects may only stay on the origin of `trustedOrigin` (API calls: what the Hub answers is never taken
    // from another host). Downloads may go to a CDN.
    bool sameOriginRedirects = false;
    // Streams the body here instead of into HttpResponse::body. Return false to stop (e.g. disk full).
    // `restart` is true when a retry starts the body over: the sink discards what it got so far.
    std::function<bool(const char *data, size_t size, bool restart)> sink;
    // Streams the request body from here instead of `body` (uploads of large files: PUT only). Fills `buf` with up
    // to `max` bytes and returns how many (0 at the end, -1 on a read error). `restart` is true on the first call
    // of every attempt and redirect hop: the source starts again from its first byte.
    std::function<qint64(char *buf, size_t max, bool restart)> source;
    qint64 sourceSize = -1;  // the bytes `source` gives in all (Content-Length)
    // Called once per attempt before the first byte of a 2xx body reaches `sink`, with the status and headers of
    // that response (a ranged download tells 206 from a 200 that starts over). Return false to stop.
    std::function<bool(int status, const QHash<QByteArray, QByteArray> &headers)> onBodyStart;
};

struct HttpResponse {
    // Refused: a URL or redirect Ingot will not follow (not http(s), or another origin where that is not allowed);
    // never retried.
    enum class Failure { None, Offline, Network, Timeout, Cancelled, TooLarge, TooManyRedirects, SinkFailed, Refused };
    int status = 0;
    Failure failure = Failure::None;
    QString error;                         // words for a failure (never containing the token)
    QHash<QByteArray, QByteArray> headers;  // lower-case names, of the final response
    QHash<QByteArray, QByteArray> firstHeaders;  // of the first response, when it redirected (X-Linked-Etag ...)
    QByteArray body;
    QString finalUrl;
    int attempts = 0;
    QByteArray header(const char *name) const { return headers.value(QByteArray(name)); }
    bool ok() const { return failure == Failure::None && status >= 200 && status < 300; }
};

struct RetryPolicy {
    int maxAttempts = 5;
    int baseDelayMs = 500;   // doubled each attempt, with jitter
    int maxDelayMs = 8000;
    int maxRetryAfterMs = 60000;
};

// What stops a request: a flag, or two (either one set stops it), such as a transfer's stop and one entry's own.
// Made from a flag where one is passed (null: nothing stops it).
class StopFlags final
{
public:
    StopFlags(const std::atomic_bool *first = nullptr, const std::atomic_bool *second = nullptr)  // NOLINT: implicit
        : m_first(first), m_second(second) {}
    bool requested() const { return (m_first && m_first->load()) || (m_second && m_second->load()); }

private:
    const std::atomic_bool *m_first;
    const std::atomic_bool *m_second;
};

class HttpClient final
{
public:
    HttpClient();
    void setRetryPolicy(const RetryPolicy &p) { m_retry = p; }
    void setOffline(bool offline) { m_offline = offline; }
    bool isOffline() const { return m_offline; }
    void setUserAgent(const QByteArray &ua) { m_userAgent = ua; }

    // Performs the request with retries on 408/429/5xx and network errors (and timeouts, as `timeoutAttempts`
    // allows). Thread-safe: each thread uses its own
    // libcurl handle, kept alive so connections are reused.
    HttpResponse send(const HttpRequest &request, StopFlags cancel = {}) const;

    static QString originOf(const QString &url);  // "http://127.0.0.1:8080"

private:
    HttpResponse once(const HttpRequest &request, StopFlags cancel, bool restartSink) const;

    RetryPolicy m_retry;
    bool m_offline = false;
    QByteArray m_userAgent;
};

}  // namespace ingot
