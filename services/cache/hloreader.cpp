#include "services/cache/hloreader.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <QCoreApplication>
#include <QHash>
#include <QStringList>

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <string>

namespace ingot {

namespace {
namespace pb = google::protobuf;
using pb::internal::WireFormatLite;
using In = pb::io::CodedInputStream;

struct HloText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Hlo)
};

constexpr int maxNameBytes = 4096;
constexpr int maxOpcodeBytes = 64;

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

bool isCollective(const QString &op)
{
    static const QStringList kinds = {QStringLiteral("all-reduce"), QStringLiteral("all-gather"),
                                      QStringLiteral("reduce-scatter"), QStringLiteral("collective-permute"),
                                      QStringLiteral("all-to-all"), QStringLiteral("collective-broadcast")};
    return kinds.contains(op);
}

// The replica groups of one collective as they are read: the first 8 printed with their first 16 ids each,
// "{0,1,2,3},{4,5,6,7}" (no outer braces), the rest counted.
struct Groups {
    QString text;
    qint64 count = 0;
    qint64 largest = 0;
};

// What is kept of one instruction: nothing of its shape, only a collective's groups as text and counts.
struct Instruction {
    QString opcode;
    Groups groups;      // replica_groups
    Groups listGroups;  // collective_device_list.replica_groups
    bool hasList = false;
    bool hasIota = false;
    qint64 iotaGroups = 0;
    qint64 iotaSize = 0;
    QString pairs;  // source_target_pairs, the first 16 "0→1" (no braces)
    qint64 pairCount = 0;
};

// What is kept of a ProgramShapeProto: its shapes as text (copies share the strings).
struct Signature {
    QStringList parameters;
    QStringList parameterNames;
    QString result;
};

// Reads the module with CodedInputStream field by field, as protobuf's wire format (protobuf.dev, "Encoding") lays
// it out: no message is materialized, so a few bytes on disk are never an object in memory. Every shape, dimension,
// replica group, id and pair of an instruction or program shape is counted against maxObjects, and what is kept is
// bounded (names, opcode and collective kinds, parameters, shape text): memory is the gzip window and that.
class HloReader final
{
public:
    HloReader(const HloLimits &limits, QString *error) : m_limits(limits), m_error(error) {}
    Q_DISABLE_COPY_MOVE(HloReader)

    bool module(In &in, HloSummary *out);
    std::map<std::pair<QString, QString>, HloCollective> collectives;
    QHash<QString, qint64> opcodes;

private:
    bool fail(const QString &why)
    {
        if (m_error && m_error->isEmpty())
            *m_error = why;
        return false;
    }
    bool invalid() { return fail(HloText::tr("an instruction or shape is not valid")); }
    bool count();
    bool readLength(In &in, qint64 cap, int *len);
    bool readBytes(In &in, int keep, QString *out);
    bool open(In &in, qint64 cap, In::Limit *outer);
    bool close(In &in, In::Limit outer, bool message = true);
    bool skip(In &in, quint32 tag);
    template <typename Each>
    bool varints(In &in, quint32 tag, Each each);
    bool shape(In &in, int depth, QString *out);
    bool group(In &in, Groups *g);
    bool pair(In &in, Instruction *ins);
    bool deviceList(In &in, Instruction *ins);
    bool instruction(In &in, Instruction *ins);
    bool programShape(In &in, Signature *sig);
    bool computation(In &in, HloSummary *out);
    void collective(const Instruction &ins);

    const HloLimits &m_limits;
    QString *m_error;
    qint64 m_objects = 0;  // in the instruction or program shape being read
    qint64 m_instructions = 0;
    std::optional<Signature> m_entryShape;  // of the computation named as the entry
    std::optional<Signature> m_lastShape;   // of the last computation (the entry comes last)
    qint64 m_lastInstructions = 0;
    qint64 m_lastId = -1;
    QString m_entryName;
};

bool HloReader::count()
{
    if (++m_objects <= m_limits.maxObjects)
        return true;
    return fail(HloText::tr("too complex to read: an instruction or program shape holds more than %1 shapes, "
                            "dimensions, replica groups or ids (the limit)")
                    .arg(m_limits.maxObjects));
}

