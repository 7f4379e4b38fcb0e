#include "services/hub/hubclient.h"
#include "services/hub/jsonfield.h"

#include "services/util/names.h"
#include "services/util/relpath.h"
#include "services/util/sha256.h"

#include "services/hub/repoid.h"
#include "services/hub/treepage.h"

#include "services/util/fdio.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

using nlohmann::json;

namespace {
struct HubText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubClient)
};

QString qs(const json &j, const char *key)
{
    return jsonString(j, key);
}

bool isHtml(const HttpResponse &r, HubError *err, const QString &what)
{
    if (!r.header("content-type").startsWith("text/html"))
        return false;
    *err = {HubError::Kind::BadResponse, r.status,
            HubText::tr("The Hub answered %1 with an HTML page instead of JSON. Is HF_ENDPOINT a Hub?").arg(what)};
    return true;
}

bool parseJson(const HttpResponse &r, json *out, HubError *err, const QString &what)
{
    if (isHtml(r, err, what))
        return false;
    try {
        *out = json::parse(r.body.constData(), r.body.constData() + r.body.size());
        return true;
    } catch (const json::exception &) {
        *err = {HubError::Kind::BadResponse, r.status,
                r.body.isEmpty() ? HubText::tr("The Hub sent an empty answer for %1.").arg(what)
                                 : HubText::tr("The Hub sent malformed or truncated JSON for %1.").arg(what)};
        return false;
    }
}

// A page of a listing is never this large (the Hub's 1000 entries are ~300 KB).
constexpr qint64 kMaxPageBytes = 16 * 1024 * 1024;

// The same page asked for twice, however the server spelled its URL.
QString pageKey(const QString &url)
{
    return QUrl(url).adjusted(QUrl::NormalizePathSegments | QUrl::RemoveFragment).toString(QUrl::FullyEncoded);
}

// An id that is not org/name never reaches the Hub: it is the caller's mistake, not a missing repo.
bool checkRepoId(const QString &repo, HubError *err)
{
    if (isValidRepoId(repo))
        return true;
    *err = {HubError::Kind::InvalidArgument, 0,
            HubText::tr("\"%1\" is not a repo id: use org/name, each part made of letters, digits, '.', '_' and '-'.")
                .arg(displayName(repo))};
    return false;
}

QString unquote(QByteArray v)
{
    v = v.trimmed();
    if (v.startsWith("W/"))
        v = v.mid(2);
    if (v.size() >= 2 && v.startsWith('"') && v.endsWith('"'))
        v = v.mid(1, v.size() - 2);
    return QString::fromLatin1(v);
}
}  // namespace

QString encodePathSegments(const QString &path)
{
    QStringList parts;
    for (const QString &p : path.split(QLatin1Char('/')))
        parts << QString::fromLatin1(QUrl::toPercentEncoding(p));
    return parts.join(QLatin1Char('/'));
}

HubClient::HubClient(QString endpoint, QString token, bool offline)
    : m_endpoint(std::move(endpoint))
    , m_token(std::move(token))
{
    while (m_endpoint.endsWith(QLatin1Char('/')))
        m_endpoint.chop(1);
    m_http.setOffline(offline);
}

bool HubClient::isSafeRepoPath(const QString &path)
{
    return !path.isEmpty() && isSafeRelativePath(path);
}

QString HubClient::apiRepoUrl(const QString &repo) const
{
    return m_endpoint + QStringLiteral("/api/models/") + repo;
}

HttpRequest HubClient::request(const QByteArray &method, const QString &url) const
{
    HttpRequest r;
    r.method = method;
    r.url = url;
    r.bearer = m_token;
    r.trustedOrigin = m_endpoint;
    r.headers << qMakePair(QByteArray("Accept"), QByteArray("application/json"));
    r.sameOriginRedirects = true;  // what the API answers comes from the endpoint's origin only
    return r;
}

