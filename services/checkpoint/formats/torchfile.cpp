#include "services/checkpoint/formats/torchfile.h"

#include "services/util/errnotext.h"
#include "services/util/fdio.h"

#include <QFile>

#include <zip.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
TorchFile::~TorchFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

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

// Exactly `size` bytes at `offset`, or false (a short read: the file ends there, or shrank).
std::uint64_t le(const char *p, int n)
{
    std::uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k)
        v = (v << 8) | static_cast<unsigned char>(p[k]);
    return v;
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

void TorchFile::resetForOpen(const QString &shownAs)
{
    m_path = shownAs;
    m_zip = std::make_unique<Zip>();
    m_root.reset();
    m_arena.reset();
    m_records.clear();
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

bool TorchFile::open(const QString &path, QString *error)
{
    resetForOpen(path);
    m_base = 0;
    // A FIFO or a device would block or never end: only regular files are read (non-blocking: a FIFO must not hang
    // the open).
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
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
    return readPickle(error);
}

bool TorchFile::openAt(int fd, qint64 base, qint64 length, const QString &shownAs, QString *error)
{
    resetForOpen(shownAs);
    m_fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    struct stat st {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode) || base < 0 || length < 0 || base > st.st_size ||
        length > st.st_size - base) {
        *error = QStringLiteral("%1 lies outside its file (truncated or corrupt).").arg(shownAs);
        return false;
    }
    m_base = base;
    m_fileSize = length;
    const int zfd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    FILE *fp = zfd < 0 ? nullptr : ::fdopen(zfd, "rb");
    if (!fp) {
        if (zfd >= 0)
            ::close(zfd);
        *error = QStringLiteral("Cannot read %1: %2.").arg(shownAs, describeErrno(errno));
        return false;
    }
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_filep_create(fp, zip_uint64_t(base), zip_int64_t(length), &ze);
    if (!src)
        ::fclose(fp);
    m_zip->z = src ? zip_open_from_source(src, ZIP_RDONLY, &ze) : nullptr;
    if (!m_zip->z) {
        if (src)
            zip_source_free(src);
        *error = QStringLiteral("%1 is not a readable torch.save item (zip): %2.").arg(shownAs, QString::fromUtf8(zip_error_strerror(&ze)));
        zip_error_fini(&ze);
        return false;
    }
    zip_error_fini(&ze);
    return readPickle(error);
}

bool TorchFile::readPickle(QString *error)
{
    const QString &path = m_path;
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
    readCentralDirectory();
    return true;
}

// The zip's central directory, read by us (libzip does not tell where a record's data begins): end of central
// directory (ZIP64 when its fields are saturated), then every entry's name, method, sizes and local header offset.
// Anything that does not parse leaves m_records empty or partial: those records are then streamed with libzip.
void TorchFile::readCentralDirectory()
{
    const std::uint64_t fileSize = std::uint64_t(m_fileSize);
    if (fileSize < 22)
        return;
    const std::uint64_t tailSize = std::min<std::uint64_t>(fileSize, 22 + 65535 + 20);
    std::string tail(tailSize, '\0');
    if (!readAllAt(m_fd, tail.data(), tailSize, std::uint64_t(m_base) + fileSize - tailSize))
        return;
    std::int64_t eocd = -1;
    for (std::int64_t k = std::int64_t(tailSize) - 22; k >= 0; --k)
        if (le(tail.data() + k, 4) == 0x06054b50) {
            eocd = k;
            break;
        }
    if (eocd < 0)
        return;
    const char *e = tail.data() + eocd;
    std::uint64_t entries = le(e + 10, 2), cdSize = le(e + 12, 4), cdOffset = le(e + 16, 4);
    if ((entries == 0xffff || cdSize == 0xffffffffu || cdOffset == 0xffffffffu) && eocd >= 20 &&
        le(e - 20, 4) == 0x07064b50) {
        const std::uint64_t z64 = le(e - 20 + 8, 8);
        char rec[56];
        if (z64 > fileSize - 56 || !readAllAt(m_fd, rec, sizeof rec, std::uint64_t(m_base) + z64) || le(rec, 4) != 0x06064b50)
            return;
        entries = le(rec + 32, 8);
        cdSize = le(rec + 40, 8);
        cdOffset = le(rec + 48, 8);
    }
    constexpr std::uint64_t kMaxCentralDirectory = std::uint64_t(256) << 20;
    if (cdSize > kMaxCentralDirectory || cdOffset > fileSize || cdSize > fileSize - cdOffset)
        return;
    std::string cd(cdSize, '\0');
    if (!readAllAt(m_fd, cd.data(), cdSize, std::uint64_t(m_base) + cdOffset))
        return;
    std::size_t at = 0;
    for (std::uint64_t i = 0; i < entries && at + 46 <= cd.size(); ++i) {
        const char *c = cd.data() + at;
        if (le(c, 4) != 0x02014b50)
            return;
        const std::size_t nameLen = le(c + 28, 2), extraLen = le(c + 30, 2), commentLen = le(c + 32, 2);
        if (at + 46 + nameLen + extraLen + commentLen > cd.size())
            return;
        Record r;
        r.method = int(le(c + 10, 2));
        r.compressedSize = le(c + 20, 4);
        r.size = le(c + 24, 4);
        r.localHeader = le(c + 42, 4);
        // ZIP64 extra field: the saturated values, in this order.
        const char *x = c + 46 + nameLen, *xEnd = x + extraLen;
        while (x + 4 <= xEnd) {
            const std::uint64_t id = le(x, 2), len = le(x + 2, 2);
            if (x + 4 + len > xEnd)
                break;
            if (id == 1) {
                const char *v = x + 4, *vEnd = v + len;
                for (std::uint64_t *f : {&r.size, &r.compressedSize, &r.localHeader})
                    if (*f == 0xffffffffu) {
                        if (v + 8 > vEnd)
                            return;
                        *f = le(v, 8);
                        v += 8;
                    }
            }
            x += 4 + len;
        }
        m_records.emplace(std::string(c + 46, nameLen), r);
        at += 46 + nameLen + extraLen + commentLen;
    }
}

