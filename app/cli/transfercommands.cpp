#include "app/cli/transfercommands.h"

#include "app/cli/clicommon.h"
#include "services/transfer/transferqueue.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct TransferCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

// The window's queue saves an entry as moving while it moves: a saved transfer with one is running (as last saved).
bool savedRunning(const TransferRecord &r)
{
    return r.count(TransferItem::State::Running) > 0;
}

QString statusText(TransferStatus s, bool cancelRequested)
{
    if (cancelRequested && s != TransferStatus::Cancelled && s != TransferStatus::Done && s != TransferStatus::SomeFailed)
        return TransferCliText::tr("cancel requested");
    switch (s) {
    case TransferStatus::Failed: return TransferCliText::tr("failed");
    case TransferStatus::Cancelled: return TransferCliText::tr("cancelled");
    case TransferStatus::Running: return TransferCliText::tr("running");
    case TransferStatus::Paused: return TransferCliText::tr("paused");
    case TransferStatus::Queued: return TransferCliText::tr("queued");
    case TransferStatus::SomeFailed: return TransferCliText::tr("some failed");
    case TransferStatus::Done: return TransferCliText::tr("done");
    }
    return QString();
}

json recordJson(const TransferRecord &r, bool cancelRequested)
{
    using S = TransferItem::State;
    // Places and errors as shown (escaped): a repo id or a folder name may hold anything.
    return json{{"id", u8(r.id)},
                {"kind", u8(transferKindName(r.kind))},
                {"state", u8(transferStatusName(transferStatus(r, savedRunning(r))))},
                {"cancel_requested", cancelRequested},
                {"from", u8(displayName(r.from.display()))},
                {"to", u8(displayName(r.to.display()))},
                {"created", u8(isoDateTime(r.createdMs))},
                {"entries", r.items.size()},
                {"pending", r.count(S::Pending)},
                {"running", r.count(S::Running)},
                {"done", r.count(S::Done)},
                {"skipped", r.count(S::Skipped)},
                {"failed", r.count(S::Failed)},
                {"bytes_done", r.bytesDone()},
                {"bytes_total", r.bytesTotal()},
                {"error", u8(displayName(r.error))}};
}

int cmdList(const Invocation &p)
{
    const QString dir = TransferQueue::defaultStateDir();
    const QVector<TransferRecord> records = TransferQueue::readRecords(dir);
    const QSet<QString> requested = TransferQueue::cancelRequests(dir);
    if (p.json) {
        json arr = json::array();
        for (const TransferRecord &r : records)
            arr.push_back(recordJson(r, requested.contains(r.id)));
        printJson({{"state_dir", u8(displayName(dir))}, {"transfers", arr}});
        return Ok;
    }
    if (records.isEmpty()) {
        out(TransferCliText::tr("No transfers: the Ingot window's pulls, pushes and copies are listed here."));
        return Ok;
    }
    Table t({TransferCliText::tr("ID"), TransferCliText::tr("KIND"), TransferCliText::tr("STATE"), TransferCliText::tr("ENTRIES"),
             TransferCliText::tr("FROM"), TransferCliText::tr("TO")},
            {false, false, false, true, false, false});
    for (const TransferRecord &r : records) {
        const int over = r.count(TransferItem::State::Done) + r.count(TransferItem::State::Skipped) +
                         r.count(TransferItem::State::Failed);
        t.add({r.id, transferKindName(r.kind), statusText(transferStatus(r, savedRunning(r)), requested.contains(r.id)),
               QStringLiteral("%1/%2").arg(over).arg(r.items.size()), displayName(r.from.display()), displayName(r.to.display())});
    }
    out(t.render());
    for (const TransferRecord &r : records)
        if (!r.error.isEmpty())
            out(TransferCliText::tr("%1: %2").arg(r.id, displayName(r.error)));
    return Ok;
}

void cancelOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("id"), TransferCliText::tr("The transfer's id, as `transfers list` shows it."));
}

int cmdCancel(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(TransferCliText::tr("error: name one transfer: ingot-cli transfers cancel ID"));
        return Usage;
    }
    const QString id = p.positional().first();
    const QString dir = TransferQueue::defaultStateDir();
    const QVector<TransferRecord> records = TransferQueue::readRecords(dir);
    const auto it = std::find_if(records.begin(), records.end(), [&](const TransferRecord &r) { return r.id == id; });
    if (it != records.end() && it->finished()) {
        const QString state = statusText(transferStatus(*it, false), false);
        if (p.json)
            printJson({{"id", u8(id)}, {"cancel_requested", false}, {"state", u8(transferStatusName(transferStatus(*it, false)))}});
        else
            out(TransferCliText::tr("Transfer %1 is over (%2): nothing to cancel.").arg(id, state));
        return Ok;
    }
    QString error;
    if (it == records.end() || !TransferQueue::requestCancel(dir, id, &error)) {
        if (it == records.end())
            error = TransferCliText::tr("There is no transfer %1 (ingot-cli transfers list shows them).").arg(displayName(id));
        if (p.json)
            printJson({{"error", u8(error)}});
        err(TransferCliText::tr("error: %1").arg(error));
        return it == records.end() ? Usage : CacheUnavailable;
    }
    if (p.json) {
        printJson({{"id", u8(id)}, {"cancel_requested", true}});
        return Ok;
    }
    out(TransferCliText::tr("Cancel requested for transfer %1: a running Ingot window stops it at once; otherwise Ingot "
                            "cancels it when it next starts, before it runs again.").arg(id));
    return Ok;
}
}  // namespace

QVector<Command> transferCommands()
{
    const QString g = QStringLiteral("transfers");
    return {
        {g, QStringLiteral("list"), TransferCliText::tr("The Ingot window's transfers: queued, running, paused, failed, done"),
         JsonOption, {}, cmdList},
        {g, QStringLiteral("cancel"), TransferCliText::tr("Cancel a transfer of the Ingot window's queue, as its Cancel button does"),
         JsonOption, cancelOptions, cmdCancel},
    };
}

}  // namespace ingot::cli
