#include "services/transfer/s3transfer.h"

#include "services/cache/classify.h"
#include "services/cache/compilerversion.h"
#include "services/s3/s3cachestore.h"
#include "services/transfer/entryfiles.h"
#include "services/transfer/entrystaging.h"
#include "services/transfer/etagdigest.h"
#include "services/util/atomicfile.h"
#include "services/util/errnotext.h"
#include "services/util/fdio.h"
#include "services/util/names.h"
#include "services/util/parallel.h"
#include "services/util/relpath.h"
#include "services/util/sha256.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>

namespace ingot {

namespace {

struct S3TransferText {
    Q_DECLARE_TR_FUNCTIONS(ingot::S3Transfer)
};

using State = TransferItem::State;
constexpr int kPartsAtOnce = 4;

QString entryPrefix(const s3::S3Client &c, const QString &key)
{
    return c.location().prefix + key + QLatin1Char('/');
}

QString placeText(const s3::S3Client &c)
{
    return displayName(c.location().url());
}

QByteArray readRange(int fd, qint64 offset, qint64 size, QString *why, const QString &shown)
{
    QByteArray data(size, Qt::Uninitialized);
    if (!readAllAt(fd, data.data(), size_t(size), quint64(offset))) {
        *why = S3TransferText::tr("Could not read %1: %2").arg(shown, describeErrno(errno));
        return {};
    }
    return data;
}

// One file of an entry, uploaded; `sent(n)` is told of n more bytes done.
class FileUpload final
{
public:
    FileUpload(const s3::S3Client &c, const EntryFile &f, const QString &objectKey, const QString &stateDir,
               const std::function<void(qint64)> &sent, const std::atomic_bool *stop)
        : m_c(c), m_f(f), m_key(objectKey), m_shown(displayName(nameFromBytes(f.name))), m_sent(sent), m_stop(stop),
          m_statePath(stateDir + QLatin1Char('/') + QString::fromLatin1(Sha256::hash(objectKey.toUtf8()).toHex().left(32))
                      + QStringLiteral(".json"))
    {
        m_stateDir = stateDir;
    }

    S3EntryResult run(QString *why)
    {
        if (m_f.size < kMultipartThreshold)
            return single(why);
        return multipart(why);
    }

private:
    S3EntryResult single(QString *why)
    {
        const QByteArray data = readRange(m_f.fd, 0, m_f.size, why, m_shown);
        if (data.size() != m_f.size)
            return S3EntryResult::Failed;
        QByteArray etag;
        if (!m_c.put(m_key, data, &etag, why, m_stop))
            return stopped() ? S3EntryResult::Stopped : S3EntryResult::Failed;
        EtagDigest d(s3PartSize(m_f.size));
        d.add(data.constData(), data.size());
        if (!d.matches(etag)) {
            *why = S3TransferText::tr("S3 stored %1 with ETag %2, which is not the MD5 of what was sent.").arg(m_shown, displayName(QString::fromLatin1(etag)));
            return S3EntryResult::Failed;
        }
        m_sent(m_f.size);
        return S3EntryResult::Done;
    }

    bool stopped() const { return m_stop && *m_stop; }

    // The upload an interrupted run left for this file, with the parts S3 holds: only when the file is as it was.
    QString resumable(QHash<int, QByteArray> *held, qint64 partSize)
    {
        QFile f(m_statePath);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        const QJsonObject o = QJsonDocument::fromJson(f.read(4096)).object();
        const QString id = o.value(QStringLiteral("uploadId")).toString();
        if (id.isEmpty() || o.value(QStringLiteral("key")).toString() != m_key
            || o.value(QStringLiteral("size")).toDouble() != double(m_f.size)
            || o.value(QStringLiteral("mtime")).toDouble() != double(m_f.mtime)
            || o.value(QStringLiteral("partSize")).toDouble() != double(partSize))
            return {};
        QList<s3::S3Part> parts;
        QString ignored;
        if (!m_c.listParts(m_key, id, &parts, &ignored, m_stop))
            return {};  // gone (completed, aborted, expired): a new one
        for (const s3::S3Part &p : std::as_const(parts))
            held->insert(p.number, p.etag.toLower());
        return id;
    }

