#include "services/cache/hlo.h"

#include "services/cache/hloreader.h"

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
#include <memory>

namespace ingot {

namespace {
namespace pb = google::protobuf;
using pb::internal::WireFormatLite;

struct HloText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Hlo)
};
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
    {
        pb::io::CodedInputStream in(gz ? static_cast<pb::io::ZeroCopyInputStream *>(gz.get()) : &raw);
        in.SetTotalBytesLimit(int(std::min<qint64>(limits.maxBytes, INT_MAX)));
        in.SetRecursionLimit(limits.maxDepth);
        ok = readHloModule(in, limits, &out, &why);
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
