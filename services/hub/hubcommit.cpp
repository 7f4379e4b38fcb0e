#include "services/hub/hubcommit.h"

#include "services/util/sha256.h"
#include "services/hub/jsonfield.h"
#include "services/hub/repoid.h"

#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/parallel.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <unistd.h>
#include <mutex>

namespace ingot {

using nlohmann::json;

// The way into HubClient's request() and call(): one sender, one error mapping for every Hub call.
struct HubCommitAccess {
    static HttpRequest request(const HubClient &hub, const QByteArray &method, const QString &url)
    {
        return hub.request(method, url);
    }
    static HttpResponse call(const HubClient &hub, const HttpRequest &req, HubError *err, const QString &what,
                             const QString &repo, const std::atomic_bool *cancel)
    {
        return hub.call(req, err, what, repo, cancel);
    }
};

namespace {
struct CommitText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubCommit)
};

constexpr int kPreuploadChunk = 256;  // huggingface_hub's chunk
constexpr int kBatchChunk = 100;

QString revPart(const QString &revision)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(revision.isEmpty() ? QStringLiteral("main") : revision));
}

QString apiRepo(const HubClient &hub, const QString &repo)
{
    return hub.endpoint() + QStringLiteral("/api/models/") + repo;
}

bool parseBody(const HttpResponse &r, json *out, HubError *err, const QString &what)
{
    try {
        *out = json::parse(r.body.constData(), r.body.constData() + r.body.size());
        if (out->is_object())
            return true;
    } catch (const json::exception &) {
    }
    *err = {HubError::Kind::BadResponse, r.status, CommitText::tr("The Hub sent malformed JSON for %1.").arg(what)};
    return false;
}

bool checkRepo(const QString &repo, HubError *err)
{
    if (isValidRepoId(repo))
        return true;
    *err = {HubError::Kind::InvalidArgument, 0, CommitText::tr("\"%1\" is not a repo id: use org/name.").arg(displayName(repo))};
    return false;
}

