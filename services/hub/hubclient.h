// The Hugging Face Hub API as Ingot uses it (docs/formats.md, "Hub HTTP API"): whoami, repo info, tree listing
// (paginated), paths-info, downloads through resolve, repo creation. Blocking calls meant for worker threads; each
// takes a cancel flag. A repo id that is not "org/name" is an InvalidArgument error, and nothing is sent.
#pragma once

#include "services/hub/httpclient.h"

#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

struct HubError {
    enum class Kind {
        None, Offline, Network, Timeout, Cancelled, Unauthorized, NotFound, RevisionNotFound, EntryNotFound, Gated,
        Forbidden, RateLimited, Conflict, PreconditionFailed, Server, BadResponse, TooLarge, UnsafePath, Storage,
        InvalidArgument,  // what was asked for is malformed (a repo id, a model id): nothing was sent
        Incomplete,       // part of what was asked for could not be read; the message names what
    };
    Kind kind = Kind::None;
    int status = 0;
    QString message;  // what happened, where, and what to do next
    bool ok() const { return kind == Kind::None; }
};

struct WhoAmI {
    QString name;
    QString fullname;
    QStringList orgs;
    QString role;  // "read", "write", "fineGrained" ...
};

struct RepoInfo {
    QString id;
    QString sha;
    bool isPrivate = false;
    bool gated = false;
    int files = 0;
};

struct TreeEntry {
    bool isDir = false;
    QString path;
    qint64 size = 0;
    QString oid;     // git object id
    QString lfsOid;  // sha256 for LFS files, else empty
};

// The most one tree listing may hold. A Hub that keeps sending pages (a Link chain that never ends) fails with
// TooLarge instead of filling memory; the Hub's own pages hold 1000 entries.
struct ListingLimits {
    int maxPages = 5000;
    int maxEntries = 500000;
};

struct DownloadResult {
    QString commit;  // X-Repo-Commit
    QString etag;    // X-Linked-Etag for LFS files, else ETag (quotes removed)
    qint64 size = 0;
};

class HubClient final
{
public:
    HubClient(QString endpoint, QString token, bool offline = false);

    const QString &endpoint() const { return m_endpoint; }
    bool hasToken() const { return !m_token.isEmpty(); }
    bool isOffline() const { return m_http.isOffline(); }
    void setRetryPolicy(const RetryPolicy &p) { m_http.setRetryPolicy(p); }
    void setListingLimits(const ListingLimits &l) { m_limits = l; }
    const ListingLimits &listingLimits() const { return m_limits; }

    WhoAmI whoami(HubError *err, const std::atomic_bool *cancel = nullptr) const;
    RepoInfo repoInfo(const QString &repo, const QString &revision, HubError *err,
                      const std::atomic_bool *cancel = nullptr) const;
    // Lists `path` ("" for the root), following the Link header page by page. `onPage` (optional) sees each
    // page as it arrives. Every path is checked before it is returned: ".." or a leading "/" is an error. A next
    // page on another origin than the endpoint's, a page asked for twice, or more than listingLimits() is an
    // error, and nothing of the page that broke the rule is taken.
    QVector<TreeEntry> listTree(const QString &repo, const QString &revision, const QString &path, bool recursive,
                                HubError *err, const std::atomic_bool *cancel = nullptr,
                                const std::function<void(const QVector<TreeEntry> &)> &onPage = {}) const;
    QVector<TreeEntry> pathsInfo(const QString &repo, const QString &revision, const QStringList &paths,
                                 HubError *err, const std::atomic_bool *cancel = nullptr) const;
    // A small file into memory (registry entries, configs).
    QByteArray readFile(const QString &repo, const QString &revision, const QString &path, qint64 maxBytes,
                        HubError *err, DownloadResult *info = nullptr, const std::atomic_bool *cancel = nullptr) const;
    // A file of any size to `destination`, written to a temporary file beside it and renamed when complete and
    // checked (size, and sha256 for LFS files). An existing destination is replaced only then.
    DownloadResult download(const QString &repo, const QString &revision, const QString &path,
                            const QString &destination, HubError *err, const std::atomic_bool *cancel = nullptr,
                            const std::function<void(qint64 done, qint64 total)> &progress = {}) const;
    // A resumable download, for transfers: continues `path` into the partial file open at `partFd` (read-write, not
    // shared) from its current size with "Range: bytes=N-". A 206 appends; a 200 (the server ignored the range)
    // starts the file over; a 416 starts over once. With expectedSize >= 0 a part that long is not asked for again
    // and a longer one starts over. The digest of the whole file (the bytes kept included, read once) is computed
    // as the bytes arrive, so the caller verifies without reading the file again. LFS files are fetched from where
    // resolve redirects (a CDN), without the token. On failure or cancel the part keeps what arrived, to resume.
    enum class Digest { Sha256, GitBlobSha1 };  // GitBlobSha1 ("blob <size>\0" + data) needs expectedSize
    struct ResumeResult {
        DownloadResult info;     // commit, etag (X-Linked-Etag for LFS, else ETag), size of the whole file
        qint64 resumedFrom = 0;  // bytes of the part that were kept (0: from the start)
        QString digest;          // hex, of the whole file
    };
    ResumeResult resumeDownload(const QString &repo, const QString &revision, const QString &path, int partFd,
                                qint64 expectedSize, Digest digest, HubError *err, StopFlags cancel = {},
                                const std::function<void(qint64 done, qint64 total)> &progress = {}) const;
    // Creates a model repo (private unless `isPublic`). Returns its URL; Conflict when it exists.
    QString createRepo(const QString &repoId, bool isPublic, HubError *err,
                       const std::atomic_bool *cancel = nullptr) const;

    static bool isSafeRepoPath(const QString &path);
    friend struct HubCommitAccess;  // the commit API (hubcommit.cpp) sends through request() and call()

private:
    HttpRequest request(const QByteArray &method, const QString &url) const;
    HttpResponse call(const HttpRequest &req, HubError *err, const QString &what, const QString &repo,
                      StopFlags cancel) const;
    QString apiRepoUrl(const QString &repo) const;

    QString m_endpoint;
    QString m_token;
    HttpClient m_http;
    ListingLimits m_limits;
};

QString encodePathSegments(const QString &path);  // "a b/c+d" -> "a%20b/c%2Bd"

}  // namespace ingot