HttpResponse HubClient::call(const HttpRequest &req, HubError *err, const QString &what, const QString &repo,
                             StopFlags cancel) const
{
    *err = HubError();
    HttpResponse r = m_http.send(req, cancel);
    using F = HttpResponse::Failure;
    using K = HubError::Kind;
    switch (r.failure) {
    case F::None: break;
    case F::Offline: *err = {K::Offline, 0, r.error}; return r;
    case F::Network: *err = {K::Network, 0, HubText::tr("%1 Tried %n time(s).", nullptr, r.attempts).arg(r.error)}; return r;
    case F::Timeout: *err = {K::Timeout, 0, r.error}; return r;
    case F::Cancelled: *err = {K::Cancelled, 0, r.error}; return r;
    case F::TooLarge: *err = {K::TooLarge, 0, r.error}; return r;
    case F::TooManyRedirects: *err = {K::BadResponse, 0, r.error}; return r;
    case F::Refused: *err = {K::BadResponse, r.status, r.error}; return r;
    case F::SinkFailed: *err = {K::Storage, 0, r.error}; return r;
    }
    if (r.status >= 200 && r.status < 300)
        return r;
    const QByteArray code = r.header("x-error-code");
    QString serverMsg = QString::fromUtf8(r.header("x-error-message"));
    if (serverMsg.isEmpty() && r.header("content-type").startsWith("application/json")) {
        try {
            const json j = json::parse(r.body.constData(), r.body.constData() + r.body.size());
            if (j.is_object())
                serverMsg = qs(j, "error");
        } catch (const json::exception &) {
        }
    }
    serverMsg = displayName(serverMsg.left(500));  // the server's words, shown as text, never as control sequences
    const QString status = QStringLiteral("HTTP %1%2").arg(r.status).arg(code.isEmpty() ? QString() : QLatin1Char(' ') + displayName(QString::fromLatin1(code.left(100))));
    if (r.header("content-type").startsWith("text/html")) {
        *err = {r.status >= 500 ? K::Server : K::BadResponse, r.status,
                HubText::tr("The Hub answered %1 with an HTML error page (%2): the service may be down, or HF_ENDPOINT "
                            "may not point at a Hub.").arg(what, status)};
        return r;
    }
    if (code == "GatedRepo") {
        *err = {K::Gated, r.status, HubText::tr("%1 is gated: accept its conditions on the Hub with your account, then "
                                                "use a token of that account (%2).").arg(repo, status)};
    } else if (code == "RepoNotFound" || (r.status == 401 && !repo.isEmpty())) {
        *err = {K::NotFound, r.status,
                hasToken() ? HubText::tr("Repository %1 was not found, or your token cannot read it (%2).").arg(repo, status)
                           : HubText::tr("Repository %1 was not found, or it is private: log in with a token that can "
                                         "read it (%2).").arg(repo, status)};
    } else if (code == "RevisionNotFound") {
        *err = {K::RevisionNotFound, r.status, HubText::tr("%1 has no such revision (%2).").arg(repo, status)};
    } else if (code == "EntryNotFound") {
        *err = {K::EntryNotFound, r.status, HubText::tr("%1 is not in %2 (%3).").arg(what, repo, status)};
    } else if (r.status == 401) {
        *err = {K::Unauthorized, r.status, hasToken() ? HubText::tr("The Hub refused the token: it is invalid or expired (%1).").arg(status)
                                                      : HubText::tr("This needs a Hugging Face token: log in first (%1).").arg(status)};
    } else if (r.status == 403) {
        *err = {K::Forbidden, r.status, HubText::tr("Not allowed: %1 (%2).").arg(serverMsg.isEmpty() ? what : serverMsg, status)};
    } else if (r.status == 404) {
        *err = {K::NotFound, r.status, HubText::tr("%1 was not found (%2).").arg(what, status)};
    } else if (r.status == 409) {
        *err = {K::Conflict, r.status, serverMsg.isEmpty() ? HubText::tr("%1 already exists (%2).").arg(what, status) : serverMsg};
    } else if (r.status == 412) {
        *err = {K::PreconditionFailed, r.status, HubText::tr("The repo changed meanwhile (%1).").arg(status)};
    } else if (r.status == 429) {
        *err = {K::RateLimited, r.status, HubText::tr("The Hub is rate-limiting requests (%1); retried %n time(s). Wait a "
                                                      "moment and try again.", nullptr, r.attempts).arg(status)};
    } else if (r.status >= 500) {
        *err = {K::Server, r.status, HubText::tr("The Hub failed to answer %1 (%2) after %n attempt(s).", nullptr, r.attempts).arg(what, status)};
    } else {
        *err = {K::BadResponse, r.status, serverMsg.isEmpty() ? HubText::tr("Unexpected answer to %1 (%2).").arg(what, status)
                                                              : HubText::tr("Unexpected answer to %1 (%2): %3").arg(what, status, serverMsg)};
    }
    return r;
}

