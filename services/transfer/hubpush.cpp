#include "services/transfer/hubpush.h"

#include "services/transfer/entryfiles.h"

#include "services/cache/cachescanner.h"
#include "services/hub/hubcommit.h"
#include "services/stores/storefactory.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QHash>
#include <QRandomGenerator>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <map>
#include <mutex>

namespace ingot {

namespace {
struct PushText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubPush)
};

constexpr int kMaxHeadRetries = 5;

bool cancelled(const std::atomic_bool *stop)
{
    return stop && stop->load();
}

// The entry's files that go (the compiler's, by EntryFiles' rules), opened into *open; an empty list with *why
// when the entry stays.
QVector<PushFile> filesOf(const QString &root, const QString &key, EntryFiles *open, QString *why)
{
    QVector<PushFile> out;
    if (!open->open(root, key, EntryFiles::Names::Compiler, why))
        return {};
    for (const EntryFile &f : open->files())
        out.append({key + QLatin1Char('/') + nameFromBytes(f.name), root + QLatin1Char('/') + key + QLatin1Char('/') + nameFromBytes(f.name),
                    f.size, quint64(f.dev), quint64(f.ino), f.mtime});
    return out;
}

// Entries (version/MODULE_x) present on the Hub under the compiler folders `versions`, and how many entries each
// folder holds there.
QSet<QString> hubEntries(const HubClient &hub, const QString &repo, const QString &revision, const QSet<QString> &versions,
                         QHash<QString, int> *perFolder, HubError *err, const std::atomic_bool *stop)
{
    QSet<QString> present;
    for (const QString &v : versions) {
        HubError e;
        const QVector<TreeEntry> tree = hub.listTree(repo, revision, v, true, &e, stop);
        if (e.kind == HubError::Kind::EntryNotFound)
            continue;
        if (!e.ok()) {
            *err = e;
            return {};
        }
        for (const TreeEntry &t : tree) {
            const QStringList parts = t.path.split(QLatin1Char('/'));
            if (parts.size() >= 2 && parts[0] == v) {
                const QString key = parts[0] + QLatin1Char('/') + parts[1];
                if (parts.size() == 2 && perFolder)
                    ++(*perFolder)[v];
                if (parts.size() >= 3)
                    present.insert(key);
            }
        }
    }
    return present;
}

QString versionOf(const QString &key)
{
    return key.section(QLatin1Char('/'), 0, 0);
}

// Entries in commits: about filesPerCommit files and inlineBytesPerCommit of regular content each, an entry never
// split between two.
QVector<QVector<int>> batches(const PushPlan &plan)
{
    QVector<QVector<int>> out;
    QVector<int> cur;
    int files = 0;
    qint64 bytes = 0;
    for (int i = 0; i < plan.entries.size(); ++i) {
        const PushEntry &e = plan.entries[i];
        qint64 small = 0;
        for (const PushFile &f : e.files)
            small += f.size < (1 << 20) ? f.size : 0;
        if (!cur.isEmpty() && (files + e.files.size() > plan.limits.filesPerCommit ||
                               bytes + small > plan.limits.inlineBytesPerCommit)) {
            out << cur;
            cur.clear();
            files = 0;
            bytes = 0;
        }
        cur << i;
        files += int(e.files.size());
        bytes += small;
    }
    if (!cur.isEmpty())
        out << cur;
    return out;
}

bool fatal(const HubError &e)
{
    using K = HubError::Kind;
    return e.kind == K::Offline || e.kind == K::Unauthorized || e.kind == K::Forbidden || e.kind == K::NotFound ||
           e.kind == K::RevisionNotFound || e.kind == K::Cancelled || e.kind == K::InvalidArgument;
}
}  // namespace

