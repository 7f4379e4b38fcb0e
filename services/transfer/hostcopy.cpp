#include "services/transfer/hostcopy.h"

#include "services/util/sha256.h"

#include "services/cache/cachescanner.h"
#include "services/cache/classify.h"
#include "services/cache/compilerversion.h"
#include "services/cache/cachetypes.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshconnection.h"
#include "services/remote/sshshell.h"
#include "services/remote/sshstream.h"
#include "services/stores/storefactory.h"
#include "services/transfer/entryfiles.h"
#include "services/transfer/entrystaging.h"
#include "services/transfer/hostcopyscripts.h"
#include "services/transfer/tarstream.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/parallel.h"
#include "services/util/relpath.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QMutex>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

using namespace hostcopy;

namespace {

struct HostCopyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HostCopy)
};

constexpr qint64 kChunk = 1 << 20;
constexpr int kBlock = kTarBlock;
constexpr qint64 kMaxHashList = 64 << 20;
constexpr int kParallelEntries = 4;  // entries copied at once

// What a host script's exit says, for a person. `shown`: the entry as "host:root/key".
HostCopyResult hostFailure(int code, const SshStream &s, SshConnection &connection, const QString &shown, QString *error)
{
    if (s.wasStopped()) {
        *error = HostCopyText::tr("Stopped.");
        return HostCopyResult::Stopped;
    }
    if (s.timedOut()) {
        *error = sshErrorText(SshError::Timeout, connection.host().toString());
        return HostCopyResult::Failed;
    }
    const QString said = displayText(nameFromBytes(s.err().trimmed().right(2000)));
    switch (code) {
    case ExitExists:
        *error = HostCopyText::tr("%1 exists already; it was left as it is.").arg(shown);
        return HostCopyResult::Exists;
    case ExitBusy:
        *error = HostCopyText::tr("Another transfer is writing %1 (its staging folder is in use); nothing was done to it.").arg(shown);
        return HostCopyResult::Busy;
    case ExitRootUnusable:
        *error = HostCopyText::tr("The cache folder for %1 cannot be opened or created on the host.").arg(shown);
        return HostCopyResult::Failed;
    case ExitNoEntry:
        *error = HostCopyText::tr("%1 does not exist on the host.").arg(shown);
        return HostCopyResult::Failed;
    case ExitLinked:
        *error = HostCopyText::tr("%1: its compiler-version folder or the entry is a link (or not a folder); links are never followed.").arg(shown);
        return HostCopyResult::Failed;
    case ExitLinkOutside:
        *error = HostCopyText::tr("%1 holds links that lead outside the cache (not into the Hugging Face hub cache) or "
                                  "nowhere; Ingot does not follow them, nothing was copied: %2").arg(shown, said);
        return HostCopyResult::Failed;
    case ExitNoStaging:
        *error = HostCopyText::tr("Cannot create a staging folder beside %1 on the host (permissions, a full disk?).").arg(shown);
        return HostCopyResult::Failed;
    case ExitChanged:
        *error = HostCopyText::tr("%1 changed on the host while it was copied (a file's size or times moved): nothing was kept.").arg(shown);
        return HostCopyResult::Failed;
    case ExitTarFailed:
        *error = HostCopyText::tr("Copying %1 failed on the host: %2").arg(shown, said.isEmpty() ? HostCopyText::tr("tar failed.") : said);
        return HostCopyResult::Failed;
    default:
        break;
    }
    SshError e = code == 255 || code < 0 ? classifySshStderr(s.err()) : SshError::None;
    if (e == SshError::None && (code == 255 || code < 0))
        e = connection.check() ? SshError::Other : SshError::ConnectionLost;
    if (e == SshError::ConnectionLost)
        connection.close();  // the next entry connects afresh
    if (e != SshError::None)
        *error = HostCopyText::tr("Copying %1 failed: %2").arg(shown, sshErrorText(e, connection.host().toString()));
    else
        *error = said.isEmpty() ? HostCopyText::tr("Copying %1 failed on the host (status %2).").arg(shown).arg(code)
                                : HostCopyText::tr("Copying %1 failed on the host (status %2): %3").arg(shown).arg(code).arg(said);
    return HostCopyResult::Failed;
}

