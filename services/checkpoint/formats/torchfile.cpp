#include "services/checkpoint/formats/torchfile.h"

#include <QFile>

#include <zip.h>

#include <cstring>
#include <functional>

namespace ingot {

struct TorchFile::Zip {
    zip_t *z = nullptr;
    ~Zip()
    {
        if (z)
            zip_discard(z);
    }
};

TorchFile::TorchFile() = default;
TorchFile::~TorchFile() = default;

namespace {
QString zipError(int code)
{
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    const QString s = QString::fromUtf8(zip_error_strerror(&e));
    zip_error_fini(&e);
    return s;
}
}  // namespace

bool TorchFile::open(const QString &path, QString *error)
{
    m_path = path;
    m_zip = std::make_unique<Zip>();
    int code = 0;
    m_zip->z = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY, &code);
    if (!m_zip->z) {
        QFile f(path);
        QByteArray head;
        if (f.open(QIODevice::ReadOnly))
            head = f.read(2);
        *error = head.size() == 2 && static_cast<unsigned char>(head[0]) == 0x80
                     ? QStringLiteral("%1 is a legacy (pre-1.6, non-zip) torch file; re-save it with a current torch.").arg(path)
                     : QStringLiteral("%1 is not a readable torch checkpoint (zip): %2.").arg(path, zipError(code));
        return false;
    }
    // Every record sits in one top folder, whose name torch takes from the file name: find data.pkl.
    const zip_int64_t n = zip_get_num_entries(m_zip->z, 0);
    std::string pkl;
    for (zip_int64_t i = 0; i < n; ++i) {
        const char *name = zip_get_name(m_zip->z, zip_uint64_t(i), 0);
        if (!name)
            continue;
        const std::string s(name);
        if (s.size() >= 8 && s.compare(s.size() - 8, 8, "data.pkl") == 0 && s.find('/') == s.size() - 9) {
            pkl = s;
            break;
        }
    }
    if (pkl.empty()) {
        *error = QStringLiteral("%1 has no data.pkl: not a torch checkpoint.").arg(path);
        return false;
    }
    m_prefix = pkl.substr(0, pkl.size() - 8);
    zip_stat_t st;
    if (zip_stat(m_zip->z, pkl.c_str(), 0, &st) != 0 || st.size > (zip_uint64_t(1) << 32)) {
        *error = QStringLiteral("%1: data.pkl is unreadable or absurdly large.").arg(path);
        return false;
    }
    std::string data(std::size_t(st.size), '\0');
    zip_file_t *f = zip_fopen(m_zip->z, pkl.c_str(), 0);
    const zip_int64_t got = f ? zip_fread(f, data.data(), st.size) : -1;
    if (f)
        zip_fclose(f);
    if (got != zip_int64_t(st.size)) {
        *error = QStringLiteral("%1: data.pkl is truncated or corrupt.").arg(path);
        return false;
    }
    const PickleResult r = unpickle(data);
    if (!r.ok()) {
        *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(r.error));
        return false;
    }
    m_root = r.value;
    m_arena = r.arena;
    return true;
}

qint64 TorchFile::recordSize(const std::string &key) const
{
    zip_stat_t st;
    if (!m_zip || zip_stat(m_zip->z, (m_prefix + "data/" + key).c_str(), 0, &st) != 0)
        return -1;
    return qint64(st.size);
}

bool TorchFile::readTensor(const TensorRef &t, std::string *out, QString *error)
{
    const int es = dtypeSize(t.dtype);
    const std::string name = m_prefix + "data/" + t.storage.key;
    const qint64 size = recordSize(t.storage.key);
    if (size < 0) {
        *error = QStringLiteral("%1: the storage record %2 is missing.").arg(m_path, QString::fromStdString(t.storage.key));
        return false;
    }
    // The furthest element the tensor touches must lie inside the record.
    std::int64_t last = t.storageOffset;
    const std::int64_t numel = t.numel();
    for (std::size_t k = 0; k < t.shape.size(); ++k)
        if (t.shape[k] > 0)
            last += (t.shape[k] - 1) * t.stride[k];
    if (es == 0 || (numel > 0 && (last + 1) * es > size)) {
        *error = QStringLiteral("%1: tensor data lies past the end of its storage record %2 (truncated or corrupt).")
                     .arg(m_path, QString::fromStdString(t.storage.key));
        return false;
    }
    out->assign(std::size_t(numel * es), '\0');
    if (numel == 0)
        return true;
    zip_file_t *f = zip_fopen(m_zip->z, name.c_str(), 0);
    if (!f) {
        *error = QStringLiteral("%1: cannot open record %2.").arg(m_path, QString::fromStdString(name));
        return false;
    }
    auto readAt = [&](std::int64_t elem, char *dst, std::int64_t bytes) {
        if (zip_fseek(f, zip_int64_t(elem * es), SEEK_SET) != 0)
            return false;
        return zip_fread(f, dst, zip_uint64_t(bytes)) == zip_int64_t(bytes);
    };
    bool ok = true;
    if (t.isContiguous()) {
        ok = readAt(t.storageOffset, out->data(), numel * es);
    } else {
        // Strided (a transposed or sliced tensor): read the span it covers, then gather.
        std::int64_t lo = t.storageOffset, hi = last;
        std::string span(std::size_t((hi - lo + 1) * es), '\0');
        ok = readAt(lo, span.data(), (hi - lo + 1) * es);
        if (ok) {
            std::vector<std::int64_t> idx(t.shape.size(), 0);
            for (std::int64_t i = 0; i < numel; ++i) {
                std::int64_t off = t.storageOffset - lo;
                for (std::size_t k = 0; k < idx.size(); ++k)
                    off += idx[k] * t.stride[k];
                std::memcpy(out->data() + i * es, span.data() + off * es, std::size_t(es));
                for (int k = int(idx.size()) - 1; k >= 0; --k) {
                    if (++idx[std::size_t(k)] < t.shape[std::size_t(k)])
                        break;
                    idx[std::size_t(k)] = 0;
                }
            }
        }
    }
    zip_fclose(f);
    if (!ok)
        *error = QStringLiteral("%1: could not read record %2 (truncated or corrupt).").arg(m_path, QString::fromStdString(name));
    return ok;
}

std::vector<std::pair<std::string, TensorRef>> stateDictTensors(const PV &root, const PickleValue **stateDict)
{
    std::vector<std::pair<std::string, TensorRef>> out;
    const PickleValue *sd = root.get();
    if (sd && sd->kind == PickleValue::Kind::Dict)
        for (const char *k : {"model", "state_dict", "module"})
            if (const PickleValue *v = sd->get(k); v && v->kind == PickleValue::Kind::Dict) {
                sd = v;
                break;
            }
    if (stateDict)
        *stateDict = sd;
    std::function<void(const PickleValue *, const std::string &)> walk = [&](const PickleValue *d, const std::string &prefix) {
        for (const auto &[k, v] : d->dict) {
            if (!k || !v || k->kind != PickleValue::Kind::Str)
                continue;
            const std::string name = prefix.empty() ? k->s : prefix + "." + k->s;
            if (v->kind == PickleValue::Kind::Tensor)
                out.emplace_back(name, v->tensor);
            else if (v->kind == PickleValue::Kind::Dict)
                walk(v.get(), name);
        }
    };
    if (sd && sd->kind == PickleValue::Kind::Dict)
        walk(sd, std::string());
    return out;
}

}  // namespace ingot
