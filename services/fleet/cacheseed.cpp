#include "services/fleet/cacheseed.h"

#include "services/cache/cachescanner.h"
#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/hub/modulepresence.h"
#include "services/hub/token.h"
#include "services/stores/storefactory.h"
#include "services/transfer/transferengine.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSet>

#include <mutex>

namespace ingot {

namespace {
struct SeedText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CacheSeed)
};

using State = TransferItem::State;

QString moduleOf(const QString &key)
{
    return key.contains(QLatin1Char('/')) ? key.section(QLatin1Char('/'), 1) : key;
}

// A place's finished entries: key -> the compiler version folder (for a bare name, the newest version's entry).
struct Holdings {
    QSet<QString> keys;
    QHash<QString, QString> newestByName;  // MODULE_… -> key
    void add(const QString &key)
    {
        keys.insert(key);
        const QString name = moduleOf(key);
        const QString had = newestByName.value(name);
        if (had.isEmpty() || had < key)  // "neuronxcc-2.16…" after "neuronxcc-2.15…": the newer compiler's
            newestByName.insert(name, key);
    }
    QString match(const QString &wanted) const
    {
        if (wanted.contains(QLatin1Char('/')))
            return keys.contains(wanted) ? wanted : QString();
        return newestByName.value(wanted);
    }
};

HubClient hubClient()
{
    const HubConfig config = HubConfig::fromEnvironment();
    return HubClient(config.endpoint, resolveToken(config, nullptr).token, config.offline);
}

// What `place` holds, finished (a Hub repo holds only what a push sent: finished entries).
bool holdingsOf(FleetPlace *place, Holdings *out, QString *error, const std::atomic_bool *stop)
{
    if (place->kind == FleetPlace::Kind::Hub) {
        HubError err;
        const QVector<TreeEntry> listing = hubClient().listTree(place->repo, QStringLiteral("main"), QString(), true, &err, stop);
        if (!err.ok()) {
            *error = err.message;
            return false;
        }
        for (const ModuleMark &m : markRepo(listing, {}))
            out->add(m.key);
        return true;
    }
    if (!resolvePlace(place, error))
        return false;
    const std::unique_ptr<CacheStore> store = makeStore(place->store, error);
    if (!store || !store->open(error))
        return false;
    CacheScanner scanner(*store);
    const CacheSnapshot snap = scanner.scan(nullptr);
    if (!snap.fatalError.isEmpty()) {
        *error = snap.fatalError;
        return false;
    }
    for (const CacheModule &m : snap.modules)
        if (m.isModule() && m.state == ModuleState::Success && isTransferableKey(m.key()))
            out->add(m.key());
    return true;
}

// Counts what each item became and says how far the copy is.
class SeedReporter final : public TransferReporter
{
public:
    SeedReporter(const SeedProgress &progress, int base, int total, QString place)
        : m_progress(progress), m_base(base), m_total(total), m_place(std::move(place))
    {
    }
    void itemStarted(int, qint64) override {}
    void itemProgress(int, qint64) override {}
    void itemFinished(int, State s, const QString &) override
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (s == State::Done) {
            ++m_done;
            if (m_progress)
                m_progress(m_base + m_done, m_total, m_place);
        }
    }
    void note(const QString &) override {}

private:
    std::mutex m_mutex;
    const SeedProgress &m_progress;
    int m_base, m_total;
    QString m_place;
    int m_done = 0;
};

// The words an entry that is not SUCCESS at the source is skipped with (the rest of Skipped: it is there already).
QStringList notSuccessWhys()
{
    QStringList out;
    for (const ModuleState st : {ModuleState::Failed, ModuleState::Locked, ModuleState::Incomplete, ModuleState::Empty})
        out << notSuccessWhy(st);
    return out;
}

TransferRecord recordFor(const FleetPlace &from, const StoreLocation &into)
{
    TransferRecord r;
    r.id = QStringLiteral("seed-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    r.kind = from.kind == FleetPlace::Kind::Hub ? TransferKind::Pull : TransferKind::Copy;
    r.from = from.kind == FleetPlace::Kind::Hub ? TransferPlace::ofHub(from.repo) : TransferPlace::ofCache(from.store);
    r.to = TransferPlace::ofCache(into);
    return r;
}

// The job's cache as it is: which of the wanted graphs it has, finished or not.
bool classifyTarget(const SeedRequest &request, SeedResult *result, QStringList *missing)
{
    QString error;
    CacheSnapshot snap;
    if (request.into.isLocal() && !QFileInfo::exists(request.into.path)) {
        // A fresh machine's cache is not there yet: it is made as the compiler would make it (a dry run: all missing).
        if (request.dryRun || QDir().mkpath(request.into.path)) {
            *missing = request.keys;
            return true;
        }
        result->error = SeedText::tr("The job's cache %1 cannot be made.").arg(displayName(request.into.path));
        return false;
    }
    const std::unique_ptr<CacheStore> store = makeStore(request.into, &error);
    if (store && store->open(&error)) {
        CacheScanner scanner(*store);
        snap = scanner.scan(nullptr);
        error = snap.fatalError;
    }
    if (!error.isEmpty()) {
        result->error = SeedText::tr("The job's cache %1 cannot be read: %2").arg(displayName(request.into.display()), error);
        return false;
    }
    QHash<QString, const CacheModule *> byKey, byName;
    for (const CacheModule &m : snap.modules) {
        if (!m.isModule())
            continue;
        byKey.insert(m.key(), &m);
        const CacheModule *had = byName.value(m.name);
        if (!had || (had->state != ModuleState::Success && m.state == ModuleState::Success))
            byName.insert(m.name, &m);
    }
    for (const QString &k : std::as_const(request.keys)) {
        const CacheModule *m = k.contains(QLatin1Char('/')) ? byKey.value(k) : byName.value(k);
        if (!m)
            *missing << k;
        else if (m->state == ModuleState::Success)
            ++result->present;
        else
            ++result->blocked;
    }
    return true;
}
}  // namespace