bool splitKey(const QString &key, QString *version, QString *module)
{
    if (!isTransferableKey(key))
        return false;
    const int slash = key.indexOf(QLatin1Char('/'));
    *version = key.left(slash);
    *module = key.mid(slash + 1);
    return true;
}

bool connectFor(SshConnection &connection, QString *error)
{
    // A master whose server went away is noticed here, not halfway through a stream.
    if (connection.check() || connection.connect())
        return true;
    *error = connection.errorText();
    return false;
}

// ---- the tar reader reads from ssh's stdout ----

class StreamSource final : public TarSource
{
public:
    explicit StreamSource(SshStream &s) : m_s(s) {}
    bool readAtLeast(qint64 want) override { return m_s.readAtLeast(want); }
    const char *data() const override { return m_s.data(); }
    qint64 available() const override { return m_s.available(); }
    void consume(qint64 n) override { m_s.consume(n); }

private:
    SshStream &m_s;
};

QString shownEntry(const SshConnection &connection, const QString &root, const QString &key)
{
    return displayName(connection.host().toString() + QLatin1Char(':') + root + QLatin1Char('/') + key);
}

QString mismatchText(const QString &shown, const QByteArray &name)
{
    return name.isEmpty() ? HostCopyText::tr("%1: the files the host has differ from those sent: nothing was kept.").arg(shown)
                          : HostCopyText::tr("%1: the sha256 of %2 differs between this machine and the host (corrupted in transit, "
                               "or it changed meanwhile): nothing was kept.")
                                .arg(shown, displayName(nameFromBytes(name)));
}

// Which file differs between the two lists; "" when the sets of names differ; null when they agree.
std::optional<QByteArray> firstDifference(const QHash<QByteArray, QByteArray> &mine,
                                          const QHash<QByteArray, QByteArray> &theirs)
{
    if (mine.size() != theirs.size())
        return QByteArray();
    for (auto it = mine.cbegin(); it != mine.cend(); ++it) {
        const auto t = theirs.constFind(it.key());
        if (t == theirs.cend())
            return QByteArray();
        if (t.value() != it.value())
            return it.key();
    }
    return std::nullopt;
}

enum class Sending {
    Sent,    // every byte went
    Broken,  // ssh took no more: its status says why
    Failed,  // a file here could not be read or changed meanwhile: words in *error, ssh killed
};

// Streams the archive of `local` into `s`: each member's header, its bytes read from its descriptor (their sha256
// into sums[k] on the way), the padding, the two end blocks.
Sending sendArchive(SshStream &s, const EntryFiles &local, QVector<QByteArray> &sums, qint64 total,
                    const HostCopyProgress &progress, QString *error)
{
    qint64 done = 0;
    QByteArray buf;
    for (qsizetype k = 0; k < local.files().size(); ++k) {
        const EntryFile &f = local.files()[k];
        const QByteArray name = f.name + (f.dir ? "/" : "");
        const QByteArray h = tarMemberHeader(name, f.dir ? '5' : '0', f.dir ? 0 : quint64(f.size), f.mode, f.mtime);
        if (!s.write(h.constData(), h.size()))
            return Sending::Broken;
        if (f.dir)
            continue;
        Sha256 sha;
        qint64 left = f.size;
        buf.resize(kChunk);
        while (left > 0) {
            const ssize_t r = ::read(f.fd, buf.data(), size_t(std::min(left, kChunk)));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                s.kill();
                *error = r < 0 ? HostCopyText::tr("Cannot read %1: %2.").arg(displayName(nameFromBytes(f.name)), describeErrno(errno))
                               : HostCopyText::tr("%1 became shorter while it was sent: nothing was kept.").arg(displayName(nameFromBytes(f.name)));
                return Sending::Failed;
            }
            sha.addData(buf.constData(), r);
            if (!s.write(buf.constData(), r))
                return Sending::Broken;
            left -= r, done += r;
            if (progress)
                progress(done, total);
        }
        struct stat st {};
        if (::fstat(f.fd, &st) != 0 || st.st_size != f.size) {
            s.kill();
            *error = HostCopyText::tr("%1 changed while it was sent: nothing was kept.").arg(displayName(nameFromBytes(f.name)));
            return Sending::Failed;
        }
        const QByteArray pad(int(tarPadded(f.size) - f.size), '\0');
        if (!s.write(pad.constData(), pad.size()))
            return Sending::Broken;
        sums[k] = sha.result().toHex();
    }
    const QByteArray end(2 * kBlock, '\0');
    return s.write(end.constData(), end.size()) ? Sending::Sent : Sending::Broken;
}

