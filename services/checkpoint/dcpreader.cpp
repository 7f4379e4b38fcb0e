#include "services/checkpoint/dcpreader.h"

#include "services/checkpoint/formats/torchfile.h"
#include "services/util/errnotext.h"
#include "services/util/fdio.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cstring>
#include <vector>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct DcpText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QString qs(const std::string &s)
{
    return dcpShownName(s);
}

// `name` of the folder open as `dirFd`, a regular file, never through a link; -1 with words otherwise.
int openInFolder(int dirFd, const std::string &name, const QString &shown, struct stat *st, QString *error)
{
    const int fd = ::openat(dirFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        *error = errno == ELOOP ? DcpText::tr("%1 is a link: Ingot reads a checkpoint's own files only. Replace the link with the file itself.").arg(shown)
                                : DcpText::tr("Cannot read %1: %2").arg(shown, describeErrno(errno));
        return -1;
    }
    if (::fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        ::close(fd);
        *error = DcpText::tr("%1 is not a regular file.").arg(shown);
        return -1;
    }
    return fd;
}

// Copies the chunk `src` (its shape `sizes`, row-major) into the tensor `dst` (shape `size`) at `offsets`.
void place(const char *src, const std::vector<std::int64_t> &sizes, char *dst, const std::vector<std::int64_t> &size,
           const std::vector<std::int64_t> &offsets, int es)
{
    const std::size_t nd = size.size();
    if (nd == 0) {
        std::memcpy(dst, src, std::size_t(es));
        return;
    }
    // Strides of the tensor, in bytes; rows are the last dim.
    std::vector<std::int64_t> stride(nd, es);
    for (std::size_t d = nd - 1; d-- > 0;)
        stride[d] = stride[d + 1] * size[d + 1];
    const std::int64_t row = sizes[nd - 1] * es;
    std::vector<std::int64_t> idx(nd, 0);  // over all dims but the last
    for (;;) {
        std::int64_t at = offsets[nd - 1] * es;
        for (std::size_t d = 0; d + 1 < nd; ++d)
            at += (offsets[d] + idx[d]) * stride[d];
        std::memcpy(dst + at, src, std::size_t(row));
        src += row;
        std::size_t d = nd - 1;
        while (d-- > 0) {
            if (++idx[d] < sizes[d])
                break;
            idx[d] = 0;
        }
        if (d == std::size_t(-1))
            return;
    }
}
}  // namespace

DcpCheckpoint::~DcpCheckpoint()
{
    for (const auto &[name, f] : m_files)
        ::close(f.first);
    if (m_dirFd >= 0)
        ::close(m_dirFd);
}

bool DcpCheckpoint::looksLikeDcp(const QString &folder)
{
    struct stat st {};
    return ::lstat(QFile::encodeName(folder + QLatin1Char('/') + QLatin1String(kMetadataFile)).constData(), &st) == 0;
}

QString DcpCheckpoint::itemName(const DcpItem &i) const
{
    return DcpText::tr("%1 (bytes %2 to %3)").arg(displayName(m_folder + QLatin1Char('/') + qs(i.file))).arg(i.offset).arg(i.offset + i.length);
}

bool DcpCheckpoint::open(const QString &folder, QString *error)
{
    m_folder = folder;
    m_dirFd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_dirFd < 0) {
        *error = DcpText::tr("Cannot read %1: %2").arg(displayName(folder), describeErrno(errno));
        return false;
    }
    const QString shown = displayName(folder + QLatin1Char('/') + QLatin1String(kMetadataFile));
    struct stat st {};
    const int fd = openInFolder(m_dirFd, kMetadataFile, shown, &st, error);
    if (fd < 0)
        return false;
    if (st.st_size > kMaxDcpMetadataBytes) {
        ::close(fd);
        *error = DcpText::tr("%1 is larger than %2 MiB: not a DCP checkpoint's metadata.").arg(shown).arg(kMaxDcpMetadataBytes >> 20);
        return false;
    }
    std::string data(std::size_t(st.st_size), '\0');
    const bool read = readAllAt(fd, data.data(), data.size(), 0);
    const int err = errno;
    ::close(fd);
    if (!read) {
        *error = DcpText::tr("Cannot read %1: %2").arg(shown, err ? describeErrno(err) : DcpText::tr("it shrank while being read"));
        return false;
    }
    return parseDcpMetadata(data, shown, &m_md, error) && openFiles(error) && checkItems(error);
}

bool DcpCheckpoint::openFiles(QString *error)
{
    if (m_md.files.size() > kMaxFiles) {
        *error = DcpText::tr("%1 names %2 data files, more than the %3 Ingot reads.").arg(displayName(m_folder)).arg(m_md.files.size()).arg(kMaxFiles);
        return false;
    }
    for (const std::string &name : m_md.files) {
        struct stat st {};
        const int fd = openInFolder(m_dirFd, name, displayName(m_folder + QLatin1Char('/') + qs(name)), &st, error);
        if (fd < 0)
            return false;
        m_files[name] = {fd, qint64(st.st_size)};
        m_fileBytes += qint64(st.st_size);
    }
    return true;
}

