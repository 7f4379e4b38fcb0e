// The model a job trains, as far as its settings need it: the backend's built-in configs and a Hugging Face
// folder's config.json (docs/formats.md#training-jobs), and the parameter counts that follow from a layout.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

struct ModelInfo {
    bool known = false;  // false: no model named, or its config could not be read (error says why)
    QString error;
    QString description;  // "tiny (built in)" or the folder's model_type and size
    qint64 vocabSize = 0;
    qint64 hiddenSize = 0;
    qint64 intermediateSize = 0;
    qint64 numLayers = 0;
    qint64 numHeads = 0;
    qint64 numKvHeads = 0;
    bool tiedEmbeddings = false;
};

// The backend's --config_name choices, in its order (ingot_train/model.py BUILTIN).
QStringList builtinModelNames();
ModelInfo builtinModel(const QString &name);  // known == false for an unknown name
// A model folder's config.json (I/O). Reads at most 1 MiB; missing keys, wrong types and a config that is not a
// decoder with heads give known == false and the reason.
ModelInfo readModelFolder(const QString &folder);
// Parses the text of a config.json (num_key_value_heads defaults to num_attention_heads, as in transformers).
ModelInfo parseModelConfig(const QByteArray &json);

struct ParameterCounts {
    qint64 total = 0;       // the whole model (a tied embedding counted once), what the backend reports
    qint64 maxPerRank = 0;  // the largest rank's share: the first or last pipeline stage
    QVector<qint64> perStage;  // per pipeline stage, on one tensor-parallel rank
};
// The parameters of the backend's Llama model on a tp x pp layout (vocabParallel: embedding and head split by
// vocabulary). Layers that do not divide are split as the backend does (earlier stages take one more).
ParameterCounts countParameters(const ModelInfo &m, int tp, int pp, bool vocabParallel);

}  // namespace ingot
