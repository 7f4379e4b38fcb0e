// The partitioning metadata of a sharded checkpoint (docs/formats.md, "Sharded checkpoints"): which parameters are
// split along which dim, and the transformation specs (fused linears, GQA attention) that say how pieces were
// rearranged. Read from mp_metadata JSON (neuronx-distributed, Ingot's backend) or the sharded_metadata inside
// checkpoint.pt (optimum-neuron docs layout).
#pragma once

#include "services/checkpoint/discover.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ingot {

class OpenShards;

struct PartitionMetadata {
    struct Param {
        bool parallel = false;
        int dim = -1;
        int stride = 1;
    };
    // Every field below was read with its type and range checked (see metadata.cpp).
    // FusedLinearsSpec: several linears stored as one, each rank holding original_dims[i] / tp of each.
    struct Fused {
        std::string module, fusedName;
        std::vector<std::string> linearNames;
        std::vector<std::int64_t> originalDims;
        bool bias = false;
        int fuseAxis = 0;
        int tpSize = 1;
        bool lora = false;  // peft_type "lora": the spec describes the LoRA layers of this linear (adapter shards)
    };
    // GQAQKVColumnParallelLinearSpec: q/k/v (fused or not) and the output projection of a GQA attention.
    struct Gqa {
        std::string module, gqaName, q, k, v, o;
        int heads = 0, kvHeads = 0, multiplier = 1, tpSize = 1;
        std::int64_t qPerPartition = 0, kvPerPartition = 0;
        bool fuse = false;
        bool bias = false;  // q/k/v biases beside the weights (bias_qkv, or bias_q/_k/_v), split as their rows are
        bool lora = false;  // peft_type "lora": lora_B is the GQA layer, lora_A of the output projection is permuted
    };
    std::map<std::string, Param> params;
    std::vector<Fused> fused;
    std::vector<Gqa> gqa;
    QStringList unsupportedSpecs;
    int numPartitions = 0;  // the largest num_partitions of a tensor-parallel parameter: the real tp size
};

// A metadata file larger than this is not one (a real one takes a few hundred bytes per parameter).
constexpr qint64 kMaxMetadataBytes = qint64(64) << 20;

// "mp_metadata_pp_rank_<pp>.json" (pp not zero-padded) in the shards folder, and the glob that finds them all.
QString mpMetadataFileName(int pp);
QString mpMetadataFileGlob();
// "mp_metadata_pp_rank_<pp>.pt": older optimum-neuron's (0.0.22 to 0.1.x) torch.save of {sharded_metadata,
// gqa_qkv_metadata}, read when the JSON form is not there (docs/formats.md).
QString legacyMpMetadataFileName(int pp);
bool loadLegacyMpMetadata(const QString &file, int tpSize, PartitionMetadata *md, QStringList *problems);
// "mp_metadata.json": the metadata inside one rank folder (Ingot's backend).
QString rankMetadataFileName();

// Reads an mp_metadata JSON file into *md; problems (missing, not JSON, no parameters, a field of the wrong type or
// out of range, named with its file, object and field) are listed, not thrown. A parameter or spec with a problem
// is left out of *md. False when there was any problem.
bool loadMpMetadata(const QString &file, PartitionMetadata *md, QStringList *problems);
// The same on the file's bytes (`file` names it in the problems).
bool parseMpMetadata(const QByteArray &bytes, const QString &file, PartitionMetadata *md, QStringList *problems);
// The largest num_partitions of a tensor-parallel parameter in an mp_metadata file: the real tp size. 0 when the
// file cannot be read; a num_partitions of the wrong type or out of range (1 to kMaxRank + 1) is a problem.
int tpSizeInMetadata(const QString &file, QStringList *problems);
// An adapter's metadata lists every parameter of the PEFT model with its adapter's name after lora_A / lora_B /
// lora_embedding_A / lora_embedding_B ("…qkv_proj.lora_A.default.weight"), while the shards name them without it:
// the name as the shards have it, or "" when the parameter belongs to another adapter.
std::string withoutAdapterName(const std::string &name, const std::string &adapter);
// The metadata of pipeline stage `pp`, wherever the checkpoint's layout keeps it (an adapter's parameters named as
// its shards name them, those of other adapters left out).
PartitionMetadata metadataForStage(const CheckpointCandidate &c, const OpenShards &shards, int pp, QStringList *problems);

}  // namespace ingot
