// Merging a LoRA adapter into its base model (docs/formats.md, "Merging a LoRA adapter"): every weight a LoRA layer
// targets becomes W + scaling · B·A, as PEFT's merge_and_unload computes it (B·A in fp32, scaling = lora_alpha / r,
// or lora_alpha / √r with use_rslora, the product rounded to the weight's dtype and then added in it); everything
// else is copied as it is. The plan is a ConsolidationPlan over the base model's safetensors (one file, or those its
// index names), so it is written, verified and put in place as a consolidation is.
#pragma once

#include "services/checkpoint/plan.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace ingot {

// The adapter settings merging needs, read from adapter_config.json (PEFT's LoraConfig).
struct LoraConfig {
    int r = 0;
    double alpha = 0;
    bool rslora = false;
    double scaling() const;
};
// Reads adapter_config.json; anything merging cannot honour (another peft_type, DoRA, fan_in_fan_out, per-module
// rank or alpha patterns, modules_to_save) is a problem, not a guess.
bool readLoraConfig(const QString &adapterConfig, LoraConfig *c, QStringList *problems);

// The plan for `baseModel` (a Hugging Face folder: model.safetensors or model.safetensors.index.json and its files,
// config.json and tokenizer files beside) with the PEFT adapter in `adapterDir` (adapter_model.safetensors and
// adapter_config.json) merged. Every lora_A/lora_B pair must find its weight (base_model.model.<name>.weight) with
// matching shapes, in F32, BF16 or F16; an adapter tensor that is neither is a problem.
ConsolidationPlan planAdapterMerge(const QString &baseModel, const QString &adapterDir);

class ShardReader;
// Opens a PEFT adapter's adapter_model.safetensors (`file`) into `r`, once, by the checkpoint files' link rule
// (openCheckpointFile()): a link leading outside the adapter's folder is refused with words.
bool openAdapterWeights(const QString &file, ShardReader *r, QString *error);

// A Hugging Face model folder (safetensors) as a one-rank checkpoint: every tensor copied as it is.
ConsolidationPlan planModelFolder(const QString &folder);
// The weights of a Hugging Face model folder: model.safetensors.index.json, else model.safetensors; empty when it
// holds neither.
QString safetensorsModelFile(const QString &folder);
// Where the merged model goes beside an adapter's output (consolidate --merge-adapters, the wizard): <output>/merged.
QString mergedModelFolder(const QString &adapterOutput);
// The base model folder an adapter's adapter_config.json names (base_model_name_or_path), when that is a folder here;
// empty otherwise (a Hub id, no config).
QString localBaseModelOf(const QString &adapterDir);

// One of lora_A, lora_B as read from the adapter.
struct LoraOperand {
    DType dtype = DType::Unknown;
    std::vector<std::int64_t> shape;
    const char *data = nullptr;
    qint64 bytes = 0;
};
// Adds e.loraScale · B·A (transposed for an embedding) to the weight `w` (e.shape, e.dtype) in place. False with
// words when the shapes or dtypes are not what the plan said.
bool addLoraDelta(const ConsolidatePlanEntry &e, char *w, const LoraOperand &a, const LoraOperand &b, QString *error);

// The conversions, rounding to nearest even (exposed for the tests).
float bf16ToFloat(std::uint16_t h);
std::uint16_t floatToBf16(float f);
float f16ToFloat(std::uint16_t h);
std::uint16_t floatToF16(float f);

}  // namespace ingot
