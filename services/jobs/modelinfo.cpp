#include "services/jobs/modelinfo.h"

#include "services/jobs/jobrunner.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ingot {

namespace {

ModelInfo llama(qint64 hidden, qint64 intermediate, qint64 layers, qint64 heads, qint64 kvHeads)
{
    ModelInfo m;
    m.known = true;
    m.vocabSize = 260;  // the byte-level tokenizer's 256 bytes + 4 specials
    m.hiddenSize = hidden;
    m.intermediateSize = intermediate;
    m.numLayers = layers;
    m.numHeads = heads;
    m.numKvHeads = kvHeads;
    return m;
}

struct Builtin {
    const char *name;
    qint64 hidden, intermediate, layers, heads, kvHeads;
};
// Must match ingot_train/model.py BUILTIN (tests/jobs/tst_jobspec.cpp compares them with the backend's).
const Builtin builtins[] = {
    {"tiny", 64, 128, 2, 4, 2},
    {"small", 256, 688, 4, 8, 4},
    {"medium", 1024, 2816, 8, 16, 8},
};

bool readCount(const QJsonObject &o, const char *key, qint64 *out, QString *error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 1 || d > 1e12 || d != double(qint64(d))) {
        *error = QCoreApplication::translate("ingot::ModelInfo", "config.json has no valid %1").arg(QLatin1String(key));
        return false;
    }
    *out = qint64(d);
    return true;
}

}  // namespace

QStringList builtinModelNames()
{
    QStringList names;
    for (const Builtin &b : builtins)
        names << QLatin1String(b.name);
    return names;
}

ModelInfo builtinModel(const QString &name)
{
    for (const Builtin &b : builtins) {
        if (name == QLatin1String(b.name)) {
            ModelInfo m = llama(b.hidden, b.intermediate, b.layers, b.heads, b.kvHeads);
            m.description = QCoreApplication::translate("ingot::ModelInfo", "%1 (built in)").arg(name);
            return m;
        }
    }
    ModelInfo m;
    m.error = QCoreApplication::translate("ingot::ModelInfo", "unknown built-in config %1 (built in: %2)")
                  .arg(name, builtinModelNames().join(QStringLiteral(", ")));
    return m;
}

ModelInfo parseModelConfig(const QByteArray &json)
{
    ModelInfo m;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        m.error = QCoreApplication::translate("ingot::ModelInfo", "config.json is not a JSON object");
        return m;
    }
    const QJsonObject o = doc.object();
    if (!readCount(o, "vocab_size", &m.vocabSize, &m.error) || !readCount(o, "hidden_size", &m.hiddenSize, &m.error)
        || !readCount(o, "intermediate_size", &m.intermediateSize, &m.error)
        || !readCount(o, "num_hidden_layers", &m.numLayers, &m.error)
        || !readCount(o, "num_attention_heads", &m.numHeads, &m.error))
        return m;
    if (o.contains(QLatin1String("num_key_value_heads")) && !o.value(QLatin1String("num_key_value_heads")).isNull()) {
        if (!readCount(o, "num_key_value_heads", &m.numKvHeads, &m.error))
            return m;
    } else {
        m.numKvHeads = m.numHeads;
    }
    if (m.hiddenSize % m.numHeads || m.numHeads % m.numKvHeads) {
        m.error = QCoreApplication::translate("ingot::ModelInfo",
                                              "config.json: hidden_size %1 and %2 attention heads / %3 key-value heads "
                                              "do not fit together")
                      .arg(m.hiddenSize).arg(m.numHeads).arg(m.numKvHeads);
        return m;
    }
    m.tiedEmbeddings = o.value(QLatin1String("tie_word_embeddings")).toBool(false);
    const QString type = o.value(QLatin1String("model_type")).toString();
    m.description = type.isEmpty() ? QCoreApplication::translate("ingot::ModelInfo", "a model folder") : type;
    m.known = true;
    return m;
}

ModelInfo readModelFolder(const QString &folder)
{
    ModelInfo m;
    if (folder.isEmpty()) {
        m.error = QCoreApplication::translate("ingot::ModelInfo", "no model folder chosen");
        return m;
    }
    // Never waits on a FIFO (a hostile folder must not hang the launcher's check).
    const FileChunk c = readLocalFile(folder + QStringLiteral("/config.json"), 0, (1 << 20) + 1, true);
    if (!c.exists || !c.error.isEmpty()) {
        m.error = QCoreApplication::translate("ingot::ModelInfo", "%1 has no readable config.json").arg(folder);
        return m;
    }
    const QByteArray data = c.data;
    if (c.size > (1 << 20)) {
        m.error = QCoreApplication::translate("ingot::ModelInfo", "config.json is larger than 1 MiB");
        return m;
    }
    return parseModelConfig(data);
}

ParameterCounts countParameters(const ModelInfo &m, int tp, int pp, bool vocabParallel)
{
    ParameterCounts c;
    if (!m.known || tp < 1 || pp < 1)
        return c;
    const qint64 h = m.hiddenSize, headDim = m.hiddenSize / m.numHeads;
    const qint64 attention = h * m.numHeads * headDim * 2 + h * m.numKvHeads * headDim * 2;
    const qint64 layer = attention + 3 * h * m.intermediateSize;  // norms are whole on every rank
    const qint64 layerPerRank = layer / tp + 2 * h;
    const qint64 embed = m.vocabSize * h;
    const qint64 embedPerRank = vocabParallel && tp > 1 ? embed / tp : embed;
    c.total = m.numLayers * (layer + 2 * h) + embed + h + (m.tiedEmbeddings ? 0 : embed);
    const qint64 base = m.numLayers / pp, extra = m.numLayers % pp;
    for (int s = 0; s < pp; ++s) {
        qint64 n = (base + (s < extra ? 1 : 0)) * layerPerRank;
        if (s == 0)
            n += embedPerRank;
        if (s == pp - 1) {
            n += h;
            if (!(m.tiedEmbeddings && pp == 1))  // a tied head is the embedding itself on one stage, a copy on two
                n += embedPerRank;
        }
        c.perStage << n;
        c.maxPerRank = std::max(c.maxPerRank, n);
    }
    return c;
}

}  // namespace ingot
