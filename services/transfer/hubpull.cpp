#include "services/transfer/hubpull.h"

#include "services/transfer/entrystaging.h"
#include "services/util/atomicfile.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/parallel.h"
#include "services/util/relpath.h"
#include "services/util/sha256.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct PullText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubPull)
};

const QLatin1String kPart(".part");
// Entries listed one by one up to this many per compiler version; more: one listing of the version.
constexpr int kPerEntryListings = 3;
constexpr qint64 kProgressStep = 1 << 20;

struct HubFile {
    QString name;  // in the module folder
    qint64 size = 0;
    QString oid;     // git blob id (of the pointer, for LFS files)
    QString lfsOid;  // sha256, LFS files only
    QString etag() const { return lfsOid.isEmpty() ? oid : lfsOid; }
};

// One item on its way.
struct Job {
    int index = -1;
    QString key;
    QVector<HubFile> files;
    std::mutex mutex;  // staging and the fields below
    IncomingEntry staging;
    bool opened = false;
    bool over = false;  // finished (or failed): its remaining files are not fetched
    int remaining = 0;
    std::atomic_bool abort{false};  // a file of the entry failed: its other files stop (the transfer's stop is apart)
    QVector<qint64> fileDone;
    qint64 lastReported = 0;
};

// A file name the Hub may hand us for a module folder: one plain segment, printable, not ours.
bool isPlainFileName(const QString &name)
{
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || !isSafeRelativePath(name) || name.endsWith(kPart) ||
        IncomingEntry::isStagingName(name))
        return false;
    for (const QChar c : name)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    return true;
}