bool HloReader::readLength(In &in, qint64 cap, int *len)
{
    uint32_t n = 0;
    if (!in.ReadVarint32(&n))
        return fail(HloText::tr("the file ends inside a field"));
    if (qint64(n) > cap || n > quint32(INT_MAX))
        return fail(HloText::tr("a field of %1 bytes is over the limit of %2 bytes").arg(n).arg(cap));
    *len = int(n);
    return true;
}

// A length-delimited name or opcode: its first `keep` bytes, the rest skipped.
bool HloReader::readBytes(In &in, int keep, QString *out)
{
    int len = 0;
    if (!readLength(in, m_limits.maxBytes, &len))
        return false;
    std::string s;
    if (!in.ReadString(&s, std::min(len, keep)) || (len > keep && !in.Skip(len - keep)))
        return fail(HloText::tr("the file ends inside a name"));
    *out = fromStd(s);
    return true;
}

// Enters a length-delimited message: the stream is limited to it until close(), which checks it was read whole.
bool HloReader::open(In &in, qint64 cap, In::Limit *outer)
{
    int len = 0;
    if (!readLength(in, cap, &len))
        return false;
    if (in.BytesUntilLimit() >= 0 && len > in.BytesUntilLimit())
        return invalid();  // longer than the message around it
    *outer = in.PushLimit(len);
    return true;
}

bool HloReader::close(In &in, In::Limit outer, bool message)
{
    // A message ends where ReadTag() says it does (not at a zero tag); a packed run where its bytes do.
    if (in.BytesUntilLimit() > 0 || (message && !in.ConsumedEntireMessage()))
        return in.BytesUntilTotalBytesLimit() <= 0
                   ? fail(HloText::tr("the module is over the limit of %1 MiB").arg(m_limits.maxBytes >> 20))
                   : invalid();  // ended early: a bad tag, or the file ends inside it
    in.PopLimit(outer);
    return true;
}

bool HloReader::skip(In &in, quint32 tag)
{
    return WireFormatLite::SkipField(&in, tag) || invalid();
}

// A repeated varint field: one element, or a packed run of them; each value to `each`.
template <typename Each>
bool HloReader::varints(In &in, quint32 tag, Each each)
{
    uint64_t v = 0;
    if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_VARINT)
        return in.ReadVarint64(&v) ? each(v) : invalid();
    In::Limit outer = 0;
    if (!open(in, m_limits.maxInstructionBytes, &outer))
        return false;
    while (in.BytesUntilLimit() > 0) {
        if (!in.ReadVarint64(&v))
            return invalid();
        if (!each(v))
            return false;
    }
    return close(in, outer, false);
}

// One ShapeProto: its text as XLA prints it into *out (nullptr: read and counted only), at most maxShapeElements
// tuple elements and dimensions, maxShapeText characters.
bool HloReader::shape(In &in, int depth, QString *out)
{
    if (depth > m_limits.maxDepth)
        return fail(HloText::tr("a shape is nested deeper than %1 levels").arg(m_limits.maxDepth));
    if (!count())
        return false;
    qint64 type = 0, dims = 0, elements = 0;
    QString dimText, elementText;
    const auto dim = [&](quint64 v) {
        if (out && dims < m_limits.maxShapeElements)
            dimText += (dims ? QStringLiteral(",") : QString()) + QString::number(qint64(v));
        ++dims;
        return count();
    };
    int shown = 0;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        In::Limit outer = 0;
        if (field == 2 && wire == WireFormatLite::WIRETYPE_VARINT) {
            uint64_t v = 0;
            if (!in.ReadVarint64(&v))
                return invalid();
            type = qint32(quint32(v));  // an int32, as protobuf reads it
        } else if (field == 3 && (wire == WireFormatLite::WIRETYPE_VARINT || wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
            if (!varints(in, tag, dim))
                return false;
        } else if (field == 4 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            const bool print = out && shown < m_limits.maxShapeElements && elementText.size() < m_limits.maxShapeText;
            QString t;
            if (!open(in, m_limits.maxInstructionBytes, &outer) || !shape(in, depth + 1, print ? &t : nullptr) ||
                !close(in, outer))
                return false;
            if (print)
                elementText += (shown++ ? QStringLiteral(", ") : QString()) + t;
            ++elements;
        } else if (!skip(in, tag)) {
            return false;
        }
    }
    if (!out)
        return true;
    if (type == 13) {  // TUPLE
        *out = QLatin1Char('(') + elementText;
        if (elements > shown)
            *out += shown ? QStringLiteral(", … %1 more").arg(elements - shown) : QStringLiteral("… %1").arg(elements);
        *out += QLatin1Char(')');
    } else {
        *out = primitiveTypeName(int(type));
        if (type != 14 && type != 17)  // OPAQUE_TYPE, TOKEN: no dimensions
            *out += QLatin1Char('[') + dimText + (dims > m_limits.maxShapeElements ? QStringLiteral(",…") : QString()) +
                    QLatin1Char(']');
    }
    if (out->size() > m_limits.maxShapeText) {
        out->truncate(m_limits.maxShapeText);
        *out += QStringLiteral("…");
    }
    return true;
}