// Up to `n` bytes of the file open at `fd` from `offset`; fewer only at its end. False with errno set on an error.
bool readAt(int fd, qint64 offset, qint64 n, QByteArray *out)
{
    out->resize(n);
    qint64 got = 0;
    while (got < n) {
        const ssize_t r = ::pread(fd, out->data() + got, size_t(n - got), off_t(offset + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            out->clear();
            return false;
        }
        if (r == 0)
            break;
        got += r;
    }
    out->resize(got);
    return true;
}

// The first bytes of a file, for preupload's "sample".
QByteArray sampleOf(int fd, QString *error)
{
    QByteArray data;
    if (fd < 0)
        errno = EBADF;
    if (fd < 0 || !readAt(fd, 0, 512, &data))
        *error = describeErrno(errno);
    return data;
}

// A file's bytes [offset, offset+length) as an HttpRequest source (pread on the caller's descriptor).
struct FileSlice {
    int fd = -1;
    qint64 offset = 0;
    qint64 length = 0;
    std::function<void(qint64)> sent;  // bytes of this slice sent so far

    void attach(HttpRequest *req) const
    {
        auto done = std::make_shared<qint64>(0);
        const FileSlice self = *this;
        req->sourceSize = length;
        req->source = [done, self](char *buf, size_t max, bool restart) -> qint64 {
            if (restart)
                *done = 0;
            const qint64 want = std::min<qint64>(qint64(max), self.length - *done);
            if (want <= 0)
                return 0;
            ssize_t got = -1;
            do
                got = ::pread(self.fd, buf, size_t(want), off_t(self.offset + *done));
            while (got < 0 && errno == EINTR);
            if (got <= 0)
                return -1;  // shorter than planned: the file changed
            *done += got;
            if (self.sent)
                self.sent(*done);
            return got;
        };
    }
};

HttpRequest uploadRequest(const HubClient &hub, const QByteArray &method, const QString &url)
{
    HttpRequest req = HubCommitAccess::request(hub, method, url);
    req.headers.clear();
    // The href may be a storage host (S3 on the real Hub): the token goes only to the endpoint's origin (HttpClient
    // holds that rule), and the storage host may redirect within itself.
    req.sameOriginRedirects = false;
    req.timeoutMs = 0;  // large bodies: the low-speed rule alone
    req.timeoutAttempts = 2;
    return req;
}

// One LFS object: basic (one PUT) or multipart (a PUT per part, then the completion), then verify.
bool uploadObject(const HubClient &hub, const QString &repo, const CommitFile &f, const json &actions,
                  const std::function<void(qint64)> &sent, HubError *err, const std::atomic_bool *cancel)
{
    const json upload = actions.value("upload", json::object());
    const QString href = jsonString(upload, "href");
    if (href.isEmpty()) {
        *err = {HubError::Kind::BadResponse, 0, CommitText::tr("The Hub gave no upload address for %1.").arg(displayName(f.path))};
        return false;
    }
    const json header = upload.value("header", json::object()).is_object() ? upload.value("header", json::object()) : json::object();
    const QString what = displayName(f.path);
    if (header.contains("chunk_size")) {
        const qint64 chunk = header["chunk_size"].is_string() ? QString::fromStdString(header["chunk_size"].get<std::string>()).toLongLong()
                                                               : header["chunk_size"].is_number_integer() ? header["chunk_size"].get<qint64>() : 0;
        QVector<QPair<int, QString>> parts;
        for (auto it = header.begin(); it != header.end(); ++it) {
            const QString key = QString::fromStdString(it.key());
            bool isNum = false;
            const int n = key.toInt(&isNum);
            if (isNum && n > 0 && it->is_string())
                parts.append({n, QString::fromStdString(it->get<std::string>())});
        }
        std::sort(parts.begin(), parts.end());
        if (chunk <= 0 || parts.size() != (f.size + chunk - 1) / chunk) {
            *err = {HubError::Kind::BadResponse, 0, CommitText::tr("The Hub's multipart upload plan for %1 does not fit its size.").arg(what)};
            return false;
        }
        json complete = {{"oid", f.sha256.toStdString()}, {"parts", json::array()}};
        for (const auto &[n, url] : parts) {
            const qint64 offset = qint64(n - 1) * chunk;
            HttpRequest req = uploadRequest(hub, "PUT", url);
            FileSlice{f.fd, offset, std::min(chunk, f.size - offset), [&, offset](qint64 d) { sent(offset + d); }}.attach(&req);
            const HttpResponse r = HubCommitAccess::call(hub, req, err, what, repo, cancel);
            if (!err->ok())
                return false;
            const QByteArray etag = r.header("etag");
            if (etag.isEmpty()) {
                *err = {HubError::Kind::BadResponse, r.status, CommitText::tr("The storage gave no ETag for part %1 of %2.").arg(n).arg(what)};
                return false;
            }
            complete["parts"].push_back({{"partNumber", n}, {"etag", etag.toStdString()}});
        }
        HttpRequest req = HubCommitAccess::request(hub, "POST", href);
        req.headers = {{"Accept", "application/vnd.git-lfs+json"}, {"Content-Type", "application/vnd.git-lfs+json"}};
        req.sameOriginRedirects = false;
        req.body = QByteArray::fromStdString(complete.dump());
        HubCommitAccess::call(hub, req, err, what, repo, cancel);
        if (!err->ok())
            return false;
    } else {
        HttpRequest req = uploadRequest(hub, "PUT", href);
        for (auto it = header.begin(); it != header.end(); ++it)
            if (it->is_string())
                req.headers << qMakePair(QByteArray::fromStdString(it.key()), QByteArray::fromStdString(it->get<std::string>()));
        FileSlice{f.fd, 0, f.size, sent}.attach(&req);
        HubCommitAccess::call(hub, req, err, what, repo, cancel);
        if (!err->ok())
            return false;
    }
    if (const auto v = actions.find("verify"); v != actions.end() && v->is_object()) {
        HttpRequest req = HubCommitAccess::request(hub, "POST", jsonString(*v, "href"));
        req.headers = {{"Accept", "application/vnd.git-lfs+json"}, {"Content-Type", "application/vnd.git-lfs+json"}};
        req.body = QByteArray::fromStdString(json({{"oid", f.sha256.toStdString()}, {"size", f.size}}).dump());
        HubCommitAccess::call(hub, req, err, CommitText::tr("the check of %1").arg(what), repo, cancel);
        if (!err->ok())
            return false;
    }
    return true;
}
}  // namespace

