#include "services/hub/httpclient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QThread>
#include <QUrl>

#include "services/util/names.h"

#include <curl/curl.h>

#include <algorithm>
#include <memory>

namespace ingot {

namespace {
struct HttpText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HttpClient)
};

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

// One easy handle per thread, reused across requests so keep-alive connections are reused.
CURL *threadHandle()
{
    static CurlGlobal global;
    struct Holder {
        CURL *h = nullptr;
        ~Holder()
        {
            if (h)
                curl_easy_cleanup(h);
        }
    };
    thread_local Holder holder;
    if (!holder.h)
        holder.h = curl_easy_init();
    return holder.h;
}

struct Transfer {
    const HttpRequest *req = nullptr;
    HttpResponse *resp = nullptr;
    StopFlags cancel;
    bool tooLarge = false;
    bool sinkFailed = false;
    bool restartSink = false;
    bool sourceFailed = false;
    bool sourceStarted = false;
    bool bodyStarted = false;
    qint64 received = 0;
};

size_t onRead(char *buf, size_t size, size_t n, void *user)
{
    auto *t = static_cast<Transfer *>(user);
    const qint64 got = t->req->source(buf, size * n, !t->sourceStarted);
    t->sourceStarted = true;
    if (got < 0) {
        t->sourceFailed = true;
        return CURL_READFUNC_ABORT;
    }
    return size_t(got);
}

size_t onWrite(char *data, size_t size, size_t n, void *user)
{
    auto *t = static_cast<Transfer *>(user);
    const size_t len = size * n;
    // Redirect and error bodies are small and kept; only a 2xx body goes to the sink.
    const bool toSink = t->req->sink && t->resp->status >= 200 && t->resp->status < 300;
    t->received += qint64(len);
    if (!toSink) {
        if (t->received > t->req->maxBytes) {
            t->tooLarge = true;
            return 0;
        }
        t->resp->body.append(data, int(len));
        return len;
    }
    if (!t->bodyStarted) {
        t->bodyStarted = true;
        if (t->req->onBodyStart && !t->req->onBodyStart(t->resp->status, t->resp->headers)) {
            t->sinkFailed = true;
            return 0;
        }
    }
    if (!t->req->sink(data, len, t->restartSink)) {
        t->sinkFailed = true;
        return 0;
    }
    t->restartSink = false;
    return len;
}

size_t onHeader(char *data, size_t size, size_t n, void *user)
{
    auto *t = static_cast<Transfer *>(user);
    const QByteArray line = QByteArray(data, int(size * n)).trimmed();
    if (line.startsWith("HTTP/")) {
        t->resp->headers.clear();
        const QList<QByteArray> parts = line.split(' ');
        t->resp->status = parts.size() > 1 ? parts[1].toInt() : 0;
    } else if (const int colon = line.indexOf(':'); colon > 0) {
        t->resp->headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    return size * n;
}

int onProgress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    auto *t = static_cast<Transfer *>(user);
    return t->cancel.requested() ? 1 : 0;
}

bool retryable(int status)
{
    return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

int retryAfterMs(const QByteArray &value)
{
    if (value.isEmpty())
        return -1;
    bool ok = false;
    const double secs = value.trimmed().toDouble(&ok);
    if (ok)
        return int(secs * 1000);
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(value.trimmed()), Qt::RFC2822Date);
    return when.isValid() ? int(std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when))) : -1;
}

// Sleeps in small steps so a cancel is noticed.
bool waitFor(int ms, StopFlags cancel)
{
    for (int slept = 0; slept < ms; slept += 20) {
        if (cancel.requested())
            return false;
        QThread::msleep(std::min(20, ms - slept));
    }
    return !cancel.requested();
}

QString redactedUrl(const QString &url)
{
    // Query strings can carry signatures; keep messages to the path. A redirect's target is the server's text:
    // shown escaped.
    const QUrl u(url);
    return displayName(u.adjusted(QUrl::RemoveQuery | QUrl::RemoveUserInfo | QUrl::RemoveFragment).toString());
}

bool isHttpUrl(const QUrl &u)
{
    const QString scheme = u.scheme().toLower();
    return (scheme == QLatin1String("http") || scheme == QLatin1String("https")) && !u.host().isEmpty();
}
}  // namespace