WhoAmI HubClient::whoami(HubError *err, const std::atomic_bool *cancel) const
{
    WhoAmI w;
    if (!hasToken() && !isOffline()) {
        *err = {HubError::Kind::Unauthorized, 0, HubText::tr("No Hugging Face token: set HF_TOKEN, run `huggingface-cli "
                                                             "login`, or log in from Ingot.")};
        return w;
    }
    const HttpResponse r = call(request("GET", m_endpoint + QStringLiteral("/api/whoami-v2")), err,
                                HubText::tr("who am I"), QString(), cancel);
    json j;
    if (!err->ok() || !parseJson(r, &j, err, QStringLiteral("/api/whoami-v2")))
        return w;
    if (!j.is_object() || !j.contains("name")) {
        *err = {HubError::Kind::BadResponse, r.status, HubText::tr("The Hub's whoami answer has no name.")};
        return w;
    }
    w.name = qs(j, "name");
    w.fullname = qs(j, "fullname");
    if (const auto orgs = j.find("orgs"); orgs != j.end() && orgs->is_array())
        for (const auto &o : *orgs)
            if (o.is_object())
                w.orgs << qs(o, "name");
    if (const auto auth = j.find("auth"); auth != j.end() && auth->is_object())
        if (const auto at = auth->find("accessToken"); at != auth->end() && at->is_object())
            w.role = qs(*at, "role");
    return w;
}

RepoInfo HubClient::repoInfo(const QString &repo, const QString &revision, HubError *err,
                             const std::atomic_bool *cancel) const
{
    RepoInfo info;
    if (!checkRepoId(repo, err))
        return info;
    QString url = apiRepoUrl(repo);
    if (!revision.isEmpty() && revision != QLatin1String("main"))
        url += QStringLiteral("/revision/") + QString::fromLatin1(QUrl::toPercentEncoding(revision));
    const HttpResponse r = call(request("GET", url), err, repo, repo, cancel);
    json j;
    if (!err->ok() || !parseJson(r, &j, err, repo))
        return info;
    if (!j.is_object()) {
        *err = {HubError::Kind::BadResponse, r.status, HubText::tr("Unexpected repo info for %1.").arg(repo)};
        return info;
    }
    info.id = qs(j, "id");
    info.sha = qs(j, "sha");
    info.isPrivate = j.value("private", false) == true;
    info.gated = j.contains("gated") && j["gated"].is_string() ? true : j.value("gated", json(false)) == true;
    if (const auto s = j.find("siblings"); s != j.end() && s->is_array())
        info.files = int(s->size());
    return info;
}

