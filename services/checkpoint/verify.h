// Checking a consolidated output before it is moved into place: every tensor read back must hash to what was
// computed from the shards, none may be missing, and the shapes must agree with config.json where there is one.
#pragma once

#include "services/checkpoint/plan.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include <map>
#include <string>
#include <vector>

namespace ingot {

// The SHA-256 of each output tensor's bytes, with its dtype and shape, by name, as computed from the shards.
class TensorChecksums final
{
    Q_DISABLE_COPY_MOVE(TensorChecksums)

public:
    struct Expected {
        QByteArray sha256;
        DType dtype = DType::Unknown;
        std::vector<std::int64_t> shape;
    };
    TensorChecksums() = default;
    void add(const ConsolidatePlanEntry &e, const char *data, qint64 size);
    // Reads back the safetensors and pytorch_model.bin files among `files` (relative to `folder`) and compares
    // every tensor's bytes, dtype and shape; a safetensors file must also say format "pt", as transformers needs.
    // `format`: what their __metadata__ must say (another value for files that are not a model's, such as the
    // backend's optimizer state).
    QStringList verifyFiles(const QString &folder, const QStringList &files, const char *format = "pt") const;

private:
    std::map<std::string, Expected> m_sums;
};

// The index of a split output (model.safetensors.index.json or pytorch_model.bin.index.json in `folder`), as
// transformers reads it: valid JSON; every file its weight_map names exists in the folder; the tensors of those
// files are exactly the weight_map's names, each in the file it names; and metadata.total_size is their size. Tensor
// files of the index's own kind (named as it is up to its first dot: model…, optimizer…) that it does not name are
// problems; others beside them (a model's optimizer state) are not.
QStringList verifyIndex(const QString &folder, const QString &indexName);

// The shapes a transformers config implies: hidden size, layers, attention and key/value heads, vocabulary.
// Nothing to say when there is no config.
QStringList checkAgainstConfig(const QString &configPath, const QVector<ConsolidatePlanEntry> &plan);

}  // namespace ingot