// A checksum as the Hub must give it: `length` lowercase hex digits (sha256: 64, a git sha1: 40). The blob and
// snapshot paths of the Hugging Face cache layout are made from these, so nothing else may pass.
bool isHexId(const QString &s, int length)
{
    if (s.size() != length)
        return false;
    return std::all_of(s.cbegin(), s.cend(), [](QChar c) {
        return (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'));
    });
}

QString versionFolder(const QString &compiler)
{
    return compiler.startsWith(QLatin1String("neuronxcc-")) ? compiler : QStringLiteral("neuronxcc-") + compiler;
}

// Files of `key` from a listing (entries of the module folder and below). False with words when the Hub's folder
// is not a plain module folder.
bool filesOfEntry(const QString &key, const QVector<TreeEntry> &listing, QVector<HubFile> *files, QString *why)
{
    const QString prefix = key + QLatin1Char('/');
    for (const TreeEntry &e : listing) {
        if (!e.path.startsWith(prefix))
            continue;
        const QString name = e.path.mid(prefix.size());
        if (e.isDir || name.contains(QLatin1Char('/'))) {
            *why = PullText::tr("The Hub's folder of %1 holds a sub-folder (%2); Ingot pulls only plain module folders.")
                       .arg(displayName(key), displayName(name));
            return false;
        }
        if (!isPlainFileName(name)) {
            *why = PullText::tr("The Hub's folder of %1 holds a file named \"%2\", which Ingot does not write into a cache.")
                       .arg(displayName(key), displayName(name));
            return false;
        }
        if (e.size < 0 || (e.lfsOid.isEmpty() ? !isHexId(e.oid, 40) : !isHexId(e.lfsOid, 64))) {
            *why = PullText::tr("The Hub lists %1 of %2 without a usable checksum; not pulled.").arg(displayName(name), displayName(key));
            return false;
        }
        // A lock taken on the machine that uploaded it means nothing here, and would mark the entry LOCKED.
        if (name.endsWith(QLatin1String(".lock")))
            continue;
        files->append({name, e.size, e.oid, e.lfsOid});
    }
    // Only finished compiles: a failed one (model.log, no model.neff) would stop the compiler from trying again.
    const bool hasNeff = std::any_of(files->cbegin(), files->cend(), [](const HubFile &f) { return f.name == QLatin1String("model.neff"); });
    if (!files->isEmpty() && !hasNeff) {
        *why = PullText::tr("The Hub's %1 has no model.neff (a failed or unfinished compile); in the cache it would stop "
                            "the compiler from trying again. Not pulled.").arg(displayName(key));
        return false;
    }
    return true;
}

// Hub kinds that concern the whole repo, not one entry: they stop the pull as a whole.
bool isRepoWide(HubError::Kind k)
{
    using K = HubError::Kind;
    return k == K::Offline || k == K::Unauthorized || k == K::NotFound || k == K::RevisionNotFound || k == K::Gated ||
           k == K::Forbidden || k == K::InvalidArgument;
}

QString hexOfFile(int fd, bool sha256, const QByteArray &prefix, qint64 *size)
{
    Sha256 h256;
    QCryptographicHash h1(QCryptographicHash::Sha1);
    h1.addData(prefix);
    QByteArray buf(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    for (;;) {
        const ssize_t n = ::pread(fd, buf.data(), size_t(buf.size()), total);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return {};
        if (n == 0)
            break;
        if (sha256)
            h256.addData(buf.constData(), n);
        else
            h1.addData(QByteArrayView(buf.constData(), n));
        total += n;
    }
    *size = total;
    return QString::fromLatin1((sha256 ? h256.result() : h1.result()).toHex());
}

// Whether the file open at `fd` is `f` (size, then its checksum).
bool fileMatches(int fd, const HubFile &f)
{
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != f.size)
        return false;
    qint64 size = 0;
    if (!f.lfsOid.isEmpty())
        return hexOfFile(fd, true, {}, &size) == f.lfsOid;
    QByteArray header = QByteArray("blob ") + QByteArray::number(f.size);
    header.append('\0');
    return hexOfFile(fd, false, header, &size) == f.oid;
}

class Puller
{
public:
    Puller(const HubClient &hub, const PullRequest &req, QVector<TransferItem> &items, TransferReporter &reporter,
           const std::atomic_bool *stop)
        : m_hub(hub), m_req(req), m_items(items), m_reporter(reporter), m_stop(stop)
    {
    }

    PullOutcome run();

private:
    bool stopped() const { return m_stop && m_stop->load(); }
    void finish(Job &job, TransferItem::State state, const QString &message);  // job.mutex held or job not shared
    void list(QVector<Job *> &jobs);
    void pullFile(Job &job, int fileIndex);
    bool fetchInto(Job &job, int fileIndex, int partFd, QString *why);
    bool placeBlob(Job &job, int fileIndex, QString *linkTarget, QString *why);
    void progress(Job &job, int fileIndex, qint64 done);
    bool prepareHubCache(QString *why);

    const HubClient &m_hub;
    const PullRequest &m_req;
    QVector<TransferItem> &m_items;
    TransferReporter &m_reporter;
    const std::atomic_bool *m_stop;
    PullOutcome m_outcome;
    std::mutex m_itemsMutex;  // m_items, m_outcome.busy
    StagingLeftovers m_leftovers;  // before m_jobs: their stagings tell it what they leave when they close
    std::vector<std::unique_ptr<Job>> m_jobs;
    // The file queue: (job, file) in item order, so few stagings are open at a time.
    QVector<QPair<Job *, int>> m_queue;
    // Hub cache layout
    QString m_repoCache;  // <hfHome>/hub/models--org--name
    QString m_commit;
};

void Puller::finish(Job &job, TransferItem::State state, const QString &message)
{
    // The staging stays open (other files of the job may still be writing into it) until run() ends; what was
    // verified stays for the next run.
    job.over = true;
    {
        std::lock_guard lock(m_itemsMutex);
        TransferItem &it = m_items[job.index];
        it.state = state;
        it.message = message;
    }
    m_reporter.itemFinished(job.index, state, message);
}

void Puller::progress(Job &job, int fileIndex, qint64 done)
{
    qint64 sum = 0;
    {
        std::lock_guard lock(job.mutex);
        job.fileDone[fileIndex] = done;
        for (qint64 d : job.fileDone)
            sum += d;
        if (sum - job.lastReported < kProgressStep && sum != m_items[job.index].bytesTotal && sum >= job.lastReported)
            return;
        job.lastReported = sum;
    }
    {
        std::lock_guard lock(m_itemsMutex);
        m_items[job.index].bytesDone = sum;
    }
    m_reporter.itemProgress(job.index, sum);
}

void Puller::list(QVector<Job *> &jobs)
{
    // Grouped by compiler version: a few entries are listed one by one, many by one listing of their version.
    QHash<QString, QVector<Job *>> byVersion;
    for (Job *j : jobs)
        byVersion[j->key.section(QLatin1Char('/'), 0, 0)].append(j);
    for (auto it = byVersion.cbegin(); it != byVersion.cend(); ++it) {
        auto take = [&](Job *j, const QVector<TreeEntry> &listing, const HubError &err) {
            if (j->over)
                return;
            QString why;
            if (err.kind == HubError::Kind::EntryNotFound) {
                std::lock_guard lock(j->mutex);
                finish(*j, TransferItem::State::Failed, PullText::tr("Not on the Hub (%1).").arg(m_req.repo));
            } else if (!err.ok()) {
                std::lock_guard lock(j->mutex);
                finish(*j, TransferItem::State::Failed, err.message);
            } else if (!filesOfEntry(j->key, listing, &j->files, &why)) {
                std::lock_guard lock(j->mutex);
                finish(*j, TransferItem::State::Failed, why);
            } else if (j->files.isEmpty()) {
                std::lock_guard lock(j->mutex);
                finish(*j, TransferItem::State::Failed, PullText::tr("Not on the Hub (%1).").arg(m_req.repo));
            }
        };
        if (it.value().size() <= kPerEntryListings) {
            for (Job *j : it.value()) {
                if (stopped())
                    return;
                HubError err;
                const QVector<TreeEntry> listing = m_hub.listTree(m_req.repo, m_req.revision, j->key, true, &err, m_stop);
                if (isRepoWide(err.kind) && m_outcome.error.ok())
                    m_outcome.error = err;
                take(j, listing, err);
            }
        } else {
            HubError err;
            const QVector<TreeEntry> listing = m_hub.listTree(m_req.repo, m_req.revision, it.key(), true, &err, m_stop);
            if (stopped())
                return;
            if (isRepoWide(err.kind) && m_outcome.error.ok())
                m_outcome.error = err;
            for (Job *j : it.value())
                take(j, listing, err);
        }
    }
}

bool Puller::prepareHubCache(QString *why)
{
    if (m_req.hfHome.isEmpty() || !isSafeRelativePath(m_req.revision)) {
        *why = PullText::tr("The Hugging Face cache layout needs HF_HOME and a plain revision.");
        return false;
    }
    HubError err;
    const RepoInfo info = m_hub.repoInfo(m_req.repo, m_req.revision, &err, m_stop);
    if (!err.ok() || !isHexId(info.sha, 40)) {
        if (isRepoWide(err.kind) && m_outcome.error.ok())
            m_outcome.error = err;
        *why = err.ok() ? PullText::tr("The Hub did not name the commit of %1.").arg(m_req.repo) : err.message;
        return false;
    }
    m_commit = info.sha;
    m_repoCache = m_req.hfHome + QStringLiteral("/hub/models--") + QString(m_req.repo).replace(QLatin1Char('/'), QStringLiteral("--"));
    if (!QDir().mkpath(m_repoCache + QStringLiteral("/blobs")) || !QDir().mkpath(m_repoCache + QStringLiteral("/snapshots"))) {
        *why = PullText::tr("Cannot create the Hugging Face cache folder %1.").arg(displayName(m_repoCache));
        return false;
    }
    if (m_req.revision != m_commit) {
        QString error;
        const QString ref = m_repoCache + QStringLiteral("/refs/") + m_req.revision;
        if (!QDir().mkpath(QFileInfo(ref).path()) || !writeFileAtomically(ref, m_commit.toLatin1(), &error)) {
            *why = error;
            return false;
        }
    }
    return true;
}

PullOutcome Puller::run()
{
    using S = TransferItem::State;
    if (m_hub.isOffline()) {
        m_outcome.error = {HubError::Kind::Offline, 0,
                           PullText::tr("HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so nothing can be pulled. "
                                        "Unset it to pull.")};
        for (int i = 0; i < m_items.size(); ++i) {
            m_items[i].state = S::Failed;
            m_items[i].message = m_outcome.error.message;
            m_reporter.itemFinished(i, S::Failed, m_items[i].message);
        }
        return m_outcome;
    }
    QVector<Job *> pending;
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items[i].finished())
            continue;
        auto job = std::make_unique<Job>();
        job->index = i;
        job->key = m_items[i].key;
        m_items[i].state = S::Pending;
        m_items[i].message.clear();
        if (!isTransferableKey(job->key)) {
            finish(*job, S::Failed, PullText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(job->key)));
        } else if (struct stat st; ::lstat(QFile::encodeName(m_req.cacheRoot + QLatin1Char('/') + job->key).constData(), &st) == 0) {
            finish(*job, S::Skipped, PullText::tr("Already in the cache; left as it is."));
        } else {
            pending.append(job.get());
        }
        m_jobs.push_back(std::move(job));
    }
    if (pending.isEmpty())
        return m_outcome;
    QString why;
    if (m_req.options.hubCacheLayout && !prepareHubCache(&why)) {
        for (Job *j : pending)
            finish(*j, S::Failed, why);
        return m_outcome;
    }
    list(pending);
    for (Job *j : pending) {
        if (j->over)
            continue;
        qint64 total = 0;
        for (const HubFile &f : j->files)
            total += f.size;
        j->fileDone.fill(0, j->files.size());
        j->remaining = j->files.size();
        {
            std::lock_guard lock(m_itemsMutex);
            m_items[j->index].bytesTotal = total;
            m_items[j->index].bytesDone = 0;
            m_items[j->index].files = j->files.size();
        }
        for (int f = 0; f < j->files.size(); ++f)
            m_queue.append({j, f});
    }
    const int threads = qBound(1, m_req.options.parallel, 32);
    // A download stops on the transfer's stop or on its entry's own abort (a failed file aborts only its entry's
    // files): the HTTP client watches both flags.
    const ParallelOutcome pulled = parallelFor(int(m_queue.size()), threads, m_stop, [this](int k) {
        pullFile(*m_queue[k].first, m_queue[k].second);
    });
    pulled.rethrowFirst();
    // Stopped: what is not finished waits for the next run (its staging and parts stay).
    for (Job *j : pending) {
        if (j->staging.isOpen())
            j->staging.close();
        if (!j->over)
            m_items[j->index].state = S::Pending;
    }
    return m_outcome;
}