QVector<TreeEntry> HubClient::listTree(const QString &repo, const QString &revision, const QString &path, bool recursive,
                                       HubError *err, const std::atomic_bool *cancel,
                                       const std::function<void(const QVector<TreeEntry> &)> &onPage) const
{
    QVector<TreeEntry> all;
    *err = HubError();
    if (!checkRepoId(repo, err))
        return all;
    const QString clean = path.trimmed().remove(QRegularExpression(QStringLiteral("^/+|/+$")));
    if (!clean.isEmpty() && !isSafeRepoPath(clean)) {
        *err = {HubError::Kind::UnsafePath, 0, HubText::tr("\"%1\" is not a path inside a repo.").arg(displayName(path))};
        return all;
    }
    QString url = apiRepoUrl(repo) + QStringLiteral("/tree/") +
                  QString::fromLatin1(QUrl::toPercentEncoding(revision.isEmpty() ? QStringLiteral("main") : revision)) +
                  (clean.isEmpty() ? QString() : QLatin1Char('/') + encodePathSegments(clean)) +
                  QStringLiteral("?recursive=%1&expand=false").arg(recursive ? QStringLiteral("true") : QStringLiteral("false"));
    const QString what = clean.isEmpty() ? HubText::tr("the file list") : displayName(clean);
    const QString listing = clean.isEmpty() ? repo : repo + QLatin1Char('/') + displayName(clean);
    const QString origin = HttpClient::originOf(m_endpoint);
    QSet<QString> asked;
    while (!url.isEmpty()) {
        // The limits hold whatever the server sends: a Link chain that never ends stops here, not in memory.
        if (asked.size() >= m_limits.maxPages) {
            *err = {HubError::Kind::TooLarge, 0,
                    HubText::tr("The Hub kept sending pages for the file list of %1: more than %2 pages; stopped. "
                                "List a folder further down instead.").arg(listing).arg(m_limits.maxPages)};
            return all;
        }
        asked.insert(pageKey(url));
        HttpRequest req = request("GET", url);
        req.maxBytes = kMaxPageBytes;
        const HttpResponse r = call(req, err, what, repo, cancel);
        if (!err->ok() || isHtml(r, err, what))
            return all;
        const QVector<TreeEntry> page = parseTreePage(r.body, repo, r.status, err);
        if (!err->ok())
            return all;
        if (qint64(all.size()) + page.size() > m_limits.maxEntries) {
            *err = {HubError::Kind::TooLarge, r.status,
                    HubText::tr("The Hub kept sending pages for the file list of %1: more than %2 entries; stopped. "
                                "List a folder further down instead.").arg(listing).arg(m_limits.maxEntries)};
            return all;
        }
        if (onPage)
            onPage(page);
        all += page;
        const QString next = nextPageUrl(r.header("link"), url);
        if (next.isEmpty())
            break;
        // The next page is asked for only where the listing started: another host's entries never join it.
        if (HttpClient::originOf(next) != origin || !QUrl(next).isValid()) {
            *err = {HubError::Kind::BadResponse, r.status,
                    HubText::tr("The Hub's file list of %1 continues on another host (%2); Ingot follows pages only on "
                                "HF_ENDPOINT (%3). Stopped.").arg(listing, displayName(HttpClient::originOf(next)), displayName(origin))};
            return all;
        }
        if (asked.contains(pageKey(next))) {
            *err = {HubError::Kind::BadResponse, r.status,
                    HubText::tr("The Hub's file list of %1 goes round in circles: its next page is one already read. "
                                "Stopped.").arg(listing)};
            return all;
        }
        url = next;
    }
    return all;
}

QVector<TreeEntry> HubClient::pathsInfo(const QString &repo, const QString &revision, const QStringList &paths,
                                        HubError *err, const std::atomic_bool *cancel) const
{
    QVector<TreeEntry> out;
    if (!checkRepoId(repo, err))
        return out;
    json body = {{"paths", json::array()}, {"expand", false}};
    for (const QString &p : paths) {
        if (!isSafeRepoPath(p)) {
            *err = {HubError::Kind::UnsafePath, 0, HubText::tr("\"%1\" is not a path inside a repo.").arg(displayName(p))};
            return out;
        }
        body["paths"].push_back(p.toStdString());
    }
    HttpRequest req = request("POST", apiRepoUrl(repo) + QStringLiteral("/paths-info/") +
                                          QString::fromLatin1(QUrl::toPercentEncoding(revision.isEmpty() ? QStringLiteral("main") : revision)));
    req.headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/json"));
    req.body = QByteArray::fromStdString(body.dump());
    const HttpResponse r = call(req, err, HubText::tr("path information"), repo, cancel);
    if (!err->ok() || isHtml(r, err, QStringLiteral("paths-info")))
        return out;
    // Entries without a path or type, or with a path that leaves the repo, are left out.
    return parseTreePage(r.body, repo, r.status, err, BadEntries::Skip);
}