bool checkWriteAccess(const HubClient &hub, const QString &repo, HubError *err, const std::atomic_bool *cancel)
{
    if (!checkRepo(repo, err))
        return false;
    const WhoAmI me = hub.whoami(err, cancel);
    if (!err->ok())
        return false;
    const QString ns = repo.section(QLatin1Char('/'), 0, 0);
    if (me.role == QLatin1String("read")) {
        *err = {HubError::Kind::Forbidden, 0,
                CommitText::tr("The token of %1 is read-only: pushing to %2 needs a token with write access "
                               "(create one in your Hub settings, then log in with it).").arg(displayName(me.name), repo)};
        return false;
    }
    if (me.role == QLatin1String("write") && ns != me.name && !me.orgs.contains(ns)) {
        *err = {HubError::Kind::Forbidden, 0,
                CommitText::tr("%1 cannot write to %2: the repo is neither in your namespace nor in one of your "
                               "organizations.").arg(displayName(me.name), repo)};
        return false;
    }
    if (me.role == QLatin1String("write"))
        return true;
    // The role does not tell (fine-grained tokens): ask the Hub with a preupload of nothing.
    QVector<CommitFile> none;
    HttpRequest req = HubCommitAccess::request(hub, "POST", apiRepo(hub, repo) + QStringLiteral("/preupload/main"));
    req.headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/json"));
    req.body = R"({"files":[]})";
    HubCommitAccess::call(hub, req, err, CommitText::tr("the write check"), repo, cancel);
    if (err->kind == HubError::Kind::Forbidden || err->kind == HubError::Kind::Unauthorized)
        err->message = CommitText::tr("Your token cannot write to %1 (%2). Use a token with write access to it.")
                           .arg(repo, err->message);
    return err->ok();
}

bool preupload(const HubClient &hub, const QString &repo, const QString &revision, QVector<CommitFile> &files,
               HubError *err, const std::atomic_bool *cancel)
{
    *err = HubError();
    if (!checkRepo(repo, err))
        return false;
    for (int start = 0; start < files.size(); start += kPreuploadChunk) {
        const int end = std::min<int>(files.size(), start + kPreuploadChunk);
        json body = {{"files", json::array()}};
        QHash<QString, int> at;
        for (int i = start; i < end; ++i) {
            QString why;
            const QByteArray sample = sampleOf(files[i].fd, &why);
            if (!why.isEmpty()) {
                *err = {HubError::Kind::Storage, 0, CommitText::tr("Cannot read %1: %2").arg(displayName(files[i].localPath), why)};
                return false;
            }
            body["files"].push_back({{"path", files[i].path.toStdString()}, {"sample", sample.toBase64().toStdString()},
                                     {"size", files[i].size}});
            at.insert(files[i].path, i);
        }
        HttpRequest req = HubCommitAccess::request(hub, "POST", apiRepo(hub, repo) + QStringLiteral("/preupload/") + revPart(revision));
        req.headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/json"));
        req.body = QByteArray::fromStdString(body.dump());
        const HttpResponse r = HubCommitAccess::call(hub, req, err, CommitText::tr("the upload plan"), repo, cancel);
        json j;
        if (!err->ok() || !parseBody(r, &j, err, QStringLiteral("preupload")))
            return false;
        const json list = j.value("files", json::array());
        int answered = 0;
        for (const json &f : list.is_array() ? list : json::array()) {
            if (!f.is_object())
                continue;
            const auto it = at.constFind(jsonString(f, "path"));
            if (it == at.constEnd())
                continue;
            files[*it].lfs = jsonString(f, "uploadMode") == QLatin1String("lfs");
            files[*it].ignore = f.value("shouldIgnore", json(false)) == true;
            ++answered;
        }
        if (answered != end - start) {
            *err = {HubError::Kind::BadResponse, r.status, CommitText::tr("The Hub's upload plan left out %n file(s).", nullptr, end - start - answered)};
            return false;
        }
    }
    return true;
}

