#include "services/checkpoint/dcpconsolidate.h"

#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/dcpoptimizer.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <cstring>
#include <regex>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct DcpText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QString qs(const std::string &s)
{
    return tensorNameText(s);
}

bool startsWith(const std::string &s, const char *p)
{
    return s.rfind(p, 0) == 0;
}

// What a training state dict holds beside the model: the optimizer's state, the trainer's, the RNG's, the data
// loader's (Ingot's native engine, FSDP scripts, TorchTitan).
bool notModel(const std::string &fqn)
{
    for (const char *p : {"optimizer.", "optim.", "trainer.", "lr_scheduler.", "lr_schedulers.", "dataloader.", "train_state.",
                          "rng.", "scheduler."})
        if (startsWith(fqn, p))
            return true;
    return fqn == "rng";
}

// The model's tensors and their names in the model: those under "model." when every model tensor is there and the
// names below it are not a transformers model's own inner names (an unwrapped LlamaModel's "layers.0.self_attn…"
// saved at the top level starts with "model." too), else the top level.
std::vector<std::pair<const DcpTensor *, std::string>> modelTensors(const DcpMetadata &md)
{
    std::vector<std::pair<const DcpTensor *, std::string>> all;
    bool nested = true, inner = false;
    for (const DcpTensor &t : md.tensors) {
        if (notModel(t.fqn))
            continue;
        all.push_back({&t, t.fqn});
        nested = nested && startsWith(t.fqn, "model.");
        inner = inner || startsWith(t.fqn, "model.embed_tokens.") || t.fqn.find(".self_attn.") != std::string::npos;
    }
    if (nested && !all.empty()) {
        bool strippedInner = false;
        for (const auto &[t, n] : all)
            strippedInner = strippedInner || startsWith(n.substr(6), "embed_tokens.") || startsWith(n.substr(6), "layers.");
        if (!(inner && strippedInner && all.size() == md.tensors.size()))
            for (auto &[t, n] : all)
                n = n.substr(6);
    }
    return all;
}

bool isTorchTitan(const std::vector<std::pair<const DcpTensor *, std::string>> &tensors)
{
    static const std::regex layer("^layers\\.\\d+\\.(attention|feed_forward)\\.w[123oqkv]\\.weight$");
    for (const auto &[t, n] : tensors)
        if (n == "tok_embeddings.weight" || std::regex_match(n, layer))
            return true;
    return false;
}

// num_attention_heads and num_key_value_heads of the config.json nearest the checkpoint (its folder, then up to two
// folders up: TorchTitan's step-N lies in <dump_folder>/checkpoint). False with words when none says.
bool headCounts(const CheckpointCandidate &c, int *heads, int *kvHeads, QString *error)
{
    QString dir = c.root;
    for (int up = 0; up < 3; ++up, dir = QFileInfo(dir).absolutePath()) {
        struct stat st {};
        QString err;
        const int fd = openCheckpointFile(dir, QStringLiteral("config.json"), &st, &err);
        if (fd < 0 && !err.isEmpty()) {
            *error = err;
            return false;
        }
        if (fd < 0)
            continue;
        std::string text(std::size_t(std::min<qint64>(st.st_size, qint64(1) << 20)), '\0');
        const ssize_t got = ::pread(fd, text.data(), text.size(), 0);
        ::close(fd);
        text.resize(got > 0 ? std::size_t(got) : 0);
        const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
        const auto num = [&](const char *key, int fallback) {
            return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : fallback;
        };
        *heads = num("num_attention_heads", 0);
        *kvHeads = num("num_key_value_heads", *heads);
        if (*heads > 0 && *kvHeads > 0)
            return true;
        *error = DcpText::tr("%1 does not give num_attention_heads.").arg(displayName(dir + QStringLiteral("/config.json")));
        return false;
    }
    *error = DcpText::tr("TorchTitan keeps the query and key projections' rows in its own RoPE order: Ingot reorders them for "
                         "transformers with the head counts of the model's config.json, and found none in %1 or the two folders "
                         "above it. Put the model's Hugging Face config.json there.").arg(displayName(c.root));
    return false;
}
}  // namespace