QByteArray HubClient::readFile(const QString &repo, const QString &revision, const QString &path, qint64 maxBytes,
                               HubError *err, DownloadResult *info, const std::atomic_bool *cancel) const
{
    if (!checkRepoId(repo, err))
        return {};
    if (!isSafeRepoPath(path)) {
        *err = {HubError::Kind::UnsafePath, 0, HubText::tr("\"%1\" is not a path inside a repo.").arg(displayName(path))};
        return {};
    }
    HttpRequest req = request("GET", m_endpoint + QLatin1Char('/') + repo + QStringLiteral("/resolve/") +
                                         QString::fromLatin1(QUrl::toPercentEncoding(revision.isEmpty() ? QStringLiteral("main") : revision)) +
                                         QLatin1Char('/') + encodePathSegments(path));
    req.headers.clear();
    req.maxBytes = maxBytes;
    req.sameOriginRedirects = false;  // resolve may send an LFS file to the CDN
    const HttpResponse r = call(req, err, displayName(path), repo, cancel);
    if (!err->ok())
        return {};
    if (info) {
        info->commit = QString::fromLatin1(r.firstHeaders.value("x-repo-commit", r.header("x-repo-commit")));
        info->etag = unquote(r.firstHeaders.value("x-linked-etag", r.header("etag")));
        info->size = r.body.size();
    }
    return r.body;
}

DownloadResult HubClient::download(const QString &repo, const QString &revision, const QString &path,
                                   const QString &destination, HubError *err, const std::atomic_bool *cancel,
                                   const std::function<void(qint64, qint64)> &progress) const
{
    DownloadResult res;
    if (!checkRepoId(repo, err))
        return res;
    if (!isSafeRepoPath(path)) {
        *err = {HubError::Kind::UnsafePath, 0, HubText::tr("\"%1\" is not a path inside a repo.").arg(displayName(path))};
        return res;
    }
    const QString part = destination + QStringLiteral(".ingot-part");
    QFile out(part);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *err = {HubError::Kind::Storage, 0, HubText::tr("Cannot write %1: %2").arg(displayName(part), out.errorString())};
        return res;
    }
    QCryptographicHash sha(QCryptographicHash::Sha256);
    qint64 written = 0;
    HttpRequest req = request("GET", m_endpoint + QLatin1Char('/') + repo + QStringLiteral("/resolve/") +
                                         QString::fromLatin1(QUrl::toPercentEncoding(revision.isEmpty() ? QStringLiteral("main") : revision)) +
                                         QLatin1Char('/') + encodePathSegments(path));
    req.headers.clear();
    req.sameOriginRedirects = false;  // resolve sends LFS files to the CDN
    req.timeoutMs = 0;                // large files: only the low-speed rule, no time limit
    req.timeoutAttempts = 2;          // a stall mid-download may be a glitch: tried once more, then it fails
    req.sink = [&](const char *data, size_t size, bool restart) {
        if (restart) {
            out.resize(0);
            out.seek(0);
            sha.reset();
            written = 0;
        }
        if (out.write(data, qint64(size)) != qint64(size))
            return false;
        sha.addData(QByteArrayView(data, qsizetype(size)));
        written += qint64(size);
        if (progress)
            progress(written, -1);
        return true;
    };
    const HttpResponse r = call(req, err, displayName(path), repo, cancel);
    auto fail = [&](HubError e) {
        out.close();
        QFile::remove(part);
        *err = e;
        return DownloadResult();
    };
    if (!err->ok()) {
        if (err->kind == HubError::Kind::Storage)
            err->message = HubText::tr("Could not write %1 (disk full?): %2").arg(displayName(part), out.errorString());
        return fail(*err);
    }
    if (!out.flush() || ::fsync(out.handle()) != 0)
        return fail({HubError::Kind::Storage, 0, HubText::tr("Could not write %1: %2").arg(displayName(part), out.errorString())});
    out.close();
    const QByteArray linkedEtag = r.firstHeaders.value("x-linked-etag");
    const qint64 expected = r.firstHeaders.contains("x-linked-size") ? r.firstHeaders.value("x-linked-size").toLongLong()
                                                                     : r.header("content-length").toLongLong();
    if (r.firstHeaders.contains("x-linked-size") || r.headers.contains("content-length")) {
        if (expected != written)
            return fail({HubError::Kind::BadResponse, r.status,
                         HubText::tr("%1 arrived incomplete (%2 of %3 bytes).").arg(displayName(path)).arg(written).arg(expected)});
    }
    const QString lfsOid = unquote(linkedEtag);
    if (lfsOid.size() == 64 && lfsOid != QString::fromLatin1(sha.result().toHex()))
        return fail({HubError::Kind::BadResponse, r.status, HubText::tr("%1 does not match its sha256 checksum.").arg(displayName(path))});
    if (std::rename(QFile::encodeName(part).constData(), QFile::encodeName(destination).constData()) != 0)
        return fail({HubError::Kind::Storage, 0, HubText::tr("Could not move the download into place at %1.").arg(displayName(destination))});
    res.commit = QString::fromLatin1(r.firstHeaders.value("x-repo-commit", r.header("x-repo-commit")));
    res.etag = lfsOid.isEmpty() ? unquote(r.header("etag")) : lfsOid;
    res.size = written;
    return res;
}

