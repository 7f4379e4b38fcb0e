#include "services/cache/hlo.h"

#include "hlo_subset.pb.h"
#include "services/util/names.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <climits>
#include <map>
#include <memory>

namespace ingot {

namespace {
namespace pb = google::protobuf;
using pb::internal::WireFormatLite;

struct HloText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Hlo)
};

constexpr int maxNameBytes = 4096;

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

void shapeText(const hlo::ShapeProto &s, int maxElements, QString *out)
{
    if (s.element_type() == 13) {  // TUPLE
        out->append(QLatin1Char('('));
        const int n = s.tuple_shapes_size();
        for (int i = 0; i < n && i < maxElements; ++i) {
            if (i)
                out->append(QStringLiteral(", "));
            shapeText(s.tuple_shapes(i), maxElements, out);
        }
        if (n > maxElements)
            out->append(QStringLiteral(", … %1 more").arg(n - maxElements));
        out->append(QLatin1Char(')'));
        return;
    }
    out->append(primitiveTypeName(s.element_type()));
    if (s.element_type() == 14 || s.element_type() == 17)  // OPAQUE_TYPE, TOKEN: no dimensions
        return;
    out->append(QLatin1Char('['));
    const int n = s.dimensions_size();
    for (int i = 0; i < n && i < maxElements; ++i) {
        if (i)
            out->append(QLatin1Char(','));
        out->append(QString::number(s.dimensions(i)));
    }
    if (n > maxElements)
        out->append(QStringLiteral(",…"));
    out->append(QLatin1Char(']'));
}

QString shapeText(const hlo::ShapeProto &s, int maxElements)
{
    QString t;
    shapeText(s, maxElements, &t);
    return t;
}

QString groupsText(const pb::RepeatedPtrField<hlo::ReplicaGroup> &groups, qint64 *largest)
{
    QString t = QStringLiteral("{");
    int shown = 0;
    for (const hlo::ReplicaGroup &g : groups) {
        *largest = std::max<qint64>(*largest, g.replica_ids_size());
        if (shown == 8) {
            t += QStringLiteral(",…");
            ++shown;
        }
        if (shown > 8)
            continue;
        if (shown++)
            t += QLatin1Char(',');
        t += QLatin1Char('{');
        for (int i = 0; i < g.replica_ids_size() && i < 16; ++i) {
            if (i)
                t += QLatin1Char(',');
            t += QString::number(g.replica_ids(i));
        }
        if (g.replica_ids_size() > 16)
            t += QStringLiteral(",…");
        t += QLatin1Char('}');
    }
    return t + QLatin1Char('}');
}

bool isCollective(const QString &op)
{
    static const QStringList kinds = {QStringLiteral("all-reduce"), QStringLiteral("all-gather"),
                                      QStringLiteral("reduce-scatter"), QStringLiteral("collective-permute"),
                                      QStringLiteral("all-to-all"), QStringLiteral("collective-broadcast")};
    return kinds.contains(op);
}

class Reader
{
public:
    Reader(const HloLimits &limits, QString *error) : m_limits(limits), m_error(error) {}

    bool module(pb::io::CodedInputStream &in, HloSummary *out);
    std::map<std::pair<QString, QString>, HloCollective> collectives;
    QHash<QString, qint64> opcodes;

private:
    bool fail(const QString &why)
    {
        if (m_error && m_error->isEmpty())
            *m_error = why;
        return false;
    }
    bool readLength(pb::io::CodedInputStream &in, qint64 cap, int *len);
    bool readName(pb::io::CodedInputStream &in, QString *out);
    bool readMessage(pb::io::CodedInputStream &in, pb::MessageLite *msg);
    bool computation(pb::io::CodedInputStream &in, HloSummary *out);
    void instruction(const hlo::HloInstructionProto &ins);

    const HloLimits &m_limits;
    QString *m_error;
    hlo::HloInstructionProto m_ins;
    std::optional<hlo::ProgramShapeProto> m_entryShape;  // of the computation named as the entry
    std::optional<hlo::ProgramShapeProto> m_lastShape;   // of the last computation (the entry comes last)
    qint64 m_lastInstructions = 0;
    qint64 m_lastId = -1;
    QString m_entryName;
};