// The host's sha256 of what it extracted, up to its "END". False when that never came (the host ended first, the
// list grew past its bound, a stop or a timeout).
bool readHostList(SshStream &s, QHash<QByteArray, QByteArray> *theirs)
{
    for (;;) {
        const QByteArrayView seen(s.data(), s.available());
        // "END" on a line of its own: a file name may end in END, a sha256sum line never is just that.
        if (seen == QByteArrayView("END\0", 4) || seen.endsWith(QByteArrayView("\0END\0", 5))) {
            const bool parsed = parseHashList(seen.chopped(4), theirs);
            s.consume(s.available());
            return parsed;
        }
        if (s.outputEnded() || s.available() > kMaxHashList || !s.readAtLeast(s.available() + 1))
            return false;
    }
}

}  // namespace

HostCopyResult sendFolderToHost(SshConnection &connection, const QString &localRoot, const QString &remoteRoot,
                                const QString &key, const HostCopyProgress &progress, const std::atomic_bool *stop,
                                QString *error, int *fileCount)
{
    QString version, module;
    const QString shown = shownEntry(connection, remoteRoot, key);
    if (!splitKey(key, &version, &module)) {
        *error = HostCopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        return HostCopyResult::Failed;
    }
    // Push's rules for what may leave this machine; every byte sent is read from these descriptors.
    EntryFiles local;
    if (!local.open(localRoot, key, EntryFiles::Names::All, error)) {
        *error = displayName(localRoot + QLatin1Char('/') + key) + QStringLiteral(": ") + *error;
        return HostCopyResult::Failed;
    }
    QVector<QByteArray> sums(local.files().size());
    qint64 archive = 2 * kBlock, total = 0;
    int files = 0;
    for (const EntryFile &f : local.files()) {
        archive += tarMemberHeader(f.name + (f.dir ? "/" : ""), f.dir ? '5' : '0', 0, 0, 0).size();
        if (!f.dir)
            archive += tarPadded(f.size), total += f.size, ++files;
    }
    if (fileCount)
        *fileCount = files;
    if (!connectFor(connection, error))
        return HostCopyResult::Failed;
    const QString command = SshShell::commandFor(receiveScript, {nameToBytes(remoteRoot), nameToBytes(version),
                                                                 nameToBytes(module), QByteArray::number(archive)});
    SshStream s(stop);
    if (!s.start(connection.streamCommand(command), error))
        return HostCopyResult::Failed;
    if (progress)
        progress(0, total);
    switch (sendArchive(s, local, sums, total, progress, error)) {
    case Sending::Failed:
        return HostCopyResult::Failed;
    case Sending::Broken:
        return hostFailure(s.finish(), s, connection, shown, error);
    case Sending::Sent:
        break;
    }
    QHash<QByteArray, QByteArray> theirs;
    const bool listed = readHostList(s, &theirs);
    if (!listed)
        return hostFailure(s.finish(), s, connection, shown, error);
    QHash<QByteArray, QByteArray> mine;
    for (qsizetype k = 0; k < local.files().size(); ++k)
        if (!local.files()[k].dir)
            mine.insert(local.files()[k].name, sums[k]);
    if (const auto diff = firstDifference(mine, theirs)) {
        const QByteArray no("abort\n");
        s.write(no.constData(), no.size());
        s.finish();
        *error = mismatchText(shown, *diff);
        return HostCopyResult::Failed;
    }
    const QByteArray go("commit\n");
    s.ignoreStop();
    if (!s.write(go.constData(), go.size()))
        return hostFailure(s.finish(), s, connection, shown, error);
    s.closeInput();
    if (!s.readToEnd(1 << 16) && (s.wasStopped() || s.timedOut()))
        return hostFailure(-1, s, connection, shown, error);
    const bool confirmed = QByteArrayView(s.data(), s.available()) == QByteArrayView("DONE\0", 5);
    const int code = s.finish();
    if (code == 0 && confirmed)
        return HostCopyResult::Done;
    return hostFailure(code == 0 ? ExitTarFailed : code, s, connection, shown, error);
}

