#include "services/checkpoint/formats/torchfile.h"

#include <QFile>

#include <zip.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sys/stat.h>

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

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// The whole of one record, read as it comes (never allocated from the size the zip claims), up to `max` bytes.
bool readRecord(zip_t *z, const std::string &name, qint64 max, std::string *out, QString *why)
{
    zip_file_t *f = zip_fopen(z, name.c_str(), 0);
    if (!f) {
        *why = QStringLiteral("cannot open %1 (%2)").arg(qs(name), QString::fromUtf8(zip_strerror(z)));
        return false;
    }
    out->clear();
    char buf[1 << 16];
    bool ok = true;
    for (;;) {
        const zip_int64_t got = zip_fread(f, buf, sizeof buf);
        if (got < 0) {
            *why = QStringLiteral("%1 is truncated or corrupt (%2)").arg(qs(name), QString::fromUtf8(zip_file_strerror(f)));
            ok = false;
            break;
        }
        if (got == 0)
            break;
        if (qint64(out->size()) + got > max) {
            *why = QStringLiteral("%1 is larger than %2 MiB").arg(qs(name)).arg(max >> 20);
            ok = false;
            break;
        }
        out->append(buf, std::size_t(got));
    }
    zip_fclose(f);
    return ok;
}
}  // namespace

bool TorchFile::open(const QString &path, QString *error)
{
    m_path = path;
    m_zip = std::make_unique<Zip>();
    m_root.reset();
    m_arena.reset();
    // A FIFO or a device would block or never end: only regular files are read.
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode)) {
        *error = QStringLiteral("%1 is not a regular file.").arg(path);
        return false;
    }
    m_fileSize = qint64(st.st_size);
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
    std::string data;
    QString why;
    if (!readRecord(m_zip->z, pkl, kMaxPickleBytes, &data, &why)) {
        *error = QStringLiteral("%1: %2.").arg(path, why);
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
    if (!m_zip || !m_zip->z || zip_stat(m_zip->z, (m_prefix + "data/" + key).c_str(), 0, &st) != 0)
        return -1;
    return qint64(st.size);
}

bool TorchFile::checkTensor(const TensorRef &t, const QString &name, QString *error) const
{
    const auto bad = [&](const QString &why) {
        *error = QStringLiteral("%1: tensor %2 %3.").arg(m_path, name, why);
        return false;
    };
    const std::int64_t es = dtypeSize(t.dtype);
    const std::int64_t numel = t.numel();
    if (es == 0 || numel < 0 || t.shape.size() != t.stride.size() || t.storageOffset < 0)
        return bad(QStringLiteral("has a malformed shape, stride or offset"));
    zip_stat_t st;
    if (!m_zip || !m_zip->z || zip_stat(m_zip->z, (m_prefix + "data/" + t.storage.key).c_str(), 0, &st) != 0 ||
        !(st.valid & ZIP_STAT_SIZE))
        return bad(QStringLiteral("refers to the storage record %1, which is missing").arg(qs(t.storage.key)));
    if (!(st.valid & ZIP_STAT_COMP_METHOD) || st.comp_method != ZIP_CM_STORE)
        return bad(QStringLiteral("lies in a compressed storage record (%1); torch.save never compresses them").arg(qs(t.storage.key)));
    if (!(st.valid & ZIP_STAT_COMP_SIZE) || st.comp_size != st.size ||
        ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE))
        return bad(QStringLiteral("lies in a storage record (%1) whose sizes disagree or that is encrypted: corrupt").arg(qs(t.storage.key)));
    if (st.size > zip_uint64_t(m_fileSize))
        return bad(QStringLiteral("lies in a storage record (%1) larger than the file: truncated or corrupt").arg(qs(t.storage.key)));
    const std::int64_t record = std::int64_t(st.size);
    if (numel == 0)
        return true;
    // The furthest element the tensor touches must lie inside the record.
    std::int64_t last = t.storageOffset;
    for (std::size_t k = 0; k < t.shape.size(); ++k) {
        std::int64_t span = 0;
        if (!checkedMul(t.shape[k] - 1, t.stride[k], &span) || !checkedAdd(last, span, &last))
            return bad(QStringLiteral("reaches past any storage (its strides overflow)"));
    }
    std::int64_t end = 0;
    if (!checkedAdd(last, 1, &end) || !checkedMul(end, es, &end) || end > record)
        return bad(QStringLiteral("lies past the end of its storage record %1 (truncated or corrupt)").arg(qs(t.storage.key)));
    std::int64_t bytes = 0;
    if (!checkedMul(numel, es, &bytes) || bytes > record)
        return bad(QStringLiteral("claims %1 elements but its storage record %2 holds only %3 bytes: an overlapping "
                                  "(stride 0) view, which would multiply the data").arg(numel).arg(qs(t.storage.key)).arg(record));
    return true;
}