QString sha256OfFile(const QString &path, QString *error, const std::atomic_bool *cancel)
{
    return Sha256::hexOfFile(path, error, cancel);
}

QString sha256OfFd(int fd, QString *error, const std::atomic_bool *cancel)
{
    Sha256 h;
    QByteArray buf;
    for (qint64 at = 0;; at += buf.size()) {
        if (cancel && cancel->load()) {
            *error = CommitText::tr("Cancelled.");
            return {};
        }
        if (fd < 0)
            errno = EBADF;
        if (fd < 0 || !readAt(fd, at, 4 << 20, &buf)) {
            *error = describeErrno(errno);
            return {};
        }
        if (buf.isEmpty())
            break;
        h.addData(buf);
    }
    return QString::fromLatin1(h.result().toHex());
}

bool uploadLfsFiles(const HubClient &hub, const QString &repo, const QString &revision, QVector<CommitFile> &files,
                    int parallel, const std::function<void(int, qint64)> &progress, LfsUploadStats *stats,
                    HubError *err, const std::atomic_bool *cancel)
{
    *err = HubError();
    if (!checkRepo(repo, err))
        return false;
    QVector<int> lfs;
    for (int i = 0; i < files.size(); ++i) {
        if (!files[i].lfs || files[i].ignore)
            continue;
        if (files[i].sha256.isEmpty()) {
            QString why;
            files[i].sha256 = sha256OfFd(files[i].fd, &why, cancel);
            if (files[i].sha256.isEmpty()) {
                *err = {cancel && cancel->load() ? HubError::Kind::Cancelled : HubError::Kind::Storage, 0,
                        CommitText::tr("Cannot read %1: %2").arg(displayName(files[i].localPath), why)};
                return false;
            }
        }
        lfs << i;
    }
    for (int start = 0; start < lfs.size(); start += kBatchChunk) {
        const QVector<int> chunk = lfs.mid(start, kBatchChunk);
        json body = {{"operation", "upload"}, {"transfers", {"basic", "multipart"}}, {"hash_algo", "sha256"},
                     {"ref", {{"name", (revision.isEmpty() ? QStringLiteral("main") : revision).toStdString()}}},
                     {"objects", json::array()}};
        QHash<QString, int> byOid;  // the same content twice is uploaded once
        for (int i : chunk) {
            if (byOid.contains(files[i].sha256))
                continue;
            byOid.insert(files[i].sha256, i);
            body["objects"].push_back({{"oid", files[i].sha256.toStdString()}, {"size", files[i].size}});
        }
        HttpRequest req = HubCommitAccess::request(hub, "POST", hub.endpoint() + QLatin1Char('/') + repo + QStringLiteral(".git/info/lfs/objects/batch"));
        req.headers = {{"Accept", "application/vnd.git-lfs+json"}, {"Content-Type", "application/vnd.git-lfs+json"}};
        req.body = QByteArray::fromStdString(body.dump());
        const HttpResponse r = HubCommitAccess::call(hub, req, err, CommitText::tr("the LFS upload plan"), repo, cancel);
        json j;
        if (!err->ok() || !parseBody(r, &j, err, QStringLiteral("LFS batch")))
            return false;
        struct Job { int file; json actions; };
        QVector<Job> jobs;
        const json objects = j.value("objects", json::array());
        for (const json &o : objects.is_array() ? objects : json::array()) {
            if (!o.is_object())
                continue;
            const auto it = byOid.constFind(jsonString(o, "oid"));
            if (it == byOid.constEnd())
                continue;
            if (const auto e = o.find("error"); e != o.end() && e->is_object()) {
                *err = {HubError::Kind::BadResponse, r.status, CommitText::tr("The Hub refused the upload of %1: %2")
                                                                  .arg(displayName(files[*it].path), displayName(jsonString(*e, "message")))};
                return false;
            }
            const auto a = o.find("actions");
            if (a == o.end() || !a->is_object() || !a->contains("upload")) {
                if (stats)
                    ++stats->present;
                if (progress)
                    progress(*it, files[*it].size);
                continue;
            }
            jobs.append({*it, *a});
        }
        std::mutex m;
        HubError first;
        // The first failure stops the rest: uploads under way finish, none more starts.
        parallelFor(int(jobs.size()), std::max(1, parallel), nullptr, [&](int k) {
            const CommitFile &f = files[jobs[k].file];
            HubError e;
            const int index = jobs[k].file;
            const bool ok = uploadObject(hub, repo, f, jobs[k].actions, [&](qint64 d) { if (progress) progress(index, d); }, &e, cancel);
            std::lock_guard lock(m);
            if (!ok && first.ok())
                first = e;
            if (ok && stats) {
                ++stats->uploaded;
                stats->bytesSent += f.size;
            }
            return ok;
        }).rethrowFirst();
        if (!first.ok()) {
            *err = first;
            return false;
        }
    }
    return true;
}