std::int64_t TorchFile::dataOffset(const std::string &key, QString *error)
{
    const auto it = m_records.find(m_prefix + "data/" + key);
    if (it == m_records.end() || it->second.method != ZIP_CM_STORE)
        return -1;
    Record &r = it->second;
    if (r.dataOffset >= 0)
        return r.dataOffset;
    const std::uint64_t fileSize = std::uint64_t(m_fileSize);
    const auto outside = [&] {
        *error = QStringLiteral("%1: the data of storage record %2 lies outside the file (truncated or corrupt).").arg(m_path, qs(key));
        return std::int64_t(-2);
    };
    // The local header: its own name and extra field lengths say where the data begins.
    char h[30];
    if (r.localHeader > fileSize || fileSize - r.localHeader < 30 || !readAllAt(m_fd, h, sizeof h, std::uint64_t(m_base) + r.localHeader) ||
        le(h, 4) != 0x04034b50)
        return outside();
    const std::uint64_t begin = r.localHeader + 30 + le(h + 26, 2) + le(h + 28, 2);
    if (r.compressedSize != r.size || begin > fileSize || r.size > fileSize - begin)
        return outside();
    r.dataOffset = std::int64_t(begin);
    return r.dataOffset;
}

bool TorchFile::locateTensor(const TensorRef &t, qint64 *offset, QString *error)
{
    error->clear();
    if (!checkTensor(t, QString::fromStdString(t.storage.key), error))
        return false;
    if (!t.isContiguous())
        return false;
    zip_stat_t st;
    if (zip_stat(m_zip->z, (m_prefix + "data/" + t.storage.key).c_str(), 0, &st) != 0 || st.comp_method != ZIP_CM_STORE)
        return false;
    const std::int64_t begin = dataOffset(t.storage.key, error);
    if (begin < 0)
        return false;
    // Our reading of the central directory must agree with libzip's.
    const Record &r = m_records.at(m_prefix + "data/" + t.storage.key);
    if (r.size != st.size)
        return false;
    *offset = m_base + begin + t.storageOffset * dtypeSize(t.dtype);  // inside the record: checkTensor() said so
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
    // torch.save stores records; a deflated one (a checkpoint re-zipped by another tool) is streamed through
    // libzip, and may inflate to at most kMaxInflation times the file.
    const bool stored = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE;
    const bool deflated = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_DEFLATE;
    if (!stored && !deflated)
        return bad(QStringLiteral("lies in a storage record (%1) compressed in a way Ingot does not read").arg(qs(t.storage.key)));
    if (!(st.valid & ZIP_STAT_COMP_SIZE) || (stored && st.comp_size != st.size) ||
        ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE))
        return bad(QStringLiteral("lies in a storage record (%1) whose sizes disagree or that is encrypted: corrupt").arg(qs(t.storage.key)));
    if (stored ? st.size > zip_uint64_t(m_fileSize) : st.size > zip_uint64_t(kMaxInflation * m_fileSize + (qint64(1) << 20)))
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
    // A contiguous tensor in a stored record: straight from the file.
    qint64 at = 0;
    if (locateTensor(t, &at, error)) {
        if (readAllAt(m_fd, out->data(), out->size(), std::uint64_t(at)))
            return true;
        *error = QStringLiteral("%1: could not read record %2 (the file is shorter than it was: truncated while being read?).").arg(m_path, QString::fromStdString(name));
        return false;
    }
    if (!error->isEmpty())
        return false;
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
        if (v->kind != PickleValue::Kind::Tensor && v->kind != PickleValue::Kind::Dict && v->kind != PickleValue::Kind::Reference)
            continue;
        std::string name = f.prefix.empty() ? k->s : f.prefix + "." + k->s;
        if (name.size() > kMaxTensorName)
            return stop("the state dict holds a name longer than " + std::to_string(kMaxTensorName) + " bytes");
        if (v->kind == PickleValue::Kind::Tensor || v->kind == PickleValue::Kind::Reference) {
            TensorRef t;
            if (v->kind == PickleValue::Kind::Tensor) {
                t = v->tensor();
            } else if (v->i < 0) {
                return stop("the xser reference " + name.substr(0, 200) + " has no tid");
            } else {
                t.xserTid = v->i;
            }
            const auto it = at.find(name);
            if (it != at.end()) {
                out[it->second].second = std::move(t);
            } else {
                at.emplace(name, out.size());
                out.emplace_back(std::move(name), std::move(t));
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