PushPlan planPush(const HubClient &hub, const QString &repo, const QString &revision, const QString &cacheRoot,
                  const QStringList &selected, HubError *err, const std::atomic_bool *stop, const PushLimits &limits)
{
    PushPlan plan;
    plan.limits = limits;
    *err = HubError();
    if (!checkWriteAccess(hub, repo, err, stop))
        return plan;
    QString why;
    const std::unique_ptr<CacheStore> made = makeStore(StoreLocation::local(cacheRoot), &why);
    if (!made || !made->open(&why)) {
        *err = {HubError::Kind::Storage, 0, why};
        return plan;
    }
    CacheStore &store = *made;
    CacheScanner scanner(store);
    const CacheSnapshot snap = scanner.scan(nullptr, {}, stop);
    if (cancelled(stop)) {
        *err = {HubError::Kind::Cancelled, 0, PushText::tr("Cancelled.")};
        return plan;
    }
    const QSet<QString> wanted(selected.begin(), selected.end());
    QSet<QString> versions, seen;
    QVector<const CacheModule *> candidates;
    for (const CacheModule &m : snap.modules) {
        if (!m.isModule() || (!wanted.isEmpty() && !wanted.contains(m.key())))
            continue;
        seen.insert(m.key());
        if (m.state != ModuleState::Success) {
            if (!wanted.isEmpty() || m.state != ModuleState::Empty)
                plan.skipped << PushText::tr("%1: %2").arg(displayName(m.key()), notSuccessWhy(m.state));
            continue;
        }
        if (!isTransferableKey(m.key())) {
            plan.skipped << PushText::tr("%1: not a name Ingot pushes").arg(displayName(m.key()));
            continue;
        }
        versions.insert(m.version);
        candidates << &m;
    }
    std::sort(candidates.begin(), candidates.end(), [](const CacheModule *a, const CacheModule *b) { return a->key() < b->key(); });
    for (const QString &k : selected)
        if (!seen.contains(k))
            plan.skipped << PushText::tr("%1: not a module of this cache").arg(displayName(k));
    QHash<QString, int> perFolder;
    const QSet<QString> present = hubEntries(hub, repo, revision, versions, &perFolder, err, stop);
    if (!err->ok())
        return plan;
    QHash<QString, int> adding;
    for (const CacheModule *m : candidates) {
        if (present.contains(m->key())) {
            plan.skipped << PushText::tr("%1: already on the Hub").arg(displayName(m->key()));
            continue;
        }
        QString bad;
        EntryFiles opened;  // closed again: pushEntries() opens each entry anew right before it is read
        PushEntry e{m->key(), filesOf(store.fullPath(QString()), m->key(), &opened, &bad)};
        if (e.files.isEmpty()) {
            plan.skipped << PushText::tr("%1: %2").arg(displayName(m->key()), bad.isEmpty() ? PushText::tr("no files to push") : bad);
            continue;
        }
        for (const PushFile &f : e.files)
            e.bytes += f.size;
        plan.bytes += e.bytes;
        plan.files += int(e.files.size());
        ++adding[m->version];
        plan.entries << e;
    }
    for (auto it = adding.cbegin(); it != adding.cend(); ++it) {
        const int total = perFolder.value(it.key()) + it.value();
        if (total > limits.folderEntries)
            plan.warnings << PushText::tr("%1 would hold %2 entries on the Hub, more than the %3 a Hub folder may hold: "
                                          "the Hub may refuse the commits. Push fewer entries, or use another repo.")
                                 .arg(displayName(it.key())).arg(total).arg(limits.folderEntries);
    }
    return plan;
}

QVector<TransferItem> pushItems(const PushPlan &plan)
{
    QVector<TransferItem> items;
    for (const PushEntry &e : plan.entries) {
        TransferItem it;
        it.key = e.key;
        it.bytesTotal = e.bytes;
        it.files = int(e.files.size());
        items << it;
    }
    return items;
}

namespace {

// One run of pushEntries(): checks each batch right before it goes, commits it (again on a moved head), and settles
// its items. `head` is the parent of the next commit: read once, then the commit each of ours made (so a push of
// many commits reads the head again only after a 412).
class Pusher final
{
public:
    Pusher(const HubClient &hub, const QString &repo, const QString &revision, const PushPlan &plan,
           QVector<TransferItem> &items, TransferReporter &reporter, const TransferOptions &options,
           const std::atomic_bool *stop)
        : m_hub(hub), m_repo(repo), m_revision(revision), m_plan(plan), m_items(items), m_reporter(reporter),
          m_options(options), m_stop(stop)
    {
    }

    void finish(int i, TransferItem::State s, const QString &msg)
    {
        m_items[i].state = s;
        m_items[i].message = msg;
        if (s == TransferItem::State::Done)
            m_items[i].bytesDone = m_items[i].bytesTotal;
        m_reporter.itemFinished(i, s, msg);
    }
    QVector<int> check(const QVector<int> &all, CacheStore &store, CacheScanner &scanner,
                       std::map<int, EntryFiles> &opened);
    HubError commit(QVector<int> &batch, std::map<int, EntryFiles> &opened);
    void settle(const QVector<int> &batch, const HubError &e);

private:
    void commitOnce(const QVector<int> &batch, std::map<int, EntryFiles> &opened, HubError *e);
    bool dropCommitted(QVector<int> &batch, HubError *e);