bool isTorchTitanStepFolder(const QString &name, int *step)
{
    static const QRegularExpression re(QStringLiteral("^step-(\\d{1,9})$"));
    const auto m = re.match(name);
    if (m.hasMatch())
        *step = m.captured(1).toInt();
    return m.hasMatch();
}

bool scanDcpFolder(const QString &folder, CheckpointCandidate *c)
{
    if (!DcpCheckpoint::looksLikeDcp(folder))
        return false;
    c->root = c->shardsDir = QFileInfo(folder).absoluteFilePath();
    c->layout = ShardLayout::Dcp;
    c->tpSize = c->ppSize = 1;
    for (const QFileInfo &fi : QDir(folder).entryInfoList({QStringLiteral("*.distcp")}, QDir::Files | QDir::Hidden, QDir::Name)) {
        c->shards.append(ShardFile{0, 0, -1, 0, fi.absoluteFilePath(), fi.size()});
        c->bytes += fi.size();
    }
    // The reader opens it without following links, and says so; a link is said here already, a fifo too.
    struct stat st {};
    const QString metadata = displayName(folder + QStringLiteral("/.metadata"));
    if (::lstat(QFile::encodeName(folder + QStringLiteral("/.metadata")).constData(), &st) == 0 && S_ISLNK(st.st_mode))
        c->problems << DcpText::tr("%1 is a link: Ingot reads a checkpoint's own files only. Replace the link with the file itself.").arg(metadata);
    else if (!S_ISREG(st.st_mode))
        c->problems << DcpText::tr("%1 is not a regular file.").arg(metadata);
    c->complete = c->problems.isEmpty();
    return true;
}

std::string torchTitanToHf(const std::string &name, int *rope)
{
    *rope = 0;
    static const std::map<std::string, std::string> top = {
        {"tok_embeddings.weight", "model.embed_tokens.weight"}, {"norm.weight", "model.norm.weight"}, {"output.weight", "lm_head.weight"}};
    if (const auto it = top.find(name); it != top.end())
        return it->second;
    static const std::map<std::string, std::string> layer = {
        {"attention.wq.weight", "self_attn.q_proj.weight"}, {"attention.wk.weight", "self_attn.k_proj.weight"},
        {"attention.wv.weight", "self_attn.v_proj.weight"}, {"attention.wo.weight", "self_attn.o_proj.weight"},
        {"feed_forward.w1.weight", "mlp.gate_proj.weight"}, {"feed_forward.w3.weight", "mlp.up_proj.weight"},
        {"feed_forward.w2.weight", "mlp.down_proj.weight"}, {"attention_norm.weight", "input_layernorm.weight"},
        {"ffn_norm.weight", "post_attention_layernorm.weight"}};
    static const std::regex re("^layers\\.(\\d{1,6})\\.(.+)$");
    std::smatch m;
    if (!std::regex_match(name, m, re))
        return {};
    const auto it = layer.find(m[2].str());
    if (it == layer.end())
        return {};
    *rope = it->first == "attention.wq.weight" ? 1 : it->first == "attention.wk.weight" ? 2 : 0;
    return "model.layers." + m[1].str() + "." + it->second;
}