// Every item inside its file, none overlapping another, and every chunk's bytes within its item.
bool DcpCheckpoint::checkItems(QString *error)
{
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> ranges;
    const auto add = [&](const DcpItem &i) {
        const qint64 size = m_files.at(i.file).second;
        if (i.offset > size || i.length > size - i.offset) {
            *error = DcpText::tr("%1 lies past the end of its file (%2 bytes): truncated or corrupt.").arg(itemName(i)).arg(size);
            return false;
        }
        ranges[i.file].push_back({i.offset, i.length});
        return true;
    };
    for (const DcpTensor &t : m_md.tensors)
        for (const DcpChunk &c : t.chunks) {
            std::int64_t bytes = 0;
            if (!add(c.item))
                return false;
            if (!checkedByteSize(t.dtype, c.sizes, &bytes) || bytes > c.item.length) {
                *error = DcpText::tr("A chunk of tensor %1 claims more bytes than its item %2 holds: corrupt.").arg(qs(t.fqn), itemName(c.item));
                return false;
            }
        }
    for (const DcpBytes &b : m_md.bytes)
        if (!add(b.item))
            return false;
    for (auto &[file, r] : ranges) {
        std::sort(r.begin(), r.end());
        for (std::size_t k = 1; k < r.size(); ++k)
            if (r[k].first < r[k - 1].first + r[k - 1].second) {
                *error = DcpText::tr("Two items of %1 overlap (at byte %2): corrupt.").arg(displayName(m_folder + QLatin1Char('/') + qs(file))).arg(r[k].first);
                return false;
            }
    }
    return true;
}

bool DcpCheckpoint::readTensor(const DcpTensor &t, std::string *out, QString *error)
{
    const int es = dtypeSize(t.dtype);
    out->assign(std::size_t(t.bytes()), '\0');  // bounded by the files: checkItems()
    std::string piece;
    for (const DcpChunk &c : t.chunks) {
        std::int64_t n = 0;
        checkedNumel(c.sizes, &n);
        if (n == 0)
            continue;
        TorchFile tf;
        const QString shown = itemName(c.item);
        if (!tf.openAt(m_files.at(c.item.file).first, c.item.offset, c.item.length, shown, error))
            return false;
        const PV &root = tf.root();
        if (!root || root->kind != PickleValue::Kind::Tensor) {
            *error = DcpText::tr("%1 does not hold a tensor (a piece of %2).").arg(shown, qs(t.fqn));
            return false;
        }
        const TensorRef &ref = root->tensor();
        if (ref.dtype != t.dtype || ref.shape != c.sizes) {
            *error = DcpText::tr("%1 holds a %2 tensor of shape %3, not the piece of %4 the metadata describes.")
                         .arg(shown, QString::fromLatin1(safetensorsName(ref.dtype)), QString::fromStdString(
                             [&] { std::string s; for (auto d : ref.shape) s += (s.empty() ? "" : ", ") + std::to_string(d); return "[" + s + "]"; }()),
                              qs(t.fqn));
            return false;
        }
        const bool whole = c.sizes == t.size;
        if (!tf.readTensor(ref, whole ? out : &piece, error))
            return false;
        if (!whole)
            place(piece.data(), c.sizes, out->data(), t.size, c.offsets, es);
    }
    return true;
}

bool DcpCheckpoint::locate(const DcpTensor &t, std::vector<Piece> *pieces, QString *error)
{
    error->clear();
    pieces->clear();
    qint64 rowBytes = dtypeSize(t.dtype);  // of one index of dim 0
    for (std::size_t d = 1; d < t.size.size(); ++d)
        rowBytes *= t.size[d];
    for (const DcpChunk &c : t.chunks) {
        std::int64_t n = 0;
        checkedNumel(c.sizes, &n);
        if (n == 0)
            continue;
        for (std::size_t d = 1; d < t.size.size(); ++d)
            if (c.sizes[d] != t.size[d])
                return false;
        TorchFile tf;
        if (!tf.openAt(m_files.at(c.item.file).first, c.item.offset, c.item.length, itemName(c.item), error))
            return false;
        const PV &root = tf.root();
        if (!root || root->kind != PickleValue::Kind::Tensor || root->tensor().dtype != t.dtype || root->tensor().shape != c.sizes)
            return false;  // readTensor() says what is wrong
        Piece p;
        if (!tf.locateTensor(root->tensor(), &p.from, error))
            return false;
        p.fd = m_files.at(c.item.file).first;
        p.to = t.size.empty() ? 0 : c.offsets[0] * rowBytes;
        p.bytes = n * dtypeSize(t.dtype);
        pieces->push_back(p);
    }
    return !pieces->empty();
}

bool DcpCheckpoint::readBytes(const DcpBytes &b, std::string *out, QString *error)
{
    if (b.item.length > kMaxBytesValue) {
        *error = DcpText::tr("%1 is larger than %2 MiB.").arg(itemName(b.item)).arg(kMaxBytesValue >> 20);
        return false;
    }
    out->assign(std::size_t(b.item.length), '\0');
    if (!readAllAt(m_files.at(b.item.file).first, out->data(), out->size(), std::uint64_t(b.item.offset))) {
        *error = DcpText::tr("Cannot read %1: the file is shorter than it was.").arg(itemName(b.item));
        return false;
    }
    return true;
}

bool DcpCheckpoint::openValue(const std::string &fqn, TorchFile *tf, QString *error)
{
    const auto it = std::find_if(m_md.bytes.begin(), m_md.bytes.end(), [&](const DcpBytes &b) { return b.fqn == fqn; });
    if (it == m_md.bytes.end()) {
        *error = DcpText::tr("%1 is no longer in the checkpoint: it changed.").arg(qs(fqn));
        return false;
    }
    if (it->item.length > kMaxBytesValue) {
        *error = DcpText::tr("%1 is larger than %2 MiB.").arg(itemName(it->item)).arg(kMaxBytesValue >> 20);
        return false;
    }
    return tf->openAt(m_files.at(it->item.file).first, it->item.offset, it->item.length, itemName(it->item), error);
}

}  // namespace ingot
