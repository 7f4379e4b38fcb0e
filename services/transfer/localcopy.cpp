#include "services/transfer/localcopy.h"

#include "services/cache/cachescanner.h"
#include "services/stores/storefactory.h"
#include "services/transfer/entryfiles.h"
#include "services/transfer/entrystaging.h"
#include "services/util/errnotext.h"
#include "services/util/fdio.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct LocalCopyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::LocalCopy)
};

using State = TransferItem::State;

// Makes the folders of `rel` ("a/b/file") below the staging folder, one at a time.
bool makeParents(int stagingFd, const QByteArray &rel, QString *why)
{
    for (qsizetype at = rel.indexOf('/'); at > 0; at = rel.indexOf('/', at + 1)) {
        if (::mkdirat(stagingFd, rel.left(at).constData(), 0700) != 0 && errno != EEXIST) {
            *why = LocalCopyText::tr("%1: %2").arg(displayName(nameFromBytes(rel.left(at))), describeErrno(errno));
            return false;
        }
    }
    return true;
}

// One file's bytes from its descriptor into a new file of the staging folder.
bool copyFile(int stagingFd, const EntryFile &f, const std::atomic_bool *stop, QString *why)
{
    const int out = ::openat(stagingFd, f.name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                             (f.mode & 0777) | 0600);
    if (out < 0) {
        *why = LocalCopyText::tr("%1: %2").arg(displayName(nameFromBytes(f.name)), describeErrno(errno));
        return false;
    }
    QByteArray block(1 << 20, Qt::Uninitialized);
    bool ok = true;
    for (qint64 at = 0; ok && at < f.size;) {
        if (stop && *stop) {
            ok = false;
            break;
        }
        const qint64 n = std::min<qint64>(block.size(), f.size - at);
        const ssize_t got = ::pread(f.fd, block.data(), size_t(n), off_t(at));
        if (got <= 0 || !writeAll(out, block.constData(), size_t(got))) {
            *why = LocalCopyText::tr("%1: %2").arg(displayName(nameFromBytes(f.name)),
                                                   got == 0 ? LocalCopyText::tr("shorter than listed") : describeErrno(errno));
            ok = false;
            break;
        }
        at += got;
    }
    ::close(out);
    return ok;
}

// The whole entry, or nothing of it.
State copyOne(const QString &fromRoot, const QString &toRoot, CacheScanner &source, TransferItem &it,
              const std::atomic_bool *stop, QString *why)
{
    if (!isTransferableKey(it.key)) {
        *why = LocalCopyText::tr("Not a cache entry's name: %1").arg(displayName(it.key));
        return State::Failed;
    }
    bool vanished = false;
    const CacheModule m = source.scanModule(it.key.section(QLatin1Char('/'), 0, 0), it.key.section(QLatin1Char('/'), 1), &vanished, why);
    if (vanished || !why->isEmpty()) {
        if (vanished)
            *why = LocalCopyText::tr("Not in %1.").arg(displayName(fromRoot));
        return State::Failed;
    }
    if (m.state != ModuleState::Success) {
        *why = notSuccessWhy(m.state);
        return State::Skipped;
    }
    EntryFiles files;
    if (!files.open(fromRoot, it.key, EntryFiles::Names::All, why))
        return State::Failed;
    IncomingEntry incoming;
    switch (IncomingEntry::open(toRoot, it.key, &incoming, why)) {
    case IncomingEntry::Status::Ready: break;
    case IncomingEntry::Status::Exists:
        *why = LocalCopyText::tr("Already in %1; left as it is.").arg(displayName(toRoot));
        return State::Skipped;
    case IncomingEntry::Status::Busy:
        *why = LocalCopyText::tr("Another transfer is writing this entry; it was left alone. Try again when that one ends.");
        return State::Failed;
    case IncomingEntry::Status::Failed: return State::Failed;
    }
    if (!incoming.prune({}, why)) {  // a staging adopted from a copy cut short: start it over
        incoming.abandon();
        return State::Failed;
    }
    it.bytesTotal = 0;
    for (const EntryFile &f : files.files())
        it.bytesTotal += f.dir ? 0 : f.size;
    for (const EntryFile &f : files.files()) {
        const bool made = makeParents(incoming.stagingFd(), f.name, why)
                          && (f.dir ? (::mkdirat(incoming.stagingFd(), f.name.constData(), 0700) == 0 || errno == EEXIST)
                                    : copyFile(incoming.stagingFd(), f, stop, why));
        if (!made) {
            incoming.abandon();
            return stop && *stop ? State::Pending : State::Failed;
        }
        it.files += f.dir ? 0 : 1;
    }
    switch (incoming.commit(why)) {
    case IncomingEntry::Status::Ready: return State::Done;
    case IncomingEntry::Status::Exists:
        *why = LocalCopyText::tr("Already in %1; left as it is.").arg(displayName(toRoot));
        return State::Skipped;
    case IncomingEntry::Status::Busy:
    case IncomingEntry::Status::Failed: break;
    }
    return State::Failed;
}
}  // namespace

void copyLocalEntries(const QString &fromRoot, const QString &toRoot, QVector<TransferItem> &items,
                      TransferReporter &reporter, const std::atomic_bool *stop)
{
    QString error;
    const std::unique_ptr<CacheStore> store = makeStore(StoreLocation::local(fromRoot), &error);
    if (!store || !store->open(&error)) {
        for (int i = 0; i < items.size(); ++i)
            if (!items[i].finished()) {
                items[i].state = State::Failed;
                items[i].message = LocalCopyText::tr("The source cache cannot be read: %1").arg(error);
                reporter.itemFinished(i, State::Failed, items[i].message);
            }
        return;
    }
    CacheScanner scanner(*store);
    for (int i = 0; i < items.size() && !(stop && *stop); ++i) {
        TransferItem &it = items[i];
        if (it.finished())
            continue;
        reporter.itemStarted(i, -1);
        QString why;
        it.files = 0;
        const State s = copyOne(fromRoot, toRoot, scanner, it, stop, &why);
        if (s == State::Pending) {
            it.state = State::Pending;
            break;
        }
        it.state = s;
        it.message = why;
        if (s == State::Done) {
            it.bytesDone = it.bytesTotal;
            reporter.itemProgress(i, it.bytesDone);
        }
        reporter.itemFinished(i, s, why);
    }
}

}  // namespace ingot