// One ReplicaGroup: its ids counted, the first 16 of the first 8 groups printed.
bool HloReader::group(In &in, Groups *g)
{
    if (!count())
        return false;
    const bool print = g->count < 8;
    QString ids;
    qint64 n = 0;
    const auto id = [&](quint64 v) {
        if (print && n < 16)
            ids += (n ? QStringLiteral(",") : QString()) + QString::number(qint64(v));
        ++n;
        return count();
    };
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        if (field == 1 && (wire == WireFormatLite::WIRETYPE_VARINT || wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
            if (!varints(in, tag, id))
                return false;
        } else if (!skip(in, tag)) {
            return false;
        }
    }
    if (print)
        g->text += (g->count ? QStringLiteral(",{") : QStringLiteral("{")) + ids +
                   (n > 16 ? QStringLiteral(",…}") : QStringLiteral("}"));
    else if (g->count == 8)
        g->text += QStringLiteral(",…");
    ++g->count;
    g->largest = std::max(g->largest, n);
    return true;
}

bool HloReader::pair(In &in, Instruction *ins)
{
    if (!count())
        return false;
    qint64 source = 0, target = 0;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        uint64_t v = 0;
        if ((field == 1 || field == 2) && WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_VARINT) {
            if (!in.ReadVarint64(&v))
                return invalid();
            (field == 1 ? source : target) = qint64(v);
        } else if (!skip(in, tag)) {
            return false;
        }
    }
    if (ins->pairCount < 16)
        ins->pairs += (ins->pairCount ? QStringLiteral(",") : QString()) + QString::number(source) +
                      QStringLiteral("→") + QString::number(target);
    else if (ins->pairCount == 16)
        ins->pairs += QStringLiteral(",…");
    ++ins->pairCount;
    return true;
}

// CollectiveDeviceListProto: explicit groups, or the iota form (how many groups of how many devices).
bool HloReader::deviceList(In &in, Instruction *ins)
{
    ins->hasList = true;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        In::Limit outer = 0;
        if ((field == 1 || field == 2) && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!open(in, m_limits.maxInstructionBytes, &outer))
                return false;
            if (field == 1 && !group(in, &ins->listGroups))
                return false;
            if (field == 2) {
                ins->hasIota = true;
                while (const quint32 t = in.ReadTag()) {
                    const int f = int(WireFormatLite::GetTagFieldNumber(t));
                    uint64_t v = 0;
                    if ((f == 1 || f == 2) && WireFormatLite::GetTagWireType(t) == WireFormatLite::WIRETYPE_VARINT) {
                        if (!in.ReadVarint64(&v))
                            return invalid();
                        (f == 1 ? ins->iotaGroups : ins->iotaSize) = qint64(v);
                    } else if (!skip(in, t)) {
                        return false;
                    }
                }
            }
            if (!close(in, outer))
                return false;
        } else if (!skip(in, tag)) {
            return false;
        }
    }
    return true;
}

// One HloInstructionProto: its opcode and a collective's groups; its shape is read for validity and counted only.
bool HloReader::instruction(In &in, Instruction *ins)
{
    m_objects = 0;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        In::Limit outer = 0;
        if (WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED ||
            (field != 2 && field != 3 && field != 49 && field != 52 && field != 87)) {
            if (!skip(in, tag))
                return false;
        } else if (field == 2) {
            if (!readBytes(in, maxOpcodeBytes, &ins->opcode))
                return false;
        } else if (!open(in, m_limits.maxInstructionBytes, &outer) ||
                   !(field == 3    ? shape(in, 1, nullptr)
                     : field == 49 ? group(in, &ins->groups)
                     : field == 52 ? pair(in, ins)
                                   : deviceList(in, ins)) ||
                   !close(in, outer)) {
            return false;
        }
    }
    return true;
}