bool Reader::readLength(pb::io::CodedInputStream &in, qint64 cap, int *len)
{
    uint32_t n = 0;
    if (!in.ReadVarint32(&n))
        return fail(HloText::tr("the file ends inside a field"));
    if (qint64(n) > cap || n > quint32(INT_MAX))
        return fail(HloText::tr("a field of %1 bytes is over the limit of %2 bytes").arg(n).arg(cap));
    *len = int(n);
    return true;
}

bool Reader::readName(pb::io::CodedInputStream &in, QString *out)
{
    int len = 0;
    if (!readLength(in, m_limits.maxBytes, &len))
        return false;
    std::string s;
    if (!in.ReadString(&s, std::min(len, maxNameBytes)) || (len > maxNameBytes && !in.Skip(len - maxNameBytes)))
        return fail(HloText::tr("the file ends inside a name"));
    *out = fromStd(s);
    return true;
}

bool Reader::readMessage(pb::io::CodedInputStream &in, pb::MessageLite *msg)
{
    int len = 0;
    if (!readLength(in, m_limits.maxInstructionBytes, &len))
        return false;
    std::string bytes;
    if (!in.ReadString(&bytes, len))
        return fail(HloText::tr("the file ends inside an instruction"));
    pb::io::CodedInputStream sub(reinterpret_cast<const quint8 *>(bytes.data()), int(bytes.size()));
    sub.SetRecursionLimit(m_limits.maxDepth);
    msg->Clear();
    if (!msg->MergePartialFromCodedStream(&sub) || !sub.ConsumedEntireMessage())
        return fail(HloText::tr("an instruction or shape is not valid (or nested deeper than %1 levels)").arg(m_limits.maxDepth));
    return true;
}

