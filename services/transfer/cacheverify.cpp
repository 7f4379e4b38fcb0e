#include "services/transfer/cacheverify.h"

#include "services/hub/hubcommit.h"
#include "services/s3/s3client.h"
#include "services/transfer/etagdigest.h"
#include "services/transfer/s3transfer.h"
#include "services/transfer/entryfiles.h"
#include "services/util/errnotext.h"
#include "services/util/fdio.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QHash>
#include <QMap>

#include <algorithm>

namespace ingot {

namespace {

struct VerifyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CacheVerify)
};

// One compiler folder's files on the Hub, by path relative to the folder.
using Listing = QHash<QString, TreeEntry>;

bool isFolder(const TreeEntry &t)
{
    return t.isDir;
}
bool isFolder(const s3::S3Object &)
{
    return false;
}

// A file and the other place's copy by size; Differs with `text` (%1 here, %2 there) when the sizes are not equal.
VerifiedFile bySize(const EntryFile &f, qint64 remoteSize, const QString &text)
{
    VerifiedFile v;
    v.name = QString::fromUtf8(f.name);
    v.localSize = f.size;
    v.remoteSize = remoteSize;
    if (f.size != remoteSize) {
        v.verdict = VerifiedFile::Verdict::Differs;
        v.why = text.arg(f.size).arg(remoteSize);
    }
    return v;
}

VerifiedFile compareS3(const EntryFile &f, const s3::S3Object &remote, const std::atomic_bool *cancel)
{
    VerifiedFile v = bySize(f, remote.size, VerifyText::tr("%1 bytes here, %2 in S3"));
    if (v.verdict != VerifiedFile::Verdict::Same)
        return v;
    EtagDigest digest(s3PartSize(f.size));
    QByteArray buf(1 << 20, Qt::Uninitialized);
    for (qint64 at = 0; at < f.size;) {
        const qint64 n = std::min<qint64>(buf.size(), f.size - at);
        if ((cancel && cancel->load()) || !readAllAt(f.fd, buf.data(), std::size_t(n), std::uint64_t(at))) {
            v.verdict = VerifiedFile::Verdict::Differs;
            v.why = VerifyText::tr("cannot be read here: %1").arg(errno ? describeErrno(errno) : VerifyText::tr("the file is shorter than it was"));
            return v;
        }
        digest.add(buf.constData(), n);
        at += n;
    }
    if (!digest.checkable(remote.etag)) {
        v.sizeOnly = true;
        v.why = VerifyText::tr("the same size; S3's ETag %1 is of a shape Ingot cannot recompute (SSE-KMS, or another "
                               "part size)").arg(displayName(QString::fromLatin1(remote.etag.left(40))));
        return v;
    }
    if (!digest.matches(remote.etag)) {
        v.verdict = VerifiedFile::Verdict::Differs;
        v.why = VerifyText::tr("ETag %1 in S3 is not the MD5 of the file here").arg(displayName(QString::fromLatin1(remote.etag.left(40))));
    }
    return v;
}

VerifiedFile compareHub(const EntryFile &f, const TreeEntry &remote, const std::atomic_bool *cancel)
{
    VerifiedFile v = bySize(f, remote.size, VerifyText::tr("%1 bytes here, %2 on the Hub"));
    if (v.verdict != VerifiedFile::Verdict::Same)
        return v;
    QString error;
    if (!remote.lfsOid.isEmpty()) {
        const QString here = sha256OfFd(f.fd, &error, cancel);
        if (here.isEmpty()) {
            v.verdict = VerifiedFile::Verdict::Differs;
            v.why = VerifyText::tr("cannot be read here: %1").arg(error);
        } else if (here.compare(remote.lfsOid, Qt::CaseInsensitive) != 0) {
            v.verdict = VerifiedFile::Verdict::Differs;
            v.why = VerifyText::tr("sha256 %1 here, %2 on the Hub").arg(here.left(12), displayName(remote.lfsOid.left(12)));
        }
        return v;
    }
    const QString here = gitBlobIdOfFd(f.fd, f.size, &error, cancel);
    if (here.isEmpty()) {
        v.verdict = VerifiedFile::Verdict::Differs;
        v.why = VerifyText::tr("cannot be read here: %1").arg(error);
    } else if (here.compare(remote.oid, Qt::CaseInsensitive) != 0) {
        v.verdict = VerifiedFile::Verdict::Differs;
        v.why = VerifyText::tr("git blob %1 here, %2 on the Hub").arg(here.left(12), displayName(remote.oid.left(12)));
    }
    return v;
}

