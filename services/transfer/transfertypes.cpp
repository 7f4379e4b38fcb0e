#include "services/transfer/transfertypes.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace ingot {

namespace {
struct TransferText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Transfer)
};
}  // namespace

TransferReporter::~TransferReporter() = default;

TransferPlace TransferPlace::ofCache(const StoreLocation &location)
{
    TransferPlace p;
    p.kind = Kind::Cache;
    p.cache = location;
    return p;
}

TransferPlace TransferPlace::ofHub(const QString &repo, const QString &revision)
{
    TransferPlace p;
    p.kind = Kind::Hub;
    p.repo = repo;
    p.revision = revision.isEmpty() ? QStringLiteral("main") : revision;
    return p;
}

QString TransferPlace::display() const
{
    if (kind == Kind::Hub)
        return QStringLiteral("hub:") + repo + (revision == QLatin1String("main") ? QString() : QLatin1Char('@') + revision);
    return cache.display();
}

QString TransferPlace::identity() const
{
    if (kind == Kind::Hub)
        return QStringLiteral("hub\n") + repo + QLatin1Char('\n') + revision;
    return cache.kind + QLatin1Char('\n') + cache.host + QLatin1Char('\n') + cache.path;
}

namespace {
const char *const kKindNames[] = {"pull", "push", "copy"};
const char *const kStateNames[] = {"pending", "running", "done", "skipped", "failed"};

template <typename E, size_t N>
bool parseName(const QString &name, const char *const (&names)[N], E *out)
{
    for (size_t i = 0; i < N; ++i)
        if (name == QLatin1String(names[i])) {
            *out = E(i);
            return true;
        }
    return false;
}

QString str(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

qint64 num(const nlohmann::json &j, const char *key, qint64 fallback)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<qint64>() : fallback;
}

bool flag(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

nlohmann::json placeJson(const TransferPlace &p)
{
    if (p.isHub())
        return {{"kind", "hub"}, {"repo", p.repo.toStdString()}, {"revision", p.revision.toStdString()}};
    return {{"kind", "cache"},
            {"store", p.cache.kind.toStdString()},
            {"host", p.cache.host.toStdString()},
            {"path", p.cache.path.toStdString()}};
}

bool placeFromJson(const nlohmann::json &j, TransferPlace *out)
{
    if (!j.is_object())
        return false;
    const QString kind = str(j, "kind");
    if (kind == QLatin1String("hub")) {
        *out = TransferPlace::ofHub(str(j, "repo"), str(j, "revision"));
        return !out->repo.isEmpty();
    }
    if (kind != QLatin1String("cache"))
        return false;
    StoreLocation loc;
    loc.kind = str(j, "store");
    loc.host = str(j, "host");
    loc.path = str(j, "path");
    *out = TransferPlace::ofCache(loc);
    // A host's cache without a path is the one the Neuron runtime there resolves (found when the transfer starts).
    return loc.isValid() || (!loc.kind.isEmpty() && !loc.isLocal() && !loc.host.isEmpty());
}
}  // namespace

QString transferKindName(TransferKind k)
{
    return QLatin1String(kKindNames[int(k)]);
}

bool parseTransferKind(const QString &name, TransferKind *out)
{
    return parseName(name, kKindNames, out);
}

QVector<TransferItem> itemsFor(const QStringList &keys)
{
    QVector<TransferItem> items;
    items.reserve(keys.size());
    for (const QString &k : keys) {
        TransferItem it;
        it.key = k;
        items.append(it);
    }
    return items;
}

QString notSuccessWhy(ModuleState state)
{
    switch (state) {
    case ModuleState::Failed:
        return TransferText::tr("FAILED: a failed compile is never copied or pushed (clean it, and the next run compiles "
                                "it again).");
    case ModuleState::Locked:
        return TransferText::tr("LOCKED: a compile is running on it, or a killed one left a lock; only finished "
                                "(SUCCESS) entries are copied or pushed.");
    case ModuleState::Incomplete:
        return TransferText::tr("INCOMPLETE: no model.neff; only finished (SUCCESS) entries are copied or pushed.");
    case ModuleState::Empty: return TransferText::tr("EMPTY: the entry holds no files.");
    case ModuleState::Success:
    case ModuleState::Unknown: break;
    }
    return TransferText::tr("not a compiled module.");
}

QString itemStateName(TransferItem::State s)
{
    return QLatin1String(kStateNames[int(s)]);
}

bool parseItemStateName(const QString &name, TransferItem::State *out)
{
    return parseName(name, kStateNames, out);
}

bool TransferRecord::finished() const
{
    if (cancelled || !error.isEmpty())
        return true;
    for (const TransferItem &i : items)
        if (!i.finished())
            return false;
    return true;
}

qint64 TransferRecord::bytesTotal() const
{
    qint64 t = 0;
    for (const TransferItem &i : items)
        t += qMax<qint64>(0, i.bytesTotal);
    return t;
}

qint64 TransferRecord::estimatedBytesTotal() const
{
    qint64 known = 0;
    int knownCount = 0;
    int unknown = 0;
    for (const TransferItem &i : items) {
        if (i.bytesTotal >= 0) {
            known += i.bytesTotal;
            ++knownCount;
        } else if (i.state != TransferItem::State::Skipped && i.state != TransferItem::State::Failed) {
            ++unknown;
        }
    }
    if (knownCount == 0)
        return unknown == 0 ? 0 : -1;
    return known + (known / knownCount) * unknown;
}

qint64 TransferRecord::bytesDone() const
{
    qint64 t = 0;
    for (const TransferItem &i : items)
        t += i.bytesDone;
    return t;
}

int TransferRecord::count(TransferItem::State s) const
{
    int n = 0;
    for (const TransferItem &i : items)
        n += i.state == s;
    return n;
}

nlohmann::json toJson(const TransferRecord &r)
{
    nlohmann::json items = nlohmann::json::array();
    for (const TransferItem &i : r.items)
        items.push_back({{"key", i.key.toStdString()},
                         {"state", itemStateName(i.state).toStdString()},
                         {"bytesTotal", i.bytesTotal},
                         {"bytesDone", i.bytesDone},
                         {"files", i.files},
                         {"message", i.message.toStdString()}});
    return {{"version", 1},
            {"id", r.id.toStdString()},
            {"kind", transferKindName(r.kind).toStdString()},
            {"from", placeJson(r.from)},
            {"to", placeJson(r.to)},
            {"options",
             {{"hubCacheLayout", r.options.hubCacheLayout},
              {"parallel", r.options.parallel},
              {"commitMessage", r.options.commitMessage.toStdString()}}},
            {"items", items},
            {"createdMs", r.createdMs},
            {"paused", r.paused},
            {"cancelled", r.cancelled},
            {"error", r.error.toStdString()}};
}

bool fromJson(const nlohmann::json &j, TransferRecord *out, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!j.is_object())
        return fail(QStringLiteral("a transfer record is not a JSON object"));
    TransferRecord r;
    r.id = str(j, "id");
    if (r.id.isEmpty())
        return fail(QStringLiteral("a transfer record has no id"));
    if (!parseTransferKind(str(j, "kind"), &r.kind))
        return fail(QStringLiteral("transfer %1: unknown kind").arg(r.id));
    if (!placeFromJson(j.value("from", nlohmann::json()), &r.from) || !placeFromJson(j.value("to", nlohmann::json()), &r.to))
        return fail(QStringLiteral("transfer %1: a place is missing or malformed").arg(r.id));
    if (const auto o = j.find("options"); o != j.end() && o->is_object()) {
        r.options.hubCacheLayout = flag(*o, "hubCacheLayout");
        r.options.parallel = int(qBound(qint64(1), num(*o, "parallel", 4), qint64(32)));
        r.options.commitMessage = str(*o, "commitMessage");
    }
    const auto items = j.find("items");
    if (items == j.end() || !items->is_array())
        return fail(QStringLiteral("transfer %1: no items").arg(r.id));
    for (const auto &ij : *items) {
        if (!ij.is_object())
            return fail(QStringLiteral("transfer %1: an item is not an object").arg(r.id));
        TransferItem i;
        i.key = str(ij, "key");
        if (!isTransferableKey(i.key))
            return fail(QStringLiteral("transfer %1: an item names no cache entry").arg(r.id));
        if (!parseItemStateName(str(ij, "state"), &i.state))
            return fail(QStringLiteral("transfer %1: an item has an unknown state").arg(r.id));
        i.bytesTotal = qMax<qint64>(-1, num(ij, "bytesTotal", -1));
        i.bytesDone = qMax<qint64>(0, num(ij, "bytesDone", 0));
        i.files = int(qBound(qint64(0), num(ij, "files", 0), qint64(1) << 20));
        i.message = str(ij, "message");
        r.items.append(i);
    }
    r.createdMs = num(j, "createdMs", 0);
    r.paused = flag(j, "paused");
    r.cancelled = flag(j, "cancelled");
    r.error = str(j, "error");
    *out = r;
    return true;
}

bool isTransferableKey(const QString &key)
{
    const int slash = key.indexOf(QLatin1Char('/'));
    if (slash <= 0 || key.indexOf(QLatin1Char('/'), slash + 1) >= 0 || key.size() > 600)
        return false;
    const QStringView version = QStringView(key).left(slash);
    const QStringView module = QStringView(key).mid(slash + 1);
    if (!version.startsWith(QLatin1String("neuronxcc-")) || !module.startsWith(QLatin1String("MODULE_")))
        return false;
    if (version.size() > 255 || module.size() > 255)
        return false;
    for (const QChar c : key)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c == QLatin1Char('\\'))
            return false;
    return true;
}

}  // namespace ingot