QString createCommit(const HubClient &hub, const QString &repo, const QString &revision,
                     const QVector<CommitFile> &files, const QString &summary, const QString &description,
                     const QString &parentCommit, HubError *err, const std::atomic_bool *cancel)
{
    *err = HubError();
    if (!checkRepo(repo, err))
        return {};
    json header = {{"summary", summary.toStdString()}, {"description", description.toStdString()}};
    if (!parentCommit.isEmpty())
        header["parentCommit"] = parentCommit.toStdString();
    QByteArray body = QByteArray::fromStdString(json({{"key", "header"}, {"value", header}}).dump()) + '\n';
    for (const CommitFile &f : files) {
        if (f.ignore)
            continue;
        json line;
        if (f.lfs) {
            line = {{"key", "lfsFile"}, {"value", {{"path", f.path.toStdString()}, {"algo", "sha256"},
                                                  {"oid", f.sha256.toStdString()}, {"size", f.size}}}};
        } else {
            // From the descriptor the caller checked: never the path again (it may be a link by now).
            QByteArray data;
            const bool read = f.fd >= 0 && readAt(f.fd, 0, f.size + 1, &data);
            if (!read || data.size() != f.size) {
                *err = {HubError::Kind::Storage, 0, read ? CommitText::tr("%1 changed while it was being pushed (its size is no longer %2 bytes).").arg(displayName(f.localPath)).arg(f.size)
                                                         : CommitText::tr("Cannot read %1: %2").arg(displayName(f.localPath), describeErrno(f.fd < 0 ? EBADF : errno))};
                return {};
            }
            line = {{"key", "file"}, {"value", {{"path", f.path.toStdString()}, {"content", data.toBase64().toStdString()},
                                               {"encoding", "base64"}}}};
        }
        body += QByteArray::fromStdString(line.dump()) + '\n';
    }
    HttpRequest req = HubCommitAccess::request(hub, "POST", apiRepo(hub, repo) + QStringLiteral("/commit/") + revPart(revision));
    req.headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/x-ndjson"));
    req.body = body;
    req.timeoutMs = 300000;  // the Hub checks every LFS object of the commit before it answers
    const HttpResponse r = HubCommitAccess::call(hub, req, err, CommitText::tr("the commit"), repo, cancel);
    json j;
    if (!err->ok() || !parseBody(r, &j, err, QStringLiteral("commit")))
        return {};
    const QString oid = jsonString(j, "commitOid");
    if (oid.isEmpty())
        *err = {HubError::Kind::BadResponse, r.status, CommitText::tr("The Hub's answer to the commit has no commit id.")};
    return oid;
}

}  // namespace ingot