template<class Remote, class Compare>
VerifiedEntry verifyOne(const QString &root, const QString &key, const QHash<QString, Remote> &listing,
                        const Compare &compare, const std::atomic_bool *cancel)
{
    VerifiedEntry e;
    e.key = key;
    const int slash = key.indexOf(QLatin1Char('/'));
    const QString module = key.mid(slash + 1) + QLatin1Char('/');
    QMap<QString, Remote> there;  // this entry's files there, by name in the entry
    for (auto it = listing.cbegin(); it != listing.cend(); ++it)
        if (it.key().startsWith(module) && !isFolder(*it))
            there.insert(it.key().mid(module.size()), *it);
    if (there.isEmpty()) {
        e.verdict = VerifiedEntry::Verdict::Missing;
        e.message = VerifyText::tr("not there");
        return e;
    }
    EntryFiles files;
    QString why;
    if (!files.open(root, key, EntryFiles::Names::Compiler, &why)) {
        e.verdict = VerifiedEntry::Verdict::Unreadable;
        e.message = why;
        return e;
    }
    for (const EntryFile &f : files.files()) {
        if (f.dir)
            continue;
        const QString name = QString::fromUtf8(f.name);
        const auto it = there.constFind(name);
        if (it == there.cend()) {
            VerifiedFile v;
            v.name = name;
            v.verdict = VerifiedFile::Verdict::OnlyHere;
            v.localSize = f.size;
            e.files << v;
            continue;
        }
        e.files << compare(f, *it, cancel);
        there.remove(name);
    }
    for (auto it = there.cbegin(); it != there.cend(); ++it) {
        VerifiedFile v;
        v.name = it.key();
        v.verdict = VerifiedFile::Verdict::OnlyThere;
        v.remoteSize = it->size;
        e.files << v;
    }
    (void)cancel;
    std::sort(e.files.begin(), e.files.end(), [](const VerifiedFile &a, const VerifiedFile &b) { return a.name < b.name; });
    const bool same = std::all_of(e.files.cbegin(), e.files.cend(),
                                  [](const VerifiedFile &f) { return f.verdict == VerifiedFile::Verdict::Same; });
    e.verdict = same ? VerifiedEntry::Verdict::Same : VerifiedEntry::Verdict::Differs;
    return e;
}

}  // namespace

QString gitBlobIdOfFd(int fd, qint64 size, QString *error, const std::atomic_bool *cancel)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    QByteArray header = QByteArray("blob ") + QByteArray::number(size);
    header.append('\0');
    h.addData(header);
    QByteArray buf(1 << 20, Qt::Uninitialized);
    for (qint64 at = 0; at < size;) {
        if (cancel && cancel->load()) {
            *error = VerifyText::tr("Cancelled.");
            return {};
        }
        const qint64 n = std::min<qint64>(buf.size(), size - at);
        if (fd < 0 || !readAllAt(fd, buf.data(), std::size_t(n), std::uint64_t(at))) {
            *error = errno ? describeErrno(errno) : VerifyText::tr("the file is shorter than it was");
            return {};
        }
        h.addData(QByteArrayView(buf.constData(), n));
        at += n;
    }
    return QString::fromLatin1(h.result().toHex());
}

bool verifyAgainstHub(const HubClient &hub, const QString &repo, const QString &revision, const QString &root,
                      const QStringList &keys, QVector<VerifiedEntry> *out, HubError *err, const std::atomic_bool *cancel)
{
    out->clear();
    QMap<QString, QStringList> byVersion;
    for (const QString &k : keys)
        byVersion[k.section(QLatin1Char('/'), 0, 0)] << k;
    for (auto it = byVersion.cbegin(); it != byVersion.cend(); ++it) {
        const QVector<TreeEntry> tree = hub.listTree(repo, revision, it.key(), true, err, cancel);
        Listing listing;
        if (err->kind == HubError::Kind::EntryNotFound) {
            *err = HubError();  // no such compiler folder: every entry of it is missing
        } else if (!err->ok()) {
            out->clear();
            return false;
        }
        const QString prefix = it.key() + QLatin1Char('/');
        for (const TreeEntry &t : tree)
            if (t.path.startsWith(prefix))
                listing.insert(t.path.mid(prefix.size()), t);
        for (const QString &k : it.value())
            out->append(verifyOne(root, k, listing, compareHub, cancel));
    }
    return true;
}

bool verifyAgainstS3(const s3::S3Access &s3, const QString &root, const QStringList &keys, QVector<VerifiedEntry> *out,
                     QString *error, const std::atomic_bool *cancel)
{
    out->clear();
    QMap<QString, QStringList> byVersion;
    for (const QString &k : keys)
        byVersion[k.section(QLatin1Char('/'), 0, 0)] << k;
    for (auto it = byVersion.cbegin(); it != byVersion.cend(); ++it) {
        const QString prefix = s3.location().prefix + it.key() + QLatin1Char('/');
        s3::S3Listing listing;
        if (!s3.list(prefix, QString(), &listing, error, cancel)) {
            out->clear();
            return false;
        }
        QHash<QString, s3::S3Object> objects;
        for (const s3::S3Object &o : std::as_const(listing.objects))
            if (o.key.startsWith(prefix))
                objects.insert(o.key.mid(prefix.size()), o);
        for (const QString &k : it.value())
            out->append(verifyOne(root, k, objects, compareS3, cancel));
    }
    return true;
}

const char *verdictName(VerifiedEntry::Verdict v)
{
    switch (v) {
    case VerifiedEntry::Verdict::Same: return "same";
    case VerifiedEntry::Verdict::Differs: return "differs";
    case VerifiedEntry::Verdict::Missing: return "missing";
    case VerifiedEntry::Verdict::Unreadable: return "unreadable";
    }
    return "";
}

const char *verdictName(VerifiedFile::Verdict v)
{
    switch (v) {
    case VerifiedFile::Verdict::Same: return "same";
    case VerifiedFile::Verdict::Differs: return "differs";
    case VerifiedFile::Verdict::OnlyHere: return "only-here";
    case VerifiedFile::Verdict::OnlyThere: return "only-there";
    }
    return "";
}

}  // namespace ingot
