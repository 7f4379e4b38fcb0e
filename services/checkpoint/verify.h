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

namespace ingot {

// The SHA-256 of each output tensor's bytes, by name, as computed from the shards.
class TensorChecksums final
{
    Q_DISABLE_COPY_MOVE(TensorChecksums)

public:
    TensorChecksums() = default;
    void add(const std::string &name, const char *data, qint64 size);
    // Reads back the safetensors and pytorch_model.bin files among `files` (relative to `folder`) and compares.
    QStringList verifyFiles(const QString &folder, const QStringList &files) const;

private:
    std::map<std::string, QByteArray> m_sums;
};

// The shapes a transformers config implies: hidden size, layers, attention and key/value heads, vocabulary.
// Nothing to say when there is no config.
QStringList checkAgainstConfig(const QString &configPath, const QVector<ConsolidatePlanEntry> &plan);

}  // namespace ingot