bool TorchFile::readTensor(const TensorRef &t, std::string *out, QString *error)
{
    if (!checkTensor(t, QString::fromStdString(t.storage.key), error))
        return false;
    const std::int64_t es = dtypeSize(t.dtype);
    const std::int64_t numel = t.numel();
    const std::string name = m_prefix + "data/" + t.storage.key;
    out->assign(std::size_t(numel * es), '\0');  // at most the record's size: checked above
    if (numel == 0)
        return true;
    std::int64_t last = t.storageOffset;
    for (std::size_t k = 0; k < t.shape.size(); ++k)
        last += (t.shape[k] - 1) * t.stride[k];
    zip_file_t *f = zip_fopen(m_zip->z, name.c_str(), 0);
    if (!f) {
        *error = QStringLiteral("%1: cannot open record %2.").arg(m_path, QString::fromStdString(name));
        return false;
    }
    // Read front to back: the bytes before the tensor are skipped by reading them (at most the record, which is at
    // most the file), never by zip_fseek, which libzip 1.7 does not do safely on a corrupt archive.
    auto readAt = [&](std::int64_t elem, char *dst, std::int64_t bytes) {
        char skip[1 << 14];
        for (std::int64_t left = elem * es; left > 0;) {
            const zip_int64_t got = zip_fread(f, skip, zip_uint64_t(std::min<std::int64_t>(left, sizeof skip)));
            if (got <= 0)
                return false;
            left -= got;
        }
        return zip_fread(f, dst, zip_uint64_t(bytes)) == zip_int64_t(bytes);
    };
    bool ok = true;
    if (t.isContiguous()) {
        ok = readAt(t.storageOffset, out->data(), numel * es);
    } else {
        // Strided (a transposed or sliced tensor): read the span it covers, then gather.
        const std::int64_t lo = t.storageOffset, hi = last;
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

std::vector<std::pair<std::string, TensorRef>> stateDictTensors(const PV &root, const PickleValue **stateDict, std::string *error)
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
    if (!sd || sd->kind != PickleValue::Kind::Dict)
        return out;
    const auto stop = [&](const std::string &why) {
        if (error)
            *error = why;
        out.clear();
        return out;
    };
    // Depth first, without recursion; every dict once.
    struct Frame {
        const PickleValue *dict;
        std::size_t next;
        std::string prefix;
    };
    std::vector<Frame> frames{{sd, 0, {}}};
    std::set<const PickleValue *> seen{sd};
    std::map<std::string, std::size_t> at;  // name -> its place in `out`
    while (!frames.empty()) {
        Frame &f = frames.back();
        if (f.next == f.dict->dict.size()) {
            frames.pop_back();
            continue;
        }
        const auto &[k, v] = f.dict->dict[f.next++];
        if (!k || !v || k->kind != PickleValue::Kind::Str)
            continue;
        if (v->kind != PickleValue::Kind::Tensor && v->kind != PickleValue::Kind::Dict)
            continue;
        std::string name = f.prefix.empty() ? k->s : f.prefix + "." + k->s;
        if (name.size() > kMaxTensorName)
            return stop("the state dict holds a name longer than " + std::to_string(kMaxTensorName) + " bytes");
        if (v->kind == PickleValue::Kind::Tensor) {
            const auto it = at.find(name);
            if (it != at.end()) {
                out[it->second].second = v->tensor();
            } else {
                at.emplace(name, out.size());
                out.emplace_back(std::move(name), v->tensor());
            }
            continue;
        }
        if (!seen.insert(v.get()).second)
            return stop("the state dict holds the dict under " + name.substr(0, 200) +
                        " twice (inside itself, or shared by two entries): corrupt or hostile");
        if (frames.size() >= kMaxStateDictDepth)
            return stop("the state dict nests dicts deeper than " + std::to_string(kMaxStateDictDepth) + " levels");
        frames.push_back({v.get(), 0, std::move(name)});
    }
    return out;
}

}  // namespace ingot