QString seedProgressText(int copied, int toCopy, const QString &place)
{
    return SeedText::tr("Bringing compiled graphs: %1 of %2 copied from %3").arg(copied).arg(toCopy).arg(displayName(place));
}

QString SeedResult::text() const
{
    if (!error.isEmpty())
        return error;
    QStringList from;
    for (const SeedPlaceResult &p : places)
        if (p.copied > 0)
            from << SeedText::tr("%1 from %2").arg(p.copied).arg(displayName(p.place));
    QString t = SeedText::tr("%n graph(s): %1 there already, %2 copied", nullptr, wanted).arg(present).arg(copied);
    if (!from.isEmpty())
        t += QStringLiteral(" (") + from.join(QStringLiteral(", ")) + QLatin1Char(')');
    t += SeedText::tr(", %1 not found").arg(notFound);
    if (blocked > 0)
        t += SeedText::tr(", %1 left as they are (failed, locked or unfinished there)").arg(blocked);
    if (failed > 0)
        t += SeedText::tr(", %1 could not be copied").arg(failed);
    if (stopped)
        t += SeedText::tr("; stopped");
    for (const SeedPlaceResult &p : places)
        if (!p.error.isEmpty())
            t += QStringLiteral("\n") + SeedText::tr("%1: %2").arg(displayName(p.place), displayText(p.error));
    return t;
}

QJsonObject SeedResult::toJson() const
{
    QJsonArray ps;
    for (const SeedPlaceResult &p : places)
        ps.append(QJsonObject{{QStringLiteral("place"), p.place}, {QStringLiteral("found"), p.found},
                              {QStringLiteral("copied"), p.copied}, {QStringLiteral("error"), p.error}});
    return QJsonObject{{QStringLiteral("wanted"), wanted},   {QStringLiteral("present"), present},
                       {QStringLiteral("blocked"), blocked}, {QStringLiteral("copied"), copied},
                       {QStringLiteral("failed"), failed},   {QStringLiteral("not_found"), notFound},
                       {QStringLiteral("not_found_keys"), QJsonArray::fromStringList(notFoundKeys)},
                       {QStringLiteral("places"), ps},      {QStringLiteral("error"), error},
                       {QStringLiteral("stopped"), stopped}};
}

SeedResult seedCache(const SeedRequest &request, const SeedProgress &progress, const std::atomic_bool *stop)
{
    SeedResult result;
    QStringList wanted = request.keys;
    wanted.removeDuplicates();
    result.wanted = int(wanted.size());
    SeedRequest req = request;
    req.keys = wanted;
    QStringList missing;
    if (!classifyTarget(req, &result, &missing))
        return result;
    // First where each graph is, then the copies: the progress counts against every graph to copy.
    struct Source {
        FleetPlace place;
        QStringList keys, asked;  // the keys it gives, and the wanted names they answer
    };
    QVector<Source> sources;
    for (FleetPlace place : request.places) {
        if (missing.isEmpty() || (stop && *stop))
            break;
        SeedPlaceResult pr;
        pr.place = place.id;
        Holdings held;
        QString error;
        if (!holdingsOf(&place, &held, &error, stop)) {
            pr.error = error;
            result.places << pr;
            continue;
        }
        Source s{place, {}, {}};
        for (const QString &w : std::as_const(missing)) {
            const QString k = held.match(w);
            if (!k.isEmpty())
                s.keys << k, s.asked << w;
        }
        for (const QString &w : std::as_const(s.asked))
            missing.removeOne(w);
        pr.found = int(s.keys.size());
        result.places << pr;
        if (!s.keys.isEmpty())
            sources << s;
    }
    if (request.dryRun) {
        result.notFound = int(missing.size());
        result.notFoundKeys = missing;
        return result;
    }
    int toCopy = 0;
    for (const Source &s : std::as_const(sources))
        toCopy += int(s.keys.size());
    const TransferEngine engine = makeTransferEngine(nullptr);
    for (const Source &s : std::as_const(sources)) {
        SeedPlaceResult *pr = nullptr;
        for (SeedPlaceResult &p : result.places)
            if (p.place == s.place.id)
                pr = &p;
        if (stop && *stop) {
            result.stopped = true;
            result.failed += int(s.keys.size());
            continue;
        }
        QVector<TransferItem> items = itemsFor(s.keys);
        SeedReporter reporter(progress, result.copied, toCopy, s.place.id);
        const QString error = engine(recordFor(s.place, request.into), items, reporter, stop);
        for (const TransferItem &it : std::as_const(items)) {
            if (it.state == State::Done)
                ++pr->copied, ++result.copied;
            else if (it.state == State::Skipped && !notSuccessWhys().contains(it.message))
                ++result.present;  // written there meanwhile (another job): what the job needs is there
            else
                ++result.failed;
            if (it.state == State::Failed && pr->error.isEmpty())
                pr->error = it.message;
        }
        if (!error.isEmpty())
            pr->error = error;
    }
    result.stopped = result.stopped || (stop && *stop);
    result.notFound = int(missing.size());
    result.notFoundKeys = missing;
    return result;
}

}  // namespace ingot