ConsolidationPlan planDcpConsolidation(const CheckpointCandidate &c)
{
    ConsolidationPlan plan;
    plan.checkpoint = c;
    plan.problems = c.problems;
    DcpCheckpoint ckpt;
    QString error;
    if (!plan.problems.isEmpty())
        return plan;
    if (!ckpt.open(c.root, &error)) {
        plan.problems << error;
        return plan;
    }
    const auto tensors = modelTensors(ckpt.metadata());
    if (tensors.empty())
        plan.problems << DcpText::tr("%1 holds no model tensors.").arg(displayName(c.root));
    const bool titan = isTorchTitan(tensors);
    int heads = 0, kvHeads = 0;
    if (titan && !headCounts(c, &heads, &kvHeads, &error))
        plan.problems << error;
    std::set<std::string> names;
    std::map<std::string, DcpParamName> params;  // by the name in the model, as the optimizer names its parameters
    for (const auto &[t, name] : tensors) {
        ConsolidatePlanEntry e;
        e.name = name;
        e.source = t->fqn;
        e.dtype = t->dtype;
        e.shape = t->size;
        e.bytes = t->bytes();
        for (const DcpChunk &ch : t->chunks) {
            std::int64_t n = 0;
            checkedNumel(ch.sizes, &n);
            e.dcpChunks += n > 0 ? 1 : 0;
        }
        if (titan) {
            if (name == "freqs_cis")
                continue;  // TorchTitan's RoPE table, computed from the config: not a weight
            int rope = 0;
            e.name = torchTitanToHf(name, &rope);
            if (e.name.empty()) {
                plan.problems << DcpText::tr("%1 is not one of TorchTitan's Llama names Ingot maps to transformers' names.").arg(qs(name));
                continue;
            }
            e.ropeHeads = rope == 1 ? heads : rope == 2 ? kvHeads : 0;
            if (e.ropeHeads > 0 && (e.shape.size() != 2 || e.shape[0] % (2 * std::int64_t(e.ropeHeads)) != 0))
                plan.problems << DcpText::tr("%1 has the shape %2, which does not split into %3 heads of pairs of rows.")
                                     .arg(qs(name), shapeText(e.shape)).arg(e.ropeHeads);
        }
        if (!names.insert(e.name).second)
            plan.problems << DcpText::tr("Two tensors would be named %1 in the output.").arg(qs(e.name));
        params[name] = DcpParamName{e.name, e.ropeHeads, e.shape};
        plan.entries.append(e);
    }
    planDcpOptimizer(ckpt.metadata(), params, &plan);
    return plan;
}

bool ropeRowsToHf(std::string *data, std::int64_t rows, std::int64_t rowBytes, int heads)
{
    if (heads <= 0 || rows % (2 * std::int64_t(heads)) != 0 || std::int64_t(data->size()) != rows * rowBytes)
        return false;
    const std::int64_t hd = rows / heads, half = hd / 2;
    std::string out(data->size(), '\0');
    // torchtitan's to_hf: w.view(heads, hd / 2, 2, cols).transpose(1, 2): output row h·hd + t·half + i is input row
    // h·hd + 2i + t.
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t t = 0; t < 2; ++t)
            for (std::int64_t i = 0; i < half; ++i)
                std::memcpy(out.data() + (h * hd + t * half + i) * rowBytes, data->data() + (h * hd + 2 * i + t) * rowBytes,
                            std::size_t(rowBytes));
    data->swap(out);
    return true;
}

bool DcpSource::open(const CheckpointCandidate &c, QString *error)
{
    return m_ckpt.open(c.root, error);
}

bool DcpSource::read(const ConsolidatePlanEntry &e, std::string *out, QString *error)
{
    const DcpTensor *t = m_ckpt.metadata().find(e.source);
    if (!t || t->dtype != e.dtype || t->size != e.shape) {
        *error = DcpText::tr("%1 is no longer the tensor that was planned: the checkpoint changed.").arg(qs(e.source));
        return false;
    }
    if (!m_ckpt.readTensor(*t, out, error))
        return false;
    if (e.ropeHeads > 0 && !ropeRowsToHf(out, e.shape[0], e.bytes / e.shape[0], e.ropeHeads)) {
        *error = DcpText::tr("%1 does not split into %2 heads.").arg(qs(e.source)).arg(e.ropeHeads);
        return false;
    }
    return true;
}

bool DcpSource::locate(const ConsolidatePlanEntry &e, std::vector<DcpCheckpoint::Piece> *pieces, QString *error)
{
    error->clear();
    const DcpTensor *t = m_ckpt.metadata().find(e.source);
    if (e.ropeHeads > 0 || !t || t->dtype != e.dtype || t->size != e.shape)
        return false;
    return m_ckpt.locate(*t, pieces, error);
}

}  // namespace ingot