// A ProgramShapeProto: the first maxParameters parameters and names kept (a repeated one adds to them, as protobuf
// merges it), the result.
bool HloReader::programShape(In &in, Signature *sig)
{
    m_objects = 0;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        In::Limit outer = 0;
        if (WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED || field < 1 || field > 3) {
            if (!skip(in, tag))
                return false;
        } else if (field == 3) {
            QString name;
            if (!count() || !readBytes(in, maxNameBytes, &name))
                return false;
            if (sig->parameterNames.size() < m_limits.maxParameters)
                sig->parameterNames << name;
        } else {
            const bool keep = field == 2 || sig->parameters.size() < m_limits.maxParameters;
            QString t;
            if (!open(in, m_limits.maxInstructionBytes, &outer) || !shape(in, 1, keep ? &t : nullptr) ||
                !close(in, outer))
                return false;
            if (field == 2)
                sig->result = t;
            else if (keep)
                sig->parameters << t;
        }
    }
    return true;
}

void HloReader::collective(const Instruction &ins)
{
    const QString &op = ins.opcode;
    ++opcodes[!opcodes.contains(op) && opcodes.size() >= m_limits.maxOpcodeKinds ? QStringLiteral("(other)") : op];
    if (op.endsWith(QLatin1String("-done")))
        return;
    QString kind = op;
    if (kind.endsWith(QLatin1String("-start")))
        kind.chop(6);
    if (!isCollective(kind))
        return;
    HloCollective c;
    c.opcode = kind;
    if (ins.pairCount > 0) {
        c.groups = QLatin1Char('{') + ins.pairs + QLatin1Char('}');
        c.groupCount = ins.pairCount;
        c.groupSize = 2;
    } else if (ins.groups.count > 0) {
        c.groups = QLatin1Char('{') + ins.groups.text + QLatin1Char('}');
        c.groupCount = ins.groups.count;
        c.groupSize = ins.groups.largest;
    } else if (ins.hasList && ins.listGroups.count > 0) {
        c.groups = QLatin1Char('{') + ins.listGroups.text + QLatin1Char('}');
        c.groupCount = ins.listGroups.count;
        c.groupSize = ins.listGroups.largest;
    } else if (ins.hasIota) {
        c.groupCount = std::max<qint64>(0, ins.iotaGroups);
        c.groupSize = std::max<qint64>(0, ins.iotaSize);
        c.groups = QStringLiteral("[%1,%2]<=[%3]").arg(c.groupCount).arg(c.groupSize)
                       .arg(c.groupCount > 0 && c.groupSize <= LLONG_MAX / c.groupCount ? c.groupCount * c.groupSize : 0);
    }
    const auto key = std::make_pair(c.opcode, c.groups);
    auto it = collectives.find(key);
    if (it == collectives.end()) {
        if (int(collectives.size()) >= m_limits.maxCollectiveKinds) {
            c.opcode = QStringLiteral("(other)");
            c.groups.clear();
            c.groupCount = c.groupSize = 0;
        }
        c.count = 0;
        it = collectives.emplace(std::make_pair(c.opcode, c.groups), c).first;  // or the "(other)" one already there
    }
    ++it->second.count;
}

bool HloReader::computation(In &in, HloSummary *out)
{
    QString name;
    qint64 instructions = 0, id = -1;
    std::optional<Signature> shape;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        In::Limit outer = 0;
        if (field == 1 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readBytes(in, maxNameBytes, &name))
                return false;
        } else if (field == 2 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (++m_instructions > m_limits.maxInstructions)
                return fail(HloText::tr("too large to read: more than %1 instructions (the limit)")
                                .arg(m_limits.maxInstructions));
            Instruction ins;
            if (!open(in, m_limits.maxInstructionBytes, &outer) || !instruction(in, &ins) || !close(in, outer))
                return false;
            collective(ins);
            ++instructions;
        } else if (field == 4 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!shape)
                shape.emplace();
            if (!open(in, m_limits.maxInstructionBytes, &outer) || !programShape(in, &*shape) || !close(in, outer))
                return false;
        } else if (field == 5 && wire == WireFormatLite::WIRETYPE_VARINT) {
            uint64_t v = 0;
            if (!in.ReadVarint64(&v))
                return fail(HloText::tr("the file ends inside a computation"));
            id = qint64(v);
        } else if (!WireFormatLite::SkipField(&in, tag)) {
            return fail(HloText::tr("a computation is not valid"));
        }
    }
    ++out->computationCount;
    out->instructionCount += instructions;
    if (!m_entryName.isEmpty() && name == m_entryName) {
        m_entryShape = shape;  // shares the strings
        out->entryInstructionCount = instructions;
    }
    m_lastShape = std::move(shape);
    m_lastInstructions = instructions;
    m_lastId = id;
    return true;
}

