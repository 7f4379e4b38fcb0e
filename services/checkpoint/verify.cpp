#include "services/checkpoint/verify.h"

#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/formats/torchfile.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <cstring>
#include <set>

namespace ingot {

using nlohmann::json;

namespace {
struct VerifyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QByteArray sha256(const char *data, qint64 size)
{
    return QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Sha256);
}

QString qs(const std::string &s)
{
    return displayName(nameFromBytes(QByteArray::fromStdString(s)));
}

QString shapeList(const std::vector<std::int64_t> &shape)
{
    QStringList p;
    for (auto d : shape)
        p << QString::number(d);
    return p.join(QStringLiteral(", "));
}

// Compares what one file holds with the expected sums; what was seen is taken out of *left.
class FileCheck final
{
    Q_DISABLE_COPY_MOVE(FileCheck)

public:
    using Left = std::map<std::string, TensorChecksums::Expected>;
    FileCheck(const QString &file, Left *left, QStringList *problems) : m_file(file), m_left(left), m_problems(problems) {}
    void tensor(const std::string &name, DType dtype, const std::vector<std::int64_t> &shape, const char *data, qint64 size)
    {
        const auto it = m_left->find(name);
        if (it == m_left->end()) {
            *m_problems << VerifyText::tr("%1 in %2 is not one of the outputs (or is there twice).").arg(qs(name), m_file);
            return;
        }
        if (it->second.dtype != dtype || it->second.shape != shape)
            *m_problems << VerifyText::tr("%1 in %2 reads back as %3 [%4], but %5 [%6] was written.").arg(qs(name), m_file,
                               QString::fromLatin1(safetensorsName(dtype)), shapeList(shape),
                               QString::fromLatin1(safetensorsName(it->second.dtype)), shapeList(it->second.shape));
        else if (it->second.sha256 != sha256(data, size))
            *m_problems << VerifyText::tr("%1 in %2 does not match its sources.").arg(qs(name), m_file);
        m_left->erase(it);
    }
    void problem(const QString &p) { *m_problems << p; }

private:
    QString m_file;
    Left *m_left;
    QStringList *m_problems;
};

void checkTorchFile(const QString &path, FileCheck &check)
{
    TorchFile tf;
    QString error;
    if (!tf.open(path, &error))
        return check.problem(error);
    std::string bytes, why;
    const auto tensors = stateDictTensors(tf.root(), nullptr, &why);
    if (!why.empty())
        return check.problem(QStringLiteral("%1: %2").arg(path, QString::fromStdString(why)));
    for (const auto &[name, ref] : tensors) {
        if (!tf.readTensor(ref, &bytes, &error))
            check.problem(error);
        else
            check.tensor(name, ref.dtype, ref.shape, bytes.data(), qint64(bytes.size()));
    }
}

void checkSafetensorsFile(const QString &path, const char *expectedFormat, FileCheck &check)
{
    SafetensorsReader r;
    QString error;
    if (!r.open(path, &error))
        return check.problem(error);
    const auto format = r.metadata().find("format");
    if (format == r.metadata().end() || format->second != expectedFormat)
        check.problem(std::strcmp(expectedFormat, "pt") == 0
                          ? VerifyText::tr("%1: its __metadata__ does not say format \"pt\", which transformers requires.").arg(path)
                          : VerifyText::tr("%1: its __metadata__ does not say format \"%2\".").arg(path, QLatin1String(expectedFormat)));
    for (const SafetensorInfo &t : r.tensors())
        check.tensor(t.name, t.dtype, t.shape, r.data(t), qint64(t.end - t.begin));
}

// Whole name components only: NxD's fused qkv_proj.weight is not a v_proj.weight.
bool endsWith(const std::string &n, const char *suffix)
{
    const std::size_t k = std::strlen(suffix);
    return n.size() >= k && n.compare(n.size() - k, k, suffix) == 0 && (n.size() == k || n[n.size() - k - 1] == '.');
}

// The config's numbers that shapes follow from (-1 where it does not say).
struct ModelShape {
    std::int64_t hidden = -1, layers = -1, heads = -1, kv = -1, headDim = -1, vocab = -1;
};

ModelShape modelShapeOf(const json &cfg)
{
    auto num = [&cfg](const char *k) -> std::int64_t {
        return cfg.contains(k) && cfg[k].is_number_integer() ? cfg[k].get<std::int64_t>() : -1;
    };
    ModelShape m;
    m.hidden = num("hidden_size");
    m.layers = num("num_hidden_layers");
    m.heads = num("num_attention_heads");
    m.vocab = num("vocab_size");
    m.kv = num("num_key_value_heads");
    if (m.kv < 0)
        m.kv = m.heads;
    m.headDim = num("head_dim");
    if (m.headDim < 0 && m.heads > 0 && m.hidden > 0)
        m.headDim = m.hidden / m.heads;
    return m;
}

// The shape config.json implies for this tensor; empty when it implies none (or does not say enough, or its numbers
// overflow).
std::vector<std::int64_t> impliedShape(const std::string &name, const ModelShape &m)
{
    std::int64_t qRows = -1, kvRows = -1;
    if (!checkedMul(m.heads, m.headDim, &qRows))
        qRows = -1;
    if (!checkedMul(m.kv, m.headDim, &kvRows))
        kvRows = -1;
    std::vector<std::int64_t> want;
    if (endsWith(name, "embed_tokens.weight") || endsWith(name, "lm_head.weight"))
        want = {m.vocab, m.hidden};
    else if (endsWith(name, "q_proj.weight"))
        want = {qRows, m.hidden};
    else if (endsWith(name, "k_proj.weight") || endsWith(name, "v_proj.weight"))
        want = {kvRows, m.hidden};
    else if (endsWith(name, "o_proj.weight"))
        want = {m.hidden, qRows};
    for (auto w : want)
        if (w < 0)
            return {};
    return want;
}
}  // namespace

