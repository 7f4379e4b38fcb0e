#include "services/checkpoint/dcpmetadata.h"

#include "services/checkpoint/formats/pickle.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <set>

namespace ingot {

namespace {
struct DcpText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QString qs(const std::string &s)
{
    return dcpShownName(s);
}

bool isObject(const PickleValue *v, const char *cls)
{
    return v && v->kind == PickleValue::Kind::Object && v->s == cls;
}

// One parse: the first refusal is kept, with what was being read.
class Parser final
{
public:
    Parser(const QString &shownAs, DcpMetadata *out) : m_shownAs(shownAs), m_out(out) {}
    bool run(const PickleValue &root);
    QString error;

private:
    bool fail(const QString &why)
    {
        if (error.isEmpty())
            error = DcpText::tr("%1 is not a DCP checkpoint's metadata Ingot reads: %2").arg(m_shownAs, why);
        return false;
    }
    bool ints(const PickleValue *v, std::vector<std::int64_t> *out, bool allowNone);
    bool tensor(const std::string &fqn, const PickleValue &tsm);
    bool storage(const PickleValue &index, const PickleValue &info);
    bool attach();
    bool checkCover(const DcpTensor &t);

    const QString &m_shownAs;
    DcpMetadata *m_out;
    std::map<std::pair<std::string, std::vector<std::int64_t>>, DcpItem> m_items;
    std::set<std::string> m_bytesNames;
    std::size_t m_chunks = 0;
    std::uint64_t m_pairChecks = 0;
};

bool Parser::ints(const PickleValue *v, std::vector<std::int64_t> *out, bool allowNone)
{
    out->clear();
    if (allowNone && (!v || v->kind == PickleValue::Kind::None))
        return true;
    if (!v || (v->kind != PickleValue::Kind::Tuple && v->kind != PickleValue::Kind::List) || v->items.size() > kMaxTensorDims)
        return false;
    for (const PV &x : v->items) {
        if (!x || x->kind != PickleValue::Kind::Int || x->i < 0)
            return false;
        out->push_back(x->i);
    }
    return true;
}

bool Parser::tensor(const std::string &fqn, const PickleValue &tsm)
{
    DcpTensor t;
    t.fqn = fqn;
    const PickleValue *props = tsm.get("properties");
    if (!isObject(props, "torch.distributed.checkpoint.metadata.TensorProperties") || props->items.empty() ||
        props->items[0]->kind != PickleValue::Kind::Global)
        return fail(DcpText::tr("the properties of tensor %1 are malformed").arg(qs(fqn)));
    t.torchDtype = props->items[0]->s;
    t.dtype = dtypeFromTorchDtype(t.torchDtype);
    if (t.dtype == DType::Unknown)
        return fail(DcpText::tr("tensor %1 has the dtype %2, which Ingot does not read").arg(qs(fqn), qs(t.torchDtype)));
    if (props->items.size() > 1 && (!props->items[1]->isStr() || props->items[1]->s != "torch.strided"))
        return fail(DcpText::tr("tensor %1 is not a dense (strided) tensor").arg(qs(fqn)));
    if (!ints(tsm.get("size"), &t.size, false))
        return fail(DcpText::tr("the size of tensor %1 is malformed (more than %2 dims, or not whole numbers)").arg(qs(fqn)).arg(kMaxTensorDims));
    std::int64_t n = 0, bytes = 0;
    if (!checkedNumel(t.size, &n) || !checkedMul(n, dtypeSize(t.dtype), &bytes))
        return fail(DcpText::tr("tensor %1 is too large: its size does not fit in 64 bits").arg(qs(fqn)));
    const PickleValue *chunks = tsm.get("chunks");
    if (!chunks || chunks->kind != PickleValue::Kind::List)
        return fail(DcpText::tr("tensor %1 has no list of chunks").arg(qs(fqn)));
    if (chunks->items.size() > kMaxDcpChunksPerTensor || (m_chunks += chunks->items.size()) > kMaxDcpChunks)
        return fail(DcpText::tr("tensor %1 has %2 chunks, more than Ingot reads").arg(qs(fqn)).arg(chunks->items.size()));
    for (const PV &c : chunks->items) {
        DcpChunk ch;
        if (!isObject(c.get(), "torch.distributed.checkpoint.metadata.ChunkStorageMetadata") ||
            !ints(c->get("offsets"), &ch.offsets, false) || !ints(c->get("sizes"), &ch.sizes, false) ||
            ch.offsets.size() != t.size.size() || ch.sizes.size() != t.size.size())
            return fail(DcpText::tr("a chunk of tensor %1 is malformed").arg(qs(fqn)));
        for (std::size_t d = 0; d < t.size.size(); ++d)
            if (ch.offsets[d] > t.size[d] || ch.sizes[d] > t.size[d] - ch.offsets[d])
                return fail(DcpText::tr("a chunk of tensor %1 lies outside it (at %2 on dim %3, its size %4)")
                                .arg(qs(fqn)).arg(ch.offsets[d]).arg(d).arg(t.size[d]));
        t.chunks.push_back(std::move(ch));
    }
    m_out->tensors.push_back(std::move(t));
    return true;
}

bool Parser::storage(const PickleValue &index, const PickleValue &info)
{
    const PickleValue *fqn = index.get("fqn");
    std::vector<std::int64_t> offset;
    if (!isObject(&index, "torch.distributed.checkpoint.metadata.MetadataIndex") || !fqn || !fqn->isStr() ||
        !ints(index.get("offset"), &offset, true))
        return fail(DcpText::tr("an entry of its storage data is malformed"));
    const PickleValue *path = info.get("relative_path"), *off = info.get("offset"), *len = info.get("length");
    if (!isObject(&info, "torch.distributed.checkpoint.filesystem._StorageInfo") || !path || !path->isStr() || !off ||
        off->kind != PickleValue::Kind::Int || !len || len->kind != PickleValue::Kind::Int)
        return fail(DcpText::tr("the storage of %1 is malformed").arg(qs(fqn->s)));
    const std::string &f = path->s;
    if (f.empty() || f == "." || f == ".." || f.find('/') != std::string::npos || f.find('\0') != std::string::npos ||
        f.size() > 255)
        return fail(DcpText::tr("the storage of %1 names %2, which is not a file name in the checkpoint folder").arg(qs(fqn->s), qs(f)));
    if (off->i < 0 || len->i < 0)
        return fail(DcpText::tr("the storage of %1 has a negative offset or length").arg(qs(fqn->s)));
    // Later torch (filesystem.py's _StorageWriterTransforms, experimental) may pass an item through stream
    // extensions (compression) and name them here; without any, the field is left out.
    if (const PickleValue *tr = info.get("transform_descriptors");
        tr && tr->kind != PickleValue::Kind::None && !((tr->kind == PickleValue::Kind::List || tr->kind == PickleValue::Kind::Tuple) && tr->items.empty()))
        return fail(DcpText::tr("the storage of %1 was transformed by a DCP stream extension (compression), which Ingot does not read").arg(qs(fqn->s)));
    if (!m_items.emplace(std::make_pair(fqn->s, offset), DcpItem{f, off->i, len->i}).second)
        return fail(DcpText::tr("the storage data names the same piece of %1 twice").arg(qs(fqn->s)));
    return true;
}

// Two chunks overlap when their ranges overlap on every dim.
bool overlap(const DcpChunk &a, const DcpChunk &b)
{
    for (std::size_t d = 0; d < a.offsets.size(); ++d)
        if (a.offsets[d] >= b.offsets[d] + b.sizes[d] || b.offsets[d] >= a.offsets[d] + a.sizes[d])
            return false;
    return true;
}

// The chunks cover the tensor exactly: no two overlap, and their elements add up to the tensor's.
bool Parser::checkCover(const DcpTensor &t)
{
    std::int64_t total = 0;
    std::vector<const DcpChunk *> order;
    for (const DcpChunk &c : t.chunks) {
        std::int64_t n = 0;
        checkedNumel(c.sizes, &n);  // inside the tensor: fits
        if (n == 0)
            continue;
        if (!checkedAdd(total, n, &total))
            return fail(DcpText::tr("the chunks of tensor %1 hold more elements than it has").arg(qs(t.fqn)));
        order.push_back(&c);
    }
    const std::int64_t want = t.numel();  // 1 for a scalar
    // Sweep along dim 0 (a scalar's chunks all meet): a chunk is compared only with those whose dim-0 range is
    // still open where it starts.
    std::sort(order.begin(), order.end(), [](const DcpChunk *a, const DcpChunk *b) { return a->offsets < b->offsets; });
    constexpr std::uint64_t kMaxPairChecks = std::uint64_t(1) << 27;
    std::vector<const DcpChunk *> open;
    for (const DcpChunk *c : order) {
        if (!t.size.empty())
            open.erase(std::remove_if(open.begin(), open.end(),
                                      [&](const DcpChunk *o) { return o->offsets[0] + o->sizes[0] <= c->offsets[0]; }),
                       open.end());
        for (const DcpChunk *o : open) {
            if (++m_pairChecks > kMaxPairChecks)
                return fail(DcpText::tr("its chunks are too many to check"));
            if (overlap(*c, *o))
                return fail(DcpText::tr("two chunks of tensor %1 overlap").arg(qs(t.fqn)));
        }
        open.push_back(c);
    }
    if (total != want)
        return fail(DcpText::tr("the chunks of tensor %1 leave a hole (they hold %2 of its %3 elements)").arg(qs(t.fqn)).arg(total).arg(want));
    return true;
}

// Every chunk gets its item; every item is used.
bool Parser::attach()
{
    std::set<std::string> files;
    std::size_t used = 0;
    for (DcpTensor &t : m_out->tensors) {
        for (DcpChunk &c : t.chunks) {
            const auto it = m_items.find({t.fqn, c.offsets});
            if (it == m_items.end())
                return fail(DcpText::tr("a chunk of tensor %1 has no storage").arg(qs(t.fqn)));
            c.item = it->second;
            files.insert(c.item.file);
            ++used;
        }
        if (!checkCover(t))
            return false;
    }
    for (DcpBytes &b : m_out->bytes) {
        const auto it = m_items.find({b.fqn, {}});
        if (it == m_items.end())
            return fail(DcpText::tr("the value %1 has no storage").arg(qs(b.fqn)));
        b.item = it->second;
        files.insert(b.item.file);
        ++used;
    }
    if (used != m_items.size())
        return fail(DcpText::tr("its storage data names pieces that no tensor or value has"));
    m_out->files.assign(files.begin(), files.end());
    return true;
}

bool Parser::run(const PickleValue &root)
{
    if (!isObject(&root, "torch.distributed.checkpoint.metadata.Metadata"))
        return fail(DcpText::tr("it does not hold a Metadata object"));
    const PickleValue *sdm = root.get("state_dict_metadata"), *sd = root.get("storage_data");
    if (!sdm || sdm->kind != PickleValue::Kind::Dict || !sd || sd->kind != PickleValue::Kind::Dict)
        return fail(DcpText::tr("it has no state_dict_metadata or storage_data"));
    if (sdm->dict.size() > kMaxDcpEntries || sd->dict.size() > kMaxDcpChunks + kMaxDcpEntries)
        return fail(DcpText::tr("it lists more entries than Ingot reads"));
    std::set<std::string> names;
    for (const auto &[k, v] : sdm->dict) {
        if (!k->isStr())
            return fail(DcpText::tr("an entry of its state_dict_metadata is not named by a string"));
        if (!names.insert(k->s).second)
            return fail(DcpText::tr("%1 is listed twice").arg(qs(k->s)));
        if (isObject(v.get(), "torch.distributed.checkpoint.metadata.TensorStorageMetadata")) {
            if (!tensor(k->s, *v))
                return false;
        } else if (isObject(v.get(), "torch.distributed.checkpoint.metadata.BytesStorageMetadata")) {
            m_out->bytes.push_back(DcpBytes{k->s, {}});
        } else {
            return fail(DcpText::tr("the entry %1 is neither a tensor nor bytes").arg(qs(k->s)));
        }
    }
    for (const auto &[k, v] : sd->dict)
        if (!storage(*k, *v))
            return false;
    return attach();
}
}  // namespace

std::int64_t DcpTensor::numel() const
{
    std::int64_t n = 0;
    return checkedNumel(size, &n) ? n : -1;
}

std::int64_t DcpTensor::bytes() const
{
    return numel() * dtypeSize(dtype);
}

const DcpTensor *DcpMetadata::find(std::string_view fqn) const
{
    for (const DcpTensor &t : tensors)
        if (t.fqn == fqn)
            return &t;
    return nullptr;
}

QString dcpShownName(const std::string &s)
{
    return displayName(nameFromBytes(QByteArray::fromStdString(s.substr(0, 200))));
}

bool parseDcpMetadata(std::string_view data, const QString &shownAs, DcpMetadata *out, QString *error)
{
    *out = DcpMetadata();
    if (std::int64_t(data.size()) > kMaxDcpMetadataBytes) {
        *error = DcpText::tr("%1 is larger than %2 MiB: not a DCP checkpoint's metadata.").arg(shownAs).arg(kMaxDcpMetadataBytes >> 20);
        return false;
    }
    const PickleResult r = unpickleDcpMetadata(data);
    if (!r.ok()) {
        *error = DcpText::tr("%1 is refused: %2").arg(shownAs, QString::fromStdString(r.error));
        return false;
    }
    Parser p(shownAs, out);
    if (!p.run(*r.value)) {
        *error = p.error;
        *out = DcpMetadata();
        return false;
    }
    return true;
}

}  // namespace ingot