    S3EntryResult multipart(QString *why)
    {
        const qint64 partSize = s3PartSize(m_f.size);
        const int count = int((m_f.size + partSize - 1) / partSize);
        QHash<int, QByteArray> held;
        QString id = resumable(&held, partSize);
        if (id.isEmpty()) {
            if (!m_c.createUpload(m_key, &id, why, m_stop))
                return stopped() ? S3EntryResult::Stopped : S3EntryResult::Failed;
            const QJsonObject o{{QStringLiteral("uploadId"), id}, {QStringLiteral("key"), m_key},
                                {QStringLiteral("size"), double(m_f.size)}, {QStringLiteral("mtime"), double(m_f.mtime)},
                                {QStringLiteral("partSize"), double(partSize)}};
            QDir().mkpath(m_stateDir);
            QString e;
            writeFileAtomically(m_statePath, QJsonDocument(o).toJson(QJsonDocument::Compact), &e, true);
        }
        QVector<QByteArray> etags(count);
        std::mutex mutex;
        QString firstError;
        const ParallelOutcome po = parallelFor(count, kPartsAtOnce, m_stop, [&](int i) -> bool {
            const qint64 at = qint64(i) * partSize;
            const qint64 n = std::min(partSize, m_f.size - at);
            QString e;
            const QByteArray data = readRange(m_f.fd, at, n, &e, m_shown);
            const QByteArray md5 = data.size() == n ? QCryptographicHash::hash(data, QCryptographicHash::Md5).toHex() : QByteArray();
            QByteArray etag = held.value(i + 1);
            if (!md5.isEmpty() && etag != md5) {  // not held (or not as here): sent
                etag.clear();
                if (m_c.uploadPart(m_key, id, i + 1, data, &etag, &e, m_stop) && etag.size() == 32 && etag.toLower() != md5)
                    e = S3TransferText::tr("S3 stored part %1 of %2 with ETag %3, which is not the MD5 of what was sent.")
                            .arg(i + 1).arg(m_shown, displayName(QString::fromLatin1(etag)));
            }
            std::lock_guard lock(mutex);
            if (!e.isEmpty() || etag.isEmpty()) {
                if (firstError.isEmpty())
                    firstError = e;
                return false;
            }
            etags[i] = etag;
            m_sent(n);
            return true;
        });
        if (stopped() || (po.stopped && firstError.isEmpty()))
            return S3EntryResult::Stopped;  // the upload stays, for the next run to resume
        if (!po.ok() || !firstError.isEmpty()) {
            *why = firstError.isEmpty() ? po.errors.value(0) : firstError;
            QString ignored;
            m_c.abortUpload(m_key, id, &ignored);
            QFile::remove(m_statePath);
            return S3EntryResult::Failed;
        }
        QList<s3::S3Part> parts;
        for (int i = 0; i < count; ++i)
            parts.append({i + 1, 0, etags[i]});
        QByteArray etag;
        if (!m_c.completeUpload(m_key, id, parts, &etag, why, m_stop))
            return stopped() ? S3EntryResult::Stopped : S3EntryResult::Failed;
        QFile::remove(m_statePath);
        QByteArray digests;
        for (const QByteArray &e : std::as_const(etags))
            digests += QByteArray::fromHex(e);
        const QByteArray want = QCryptographicHash::hash(digests, QCryptographicHash::Md5).toHex() + '-' + QByteArray::number(count);
        if (etag.contains('-') && etag.toLower() != want) {
            *why = S3TransferText::tr("S3 completed %1 with ETag %2 instead of %3.").arg(m_shown, displayName(QString::fromLatin1(etag)),
                                                                                        QString::fromLatin1(want));
            return S3EntryResult::Failed;
        }
        return S3EntryResult::Done;
    }