bool HloReader::module(In &in, HloSummary *out)
{
    std::optional<Signature> hostShape;
    qint64 entryId = -1;
    while (const quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        In::Limit outer = 0;
        if (field == 1 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readBytes(in, maxNameBytes, &out->moduleName))
                return false;
        } else if (field == 2 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readBytes(in, maxNameBytes, &m_entryName))
                return false;
            out->entryName = m_entryName;
        } else if (field == 3 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (out->computationCount >= m_limits.maxInstructions)
                return fail(HloText::tr("too large to read: more than %1 computations (the limit)")
                                .arg(m_limits.maxInstructions));
            if (!open(in, m_limits.maxBytes, &outer) || !computation(in, out))
                return false;
            if (in.BytesUntilLimit() > 0 || !in.ConsumedEntireMessage())
                return fail(in.BytesUntilTotalBytesLimit() <= 0
                                ? HloText::tr("the module is over the limit of %1 MiB").arg(m_limits.maxBytes >> 20)
                                : HloText::tr("a computation is not valid"));
            in.PopLimit(outer);
        } else if (field == 4 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!hostShape)
                hostShape.emplace();
            if (!open(in, m_limits.maxInstructionBytes, &outer) || !programShape(in, &*hostShape) || !close(in, outer))
                return false;
        } else if (field == 6 && wire == WireFormatLite::WIRETYPE_VARINT) {
            uint64_t v = 0;
            if (!in.ReadVarint64(&v))
                return fail(HloText::tr("the file ends inside a field"));
            entryId = qint64(v);
        } else if (!WireFormatLite::SkipField(&in, tag)) {
            return fail(in.BytesUntilTotalBytesLimit() <= 0
                            ? HloText::tr("the module is over the limit of %1 MiB").arg(m_limits.maxBytes >> 20)
                            : HloText::tr("not an HLO module (a field that cannot be read)"));
        }
    }
    if (in.BytesUntilTotalBytesLimit() <= 0)
        return fail(HloText::tr("the module is over the limit of %1 MiB").arg(m_limits.maxBytes >> 20));
    if (!in.ConsumedEntireMessage())
        return fail(HloText::tr("not an HLO module (a field that cannot be read)"));
    if (out->computationCount == 0)
        return fail(HloText::tr("not an HLO module (no computations)"));
    // The entry's signature: the computation named as the entry, else the host program shape, else the last one
    // (computations are stored callees first, so the entry comes last).
    std::optional<Signature> shape = m_entryShape;
    if (!shape && hostShape)
        shape = hostShape;
    if (!shape && (entryId < 0 || entryId == m_lastId)) {
        shape = m_lastShape;
        out->entryInstructionCount = m_lastInstructions;
    }
    if (shape) {
        out->parameters = shape->parameters;
        out->parameterNames = shape->parameterNames;
        out->result = shape->result;
    }
    return true;
}
}  // namespace

bool readHloModule(In &in, const HloLimits &limits, HloSummary *out, QString *error)
{
    QString why;
    HloReader reader(limits, &why);
    if (!reader.module(in, out)) {
        if (error)
            *error = why;
        return false;
    }
    for (auto it = reader.opcodes.cbegin(); it != reader.opcodes.cend(); ++it)
        out->opcodes.append({it.key(), it.value()});
    std::sort(out->opcodes.begin(), out->opcodes.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    for (const auto &[key, c] : reader.collectives) {
        if (c.opcode == QLatin1String("(other)"))
            out->otherCollectives += c.count;
        else
            out->collectives.append(c);
    }
    return true;
}

}  // namespace ingot