HttpClient::HttpClient()
    : m_userAgent(QByteArrayLiteral("ingot/" INGOT_VERSION "; ") + curl_version())
{
}

QString HttpClient::originOf(const QString &url)
{
    const QUrl u(url);
    const int port = u.port(u.scheme() == QLatin1String("https") ? 443 : 80);
    return u.scheme().toLower() + QStringLiteral("://") + u.host().toLower() + QLatin1Char(':') + QString::number(port);
}

namespace {

void fail(HttpResponse *resp, HttpResponse::Failure failure, const QString &error)
{
    resp->failure = failure;
    resp->error = error;
}

// Sets the method and the body: none (HEAD, GET), streamed from request.source, or request.body.
void setMethod(CURL *h, const HttpRequest &request, const QByteArray &method, Transfer *t)
{
    if (method == "HEAD") {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (method == "GET") {
        curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else if (request.source) {
        // A streamed body: read as curl sends it, never held in memory whole.
        curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.constData());
        curl_easy_setopt(h, CURLOPT_READFUNCTION, onRead);
        curl_easy_setopt(h, CURLOPT_READDATA, t);
        curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, curl_off_t(request.sourceSize));
    } else {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.constData());
        if (method != "DELETE" || !request.body.isEmpty()) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.constData());
        }
    }
}

// Prepares the reused handle for one hop to `url` (redirects are followed by the caller, hop by hop).
void setUpHop(CURL *h, const QByteArray &url, const QByteArray &userAgent, qint64 timeLeftMs, Transfer *t)
{
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url.constData());
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, userAgent.constData());
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, kLowSpeedBytes);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, kLowSpeedSeconds);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, long(timeLeftMs));
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, onWrite);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, t);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    // A body streamed to a file arrives in 256 KiB pieces, not curl's 16 KiB: a sixteenth of the reads, writes and
    // callbacks (a pull of 1 GB spent three quarters of its time in the kernel).
    if (t->req->sink)
        curl_easy_setopt(h, CURLOPT_BUFFERSIZE, 256L << 10);
}