void Puller::pullFile(Job &job, int fileIndex)
{
    using S = TransferItem::State;
    const HubFile &f = job.files[fileIndex];
    {
        std::lock_guard lock(job.mutex);
        if (job.over || job.abort || stopped())
            return;
        if (!job.opened) {
            job.opened = true;
            QString error;
            switch (IncomingEntry::open(m_req.cacheRoot, job.key, &job.staging, &error, &m_leftovers)) {
            case IncomingEntry::Status::Ready: break;
            case IncomingEntry::Status::Exists:
                finish(job, S::Skipped, PullText::tr("Already in the cache; left as it is."));
                return;
            case IncomingEntry::Status::Busy: {
                std::lock_guard ilock(m_itemsMutex);
                m_outcome.busy.insert(job.index);
            }
                finish(job, S::Failed, error);
                return;
            case IncomingEntry::Status::Failed:
                finish(job, S::Failed, error);
                return;
            }
            // Anything else in an adopted staging (the Hub changed since, a stray file) goes.
            QStringList keep;
            for (const HubFile &hf : job.files)
                keep << hf.name << hf.name + kPart;
            if (!job.staging.prune(keep, &error)) {
                finish(job, S::Failed, error);
                return;
            }
            {
                std::lock_guard ilock(m_itemsMutex);
                m_items[job.index].state = S::Running;
            }
            m_reporter.itemStarted(job.index, m_items[job.index].bytesTotal);
        }
    }
    const int sfd = job.staging.stagingFd();
    const QByteArray name = nameToBytes(f.name);
    const QByteArray part = nameToBytes(f.name + kPart);
    QString why;
    bool ok = false;
    struct stat st;
    if (m_req.options.hubCacheLayout) {
        QString target;
        ok = placeBlob(job, fileIndex, &target, &why);
        if (ok) {
            // The entry's file: a link to the snapshot file, as optimum-neuron's pulled entries look.
            ::unlinkat(sfd, name.constData(), 0);
            if (::symlinkat(QFile::encodeName(target).constData(), sfd, name.constData()) != 0) {
                why = PullText::tr("Cannot link %1 into %2: %3.").arg(displayName(f.name), displayName(job.staging.stagingPath()), describeErrno(errno));
                ok = false;
            }
        }
    } else if (::fstatat(sfd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && st.st_size == f.size) {
        ok = true;  // verified and renamed by an earlier run
        progress(job, fileIndex, f.size);
    } else {
        const int fd = ::openat(sfd, part.constData(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            why = PullText::tr("Cannot write %1 in %2: %3.").arg(displayName(f.name + kPart), displayName(job.staging.stagingPath()), describeErrno(errno));
        } else {
            ok = fetchInto(job, fileIndex, fd, &why);
            // On disk before it counts as there: here, on this file's thread, so files of an entry sync in
            // parallel and the entry's commit finds little left to write.
            if (ok && ::fsync(fd) != 0) {
                why = PullText::tr("Could not write %1 to disk: %2.").arg(displayName(f.name), describeErrno(errno));
                ok = false;
            }
            ::close(fd);
            if (ok && ::renameat(sfd, part.constData(), sfd, name.constData()) != 0) {
                why = PullText::tr("Cannot move %1 into place: %2.").arg(displayName(f.name), describeErrno(errno));
                ok = false;
            }
        }
    }
    std::lock_guard lock(job.mutex);
    if (job.over)
        return;
    if (!ok) {
        if (stopped())
            return;  // stopped: the item waits for the next run
        job.abort = true;
        finish(job, S::Failed, why);
        return;
    }
    if (--job.remaining > 0)
        return;
    QString error;
    switch (job.staging.commit(&error)) {
    case IncomingEntry::Status::Ready:
        finish(job, S::Done, QString());
        break;
    case IncomingEntry::Status::Exists:
        finish(job, S::Skipped, PullText::tr("Appeared in the cache meanwhile (a compile or another transfer); left as it is."));
        break;
    default:
        finish(job, S::Failed, error);
        break;
    }
}

// Downloads file `fileIndex` into the open partial file and verifies it. A part that fails verification is emptied.
bool Puller::fetchInto(Job &job, int fileIndex, int partFd, QString *why)
{
    const HubFile &f = job.files[fileIndex];
    const QString path = job.key + QLatin1Char('/') + f.name;
    HubError err;
    const auto digest = f.lfsOid.isEmpty() ? HubClient::Digest::GitBlobSha1 : HubClient::Digest::Sha256;
    const HubClient::ResumeResult r = m_hub.resumeDownload(m_req.repo, m_req.revision, path, partFd, f.size, digest, &err,
                                                           StopFlags(&job.abort, m_stop),
                                                           [&](qint64 done, qint64) { progress(job, fileIndex, done); });
    if (!err.ok()) {
        *why = err.kind == HubError::Kind::EntryNotFound
                   ? PullText::tr("%1 is no longer on the Hub (the repo changed during the pull); pull again.").arg(displayName(path))
                   : err.message;
        if (isRepoWide(err.kind)) {
            std::lock_guard lock(m_itemsMutex);
            if (m_outcome.error.ok())
                m_outcome.error = err;
        }
        return false;
    }
    const QString want = f.lfsOid.isEmpty() ? f.oid : f.lfsOid;
    if (r.digest != want) {
        ::ftruncate(partFd, 0);
        *why = PullText::tr("%1 arrived damaged: its %2 does not match the Hub's (%3); nothing was written into the cache. "
                            "Pull again; if it happens again, the Hub's copy may be bad.")
                   .arg(displayName(path), f.lfsOid.isEmpty() ? PullText::tr("git blob id") : QStringLiteral("sha256"), want.left(12));
        return false;
    }
    return true;
}

// Hub cache layout: makes sure the blob of file `fileIndex` is in the HF cache (downloaded if needed, verified) and
// linked from the snapshot; *linkTarget = the snapshot file's path.
bool Puller::placeBlob(Job &job, int fileIndex, QString *linkTarget, QString *why)
{
    const HubFile &f = job.files[fileIndex];
    const QString etag = f.etag();
    const QString blobs = m_repoCache + QStringLiteral("/blobs/");
    const QByteArray blob = QFile::encodeName(blobs + etag);
    const QByteArray incomplete = QFile::encodeName(blobs + etag + QStringLiteral(".incomplete"));
    auto haveBlob = [&] {
        const int fd = ::open(blob.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return false;
        const bool ok = fileMatches(fd, f);
        ::close(fd);
        return ok;
    };
    if (!haveBlob()) {
        const int fd = ::open(incomplete.constData(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            *why = PullText::tr("Cannot write %1: %2.").arg(displayName(QFile::decodeName(incomplete)), describeErrno(errno));
            return false;
        }
        // One writer per blob (entries share blobs: model.done of every entry is the same).
        while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (job.abort || stopped()) {
                ::close(fd);
                *why = PullText::tr("Stopped.");
                return false;
            }
            QThread::msleep(20);
        }
        if (!haveBlob()) {
            if (!fetchInto(job, fileIndex, fd, why)) {
                ::close(fd);
                return false;
            }
            if (::fsync(fd) != 0 || ::rename(incomplete.constData(), blob.constData()) != 0) {
                *why = PullText::tr("Cannot move %1 into place: %2.").arg(displayName(QFile::decodeName(blob)), describeErrno(errno));
                ::close(fd);
                return false;
            }
        } else {
            ::unlink(incomplete.constData());
        }
        ::close(fd);
    }
    progress(job, fileIndex, f.size);
    // snapshots/<commit>/<key>/<name> -> ../../../../blobs/<etag> (relative, as huggingface_hub makes them)
    const QString snapDir = m_repoCache + QStringLiteral("/snapshots/") + m_commit + QLatin1Char('/') + job.key;
    if (!QDir().mkpath(snapDir)) {
        *why = PullText::tr("Cannot create %1.").arg(displayName(snapDir));
        return false;
    }
    const QString snapFile = snapDir + QLatin1Char('/') + f.name;
    const QByteArray rel = "../../../../blobs/" + etag.toLatin1();
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(QFile::encodeName(snapFile).constData(), buf, sizeof buf);
    if (n != rel.size() || QByteArray(buf, int(n)) != rel) {
        const QByteArray tmp = QFile::encodeName(snapFile + QStringLiteral(".ingot-link-") + QString::number(quintptr(&job), 16) + QString::number(fileIndex));
        ::unlink(tmp.constData());
        if (::symlink(rel.constData(), tmp.constData()) != 0 || ::rename(tmp.constData(), QFile::encodeName(snapFile).constData()) != 0) {
            *why = PullText::tr("Cannot link %1: %2.").arg(displayName(snapFile), describeErrno(errno));
            ::unlink(tmp.constData());
            return false;
        }
    }
    *linkTarget = snapFile;
    return true;
}
}  // namespace

QStringList hubEntryKeys(const HubClient &hub, const QString &repo, const QString &revision, const QString &compiler,
                         HubError *err, const std::atomic_bool *stop)
{
    const QString folder = compiler.isEmpty() ? QString() : versionFolder(compiler);
    if (!folder.isEmpty() && !isTransferableKey(folder + QStringLiteral("/MODULE_x"))) {
        *err = {HubError::Kind::InvalidArgument, 0, PullText::tr("\"%1\" is not a compiler version.").arg(displayName(compiler))};
        return {};
    }
    const QVector<TreeEntry> listing = hub.listTree(repo, revision, folder, true, err, stop);
    if (!err->ok())
        return {};
    QStringList keys;
    QSet<QString> seen;
    for (const TreeEntry &e : listing) {
        const QStringList parts = e.path.split(QLatin1Char('/'));
        if (parts.size() < 2)
            continue;
        const QString key = parts[0] + QLatin1Char('/') + parts[1];
        if ((parts.size() > 2 || e.isDir) && isTransferableKey(key) && !seen.contains(key)) {
            seen.insert(key);
            keys << key;
        }
    }
    keys.sort();
    return keys;
}

PullOutcome pullEntries(const HubClient &hub, const PullRequest &request, QVector<TransferItem> &items,
                        TransferReporter &reporter, const std::atomic_bool *stop)
{
    Puller p(hub, request, items, reporter, stop);
    return p.run();
}

}  // namespace ingot