    const s3::S3Client &m_c;
    const EntryFile &m_f;
    QString m_key;
    QString m_shown;
    std::function<void(qint64)> m_sent;
    const std::atomic_bool *m_stop;
    QString m_statePath;
    QString m_stateDir;
};

// Whether the MD5 of the local file matches an object's ETag (a file an earlier run uploaded).
bool sameContent(const EntryFile &f, const QByteArray &etag)
{
    EtagDigest d(s3PartSize(f.size));
    QByteArray buf(1 << 20, Qt::Uninitialized);
    for (qint64 at = 0; at < f.size;) {
        const qint64 n = std::min<qint64>(buf.size(), f.size - at);
        if (!readAllAt(f.fd, buf.data(), size_t(n), quint64(at)))
            return false;
        d.add(buf.constData(), n);
        at += n;
    }
    const QByteArray e = etag.toLower();
    return (e.size() == 32 || e.contains('-')) && d.matches(e);
}

S3EntryResult uploadEntry(const s3::S3Client &c, const QString &root, const QString &key, const QString &stateDir,
                          const std::function<void(qint64, qint64)> &progress, const std::atomic_bool *stop,
                          QString *why, int *fileCount, qint64 *total)
{
    EntryFiles entry;
    if (!entry.open(root, key, EntryFiles::Names::All, why))
        return S3EntryResult::Failed;
    QVector<const EntryFile *> files;
    for (const EntryFile &f : entry.files())
        if (!f.dir)
            files << &f;
    // model.done last: the runtime takes an entry with its marker as whole.
    std::stable_partition(files.begin(), files.end(), [](const EntryFile *f) { return f->name != "model.done"; });
    *fileCount = int(files.size());
    *total = 0;
    QVector<CacheFile> names;
    for (const EntryFile *f : std::as_const(files)) {
        *total += f->size;
        CacheFile cf;
        cf.name = nameFromBytes(f->name);
        names << cf;
    }
    const ModuleState state = classifyModule(names, CompilerVersion::parse(key.section(QLatin1Char('/'), 0, 0)).writesDoneMarker());
    if (state != ModuleState::Success) {
        *why = notSuccessWhy(state);
        return S3EntryResult::NotSuccess;
    }
    const QString prefix = entryPrefix(c, key);
    s3::S3Listing there;
    if (!c.list(prefix, QString(), &there, why, stop))
        return stop && *stop ? S3EntryResult::Stopped : S3EntryResult::Failed;
    QHash<QString, const EntryFile *> byName;
    for (const EntryFile *f : std::as_const(files))
        byName.insert(nameFromBytes(f->name), f);
    QHash<QString, QByteArray> held;  // name -> ETag of an object with this file's name and size
    for (const s3::S3Object &o : std::as_const(there.objects)) {
        const QString rel = o.key.mid(prefix.size());
        if (rel.endsWith(QLatin1String(".lock"))) {
            *why = S3TransferText::tr("%1 holds %2: a compile may be writing this entry; it was left.").arg(placeText(c), displayName(rel));
            return S3EntryResult::Busy;
        }
        const EntryFile *f = byName.value(rel);
        if (!f || f->size != o.size) {
            *why = S3TransferText::tr("Already in %1 (with other files); left as it is.").arg(placeText(c));
            return S3EntryResult::Exists;
        }
        held.insert(rel, o.etag);
    }
    if (!files.isEmpty() && held.size() == files.size()) {
        *why = S3TransferText::tr("Already in %1; left as it is.").arg(placeText(c));
        return S3EntryResult::Exists;
    }
    if (held.contains(QStringLiteral("model.done"))) {
        *why = S3TransferText::tr("Already in %1 (with other files); left as it is.").arg(placeText(c));
        return S3EntryResult::Exists;
    }
    std::atomic<qint64> done{0};
    auto sent = [&](qint64 n) { progress(done += n, *total); };
    for (const EntryFile *f : std::as_const(files)) {
        if (stop && *stop)
            return S3EntryResult::Stopped;
        const QString name = nameFromBytes(f->name);
        if (held.contains(name) && sameContent(*f, held.value(name))) {  // an earlier run's, whole
            sent(f->size);
            continue;
        }
        FileUpload up(c, *f, prefix + name, stateDir, sent, stop);
        const S3EntryResult r = up.run(why);
        if (r != S3EntryResult::Done)
            return r;
    }
    // Listed again: every file there at its size.
    if (!c.list(prefix, QString(), &there, why, stop))
        return stop && *stop ? S3EntryResult::Stopped : S3EntryResult::Failed;
    QHash<QString, qint64> sizes;
    for (const s3::S3Object &o : std::as_const(there.objects))
        sizes.insert(o.key.mid(prefix.size()), o.size);
    for (const EntryFile *f : std::as_const(files)) {
        const qint64 got = sizes.value(nameFromBytes(f->name), -1);
        if (got != f->size) {
            *why = S3TransferText::tr("%1 lists %2 with %3 bytes instead of %4 after the upload.")
                       .arg(placeText(c), displayName(nameFromBytes(f->name))).arg(got).arg(f->size);
            return S3EntryResult::Failed;
        }
    }
    return S3EntryResult::Done;
}

// A folder under the staging folder, made and opened without following links; -1 with errno.
int openSubfolder(int stagingFd, const QByteArray &relDir)
{
    int fd = ::dup(stagingFd);
    for (const QByteArray &part : relDir.split('/')) {
        if (part.isEmpty() || fd < 0)
            continue;
        if (::mkdirat(fd, part.constData(), 0755) != 0 && errno != EEXIST) {
            ::close(fd);
            return -1;
        }
        const int next = ::openat(fd, part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(fd);
        fd = next;
    }
    return fd;
}

// One object into the staging folder: "<name>.part" continued (ranged GET) or started, checked, renamed to <name>.
S3EntryResult downloadObject(const s3::S3Client &c, const s3::S3Object &o, const QString &rel, int stagingFd,
                             const std::function<void(qint64)> &got, const std::atomic_bool *stop, QString *why)
{
    const QByteArray relBytes = nameToBytes(rel);
    const int slash = relBytes.lastIndexOf('/');
    const QByteArray name = relBytes.mid(slash + 1);
    const QByteArray part = name + ".part";
    const int dfd = openSubfolder(stagingFd, slash < 0 ? QByteArray() : relBytes.left(slash));
    auto ioFail = [&](int e) {
        *why = S3TransferText::tr("Could not write %1: %2").arg(displayName(rel), describeErrno(e));
        return S3EntryResult::Failed;
    };
    if (dfd < 0)
        return ioFail(errno);
    struct stat st;
    if (::fstatat(dfd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && st.st_size == o.size) {
        ::close(dfd);  // checked and renamed by an earlier run
        got(o.size);
        return S3EntryResult::Done;
    }
    const int fd = ::openat(dfd, part.constData(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int e = errno;
        ::close(dfd);
        return ioFail(e);
    }
    EtagDigest digest(s3PartSize(o.size));
    qint64 pos = 0;
    // Back to `from` bytes of the part file, hashed again (a resume, or a retry that starts over).
    auto restartAt = [&](qint64 from) {
        digest.reset();
        pos = 0;
        if (::ftruncate(fd, from) != 0)
            return false;
        QByteArray buf(1 << 20, Qt::Uninitialized);
        while (pos < from) {
            const qint64 n = std::min<qint64>(buf.size(), from - pos);
            if (!readAllAt(fd, buf.data(), size_t(n), quint64(pos)))
                return false;
            digest.add(buf.constData(), n);
            pos += n;
        }
        return true;
    };
    qint64 from = ::fstat(fd, &st) == 0 && st.st_size <= o.size ? st.st_size : 0;
    int ioErr = 0;
    bool tooMuch = false;
    if (!restartAt(from))
        ioErr = errno;
    got(from);
    auto sink = [&](const char *data, size_t size, bool restart) {
        if (restart && !restartAt(from)) {
            ioErr = errno;
            return false;
        }
        if (pos + qint64(size) > o.size) {
            tooMuch = true;
            return false;
        }
        if (stop && *stop)
            return false;  // what arrived stays in the part file
        if (!writeAll(fd, data, size)) {
            ioErr = errno ? errno : EIO;
            return false;
        }
        digest.add(data, qint64(size));
        pos += qint64(size);
        got(qint64(size));
        return true;
    };
    // writeAll writes at the file offset: put it where the part ends.
    ::lseek(fd, from, SEEK_SET);
    QByteArray etag, checksum;
    qint64 size = -1;
    bool ok = ioErr == 0;
    if (ok && from < o.size)
        ok = c.download(o.key, from, sink, &etag, &size, why, stop, &checksum);
    else
        etag = o.etag, size = o.size;
    S3EntryResult res = S3EntryResult::Done;
    if (ioErr)
        res = ioFail(ioErr);
    else if (tooMuch) {
        *why = S3TransferText::tr("%1 sent more of %2 than the %3 bytes it lists.").arg(placeText(c), displayName(rel)).arg(o.size);
        ::ftruncate(fd, 0);
        res = S3EntryResult::Failed;
    } else if (!ok)
        res = stop && *stop ? S3EntryResult::Stopped : S3EntryResult::Failed;
    else if (pos != o.size || (size >= 0 && size != o.size)) {
        *why = S3TransferText::tr("%1 arrived with %2 bytes instead of %3.").arg(displayName(rel)).arg(pos).arg(o.size);
        ::ftruncate(fd, 0);
        res = S3EntryResult::Failed;
    } else if (!digest.matches(etag.isEmpty() ? o.etag : etag) || (!o.etag.isEmpty() && !etag.isEmpty() && o.etag != etag)) {
        *why = S3TransferText::tr("%1 does not match its ETag %2: it changed while it was read, or arrived damaged.")
                   .arg(displayName(rel), displayName(QString::fromLatin1(o.etag)));
        ::ftruncate(fd, 0);
        res = S3EntryResult::Failed;
    } else if (!checksum.isEmpty() && !checksum.contains('-') && !digest.matchesChecksum(checksum)) {
        *why = S3TransferText::tr("%1 does not match the SHA-256 S3 keeps for it: it arrived damaged.").arg(displayName(rel));
        ::ftruncate(fd, 0);
        res = S3EntryResult::Failed;
    } else if (::renameat(dfd, part.constData(), dfd, name.constData()) != 0) {
        res = ioFail(errno);
    }
    ::close(fd);
    ::close(dfd);
    return res;
}

S3EntryResult downloadEntry(const s3::S3Client &c, const QString &root, const QString &key, StagingLeftovers *leftovers,
                            const std::function<void(qint64, qint64)> &progress, const std::atomic_bool *stop,
                            QString *why, int *fileCount, qint64 *total)
{
    const QString prefix = entryPrefix(c, key);
    s3::S3Listing listing;
    if (!c.list(prefix, QString(), &listing, why, stop))
        return stop && *stop ? S3EntryResult::Stopped : S3EntryResult::Failed;
    if (listing.objects.isEmpty()) {
        *why = S3TransferText::tr("Not in %1.").arg(placeText(c));
        return S3EntryResult::Failed;
    }
    QVector<CacheFile> names;
    *total = 0;
    for (const s3::S3Object &o : std::as_const(listing.objects)) {
        const QString rel = o.key.mid(prefix.size());
        if (rel.endsWith(QLatin1String(".lock"))) {
            *why = S3TransferText::tr("%1 holds %2: a compile may be writing this entry; it was left.").arg(placeText(c), displayName(rel));
            return S3EntryResult::Busy;
        }
        CacheFile f;
        f.name = rel;
        f.size = o.size;
        names << f;
        *total += o.size;
    }
    QString stateWhy;
    const ModuleState state = classifyModule(names, CompilerVersion::parse(key.section(QLatin1Char('/'), 0, 0)).writesDoneMarker(), &stateWhy);
    if (state != ModuleState::Success) {
        *why = notSuccessWhy(state);
        return S3EntryResult::NotSuccess;
    }
    *fileCount = int(listing.objects.size());
    IncomingEntry in;
    switch (IncomingEntry::open(root, key, &in, why, leftovers)) {
    case IncomingEntry::Status::Ready: break;
    case IncomingEntry::Status::Exists:
        *why = S3TransferText::tr("Already in %1; left as it is.").arg(displayName(root));
        return S3EntryResult::Exists;
    case IncomingEntry::Status::Busy: return S3EntryResult::Busy;
    case IncomingEntry::Status::Failed: return S3EntryResult::Failed;
    }
    qint64 done = 0;
    auto got = [&](qint64 n) { progress(done += n, *total); };
    QStringList keep;
    for (const s3::S3Object &o : std::as_const(listing.objects)) {
        const QString rel = o.key.mid(prefix.size());
        keep << rel;
        const S3EntryResult r = downloadObject(c, o, rel, in.stagingFd(), got, stop, why);
        if (r == S3EntryResult::Stopped || (r == S3EntryResult::Failed && stop && *stop)) {
            in.close();  // kept for the next run to resume
            return S3EntryResult::Stopped;
        }
        if (r != S3EntryResult::Done) {
            in.close();  // what arrived whole stays for a retry; a damaged part was emptied
            return r;
        }
    }
    // Sub-folders of the entry are kept by their files' names.
    for (const QString &rel : std::as_const(keep))
        for (int at = rel.indexOf(QLatin1Char('/')); at > 0; at = rel.indexOf(QLatin1Char('/'), at + 1))
            keep << rel.left(at);
    if (!in.prune(keep, why)) {
        in.close();
        return S3EntryResult::Failed;
    }
    switch (in.commit(why)) {
    case IncomingEntry::Status::Ready: return S3EntryResult::Done;
    case IncomingEntry::Status::Exists:
        *why = S3TransferText::tr("Already in %1; left as it is.").arg(displayName(root));
        return S3EntryResult::Exists;
    case IncomingEntry::Status::Busy: return S3EntryResult::Busy;
    case IncomingEntry::Status::Failed: break;
    }
    return S3EntryResult::Failed;
}

QString busyWords()
{
    return S3TransferText::tr("Another transfer or a compile is writing this entry; it was left alone. Try again when it ends.");
}

using EntryMover = std::function<S3EntryResult(const QString &key, const std::function<void(qint64, qint64)> &progress,
                                               QString *why, int *files, qint64 *total)>;

void moveEntries(QVector<TransferItem> &items, TransferReporter &reporter, int parallel, const std::atomic_bool *stop,
                 QVector<S3EntryResult> *results, const EntryMover &move)
{
    QVector<S3EntryResult> res(items.size(), S3EntryResult::Stopped);
    std::mutex mutex;
    parallelFor(int(items.size()), std::clamp(parallel, 1, 16), stop, [&](int i) {
        QString key;
        {
            std::lock_guard lock(mutex);
            if (items[i].finished())
                return;
            key = items[i].key;
            items[i].state = State::Running;
        }
        reporter.itemStarted(i, -1);
        QString why;
        int files = 0;
        qint64 total = -1;
        std::atomic_bool announced{false};  // the parts of an upload report from their threads
        S3EntryResult r = S3EntryResult::Failed;
        if (!isTransferableKey(key))
            why = S3TransferText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        else
            r = move(key, [&](qint64 done, qint64 all) {
                if (all >= 0 && !announced.exchange(true))
                    reporter.itemStarted(i, all);
                reporter.itemProgress(i, done);
            }, &why, &files, &total);
        res[i] = r;
        std::lock_guard lock(mutex);
        TransferItem &it = items[i];
        it.files = files;
        it.bytesTotal = total;
        switch (r) {
        case S3EntryResult::Done: it.state = State::Done, it.bytesDone = qMax<qint64>(0, total), it.message.clear(); break;
        case S3EntryResult::Exists:
        case S3EntryResult::NotSuccess: it.state = State::Skipped, it.message = why; break;
        case S3EntryResult::Busy: it.state = State::Failed, it.message = why.isEmpty() ? busyWords() : why; break;
        case S3EntryResult::Failed: it.state = State::Failed, it.message = why; break;
        case S3EntryResult::Stopped: it.state = State::Pending; return;
        }
        reporter.itemFinished(i, it.state, it.message);
    });
    if (results)
        *results = res;
}

}  // namespace

qint64 s3PartSize(qint64 size)
{
    constexpr qint64 base = 8LL << 20;
    constexpr qint64 maxParts = 10000;
    qint64 part = base;
    while ((size + part - 1) / part > maxParts)
        part *= 2;
    return part;
}

void uploadEntriesToS3(const s3::S3Client &client, const QString &root, QVector<TransferItem> &items,
                       TransferReporter &reporter, const QString &stateDir, int parallel, const std::atomic_bool *stop,
                       QVector<S3EntryResult> *results)
{
    moveEntries(items, reporter, parallel, stop, results,
                [&](const QString &key, const auto &progress, QString *why, int *files, qint64 *total) {
                    return uploadEntry(client, root, key, stateDir, progress, stop, why, files, total);
                });
}

void downloadEntriesFromS3(const s3::S3Client &client, const QString &root, QVector<TransferItem> &items,
                           TransferReporter &reporter, int parallel, const std::atomic_bool *stop,
                           QVector<S3EntryResult> *results)
{
    StagingLeftovers leftovers;
    moveEntries(items, reporter, parallel, stop, results,
                [&](const QString &key, const auto &progress, QString *why, int *files, qint64 *total) {
                    return downloadEntry(client, root, key, &leftovers, progress, stop, why, files, total);
                });
}

bool isS3Location(const StoreLocation &place)
{
    return place.kind == s3::s3StoreKind();
}

std::unique_ptr<s3::S3Client> s3ClientFor(const StoreLocation &place, QString *error)
{
    s3::S3Location where;
    if (!s3::S3Location::parse(place.path, &where, error))
        return nullptr;
    auto client = std::make_unique<s3::S3Client>(s3::resolveAwsSettings(), where);
    if (!client->usable(error))
        return nullptr;
    return client;
}

}  // namespace ingot