    const HubClient &m_hub;
    const QString &m_repo;
    const QString &m_revision;
    const PushPlan &m_plan;
    QVector<TransferItem> &m_items;
    TransferReporter &m_reporter;
    const TransferOptions &m_options;
    const std::atomic_bool *m_stop;
    QString m_head;
};

// Right before reading: an entry that is no longer the SUCCESS entry planned (a compile started on it, it was
// removed, its files changed) stays here. The files are opened here, once, and every byte sent (sample, hash,
// upload, commit) is read from these descriptors: a file swapped for a link afterwards is never read. Returns the
// items that go, marked Running.
QVector<int> Pusher::check(const QVector<int> &all, CacheStore &store, CacheScanner &scanner,
                           std::map<int, EntryFiles> &opened)
{
    QVector<int> batch;
    for (int i : all) {
        if (m_items[i].finished())
            continue;  // done in an earlier run of this transfer
        const PushEntry &e = m_plan.entries[i];
        bool vanished = false;
        QString error, bad;
        const CacheModule now = scanner.scanModule(versionOf(e.key), e.key.section(QLatin1Char('/'), 1), &vanished, &error);
        EntryFiles open;
        const QVector<PushFile> files = error.isEmpty() && now.state == ModuleState::Success
                                            ? filesOf(store.fullPath(QString()), e.key, &open, &bad) : QVector<PushFile>();
        bool same = files.size() == e.files.size();
        for (int k = 0; same && k < files.size(); ++k)
            same = files[k].repoPath == e.files[k].repoPath && files[k].size == e.files[k].size &&
                   files[k].dev == e.files[k].dev && files[k].ino == e.files[k].ino && files[k].mtime == e.files[k].mtime;
        if (!error.isEmpty() || vanished)
            finish(i, TransferItem::State::Skipped, vanished ? PushText::tr("no longer in the cache") : displayName(error));
        else if (now.state != ModuleState::Success)
            finish(i, TransferItem::State::Skipped, PushText::tr("now %1").arg(notSuccessWhy(now.state)));
        else if (!same)
            finish(i, TransferItem::State::Skipped, bad.isEmpty() ? PushText::tr("its files changed since the plan; plan again") : bad);
        else {
            batch << i;
            opened.emplace(i, std::move(open));
        }
    }
    for (int i : batch) {
        m_items[i].state = TransferItem::State::Running;
        m_items[i].bytesDone = 0;
        m_reporter.itemStarted(i, m_items[i].bytesTotal);
    }
    return batch;
}

// Commits `batch`; on a moved head (412) drops what is there now and tries the rest again on the new head.
HubError Pusher::commit(QVector<int> &batch, std::map<int, EntryFiles> &opened)
{
    HubError e;
    for (int attempt = 1; !batch.isEmpty(); ++attempt) {
        commitOnce(batch, opened, &e);
        if (e.kind != HubError::Kind::PreconditionFailed || attempt >= kMaxHeadRetries)
            break;
        if (!dropCommitted(batch, &e))
            break;
        const int pause = 200 * attempt + int(QRandomGenerator::global()->bounded(200 * attempt));
        for (int slept = 0; slept < pause && !cancelled(m_stop); slept += 20)
            QThread::msleep(20);
        e = HubError();
    }
    return e;
}

// One commit of `batch`: the head (when not known), preupload, the LFS uploads with progress, the commit.
void Pusher::commitOnce(const QVector<int> &batch, std::map<int, EntryFiles> &opened, HubError *e)
{
    QVector<CommitFile> files;
    QVector<int> owner;  // file -> item
    QStringList keys;
    for (int i : batch) {
        keys << m_plan.entries[i].key;
        const QVector<EntryFile> &fds = opened[i].files();
        for (int k = 0; k < m_plan.entries[i].files.size(); ++k) {
            const PushFile &f = m_plan.entries[i].files[k];
            CommitFile cf;
            cf.path = f.repoPath;
            cf.localPath = f.localPath;
            cf.fd = fds[k].fd;
            cf.size = f.size;
            files << cf;
            owner << i;
        }
    }
    if (m_head.isEmpty())
        m_head = m_hub.repoInfo(m_repo, m_revision, e, m_stop).sha;
    if (e->ok())
        preupload(m_hub, m_repo, m_revision, files, e, m_stop);
    if (e->ok()) {
        std::mutex m;
        QVector<qint64> done(files.size(), 0);
        auto progress = [&](int f, qint64 d) {
            std::lock_guard lock(m);
            done[f] = d;
            qint64 sum = 0;
            for (int k = 0; k < files.size(); ++k)
                sum += owner[k] == owner[f] ? done[k] : 0;
            m_reporter.itemProgress(owner[f], sum);
        };
        uploadLfsFiles(m_hub, m_repo, m_revision, files, std::max(1, m_options.parallel), progress, nullptr, e, m_stop);
    }
    if (e->ok()) {
        const QString summary = !m_options.commitMessage.isEmpty()
                                    ? m_options.commitMessage
                                    // the shared repo's history is in English, whoever pushes
                                    : batch.size() == 1 ? QStringLiteral("Ingot: push 1 compiled module")
                                                        : QStringLiteral("Ingot: push %1 compiled modules").arg(batch.size());
        const QString made = createCommit(m_hub, m_repo, m_revision, files, summary, keys.join(QLatin1Char('\n')), m_head, e, m_stop);
        m_head = e->ok() ? made : QString();
    }
}

// The branch moved (another push, or our own commit whose answer was lost): what is there now is not sent again.
// False (with the listing's error in *e) when the Hub cannot say what is there.
bool Pusher::dropCommitted(QVector<int> &batch, HubError *e)
{
    QSet<QString> versions;
    for (int i : batch)
        versions.insert(versionOf(m_plan.entries[i].key));
    HubError le;
    const QSet<QString> present = hubEntries(m_hub, m_repo, m_revision, versions, nullptr, &le, m_stop);
    if (!le.ok()) {
        *e = le;
        return false;
    }
    QVector<int> rest;
    for (int i : batch) {
        if (present.contains(m_plan.entries[i].key))
            finish(i, TransferItem::State::Skipped, PushText::tr("already on the Hub (committed meanwhile)"));
        else
            rest << i;
    }
    batch = rest;
    return true;
}

void Pusher::settle(const QVector<int> &batch, const HubError &e)
{
    for (int i : batch) {
        if (e.ok())
            finish(i, TransferItem::State::Done, QString());
        else if (e.kind == HubError::Kind::Cancelled || cancelled(m_stop)) {
            m_items[i].state = TransferItem::State::Pending;  // resumable: nothing of it was committed
            m_items[i].bytesDone = 0;
        } else
            finish(i, TransferItem::State::Failed, e.message);
    }
}

}  // namespace