namespace {
// "bytes A-B/T" -> A (-1 when malformed).
qint64 contentRangeStart(const QByteArray &v)
{
    const QByteArray t = v.trimmed();
    if (!t.startsWith("bytes "))
        return -1;
    bool ok = false;
    const qint64 a = t.mid(6, t.indexOf('-') - 6).toLongLong(&ok);
    return ok ? a : -1;
}

// The part file of a resumable download and the digest of what it holds: every byte in it is hashed.
// sha256 through the CPU's SHA extensions (QCryptographicHash's was the bottleneck of a pull); git blob ids
// (small, regular files) through Qt's SHA-1.
class PartFile final
{
public:
    PartFile(int fd, qint64 expectedSize, HubClient::Digest digest) : m_fd(fd), m_expected(expectedSize), m_digest(digest) {}

    qint64 pos() const { return m_pos; }
    int fd() const { return m_fd; }
    void add(const char *data, qsizetype size)
    {
        if (m_digest == HubClient::Digest::Sha256)
            m_sha256.addData(data, size);
        else
            m_sha1.addData(QByteArrayView(data, size));
        m_pos += size;
    }
    // Starts the disk writing what arrived, 8 MiB at a time, without waiting for it: the fsync before the file
    // counts as there then finds little left to write, instead of a whole file's worth.
    void startWriteback()
    {
        if (m_pos - m_writeback < kWritebackStep)
            return;
        ::sync_file_range(m_fd, m_writeback, m_pos - m_writeback, SYNC_FILE_RANGE_WRITE);
        m_writeback = m_pos;
    }
    // Cuts the part to `size` and hashes what stays (read back once: a resume, or a retry that starts over). False
    // with errno set.
    bool restartAt(qint64 size)
    {
        if (::ftruncate(m_fd, size) != 0 || ::lseek(m_fd, size, SEEK_SET) != size)
            return false;
        m_sha256.reset();
        m_sha1.reset();
        m_pos = 0;
        m_writeback = size;
        if (m_digest == HubClient::Digest::GitBlobSha1) {
            QByteArray header = QByteArray("blob ") + QByteArray::number(qMax<qint64>(0, m_expected));
            header.append('\0');
            m_sha1.addData(header);
        }
        QByteArray buf(1 << 20, Qt::Uninitialized);
        for (qint64 at = 0; at < size;) {
            const ssize_t n = ::pread(m_fd, buf.data(), size_t(qMin<qint64>(buf.size(), size - at)), at);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            add(buf.constData(), n);
            at += n;
        }
        m_pos = size;
        return true;
    }
    QString hex()
    {
        return QString::fromLatin1((m_digest == HubClient::Digest::Sha256 ? m_sha256.result() : m_sha1.result()).toHex());
    }

private:
    int m_fd;
    qint64 m_expected;
    HubClient::Digest m_digest;
    Sha256 m_sha256;
    QCryptographicHash m_sha1{QCryptographicHash::Sha1};
    qint64 m_pos = 0;  // bytes in the part file, all of them hashed
    qint64 m_writeback = 0;  // where the writeback asked for so far ends
    static constexpr qint64 kWritebackStep = 8 << 20;
};

// Sets `req` up to continue the part file from `from`: the body goes into `part` (hashed), a 206 for another range
// is refused (*badRange), a 200 restarts the part; *ioErr is errno when the part could not be written.
void streamIntoPart(HttpRequest &req, PartFile &part, qint64 from, qint64 expectedSize,
                    const std::function<void(qint64, qint64)> &progress, int *ioErr, bool *badRange, qint64 *resumedFrom)
{
    req.sameOriginRedirects = false;  // resolve sends LFS files to the CDN (the token stays with the endpoint)
    req.timeoutMs = 0;                // large files: only the low-speed rule, no time limit
    req.timeoutAttempts = 2;
    // The request outlives this function: the lambdas hold copies and pointers, never references to its locals.
    req.onBodyStart = [&part, from, badRange, ioErr, resumedFrom](int status, const QHash<QByteArray, QByteArray> &headers) {
        qint64 start = 0;
        if (status == 206) {
            start = contentRangeStart(headers.value("content-range"));
            if (start != from) {  // not the range asked for: nothing of it is taken
                *badRange = true;
                return false;
            }
        }
        if (start != part.pos() && !part.restartAt(start)) {
            *ioErr = errno;
            return false;
        }
        *resumedFrom = start;
        return true;
    };
    req.sink = [&part, expectedSize, progress, ioErr](const char *data, size_t size, bool) {
        if (!writeAll(part.fd(), data, size)) {
            *ioErr = errno;
            return false;
        }
        part.add(data, qsizetype(size));
        part.startWriteback();
        if (progress)
            progress(part.pos(), expectedSize);
        return true;
    };
}

// The answer to a resumed download checked against the size expected (or announced) and its result filled in.
bool finishResume(const HttpResponse &r, PartFile &part, int partFd, qint64 expectedSize, const QString &shown,
                  HubClient::ResumeResult &res, HubError *err)
{
    const QHash<QByteArray, QByteArray> &first = r.firstHeaders.isEmpty() ? r.headers : r.firstHeaders;
    const qint64 announced = first.contains("x-linked-size") ? first.value("x-linked-size").toLongLong() : -1;
    const qint64 want = expectedSize >= 0 ? expectedSize : announced;
    if (want >= 0 && part.pos() != want) {
        ::ftruncate(partFd, 0);  // not the file: nothing of it to resume from
        *err = {HubError::Kind::BadResponse, r.status,
                HubText::tr("%1 arrived with %2 bytes instead of %3.").arg(shown).arg(part.pos()).arg(want)};
        return false;
    }
    res.info.commit = QString::fromLatin1(first.value("x-repo-commit"));
    const QString linked = unquote(first.value("x-linked-etag"));
    res.info.etag = linked.isEmpty() ? unquote(r.header("etag")) : linked;
    res.info.size = part.pos();
    res.digest = part.hex();
    return true;
}
}  // namespace

