#include "app/cli/fleetcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/hubcommands.h"
#include "services/fleet/fleetplaces.h"
#include "services/fleet/fleetsummary.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct FleetCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

void fleetOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("place"),
                 FleetCliText::tr("Read only this place (repeatable): a folder, torchneuron:PATH, host:NAME, s3://BUCKET/PREFIX "
                                  "or hub:ORG/NAME (default: every place Ingot knows)."),
                 QStringLiteral("ID")});
    p.addOption({QStringLiteral("timeout"), FleetCliText::tr("Seconds one place may take (default: 60)."), QStringLiteral("SECONDS")});
}

json summaryJson(const FleetSummary &s)
{
    json compilers = json::array();
    for (const QString &c : s.compilers)
        compilers.push_back(u8(displayName(c)));
    json j = {{"place", u8(displayName(s.place.id))},
              {"kind", fleetKindName(s.place.kind)},
              {"shown", u8(displayName(s.place.shown()))},
              {"origin", u8(s.place.origin)},
              {"status", s.statusName()},
              {"bytes", s.bytes},
              {"entries", s.entries},
              {"ready", s.ready},
              {"failed", s.failed},
              {"locked", s.locked},
              {"incomplete", s.incomplete},
              {"warnings", s.warnings},
              {"compilers", compilers},
              {"last_used", u8(isoDateTime(s.lastUsedMs))},
              {"read_at", u8(isoDateTime(s.readAtMs))},
              {"took_ms", s.tookMs}};
    if (!s.isRead())
        j["error"] = u8(displayName(s.statusText()));
    return j;
}

QString kindText(FleetPlace::Kind k)
{
    switch (k) {
    case FleetPlace::Kind::Local: return FleetCliText::tr("folder");
    case FleetPlace::Kind::TorchNeuron: return FleetCliText::tr("TorchNeuron");
    case FleetPlace::Kind::Host: return FleetCliText::tr("host");
    case FleetPlace::Kind::S3: return FleetCliText::tr("S3");
    case FleetPlace::Kind::Hub: return FleetCliText::tr("Hub repo");
    }
    return {};
}

void printTable(const QVector<FleetSummary> &all)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Table t({FleetCliText::tr("PLACE"), FleetCliText::tr("KIND"), FleetCliText::tr("SIZE"), FleetCliText::tr("ENTRIES"),
             FleetCliText::tr("FAILED"), FleetCliText::tr("LOCKED"), FleetCliText::tr("COMPILERS"), FleetCliText::tr("LAST USED"),
             FleetCliText::tr("STATUS")},
            {false, false, true, true, true, true, false, false, false});
    for (const FleetSummary &s : all) {
        const bool read = s.isRead();
        const QString dash = QStringLiteral("-");
        t.add({displayName(s.place.shown()), kindText(s.place.kind), read ? formatBytes(s.bytes) : dash,
               read ? formatCount(s.entries) : dash, read ? formatCount(s.failed) : dash, read ? formatCount(s.locked) : dash,
               read && !s.compilers.isEmpty() ? displayName(s.compilers.join(QStringLiteral(", "))) : dash,
               read ? formatAge(s.lastUsedMs, now) : dash, displayName(s.statusText())});
    }
    out(t.render().trimmed());
}

int cmdFleet(const Invocation &inv)
{
    QVector<FleetPlace> places;
    for (const QString &spec : inv.values(QStringLiteral("place"))) {
        QString why;
        const std::optional<FleetPlace> p = fleetPlaceFor(spec, &why);
        if (!p) {
            err(FleetCliText::tr("error: --place: %1").arg(why));
            return Usage;
        }
        places << *p;
    }
    if (!inv.isSet(QStringLiteral("place")))
        places = knownFleetPlaces();
    FleetSummaryOptions options;
    options.keychain = keychain();
    if (inv.isSet(QStringLiteral("timeout"))) {
        bool ok = false;
        const int seconds = inv.value(QStringLiteral("timeout")).toInt(&ok);
        if (!ok || seconds < 1 || seconds > 24 * 3600) {
            err(FleetCliText::tr("error: --timeout takes whole seconds, from 1 to 86400."));
            return Usage;
        }
        options.placeTimeoutMs = qint64(seconds) * 1000;
    }
    QVector<FleetSummary> all;
    {
        StopOnSignals stopOnSignals;
        all = summarizeFleet(places, options, {}, &stopRequested());
    }
    int unread = 0;
    for (const FleetSummary &s : std::as_const(all))
        unread += s.isRead() ? 0 : 1;
    if (inv.json) {
        json a = json::array();
        for (const FleetSummary &s : std::as_const(all))
            a.push_back(summaryJson(s));
        printJson({{"places", a}, {"unread", unread}});
    } else if (all.isEmpty()) {
        out(FleetCliText::tr("Ingot knows no cache yet: open one (cache list --cache-dir DIR), add a host (remote add) or a Hub repo."));
    } else {
        printTable(all);
        if (unread)
            err(FleetCliText::tr("%n place(s) could not be read (see STATUS).", nullptr, unread));
    }
    return unread ? HostUnreachable : Ok;  // as cache gc --everywhere says a place it could not reach
}
}  // namespace

QVector<Command> fleetCommands()
{
    return {
        {QStringLiteral("cache"), QStringLiteral("fleet"),
         FleetCliText::tr("Every cache Ingot knows (this machine's, folders added, TorchNeuron's, hosts, S3, Hub repos): size, "
                          "entries by state, compilers, last used, reachable or why not"),
         JsonOption, fleetOptions, cmdFleet},
    };
}

}  // namespace ingot::cli