void pushEntries(const HubClient &hub, const QString &repo, const QString &revision, const QString &cacheRoot,
                 const PushPlan &plan, QVector<TransferItem> &items, TransferReporter &reporter,
                 const TransferOptions &options, HubError *err, const std::atomic_bool *stop)
{
    *err = HubError();
    if (items.size() != plan.entries.size()) {
        *err = {HubError::Kind::InvalidArgument, 0, PushText::tr("The push has %1 items for %2 entries.").arg(items.size()).arg(plan.entries.size())};
        return;
    }
    QString why;
    const std::unique_ptr<CacheStore> made = makeStore(StoreLocation::local(cacheRoot), &why);
    if (!made || !made->open(&why)) {
        *err = {HubError::Kind::Storage, 0, why};
        return;
    }
    CacheStore &store = *made;
    CacheScanner scanner(store);
    for (const QString &w : plan.warnings)
        reporter.note(w);
    Pusher pusher(hub, repo, revision, plan, items, reporter, options, stop);
    for (const QVector<int> &all : batches(plan)) {
        if (cancelled(stop)) {
            *err = {HubError::Kind::Cancelled, 0, PushText::tr("Cancelled.")};
            return;  // what is not committed stays Pending: the next run takes it up
        }
        std::map<int, EntryFiles> opened;
        QVector<int> batch = pusher.check(all, store, scanner, opened);
        if (batch.isEmpty())
            continue;
        const HubError e = pusher.commit(batch, opened);
        pusher.settle(batch, e);
        if (!e.ok() && (fatal(e) || cancelled(stop))) {
            *err = cancelled(stop) ? HubError{HubError::Kind::Cancelled, 0, PushText::tr("Cancelled.")} : e;
            return;
        }
    }
}

}  // namespace ingot