HubClient::ResumeResult HubClient::resumeDownload(const QString &repo, const QString &revision, const QString &path,
                                                  int partFd, qint64 expectedSize, Digest digest, HubError *err,
                                                  StopFlags cancel,
                                                  const std::function<void(qint64, qint64)> &progress) const
{
    ResumeResult res;
    *err = HubError();
    if (!checkRepoId(repo, err))
        return res;
    if (!isSafeRepoPath(path)) {
        *err = {HubError::Kind::UnsafePath, 0, HubText::tr("\"%1\" is not a path inside a repo.").arg(displayName(path))};
        return res;
    }
    const QString shown = displayName(path);
    auto storage = [&](int e) {
        *err = {HubError::Kind::Storage, 0, HubText::tr("Could not write the download of %1: %2.")
                                                .arg(shown, QString::fromLocal8Bit(std::strerror(e)))};
        return res;
    };
    struct stat st;
    if (::fstat(partFd, &st) != 0)
        return storage(errno);
    PartFile part(partFd, expectedSize, digest);
    qint64 from = st.st_size;
    if (expectedSize >= 0 && from > expectedSize)
        from = 0;  // longer than the file: not a prefix of it
    if (!part.restartAt(from))
        return storage(errno);
    const QString url = m_endpoint + QLatin1Char('/') + repo + QStringLiteral("/resolve/") +
                        QString::fromLatin1(QUrl::toPercentEncoding(revision.isEmpty() ? QStringLiteral("main") : revision)) +
                        QLatin1Char('/') + encodePathSegments(path);
    HttpResponse r;
    bool complete = expectedSize >= 0 && from == expectedSize;
    for (int attempt = 0; !complete && attempt < 2; ++attempt) {
        HttpRequest req = request("GET", url);
        req.headers.clear();
        if (from > 0)
            req.headers << qMakePair(QByteArray("Range"), QByteArray("bytes=") + QByteArray::number(from) + '-');
        int ioErr = 0;
        bool badRange = false;
        streamIntoPart(req, part, from, expectedSize, progress, &ioErr, &badRange, &res.resumedFrom);
        r = call(req, err, shown, repo, cancel);
        if (ioErr != 0)
            return storage(ioErr);
        if (badRange) {
            *err = {HubError::Kind::BadResponse, 206, HubText::tr("The Hub answered a different range of %1 than the one asked for.").arg(shown)};
            return res;
        }
        if (err->kind != HubError::Kind::None && err->status == 416 && from > 0) {
            // The part is not a prefix the server can continue: start over once.
            from = 0;
            if (!part.restartAt(0))
                return storage(errno);
            continue;
        }
        if (!err->ok())
            return res;
        if (r.status == 200 && part.pos() == from && from > 0) {
            // A full (empty) answer that never reached the sink: the file is that.
            if (!part.restartAt(0))
                return storage(errno);
            res.resumedFrom = 0;
        }
        complete = true;
    }
    if (from == expectedSize && expectedSize >= 0 && r.status == 0)
        res.resumedFrom = from;  // nothing asked: the part was whole already
    finishResume(r, part, partFd, expectedSize, shown, res, err);
    return res;
}

QString HubClient::createRepo(const QString &repoId, bool isPublic, HubError *err, const std::atomic_bool *cancel) const
{
    if (!checkRepoId(repoId, err))
        return {};
    const QString org = repoId.section(QLatin1Char('/'), 0, 0), name = repoId.section(QLatin1Char('/'), 1);
    const json body = {{"name", name.toStdString()}, {"organization", org.toStdString()}, {"type", "model"},
                       {"visibility", isPublic ? "public" : "private"}, {"private", !isPublic}};
    HttpRequest req = request("POST", m_endpoint + QStringLiteral("/api/repos/create"));
    req.headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/json"));
    req.body = QByteArray::fromStdString(body.dump());
    const HttpResponse r = call(req, err, repoId, QString(), cancel);
    if (!err->ok())
        return {};
    json j;
    if (!parseJson(r, &j, err, QStringLiteral("repos/create")))
        return {};
    return j.is_object() ? qs(j, "url") : QString();
}

}  // namespace ingot