ListedEntry listedEntry(const CacheModule &module)
{
    ListedEntry out;
    for (const CacheFile &f : module.files) {
        if (f.is(CacheFile::Directory))
            continue;
        out.sizes.insert(nameToBytes(f.name), std::max<qint64>(0, f.size));
        out.total += std::max<qint64>(0, f.size);
    }
    return out;
}

HostCopyResult fetchEntryFromHost(SshConnection &connection, const QString &remoteRoot, const QString &key,
                                  const ListedEntry &listed, const QString &localFolder,
                                  const HostCopyProgress &progress, const std::atomic_bool *stop, QString *error,
                                  int *fileCount)
{
    QString version, module;
    const QString shown = shownEntry(connection, remoteRoot, key);
    if (!splitKey(key, &version, &module)) {
        *error = HostCopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        return HostCopyResult::Failed;
    }
    const int dfd = ::open(nameToBytes(localFolder).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        *error = HostCopyText::tr("Cannot open %1: %2.").arg(displayName(localFolder), describeErrno(errno));
        return HostCopyResult::Failed;
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{dfd};
    if (!connectFor(connection, error))
        return HostCopyResult::Failed;
    const QString command
        = SshShell::commandFor(sendScript, {nameToBytes(remoteRoot), nameToBytes(version), nameToBytes(module)});
    SshStream s(stop);
    if (!s.start(connection.streamCommand(command), error))
        return HostCopyResult::Failed;
    StreamSource source(s);
    TarReceiver rx(dfd, source, progress, listed);
    QString why;
    if (!rx.run(&why)) {
        rx.undo();
        // The host ended first (no such entry, a link, the connection): its status says more than a short archive.
        if (s.outputEnded() && !s.wasStopped() && !s.timedOut()) {
            const int code = s.finish();
            if (code != 0)
                return hostFailure(code, s, connection, shown, error);
        }
        if (why.isEmpty())
            return hostFailure(-1, s, connection, shown, error);
        s.kill();
        *error = HostCopyText::tr("%1: %2").arg(shown, why);
        return HostCopyResult::Failed;
    }
    if (fileCount)
        *fileCount = int(rx.hashes.size());
    // Every byte is here: the host hashes its files now.
    const QByteArray go("go\n");
    s.write(go.constData(), go.size());
    s.closeInput();
    const bool whole = s.readToEnd(kMaxHashList);
    QByteArrayView list(s.data(), s.available());
    while (list.startsWith('\0'))
        list = list.sliced(1);  // the archive's padding to its record size
    QHash<QByteArray, QByteArray> theirs;
    const bool parsed = whole && parseHashList(list, &theirs);
    const int code = s.finish();
    if (!whole || code != 0 || !parsed) {
        rx.undo();
        if (code == 0 && whole) {
            *error = HostCopyText::tr("%1: the host's sha256 list could not be read: nothing was kept.").arg(shown);
            return HostCopyResult::Failed;
        }
        return hostFailure(code, s, connection, shown, error);
    }
    if (const auto diff = firstDifference(rx.hashes, theirs)) {
        rx.undo();
        *error = mismatchText(shown, *diff);
        return HostCopyResult::Failed;
    }
    return HostCopyResult::Done;
}

namespace {

// The entry at the source, checked: SUCCESS only. Done when it may go; NotSuccess or Failed with why in *error.
HostCopyResult checkSource(CacheStore &store, const QString &key, CacheModule *module, QString *error)
{
    const int slash = key.indexOf(QLatin1Char('/'));
    CacheScanner scanner(store);
    bool vanished = false;
    QString listError;
    *module = scanner.scanModule(key.left(slash), key.mid(slash + 1), &vanished, &listError);
    if (vanished) {
        *error = HostCopyText::tr("%1 does not exist in %2.").arg(displayName(key), displayName(store.displayRoot()));
        return HostCopyResult::Failed;
    }
    if (!listError.isEmpty()) {
        *error = listError;
        return HostCopyResult::Failed;
    }
    if (!module->isModule()) {
        *error = HostCopyText::tr("%1 is not a compiled module.").arg(displayName(key));
        return HostCopyResult::Failed;
    }
    if (module->state != ModuleState::Success) {
        *error = notSuccessWhy(module->state);
        return HostCopyResult::NotSuccess;
    }
    return HostCopyResult::Done;
}


// One entry of copyEntries(); the store is this thread's own.
HostCopyResult copyOne(const StoreLocation &from, const StoreLocation &to, bool up, SshConnection &connection,
                       CacheStore &source, TransferItem &item, int i, TransferReporter &reporter,
                       const std::atomic_bool *stop, QString *error, StagingLeftovers *leftovers)
{
    if (!isTransferableKey(item.key)) {
        *error = HostCopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(item.key));
        return HostCopyResult::Failed;
    }
    if (up && QFileInfo(from.path + QLatin1Char('/') + item.key.section(QLatin1Char('/'), 0, 0)).isSymLink()) {
        *error = HostCopyText::tr("%1: its compiler-version folder is a link; links are never followed.").arg(displayName(item.key));
        return HostCopyResult::Failed;
    }
    CacheModule module;
    if (const HostCopyResult checked = checkSource(source, item.key, &module, error); checked != HostCopyResult::Done)
        return checked;
    item.state = TransferItem::State::Running;
    item.bytesTotal = module.size + module.linkedSize;
    item.bytesDone = 0;
    item.files = module.fileCount();
    reporter.itemStarted(i, item.bytesTotal);
    const HostCopyProgress progress = [&](qint64 done, qint64) {
        item.bytesDone = done;
        reporter.itemProgress(i, done);
    };
    if (up)
        return sendFolderToHost(connection, from.path, to.path, item.key, progress, stop, error, &item.files);
    IncomingEntry incoming;
    QString why;
    switch (IncomingEntry::open(to.path, item.key, &incoming, &why, leftovers)) {
    case IncomingEntry::Status::Exists:
        *error = HostCopyText::tr("%1 exists already in %2; it was left as it is.").arg(displayName(item.key), displayName(to.path));
        return HostCopyResult::Exists;
    case IncomingEntry::Status::Busy:
        *error = why;
        return HostCopyResult::Busy;
    case IncomingEntry::Status::Failed:
        *error = why;
        return HostCopyResult::Failed;
    case IncomingEntry::Status::Ready:
        break;
    }
    // An adopted staging may hold a pull's partial files: a copy starts from nothing.
    if (!incoming.prune({}, &why)) {
        incoming.abandon();
        *error = why;
        return HostCopyResult::Failed;
    }
    // No member larger than the listing just taken showed, nor more bytes than the entry's size.
    const HostCopyResult r = fetchEntryFromHost(connection, from.path, item.key, listedEntry(module), incoming.stagingPath(),
                                                progress, stop, error, &item.files);
    if (r != HostCopyResult::Done) {
        incoming.abandon();
        return r;
    }
    switch (incoming.commit(&why)) {
    case IncomingEntry::Status::Ready:
        return HostCopyResult::Done;
    case IncomingEntry::Status::Exists:
        *error = HostCopyText::tr("%1 appeared in %2 meanwhile; it was left as it is.").arg(displayName(item.key), displayName(to.path));
        return HostCopyResult::Exists;
    default:
        *error = why;
        return HostCopyResult::Failed;
    }
}

}  // namespace