void TensorChecksums::add(const ConsolidatePlanEntry &e, const char *data, qint64 size)
{
    m_sums[e.name] = Expected{sha256(data, size), e.dtype, e.shape};
}

QStringList TensorChecksums::verifyFiles(const QString &folder, const QStringList &files, const char *format) const
{
    QStringList problems;
    FileCheck::Left left = m_sums;
    for (const QString &file : files) {
        FileCheck check(file, &left, &problems);
        const QString path = folder + QLatin1Char('/') + file;
        if (file.endsWith(QLatin1String(".bin")))
            checkTorchFile(path, check);
        else if (file.endsWith(QLatin1String(".safetensors")))
            checkSafetensorsFile(path, format, check);
    }
    for (const auto &[name, h] : left)
        problems << VerifyText::tr("%1 is missing from the output.").arg(qs(name));
    return problems;
}

QStringList verifyIndex(const QString &folder, const QString &indexName)
{
    const QString path = folder + QLatin1Char('/') + indexName;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {VerifyText::tr("The index %1 cannot be read: %2").arg(indexName, f.errorString())};
    const json idx = json::parse(f.readAll().toStdString(), nullptr, false);
    if (idx.is_discarded() || !idx.is_object())
        return {VerifyText::tr("The index %1 is not valid JSON (empty or cut short?).").arg(indexName)};
    const auto wm = idx.find("weight_map");
    const auto md = idx.find("metadata");
    if (wm == idx.end() || !wm->is_object() || wm->empty())
        return {VerifyText::tr("The index %1 has no weight_map.").arg(indexName)};
    if (md == idx.end() || !md->is_object() || !md->contains("total_size") || !(*md)["total_size"].is_number_integer())
        return {VerifyText::tr("The index %1 has no metadata.total_size.").arg(indexName)};
    QStringList problems;
    std::map<std::string, std::set<std::string>> byFile;  // file -> the names the weight_map puts there
    for (auto it = wm->begin(); it != wm->end(); ++it) {
        if (!it->is_string())
            return {VerifyText::tr("The index %1 maps %2 to something that is not a file name.").arg(indexName, qs(it.key()))};
        byFile[it->get<std::string>()].insert(it.key());
    }
    // Tensor files the index does not name: what they hold is lost to whoever reads the index.
    // Those of its own kind (model…, pytorch_model…, optimizer…): the optimizer state beside a model has its own.
    const QString stem = indexName.left(indexName.indexOf(QLatin1Char('.')));
    for (const QString &f : QDir(folder).entryList({stem + QStringLiteral("*.safetensors"), stem + QStringLiteral("*.bin")}, QDir::Files))
        byFile[f.toStdString()];
    std::int64_t total = 0;
    for (const auto &[file, names] : byFile) {
        const QString name = QString::fromStdString(file);
        const QString fp = folder + QLatin1Char('/') + name;
        if (name.contains(QLatin1Char('/')) || !QFileInfo(fp).isFile()) {
            problems << VerifyText::tr("The index names %1, which is not in the output.").arg(qs(file));
            continue;
        }
        std::set<std::string> found;
        QString error;
        if (name.endsWith(QLatin1String(".safetensors"))) {
            SafetensorsReader r;
            if (!r.open(fp, &error)) {
                problems << error;
                continue;
            }
            for (const SafetensorInfo &t : r.tensors()) {
                found.insert(t.name);
                total += std::int64_t(t.end - t.begin);
            }
        } else {
            TorchFile tf;
            if (!tf.open(fp, &error)) {
                problems << error;
                continue;
            }
            for (const auto &[n, ref] : stateDictTensors(tf.root())) {
                std::int64_t bytes = 0;
                found.insert(n);
                if (checkedByteSize(ref.dtype, ref.shape, &bytes))
                    total += bytes;
            }
        }
        for (const std::string &n : names)
            if (!found.count(n))
                problems << VerifyText::tr("The index puts %1 in %2, which does not hold it.").arg(qs(n), qs(file));
        for (const std::string &n : found)
            if (!names.count(n))
                problems << VerifyText::tr("%1 holds %2, which the index does not map there.").arg(qs(file), qs(n));
    }
    const std::int64_t said = (*md)["total_size"].get<std::int64_t>();
    if (said != total)
        problems << VerifyText::tr("The index says total_size %1, but its files hold %2 bytes of tensors.").arg(said).arg(total);
    return problems;
}

