#include "services/checkpoint/verify.h"

#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/formats/torchfile.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
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
using T = VerifyText;

QByteArray sha256(const char *data, qint64 size)
{
    return QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Sha256);
}

// Compares what one file holds with the expected sums; what was seen is taken out of *left.
class FileCheck final
{
    Q_DISABLE_COPY_MOVE(FileCheck)

public:
    FileCheck(const QString &file, std::map<std::string, QByteArray> *left, QStringList *problems)
        : m_file(file), m_left(left), m_problems(problems) {}
    void tensor(const std::string &name, const char *data, qint64 size)
    {
        const auto it = m_left->find(name);
        if (it == m_left->end() || it->second != sha256(data, size))
            *m_problems << T::tr("%1 in %2 does not match its sources.").arg(QString::fromStdString(name), m_file);
        if (it != m_left->end())
            m_left->erase(it);
    }
    void problem(const QString &p) { *m_problems << p; }

private:
    QString m_file;
    std::map<std::string, QByteArray> *m_left;
    QStringList *m_problems;
};

void checkTorchFile(const QString &path, FileCheck &check)
{
    TorchFile tf;
    QString error;
    if (!tf.open(path, &error))
        return check.problem(error);
    std::string bytes;
    for (const auto &[name, ref] : stateDictTensors(tf.root())) {
        if (!tf.readTensor(ref, &bytes, &error))
            check.problem(error);
        else
            check.tensor(name, bytes.data(), qint64(bytes.size()));
    }
}

void checkSafetensorsFile(const QString &path, FileCheck &check)
{
    SafetensorsReader r;
    QString error;
    if (!r.open(path, &error))
        return check.problem(error);
    for (const SafetensorInfo &t : r.tensors())
        check.tensor(t.name, r.data(t), qint64(t.end - t.begin));
}

bool endsWith(const std::string &n, const char *suffix)
{
    const std::size_t k = std::strlen(suffix);
    return n.size() >= k && n.compare(n.size() - k, k, suffix) == 0;
}

QString shapeList(const std::vector<std::int64_t> &shape)
{
    QStringList p;
    for (auto d : shape)
        p << QString::number(d);
    return p.join(QStringLiteral(", "));
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

// The shape config.json implies for this tensor; empty when it implies none (or does not say enough).
std::vector<std::int64_t> impliedShape(const std::string &name, const ModelShape &m)
{
    std::vector<std::int64_t> want;
    if (endsWith(name, "embed_tokens.weight") || endsWith(name, "lm_head.weight"))
        want = {m.vocab, m.hidden};
    else if (endsWith(name, "q_proj.weight"))
        want = {m.heads * m.headDim, m.hidden};
    else if (endsWith(name, "k_proj.weight") || endsWith(name, "v_proj.weight"))
        want = {m.kv * m.headDim, m.hidden};
    else if (endsWith(name, "o_proj.weight"))
        want = {m.hidden, m.heads * m.headDim};
    for (auto w : want)
        if (w < 0)
            return {};
    return want;
}
}  // namespace

void TensorChecksums::add(const std::string &name, const char *data, qint64 size)
{
    m_sums[name] = sha256(data, size);
}

QStringList TensorChecksums::verifyFiles(const QString &folder, const QStringList &files) const
{
    QStringList problems;
    std::map<std::string, QByteArray> left = m_sums;
    for (const QString &file : files) {
        FileCheck check(file, &left, &problems);
        const QString path = folder + QLatin1Char('/') + file;
        if (file.endsWith(QLatin1String(".bin")))
            checkTorchFile(path, check);
        else if (file.endsWith(QLatin1String(".safetensors")))
            checkSafetensorsFile(path, check);
    }
    for (const auto &[name, h] : left)
        problems << T::tr("%1 is missing from the output.").arg(QString::fromStdString(name));
    return problems;
}

QStringList checkAgainstConfig(const QString &configPath, const QVector<ConsolidatePlanEntry> &plan)
{
    QFile f(configPath);
    if (!f.open(QIODevice::ReadOnly))
        return {};  // nothing to check against
    json cfg;
    try {
        cfg = json::parse(f.readAll().toStdString());
    } catch (const json::exception &) {
        return {T::tr("config.json is not valid JSON.")};
    }
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
            problems << T::tr("%1 has shape [%2] but config.json implies [%3].").arg(QString::fromStdString(e.name), shapeList(e.shape), shapeList(want));
    }
    if (m.layers >= 0 && !layerIds.empty() && std::int64_t(layerIds.size()) != m.layers)
        problems << T::tr("The checkpoint has %1 layers but config.json says %2.").arg(layerIds.size()).arg(m.layers);
    return problems;
}

}  // namespace ingot
