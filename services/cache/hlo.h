// What the HLO graph behind a compile-cache entry is (model.hlo_module.pb, an XLA HloModuleProto, plain or
// gzip-compressed): its name, the entry computation's parameters and result, how many instructions of which kind,
// and its collectives with their replica groups (the groups tell a tp=8 graph from a tp=32 one). Read with
// libprotobuf's CodedInputStream, field by field, with the field numbers of services/cache/hlo_subset.proto
// (services/cache/hloreader.cpp): bounded in bytes, depth and objects, memory being what the summary keeps
// (docs/formats.md).
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace ingot {

struct HloCollective {
    QString opcode;        // "all-reduce", "all-gather", "reduce-scatter", "collective-permute", ... ("-start" folded)
    QString groups;        // the replica groups as XLA prints them, "{{0,1,2,3},{4,5,6,7}}" (long ones cut with "…"),
                           // or the source→target pairs of a collective-permute, "{0→1,1→2,…}"; "" = all replicas
    qint64 groupCount = 0;  // groups (or pairs); 0 = one group of every replica
    qint64 groupSize = 0;   // members of the largest group (pairs: 2); 0 = every replica
    qint64 count = 0;       // instructions with this opcode and these groups
};

struct HloSummary {
    QString moduleName;
    QString entryName;
    QStringList parameters;      // the entry computation's parameters as XLA prints shapes: "bf16[4,2048]", "(f32[], s32[2])"
    QStringList parameterNames;  // as many as the module records (often none)
    QString result;
    qint64 computationCount = 0;
    qint64 instructionCount = 0;       // in every computation (fusions and reductions included)
    qint64 entryInstructionCount = 0;  // in the entry computation
    QVector<QPair<QString, qint64>> opcodes;  // every opcode with its count, most frequent first
    QVector<HloCollective> collectives;       // by opcode, then groups
    qint64 otherCollectives = 0;  // collectives beyond the kinds kept (maxCollectiveKinds), counted only
    bool gzip = false;            // the file was gzip-compressed

    // "all-reduce ×12 over 4 groups of 8" for each kind of collective, in order.
    QStringList collectiveLines() const;
    // The largest replica group of any collective (0: none, or every replica).
    qint64 largestGroup() const;
};

struct HloLimits {
    qint64 maxBytes = 1024LL << 20;          // the decoded module (after gzip)
    qint64 maxInstructionBytes = 64LL << 20;  // one instruction or program shape
    qint64 maxObjects = 1 << 20;  // shapes, dimensions, replica groups and ids, pairs in one instruction or program shape
    qint64 maxInstructions = 1 << 24;         // in the module, and as many computations
    int maxDepth = 48;                        // nesting of messages (tuple shapes)
    int maxOpcodeKinds = 512;                 // distinct opcodes kept; the rest count as "(other)"
    int maxCollectiveKinds = 64;              // distinct (opcode, groups) kept
    int maxShapeElements = 64;                // elements of a tuple shape (or dimensions) printed before "…"
    int maxShapeText = 1024;                  // characters of one shape's text, then "…"
    int maxParameters = 4096;                 // parameters (and their names) of the entry kept; the rest are read
};

// The summary as lines people read (the module details, `ingot-cli cache show`): names escaped for display.
QStringList hloSummaryLines(const HloSummary &h);

// Parses a module. Fails (nullopt, *error in words) on bytes that are not an HloModuleProto, a truncated or
// over-limit file ("too complex to read" / "too large to read" with the limit), or a module without computations.
std::optional<HloSummary> parseHloModule(const QByteArray &bytes, QString *error, const HloLimits &limits = {});

// XLA's name of a primitive type number ("bf16", "f32", "s64", "pred", ...); "type<N>" for one it does not name.
QString primitiveTypeName(int type);

// The file of an entry that holds its HLO, of the names listed (model.hlo_module.pb, the older model.hlo.pb, or a
// gzip-compressed one, model.hlo_module.pb.gz); empty when there is none.
QString hloFileOf(const QStringList &fileNames);

// Compile flags as the compiler stores them (compile_flags.json: a JSON list of strings; the older
// compile_flags.txt: space-separated). nullopt, with words, for a .json that is not a list of strings.
std::optional<QStringList> parseCompileFlags(const QByteArray &raw, bool json, QString *error = nullptr);

// How one shape of a module differs from another's, in words, for "which setting changed the graph": one line per
// differing parameter or collective ("parameter 1 (input_ids): s64[4,2048] → s64[4,4096]", "all-reduce groups of 8 →
// 32"), at most maxLines (then "… and N more").
QStringList hloDifferences(const HloSummary &from, const HloSummary &to, int maxLines = 8);

// A small module written with the same .proto, for the sample cache, the tests and the stand-in compiler: an entry
// computation with these parameters and result (XLA's shape text: "bf16[4,2048]", a tuple "(f32[], s64[2])"),
// `instructions` filler instructions, and `allReduces` all-reduces over groups of `groupSize` devices out of
// `devices` (0: none). gzip compresses it. padTo > 0: the module is followed by the head of a field readers skip,
// whose bytes are the zeros that make the file padTo long: the caller writes those (a sparse file: ftruncate).
struct HloSketch {
    QString name = QStringLiteral("SyncTensorsGraph.1");
    QStringList parameters;
    QStringList parameterNames;
    QString result = QStringLiteral("f32[]");
    int instructions = 8;
    int allReduces = 0;
    int groupSize = 0;
    int devices = 0;
    bool collectivePermute = false;  // one collective-permute over a ring of groupSize
    bool gzip = false;
};
QByteArray writeHloModule(const HloSketch &sketch, qint64 padTo = 0);

}  // namespace ingot