void Reader::instruction(const hlo::HloInstructionProto &ins)
{
    const QString op = fromStd(ins.opcode().substr(0, 64));
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
    if (ins.source_target_pairs_size() > 0) {
        QString t = QStringLiteral("{");
        for (int i = 0; i < ins.source_target_pairs_size() && i < 16; ++i)
            t += (i ? QStringLiteral(",") : QString()) + QString::number(ins.source_target_pairs(i).source()) +
                 QStringLiteral("→") + QString::number(ins.source_target_pairs(i).target());
        if (ins.source_target_pairs_size() > 16)
            t += QStringLiteral(",…");
        c.groups = t + QLatin1Char('}');
        c.groupCount = ins.source_target_pairs_size();
        c.groupSize = 2;
    } else if (ins.replica_groups_size() > 0) {
        c.groups = groupsText(ins.replica_groups(), &c.groupSize);
        c.groupCount = ins.replica_groups_size();
    } else if (ins.has_collective_device_list()) {
        const hlo::CollectiveDeviceListProto &l = ins.collective_device_list();
        if (l.replica_groups_size() > 0) {
            c.groups = groupsText(l.replica_groups(), &c.groupSize);
            c.groupCount = l.replica_groups_size();
        } else if (l.has_iota_replica_group_list()) {
            const auto &iota = l.iota_replica_group_list();
            c.groupCount = std::max<qint64>(0, iota.num_replica_groups());
            c.groupSize = std::max<qint64>(0, iota.num_devices_per_group());
            c.groups = QStringLiteral("[%1,%2]<=[%3]").arg(c.groupCount).arg(c.groupSize)
                           .arg(c.groupCount > 0 && c.groupSize <= LLONG_MAX / c.groupCount ? c.groupCount * c.groupSize : 0);
        }
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

bool Reader::computation(pb::io::CodedInputStream &in, HloSummary *out)
{
    QString name;
    qint64 instructions = 0, id = -1;
    std::optional<hlo::ProgramShapeProto> shape;
    while (quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        if (field == 1 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readName(in, &name))
                return false;
        } else if (field == 2 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readMessage(in, &m_ins))
                return false;
            instruction(m_ins);
            ++instructions;
        } else if (field == 4 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            shape.emplace();
            if (!readMessage(in, &*shape))
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
        m_entryShape = shape;
        out->entryInstructionCount = instructions;
    }
    m_lastShape = shape;
    m_lastInstructions = instructions;
    m_lastId = id;
    return true;
}

bool Reader::module(pb::io::CodedInputStream &in, HloSummary *out)
{
    std::optional<hlo::ProgramShapeProto> hostShape;
    qint64 entryId = -1;
    while (quint32 tag = in.ReadTag()) {
        const int field = int(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire = WireFormatLite::GetTagWireType(tag);
        if (field == 1 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readName(in, &out->moduleName))
                return false;
        } else if (field == 2 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!readName(in, &m_entryName))
                return false;
            out->entryName = m_entryName;
        } else if (field == 3 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            int len = 0;
            if (!readLength(in, m_limits.maxBytes, &len))
                return false;
            const auto limit = in.PushLimit(len);
            const bool ok = computation(in, out);
            if (!ok)
                return false;
            if (!in.ConsumedEntireMessage())
                return fail(HloText::tr("a computation is not valid"));
            in.PopLimit(limit);
        } else if (field == 4 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            hostShape.emplace();
            if (!readMessage(in, &*hostShape))
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
    std::optional<hlo::ProgramShapeProto> shape = m_entryShape;
    if (!shape && hostShape)
        shape = hostShape;
    if (!shape && (entryId < 0 || entryId == m_lastId)) {
        shape = m_lastShape;
        out->entryInstructionCount = m_lastInstructions;
    }
    if (shape) {
        for (const hlo::ShapeProto &p : shape->parameters()) {
            if (out->parameters.size() >= 4096)
                break;
            out->parameters << shapeText(p, m_limits.maxShapeElements);
        }
        for (const std::string &n : shape->parameter_names()) {
            if (out->parameterNames.size() >= 4096)
                break;
            out->parameterNames << fromStd(n.substr(0, maxNameBytes));
        }
        if (shape->has_result())
            out->result = shapeText(shape->result(), m_limits.maxShapeElements);
    }
    return true;
}
}  // namespace

QString primitiveTypeName(int type)
{
    static const QHash<int, QString> names = {
        {1, QStringLiteral("pred")},   {2, QStringLiteral("s8")},     {3, QStringLiteral("s16")},
        {4, QStringLiteral("s32")},    {5, QStringLiteral("s64")},    {6, QStringLiteral("u8")},
        {7, QStringLiteral("u16")},    {8, QStringLiteral("u32")},    {9, QStringLiteral("u64")},
        {10, QStringLiteral("f16")},   {11, QStringLiteral("f32")},   {12, QStringLiteral("f64")},
        {13, QStringLiteral("tuple")}, {14, QStringLiteral("opaque")}, {15, QStringLiteral("c64")},
        {16, QStringLiteral("bf16")},  {17, QStringLiteral("token")}, {18, QStringLiteral("c128")},
        {19, QStringLiteral("f8e5m2")}, {20, QStringLiteral("f8e4m3fn")}, {21, QStringLiteral("s4")},
        {22, QStringLiteral("u4")},    {23, QStringLiteral("f8e4m3b11fnuz")}, {24, QStringLiteral("f8e5m2fnuz")},
        {25, QStringLiteral("f8e4m3fnuz")}, {26, QStringLiteral("s2")}, {27, QStringLiteral("u2")},
        {28, QStringLiteral("f8e4m3")}, {29, QStringLiteral("f8e3m4")}, {30, QStringLiteral("s1")},
        {31, QStringLiteral("u1")},    {32, QStringLiteral("f4e2m1fn")}, {33, QStringLiteral("f8e8m0fnu")},
    };
    return names.value(type, QStringLiteral("type%1").arg(type));
}

std::optional<HloSummary> parseHloModule(const QByteArray &bytes, QString *error, const HloLimits &limits)
{
    QString why;
    HloSummary out;
    out.gzip = bytes.size() >= 2 && quint8(bytes[0]) == 0x1f && quint8(bytes[1]) == 0x8b;
    if (!out.gzip && bytes.size() > limits.maxBytes) {
        if (error)
            *error = HloText::tr("the module is over the limit of %1 MiB").arg(limits.maxBytes >> 20);
        return std::nullopt;
    }
    pb::io::ArrayInputStream raw(bytes.constData(), int(std::min<qsizetype>(bytes.size(), INT_MAX)));
    std::unique_ptr<pb::io::GzipInputStream> gz;
    if (out.gzip)
        gz = std::make_unique<pb::io::GzipInputStream>(&raw, pb::io::GzipInputStream::GZIP);
    bool ok = false;
    Reader reader(limits, &why);
    {
        pb::io::CodedInputStream in(gz ? static_cast<pb::io::ZeroCopyInputStream *>(gz.get()) : &raw);
        in.SetTotalBytesLimit(int(std::min<qint64>(limits.maxBytes, INT_MAX)));
        in.SetRecursionLimit(limits.maxDepth);
        ok = reader.module(in, &out);
    }
    if (ok && gz && gz->ZlibErrorCode() < 0) {  // Z_OK / Z_STREAM_END are >= 0
        why = HloText::tr("the gzip stream is damaged");
        ok = false;
    }
    if (!ok) {
        if (error)
            *error = why.isEmpty() ? HloText::tr("not an HLO module") : why;
        return std::nullopt;
    }
    for (auto it = reader.opcodes.cbegin(); it != reader.opcodes.cend(); ++it)
        out.opcodes.append({it.key(), it.value()});
    std::sort(out.opcodes.begin(), out.opcodes.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    for (const auto &[key, c] : reader.collectives) {
        if (c.opcode == QLatin1String("(other)"))
            out.otherCollectives += c.count;
        else
            out.collectives.append(c);
    }
    return out;
}

namespace {
bool shapeFromText(const QString &text, hlo::ShapeProto *out)
{
    const QString t = text.trimmed();
    if (t.startsWith(QLatin1Char('(')) && t.endsWith(QLatin1Char(')'))) {
        out->set_element_type(13);
        const QString inner = t.mid(1, t.size() - 2).trimmed();
        if (inner.isEmpty())
            return true;
        // Elements are arrays: split at the commas between a ']' and the next type.
        static const QRegularExpression sep(QStringLiteral("\\]\\s*,\\s*"));
        QStringList parts = inner.split(sep);
        for (int i = 0; i + 1 < parts.size(); ++i)
            parts[i] += QLatin1Char(']');
        for (const QString &p : std::as_const(parts))
            if (!shapeFromText(p, out->add_tuple_shapes()))
                return false;
        return true;
    }
    const qsizetype open = t.indexOf(QLatin1Char('['));
    if (open <= 0 || !t.endsWith(QLatin1Char(']')))
        return false;
    const QString type = t.left(open);
    int number = -1;
    for (int i = 1; i < 64 && number < 0; ++i)
        if (primitiveTypeName(i) == type)
            number = i;
    if (number < 0)
        return false;
    out->set_element_type(number);
    for (const QString &d : t.mid(open + 1, t.size() - open - 2).split(QLatin1Char(','), Qt::SkipEmptyParts))
        out->add_dimensions(d.trimmed().toLongLong());
    return true;
}
}  // namespace

QByteArray writeHloModule(const HloSketch &s, qint64 padTo)
{
    hlo::HloModuleProto m;
    m.set_name(s.name.toStdString());
    const std::string entry = "main." + std::to_string(s.instructions + s.parameters.size() + 1);
    m.set_entry_computation_name(entry);
    hlo::HloComputationProto *add = m.add_computations();  // the reduction the all-reduces call
    add->set_name("AddComputation.1");
    add->set_id(1);
    for (int i = 0; i < 3; ++i) {
        hlo::HloInstructionProto *ins = add->add_instructions();
        ins->set_name("x." + std::to_string(i));
        ins->set_opcode(i < 2 ? "parameter" : "add");
        ins->mutable_shape()->set_element_type(11);
    }
    hlo::HloComputationProto *c = m.add_computations();
    c->set_name(entry);
    c->set_id(2);
    hlo::ProgramShapeProto *ps = c->mutable_program_shape();
    for (qsizetype i = 0; i < s.parameters.size(); ++i) {
        shapeFromText(s.parameters[i], ps->add_parameters());
        hlo::HloInstructionProto *ins = c->add_instructions();
        ins->set_name("p" + std::to_string(i));
        ins->set_opcode("parameter");
        ins->set_parameter_number(i);
        shapeFromText(s.parameters[i], ins->mutable_shape());
    }
    for (const QString &n : s.parameterNames)
        ps->add_parameter_names(n.toStdString());
    shapeFromText(s.result, ps->mutable_result());
    static const char *fillers[] = {"dot", "add", "multiply", "broadcast", "reshape", "convert", "add", "dot"};
    for (int i = 0; i < s.instructions; ++i) {
        hlo::HloInstructionProto *ins = c->add_instructions();
        ins->set_name("i" + std::to_string(i));
        ins->set_opcode(fillers[i % 8]);
        ins->mutable_shape()->set_element_type(16);
    }
    for (int i = 0; i < s.allReduces && s.groupSize > 0; ++i) {
        hlo::HloInstructionProto *ins = c->add_instructions();
        ins->set_name("all-reduce." + std::to_string(i));
        ins->set_opcode("all-reduce");
        ins->set_channel_id(i + 1);
        ins->mutable_shape()->set_element_type(16);
        for (int g = 0; g + s.groupSize <= std::max(s.devices, s.groupSize); g += s.groupSize) {
            hlo::ReplicaGroup *rg = ins->add_replica_groups();
            for (int d = 0; d < s.groupSize; ++d)
                rg->add_replica_ids(g + d);
        }
    }
    if (s.collectivePermute && s.groupSize > 1) {
        hlo::HloInstructionProto *ins = c->add_instructions();
        ins->set_name("collective-permute.1");
        ins->set_opcode("collective-permute");
        for (int d = 0; d < s.groupSize; ++d) {
            hlo::SourceTarget *st = ins->add_source_target_pairs();
            st->set_source(d);
            st->set_target((d + 1) % s.groupSize);
        }
    }
    std::string bytes;
    if (s.gzip) {
        pb::io::StringOutputStream sink(&bytes);
        pb::io::GzipOutputStream::Options o;
        o.format = pb::io::GzipOutputStream::GZIP;
        pb::io::GzipOutputStream gz(&sink, o);
        m.SerializeToZeroCopyStream(&gz);
        gz.Close();
    } else {
        m.SerializeToString(&bytes);
    }
    QByteArray out(bytes.data(), qsizetype(bytes.size()));
    // Padding: field 1000 (no field of HloModuleProto), length-delimited, as long as the rest of the file.
    if (!s.gzip && padTo > out.size() + 8) {
        std::string head;
        pb::io::StringOutputStream hs(&head);
        {
            pb::io::CodedOutputStream co(&hs);
            co.WriteTag(WireFormatLite::MakeTag(1000, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
            qint64 len = padTo - out.size() - 2;
            // The length's own varint takes a few bytes: find the length that makes the total padTo.
            for (int lenBytes = 1; lenBytes <= 5; ++lenBytes) {
                len = padTo - out.size() - 2 - lenBytes;
                if (int(pb::io::CodedOutputStream::VarintSize32(quint32(len))) == lenBytes)
                    break;
            }
            co.WriteVarint32(quint32(len));
        }
        out.append(head.data(), qsizetype(head.size()));
    }
    return out;
}

QStringList hloSummaryLines(const HloSummary &h)
{
    QStringList l;
    l << HloText::tr("HLO module:    %1%2").arg(displayName(h.moduleName), h.gzip ? HloText::tr(" (gzip)") : QString());
    l << HloText::tr("Computation:   %1 (the ENTRY)").arg(displayName(h.entryName));
    for (qsizetype i = 0; i < h.parameters.size(); ++i)
        l << HloText::tr("  parameter %1: %2 %3").arg(i).arg(h.parameters[i], displayName(h.parameterNames.value(i)));
    l << HloText::tr("  result:      %1").arg(h.result);
    QStringList top;
    for (qsizetype i = 0; i < h.opcodes.size() && i < 8; ++i)
        top << QStringLiteral("%1 ×%2").arg(displayName(h.opcodes[i].first)).arg(h.opcodes[i].second);
    l << HloText::tr("Instructions:  %1 in %n computation(s) (%2 in the entry); most frequent: %3", nullptr,
                            int(h.computationCount))
             .arg(h.instructionCount).arg(h.entryInstructionCount).arg(top.join(QStringLiteral(", ")));
    const QStringList coll = h.collectiveLines();
    l << (coll.isEmpty() ? HloText::tr("Collectives:   none (a single-device graph)")
                         : HloText::tr("Collectives:"));
    for (const QString &c : coll)
        l << QStringLiteral("  ") + c;
    return l;
}

QStringList HloSummary::collectiveLines() const
{
    QStringList lines;
    for (const HloCollective &c : collectives) {
        QString groups;
        if (c.opcode == QLatin1String("collective-permute") && c.groupCount > 0)
            groups = HloText::tr("%n pair(s) %1", nullptr, int(std::min<qint64>(c.groupCount, INT_MAX))).arg(c.groups);
        else if (c.groupCount > 0)
            groups = HloText::tr("%n group(s) of %1 %2", nullptr, int(std::min<qint64>(c.groupCount, INT_MAX)))
                         .arg(c.groupSize).arg(c.groups);
        else
            groups = HloText::tr("every replica");
        lines << HloText::tr("%1 ×%2 over %3").arg(c.opcode).arg(c.count).arg(groups);
    }
    if (otherCollectives > 0)
        lines << HloText::tr("%1 more collectives of other kinds").arg(otherCollectives);
    return lines;
}

qint64 HloSummary::largestGroup() const
{
    qint64 g = 0;
    for (const HloCollective &c : collectives)
        if (c.opcode != QLatin1String("collective-permute"))
            g = std::max(g, c.groupSize);
    return g;
}

QString hloFileOf(const QStringList &fileNames)
{
    for (const char *name : {"model.hlo_module.pb", "model.hlo.pb", "model.hlo_module.pb.gz", "model.hlo.pb.gz"})
        if (fileNames.contains(QLatin1String(name)))
            return QLatin1String(name);
    return {};
}

std::optional<QStringList> parseCompileFlags(const QByteArray &raw, bool json, QString *error)
{
    if (!json)
        return QString::fromUtf8(raw).simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &e);
    if (e.error != QJsonParseError::NoError || !doc.isArray()) {
        if (error)
            *error = HloText::tr("compile_flags.json is not a JSON list");
        return std::nullopt;
    }
    QStringList flags;
    for (const auto &v : doc.array()) {
        if (!v.isString()) {
            if (error)
                *error = HloText::tr("compile_flags.json holds something other than strings");
            return std::nullopt;
        }
        flags << v.toString();
    }
    return flags;
}

QStringList hloDifferences(const HloSummary &from, const HloSummary &to, int maxLines)
{
    QStringList lines;
    const qsizetype n = std::max(from.parameters.size(), to.parameters.size());
    for (qsizetype i = 0; i < n; ++i) {
        const QString a = from.parameters.value(i, HloText::tr("(none)"));
        const QString b = to.parameters.value(i, HloText::tr("(none)"));
        if (a == b)
            continue;
        const QString name = to.parameterNames.value(i, from.parameterNames.value(i));
        lines << (name.isEmpty() ? HloText::tr("parameter %1: %2 → %3").arg(i).arg(a, b)
                                 : HloText::tr("parameter %1 (%2): %3 → %4").arg(i).arg(name, a, b));
    }
    if (from.result != to.result)
        lines << HloText::tr("result: %1 → %2").arg(from.result, to.result);
    if (from.largestGroup() != to.largestGroup())
        lines << HloText::tr("replica groups of %1 → %2").arg(from.largestGroup()).arg(to.largestGroup());
    if (lines.isEmpty() && from.instructionCount != to.instructionCount)
        lines << HloText::tr("same signature; %1 → %2 instructions").arg(from.instructionCount).arg(to.instructionCount);
    if (lines.size() > maxLines) {
        const qsizetype more = lines.size() - maxLines;
        lines = lines.mid(0, maxLines);
        lines << HloText::tr("… and %1 more").arg(more);
    }
    return lines;
}

}  // namespace ingot