// Runs the prepared hop with the request's headers; the token goes only to the trusted origin and is wiped after.
CURLcode performHop(CURL *h, const HttpRequest &request, bool sendToken)
{
    struct curl_slist *hdrs = nullptr;
    for (const auto &[k, v] : request.headers)
        hdrs = curl_slist_append(hdrs, QByteArray(k + ": " + v).constData());
    hdrs = curl_slist_append(hdrs, "Expect:");
    QByteArray auth;
    if (!request.bearer.isEmpty() && sendToken) {
        auth = "Authorization: Bearer " + request.bearer.toUtf8();
        hdrs = curl_slist_append(hdrs, auth.constData());
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    const CURLcode rc = curl_easy_perform(h);
    curl_slist_free_all(hdrs);
    auth.fill('\0');
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
    return rc;
}

// Why a hop that curl did not finish failed, in resp. `totalMs`: since the request began; `hopMs`: since this hop.
void describeCurlFailure(CURLcode rc, const Transfer &t, const HttpRequest &request, const QString &url,
                         qint64 totalMs, qint64 hopMs, HttpResponse *resp)
{
    using F = HttpResponse::Failure;
    const QString where = redactedUrl(url);
    if (t.tooLarge) {
        fail(resp, F::TooLarge, HttpText::tr("The response from %1 is larger than %2 bytes; refused.")
                                    .arg(where).arg(request.maxBytes));
    } else if (t.sourceFailed) {
        fail(resp, F::SinkFailed, HttpText::tr("Could not read the data to send to %1.").arg(where));
    } else if (t.sinkFailed) {
        fail(resp, F::SinkFailed, HttpText::tr("Could not store the data from %1.").arg(where));
    } else if (rc == CURLE_ABORTED_BY_CALLBACK) {
        fail(resp, F::Cancelled, HttpText::tr("Cancelled."));
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        // The time limit ran out, or no connection could be made (a network fault, retried like one), or
        // the transfer crawled below the low-speed limit.
        // (The low-speed rule cannot fire before kLowSpeedSeconds; the connect timeout is shorter.)
        if (request.timeoutMs > 0 && totalMs >= request.timeoutMs - 250)
            fail(resp, F::Timeout, HttpText::tr("%1 did not answer within %2 s.").arg(where).arg(request.timeoutMs / 1000));
        else if (hopMs < kLowSpeedSeconds * 1000 - 500)
            fail(resp, F::Network, HttpText::tr("Could not connect to %1 within 10 s.").arg(where));
        else
            fail(resp, F::Timeout, HttpText::tr("%1 answered too slowly (below %2 bytes/s for %3 s); gave up.")
                                       .arg(where).arg(kLowSpeedBytes).arg(kLowSpeedSeconds));
    } else if (rc == CURLE_UNSUPPORTED_PROTOCOL || rc == CURLE_URL_MALFORMAT) {
        fail(resp, F::Refused, HttpText::tr("Ingot cannot request %1: %2.")
                                   .arg(where, QString::fromUtf8(curl_easy_strerror(rc))));
    } else {
        fail(resp, F::Network, HttpText::tr("Network error talking to %1: %2.")
                                   .arg(where, QString::fromUtf8(curl_easy_strerror(rc))));
    }
}

// After a hop that answered: the URL of the next hop, or empty when resp is the answer (a failure included: an
// unsafe or foreign redirect is refused). Keeps the first hop's headers; a 303 turns the method into GET.
QString nextHop(const HttpRequest &request, const QString &url, const QString &trusted, int hop, HttpResponse *resp,
                QByteArray *method)
{
    const int st = resp->status;
    if (!(st == 301 || st == 302 || st == 303 || st == 307 || st == 308))
        return {};
    const QByteArray location = resp->header("location");
    if (location.isEmpty())
        return {};
    if (hop == 0)
        resp->firstHeaders = resp->headers;
    const QUrl next = QUrl(url).resolved(QUrl(QString::fromUtf8(location)));
    // file:, ftp:, gopher: ... are refused at once: retrying cannot make them right.
    if (!isHttpUrl(next)) {
        fail(resp, HttpResponse::Failure::Refused,
             HttpText::tr("%1 redirected to %2, which is not an http or https URL; refused.")
                 .arg(redactedUrl(url), redactedUrl(next.toString())));
        return {};
    }
    if (request.sameOriginRedirects && HttpClient::originOf(next.toString()) != trusted) {
        fail(resp, HttpResponse::Failure::Refused,
             HttpText::tr("%1 redirected to another host (%2); Ingot takes the answer to this request only from %3.")
                 .arg(redactedUrl(url), displayName(HttpClient::originOf(next.toString())), displayName(trusted)));
        return {};
    }
    if (st == 303)
        *method = "GET";
    return next.toString();
}

// The first header of `request` that must not be sent, in words naming it but never its value (it may be a key or a
// token): a name that is not an HTTP token, or a value (the bearer token and the user agent included) with a control
// character. A CR or LF would end the header and start another ("X-Injected: ..."), a NUL would cut it short.
QString headerProblem(const HttpRequest &request, const QByteArray &userAgent)
{
    auto control = [](const QByteArray &v) {
        return std::any_of(v.cbegin(), v.cend(), [](char c) { return uchar(c) < 0x20 || uchar(c) == 0x7f; });
    };
    auto token = [](const QByteArray &n) {
        static const QByteArray extra("!#$%&'*+-.^_`|~");
        return !n.isEmpty() && std::all_of(n.cbegin(), n.cend(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || extra.contains(c);
        });
    };
    for (const auto &[name, value] : request.headers) {
        if (!token(name))
            return HttpText::tr("a header name that is not an HTTP token");
        if (control(value))
            return HttpText::tr("the header %1 holds a control character").arg(QString::fromLatin1(name));
    }
    if (control(request.bearer.toUtf8()))
        return HttpText::tr("the access token holds a control character");
    if (control(userAgent))
        return HttpText::tr("the User-Agent holds a control character");
    return {};
}

}  // namespace

