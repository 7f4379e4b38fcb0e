#include "services/fleet/fleetsummary.h"

#include "services/cache/cachescanner.h"
#include "services/cache/cachestats.h"
#include "services/cache/compilerversion.h"
#include "services/cache/torchneuron.h"
#include "services/fleet/placeturns.h"
#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/hub/token.h"
#include "services/stores/storefactory.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QLocale>
#include <QSet>

#include <algorithm>

namespace ingot {

namespace {

struct FleetSummaryText {
    Q_DECLARE_TR_FUNCTIONS(ingot::FleetSummary)
};

void countState(FleetSummary *s, ModuleState state)
{
    switch (state) {
    case ModuleState::Success: ++s->ready; break;
    case ModuleState::Failed: ++s->failed; break;
    case ModuleState::Locked: ++s->locked; break;
    case ModuleState::Incomplete:
    case ModuleState::Empty: ++s->incomplete; break;
    case ModuleState::Unknown: return;
    }
    ++s->entries;
}

// A Neuron cache through its store (a folder, a host's over SSH, S3): one scan, then only the totals are kept.
void readStore(FleetSummary *s, const std::atomic_bool *stop)
{
    QString error;
    std::unique_ptr<CacheStore> store = makeStore(s->place.store, &error);
    if (!store) {
        s->error = error;
        return;
    }
    CacheScanner scanner(*store);
    CacheSnapshot snap = scanner.scan(nullptr, {}, stop);
    if (!snap.fatalError.isEmpty()) {
        s->error = snap.fatalError;
        return;
    }
    if (stop && stop->load())
        return;  // the caller says why (cancelled, or out of time)
    const CacheStats stats = computeStats(snap.modules, QDateTime::currentMSecsSinceEpoch());
    for (const CacheModule &m : std::as_const(snap.modules)) {
        if (!m.isModule())
            continue;
        countState(s, m.state);
        s->lastUsedMs = std::max(s->lastUsedMs, m.lastUsedMs);
    }
    s->bytes = stats.size;
    s->warnings = stats.warnings + int(snap.warnings.size());
    for (const VersionStats &v : stats.versions)
        if (isCompilerVersionFolder(v.version))
            s->compilers << CompilerVersion::parse(v.version).display();
    s->status = FleetSummary::Status::Read;
}

// TorchNeuron's format: one folder per cache key, no compiler versions in its names.
void readTorchNeuron(FleetSummary *s)
{
    QString error;
    std::unique_ptr<CacheStore> store = makeStore(s->place.store, &error);
    if (!store) {
        s->error = error;
        return;
    }
    const TorchNeuronSnapshot snap = scanTorchNeuronCache(*store);
    if (!snap.fatalError.isEmpty()) {
        s->error = snap.fatalError;
        return;
    }
    for (const TorchNeuronEntry &e : snap.entries) {
        switch (e.state) {
        case TorchNeuronEntry::State::Complete: countState(s, ModuleState::Success); break;
        case TorchNeuronEntry::State::Compiling:
        case TorchNeuronEntry::State::StaleLock: countState(s, ModuleState::Locked); break;
        case TorchNeuronEntry::State::Incomplete: countState(s, ModuleState::Incomplete); break;
        }
        s->lastUsedMs = std::max(s->lastUsedMs, e.lastUsedMs);
    }
    s->bytes = snap.size();
    s->warnings = int(snap.otherItems.size());
    s->status = FleetSummary::Status::Read;
}

// An entry of a Hub cache repo from its files' names, as the launcher's other caches read one
// (services/neuron/knowncaches.cpp): model.neff is there, or model.log without it, or neither.
ModuleState hubEntryState(const QSet<QString> &names)
{
    if (names.contains(QStringLiteral("model.neff")))
        return ModuleState::Success;
    return names.contains(QStringLiteral("model.log")) ? ModuleState::Failed : ModuleState::Incomplete;
}

// A Hub cache repo: its compiler folders, each listed whole (names and sizes; the registry's folder is not an entry).
void readHub(FleetSummary *s, const FleetSummaryOptions &options, const std::atomic_bool *stop)
{
    const HubConfig config = HubConfig::fromEnvironment();
    if (config.offline) {
        s->error = FleetSummaryText::tr("HF_HUB_OFFLINE is set: the Hub is not asked");
        return;
    }
    const HubClient hub(config.endpoint, resolveToken(config, options.keychain.get(), QProcessEnvironment::systemEnvironment(), stop).token,
                        false);
    HubError e;
    const QVector<TreeEntry> root = hub.listTree(s->place.repo, QStringLiteral("main"), QString(), false, &e, stop);
    if (!e.ok()) {
        s->error = e.message;
        return;
    }
    QStringList versions;
    for (const TreeEntry &t : root)
        if (t.isDir && isCompilerVersionFolder(t.path))
            versions << t.path;
    std::sort(versions.begin(), versions.end(), [](const QString &a, const QString &b) { return compareCompilerFolders(a, b) > 0; });
    for (const QString &version : std::as_const(versions)) {
        const QVector<TreeEntry> files = hub.listTree(s->place.repo, QStringLiteral("main"), version, true, &e, stop);
        if (!e.ok()) {
            s->error = e.message;
            return;
        }
        QHash<QString, QSet<QString>> entries;  // MODULE_… -> its files' names
        for (const TreeEntry &f : files) {
            const QStringList parts = f.path.split(QLatin1Char('/'));
            if (f.isDir || parts.size() < 3 || !parts.at(1).startsWith(QLatin1String("MODULE_")))
                continue;
            entries[parts.at(1)].insert(parts.mid(2).join(QLatin1Char('/')));
            s->bytes += f.size;
        }
        for (auto it = entries.cbegin(); it != entries.cend(); ++it)
            countState(s, hubEntryState(it.value()));
        if (!entries.isEmpty())
            s->compilers << CompilerVersion::parse(version).display();
    }
    s->status = FleetSummary::Status::Read;
}

// Reads `place` into a summary; `stop` set (by the caller's cancel or the place's time limit) ends it early.
FleetSummary readPlace(const FleetPlace &place, const FleetSummaryOptions &options, const std::atomic_bool *stop)
{
    FleetSummary s;
    s.place = place;
    QElapsedTimer took;
    took.start();
    QString error;
    if (place.kind == FleetPlace::Kind::Hub)
        readHub(&s, options, stop);
    else if (!resolvePlace(&s.place, &error))
        s.error = error;
    else if (place.kind == FleetPlace::Kind::TorchNeuron)
        readTorchNeuron(&s);
    else
        readStore(&s, stop);
    if (s.status != FleetSummary::Status::Read)
        s.bytes = s.entries = s.ready = s.failed = s.locked = s.incomplete = s.warnings = 0;
    s.tookMs = took.elapsed();
    s.readAtMs = QDateTime::currentMSecsSinceEpoch();
    return s;
}

}  // namespace

const char *FleetSummary::statusName() const
{
    switch (status) {
    case Status::Read: return "read";
    case Status::Unreachable: return "unreachable";
    case Status::TimedOut: return "timed out";
    case Status::Cancelled: return "cancelled";
    }
    return "unreachable";
}

QString FleetSummary::statusText() const
{
    switch (status) {
    case Status::Read:
        return FleetSummaryText::tr("read in %1 s").arg(QLocale().toString(double(tookMs) / 1000.0, 'f', 1));
    case Status::TimedOut:
        return FleetSummaryText::tr("no answer in %1 s").arg(QLocale().toString(double(tookMs) / 1000.0, 'f', 0));
    case Status::Cancelled:
        return FleetSummaryText::tr("cancelled");
    case Status::Unreachable:
        break;
    }
    return error.isEmpty() ? FleetSummaryText::tr("unreachable") : error;
}

FleetSummary summarizePlace(const FleetPlace &place, const FleetSummaryOptions &options, const std::atomic_bool *cancel)
{
    return summarizeFleet({place}, options, {}, cancel).value(0);
}

QVector<FleetSummary> summarizeFleet(const QVector<FleetPlace> &places, const FleetSummaryOptions &options,
                                     const FleetReadEvents &events, const std::atomic_bool *cancel)
{
    const int n = int(places.size());
    QVector<FleetSummary> out(n);
    forEachPlace(
        n, std::max(1, options.parallel), std::max<qint64>(1, options.placeTimeoutMs), cancel,
        [&](int i, const std::atomic_bool *stop) {
            if (events.started)
                events.started(i);
            out[i] = readPlace(places.at(i), options, stop);
        },
        [&](int i, const TurnEnd &how) {
            if (how.skipped) {
                out[i].place = places.at(i);
                out[i].status = FleetSummary::Status::Cancelled;
            } else if (out[i].status != FleetSummary::Status::Read) {  // a place read whole before its limit stays read
                if (how.timedOut)
                    out[i].status = FleetSummary::Status::TimedOut;
                else if (how.cancelled || (cancel && cancel->load()))
                    out[i].status = FleetSummary::Status::Cancelled;
            }
            if (events.finished)
                events.finished(i, out.at(i));
        });
    return out;
}

}  // namespace ingot