void copyEntries(const StoreLocation &from, const StoreLocation &to, QVector<TransferItem> &items,
                 TransferReporter &reporter, const std::atomic_bool *stop, QVector<HostCopyResult> *results)
{
    const int n = int(items.size());
    // Workers write distinct elements: no copy-on-write detach may happen on their threads.
    TransferItem *const item = items.data();
    HostCopyResult *result = nullptr;
    if (results) {
        results->fill(HostCopyResult::Failed, n);
        result = results->data();
    }
    auto finish = [&](int i, TransferItem::State state, const QString &message) {
        item[i].state = state;
        item[i].message = message;
        reporter.itemFinished(i, state, message);
    };
    auto failAll = [&](const QString &message) {
        for (int i = 0; i < n; ++i)
            if (!item[i].finished())
                finish(i, TransferItem::State::Failed, message);
    };
    const bool up = from.isLocal() && to.kind == sshStoreKind();
    const bool down = from.kind == sshStoreKind() && to.isLocal();
    if (!up && !down) {
        failAll(HostCopyText::tr("Copying from %1 to %2 is not supported: copies go between this machine and a host.")
                    .arg(displayName(from.display()), displayName(to.display())));
        return;
    }
    QString error;
    const std::shared_ptr<SshConnection> connection
        = RemoteHosts::instance().connection((up ? to : from).host, &error);
    if (!connection) {
        failAll(error);
        return;
    }
    if (!connectFor(*connection, &error)) {
        failAll(error);
        return;
    }
    // A few entries at once: one costs a listing, a master check and a session (round trips), beyond its bytes.
    // Each worker reads the source through a store of its own: a free one is reused, else one is opened.
    QMutex storesMutex;
    std::vector<std::unique_ptr<CacheStore>> stores;
    StagingLeftovers leftovers;  // each version folder read once for staging folders, not once per entry
    QString setupError;
    const ParallelOutcome outcome = parallelFor(n, kParallelEntries, stop, [&](int i) {
        TransferItem &it = item[i];
        if (it.finished())
            return true;
        std::unique_ptr<CacheStore> source;
        {
            QMutexLocker lock(&storesMutex);
            if (!stores.empty()) {
                source = std::move(stores.back());
                stores.pop_back();
            }
        }
        if (!source) {
            QString e;
            source = makeStore(from, &e);
            if (!source || !source->open(&e)) {
                QMutexLocker lock(&storesMutex);
                setupError = HostCopyText::tr("The source cache cannot be read: %1").arg(e);
                return false;
            }
        }
        QString why;
        const HostCopyResult r = copyOne(from, to, up, *connection, *source, it, i, reporter, stop, &why, &leftovers);
        {
            QMutexLocker lock(&storesMutex);
            stores.push_back(std::move(source));
        }
        if (result)
            result[i] = r;
        switch (r) {
        case HostCopyResult::Done:
            it.bytesDone = it.bytesTotal;
            reporter.itemProgress(i, it.bytesDone);
            finish(i, TransferItem::State::Done, QString());
            break;
        case HostCopyResult::Exists:
        case HostCopyResult::NotSuccess:
            finish(i, TransferItem::State::Skipped, why);
            break;
        case HostCopyResult::Busy:
        case HostCopyResult::Failed:
            finish(i, TransferItem::State::Failed, why);
            break;
        case HostCopyResult::Stopped:
            // Nothing of it landed: it waits to be run again.
            it.state = TransferItem::State::Pending;
            it.bytesDone = 0;
            return false;
        }
        return true;
    });
    outcome.rethrowFirst();
    if (!setupError.isEmpty())
        failAll(setupError);
}

}  // namespace ingot