HttpResponse HttpClient::once(const HttpRequest &request, StopFlags cancel, bool restartSink) const
{
    using F = HttpResponse::Failure;
    HttpResponse resp;
    CURL *h = threadHandle();
    QString url = request.url;
    const QString trusted = originOf(request.trustedOrigin.isEmpty() ? request.url : request.trustedOrigin);
    QByteArray method = request.method;
    if (!isHttpUrl(QUrl(url))) {
        fail(&resp, F::Refused, HttpText::tr("%1 is not an http or https URL; Ingot sends nothing there.").arg(redactedUrl(url)));
        return resp;
    }
    // The time limit covers every hop: a chain of slow redirects cannot stretch it.
    QElapsedTimer clock;
    clock.start();
    for (int hop = 0;; ++hop) {
        if (hop > 10) {
            fail(&resp, F::TooManyRedirects,
                 HttpText::tr("Too many redirects from %1 (a redirect loop?).").arg(redactedUrl(request.url)));
            return resp;
        }
        const qint64 left = request.timeoutMs > 0 ? request.timeoutMs - clock.elapsed() : 0;
        if (request.timeoutMs > 0 && left <= 0) {
            fail(&resp, F::Timeout,
                 HttpText::tr("%1 did not answer within %2 s.").arg(redactedUrl(request.url)).arg(request.timeoutMs / 1000));
            return resp;
        }
        QElapsedTimer hopClock;
        hopClock.start();
        resp.status = 0;
        resp.headers.clear();
        resp.body.clear();
        Transfer t{&request, &resp, cancel};
        t.restartSink = restartSink;
        setUpHop(h, url.toUtf8(), m_userAgent, left, &t);
        setMethod(h, request, method, &t);
        const CURLcode rc = performHop(h, request, originOf(url) == trusted);
        resp.finalUrl = url;
        if (rc != CURLE_OK) {
            describeCurlFailure(rc, t, request, url, clock.elapsed(), hopClock.elapsed(), &resp);
            return resp;
        }
        const QString next = nextHop(request, url, trusted, hop, &resp, &method);
        if (next.isEmpty())
            return resp;
        url = next;
    }
}

HttpResponse HttpClient::send(const HttpRequest &request, StopFlags cancel) const
{
    if (m_offline) {
        HttpResponse r;
        r.failure = HttpResponse::Failure::Offline;
        r.error = HttpText::tr("HF_HUB_OFFLINE is set: Ingot makes no request to the Hub.");
        return r;
    }
    // Checked once, before anything is sent: the value is never in the words (it may be a secret).
    if (const QString problem = headerProblem(request, m_userAgent); !problem.isEmpty()) {
        HttpResponse r;
        r.failure = HttpResponse::Failure::Refused;
        r.error = HttpText::tr("Ingot sends nothing to %1: %2 (a line break in a key or token?).")
                      .arg(redactedUrl(request.url), problem);
        return r;
    }
    HttpResponse last;
    int timeouts = 0;
    for (int attempt = 1; attempt <= std::max(1, m_retry.maxAttempts); ++attempt) {
        last = once(request, cancel, attempt > 1);
        last.attempts = attempt;
        // A server too slow to answer once is too slow again: timeouts are retried only as the request allows.
        if (last.failure == HttpResponse::Failure::Timeout && ++timeouts >= std::max(1, request.timeoutAttempts))
            return last;
        const bool netFail = last.failure == HttpResponse::Failure::Network || last.failure == HttpResponse::Failure::Timeout;
        if (!(netFail || (last.failure == HttpResponse::Failure::None && retryable(last.status))))
            return last;
        if (attempt == m_retry.maxAttempts)
            break;
        int delay = std::min(m_retry.maxDelayMs, m_retry.baseDelayMs << (attempt - 1));
        delay = delay / 2 + int(QRandomGenerator::global()->bounded(delay / 2 + 1));
        if (last.status == 429 || last.status == 503) {
            const int ra = retryAfterMs(last.header("retry-after"));
            if (ra >= 0)
                delay = std::min(ra, m_retry.maxRetryAfterMs);
        }
        if (!waitFor(delay, cancel)) {
            last.failure = HttpResponse::Failure::Cancelled;
            last.error = HttpText::tr("Cancelled.");
            return last;
        }
    }
    return last;
}

}  // namespace ingot