QStringList checkAgainstConfig(const QString &configPath, const QVector<ConsolidatePlanEntry> &plan)
{
    QFile f(configPath);
    if (!f.open(QIODevice::ReadOnly))
        return {};  // nothing to check against
    if (f.size() > (qint64(64) << 20))
        return {VerifyText::tr("config.json is larger than 64 MiB: not a model configuration.")};
    const json cfg = json::parse(f.readAll().toStdString(), nullptr, false);
    if (cfg.is_discarded())
        return {VerifyText::tr("config.json is not valid JSON.")};
    if (!cfg.is_object())
        return {};
    const ModelShape m = modelShapeOf(cfg);
    QStringList problems;
    std::set<int> layerIds;
    static const QRegularExpression layerRe(QStringLiteral("(?:^|\\.)layers\\.(\\d+)\\."));
    for (const ConsolidatePlanEntry &e : plan) {
        const auto lm = layerRe.match(QString::fromStdString(e.name));
        if (lm.hasMatch())
            layerIds.insert(lm.captured(1).toInt());
        const std::vector<std::int64_t> want = impliedShape(e.name, m);
        if (!want.empty() && e.shape != want)
            problems << VerifyText::tr("%1 has shape [%2] but config.json implies [%3].").arg(qs(e.name), shapeList(e.shape), shapeList(want));
    }
    if (m.layers >= 0 && !layerIds.empty() && std::int64_t(layerIds.size()) != m.layers)
        problems << VerifyText::tr("The checkpoint has %1 layers but config.json says %2.").arg(layerIds.size()).arg(m.layers);
    return problems;
}

}  // namespace ingot
