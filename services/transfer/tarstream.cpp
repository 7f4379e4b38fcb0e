#include "services/transfer/tarstream.h"

#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/relpath.h"
#include "services/util/sha256.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {

// The words were written for host copies, the stream's one user: the same translation context keeps them.
struct HostCopyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HostCopy)
};

constexpr int kBlock = kTarBlock;

qint64 padded(qint64 n)
{
    return tarPadded(n);
}

void putOctal(char *field, int width, quint64 v)
{
    // width - 1 octal digits and a NUL; beyond that, GNU's base-256 (first byte 0x80).
    const quint64 limit = width - 1 >= 21 ? ~quint64(0) : (quint64(1) << (3 * (width - 1))) - 1;
    if (v <= limit) {
        for (int i = width - 2; i >= 0; --i, v >>= 3)
            field[i] = char('0' + (v & 7));
        field[width - 1] = '\0';
        return;
    }
    std::memset(field, 0, size_t(width));
    for (int i = width - 1; i > 0; --i, v >>= 8)
        field[i] = char(v & 0xff);
    field[0] = char(0x80);
}

QByteArray header(const QByteArray &name, char type, quint64 size, unsigned mode, qint64 mtime)
{
    QByteArray h(kBlock, '\0');
    char *b = h.data();
    std::memcpy(b, name.constData(), size_t(std::min<qsizetype>(name.size(), 100)));
    putOctal(b + 100, 8, mode & 07777);
    putOctal(b + 108, 8, 0);
    putOctal(b + 116, 8, 0);
    putOctal(b + 124, 12, size);
    putOctal(b + 136, 12, quint64(std::max<qint64>(0, mtime)));
    b[156] = type;
    std::memcpy(b + 257, "ustar  ", 8);  // GNU magic and version
    std::memset(b + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < kBlock; ++i)
        sum += static_cast<unsigned char>(b[i]);
    putOctal(b + 148, 7, sum);
    b[155] = ' ';
    return h;
}

// ---- reading ----

quint64 parseNumber(const char *field, int width, bool *ok)
{
    const auto *u = reinterpret_cast<const unsigned char *>(field);
    quint64 v = 0;
    *ok = true;
    if (u[0] & 0x80) {
        if (u[0] != 0x80) {  // negative or wider than 64 bits: no size of ours
            *ok = false;
            return 0;
        }
        for (int i = 1; i < width; ++i) {
            if (v >> 56) {
                *ok = false;
                return 0;
            }
            v = (v << 8) | u[i];
        }
        return v;
    }
    int i = 0;
    while (i < width && field[i] == ' ')
        ++i;
    bool any = false;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i) {
        if (v >> 60) {
            *ok = false;
            return 0;
        }
        v = v * 8 + quint64(field[i] - '0');
        any = true;
    }
    if (!any || (i < width && field[i] != ' ' && field[i] != '\0'))
        *ok = false;
    return v;
}

bool checksumOk(const char *b)
{
    bool ok = false;
    const quint64 want = parseNumber(b + 148, 8, &ok);
    if (!ok)
        return false;
    unsigned sum = 0;
    for (int i = 0; i < kBlock; ++i)
        sum += (i >= 148 && i < 156) ? unsigned(' ') : static_cast<unsigned char>(b[i]);
    return want == sum;
}

// "len key=value\n" records of a pax header: the path, if any.
QByteArray paxPath(const QByteArray &data)
{
    QByteArray path;
    qsizetype at = 0;
    while (at < data.size()) {
        const qsizetype sp = data.indexOf(' ', at);
        if (sp < 0)
            break;
        const qint64 len = data.mid(at, sp - at).toLongLong();
        if (len <= 0 || at + len > data.size())
            break;
        const QByteArray rec = data.mid(sp + 1, at + len - sp - 2);  // without the newline
        if (rec.startsWith("path="))
            path = rec.mid(5);
        at += len;
    }
    return path;
}

}  // namespace

qint64 tarPadded(qint64 n)
{
    return (n + kBlock - 1) / kBlock * kBlock;
}

// The header(s) of one member: a GNU long-name record first when the name passes 100 bytes.
QByteArray tarMemberHeader(const QByteArray &name, char type, quint64 size, unsigned mode, qint64 mtime)
{
    QByteArray out;
    if (name.size() > 100) {
        out += header("././@LongLink", 'L', quint64(name.size() + 1), 0644, 0);
        QByteArray n = name + '\0';
        n.append(QByteArray(int(padded(n.size()) - n.size()), '\0'));
        out += n;
    }
    out += header(name, type, size, mode, mtime);
    return out;
}

bool TarReceiver::run(QString *error)
{
    QByteArray longName;
    int zeros = 0;
    for (;;) {
        if (!m_s.readAtLeast(kBlock))
            return false;
        if (m_s.available() < kBlock) {
            if (zeros == 1 && m_s.available() == 0)
                return true;  // one zero block then the end: tolerated as GNU tar does
            *error = HostCopyText::tr("The host's archive ended early.");
            return false;
        }
        const QByteArray h(m_s.data(), kBlock);
        m_s.consume(kBlock);
        if (h.count('\0') == kBlock) {
            if (++zeros == 2)
                return true;
            continue;
        }
        zeros = 0;
        if (!checksumOk(h.constData())) {
            *error = HostCopyText::tr("The host did not send a valid archive (a header's checksum is wrong).");
            return false;
        }
        bool ok = false;
        const quint64 size = parseNumber(h.constData() + 124, 12, &ok);
        if (!ok || size > (quint64(1) << 42)) {
            *error = HostCopyText::tr("The host's archive has a member of an impossible size.");
            return false;
        }
        const char type = h.at(156);
        if (type == 'L' || type == 'x' || type == 'g') {
            if (size > (1 << 20)) {
                *error = HostCopyText::tr("The host's archive has a name record that is too long.");
                return false;
            }
            QByteArray data;
            if (!readData(qint64(size), &data, error))
                return false;
            if (type == 'L')
                longName = data.left(data.indexOf('\0') < 0 ? data.size() : data.indexOf('\0'));
            else if (type == 'x') {
                const QByteArray p = paxPath(data);
                if (!p.isEmpty())
                    longName = p;
            }
            continue;
        }
        QByteArray name = longName;
        longName.clear();
        if (name.isEmpty()) {
            name = QByteArray(h.constData(), qsizetype(strnlen(h.constData(), 100)));
            if (std::memcmp(h.constData() + 257, "ustar\0", 6) == 0 && h.at(345) != '\0')
                name = QByteArray(h.constData() + 345, qsizetype(strnlen(h.constData() + 345, 155))) + '/' + name;
        }
        while (name.startsWith("./"))
            name.remove(0, 2);
        while (name.endsWith('/'))
            name.chop(1);
        if (name == ".")
            name.clear();
        const unsigned mode = unsigned(parseNumber(h.constData() + 100, 8, &ok)) & 0777;
        const qint64 mtime = qint64(parseNumber(h.constData() + 136, 12, &ok));
        if (type == '5') {
            if (name.isEmpty())
                continue;  // the entry's own folder
            if (!checkName(name, error))
                return false;
            if (::mkdirat(m_root, name.constData(), 0755) != 0 && errno != EEXIST) {
                *error = HostCopyText::tr("Cannot create %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
                return false;
            }
            made << name + '/';
            continue;
        }
        if (type != '0' && type != '\0' && type != '7') {
            *error = HostCopyText::tr("The host's archive holds %1, which is not a file or a folder (a link or a device): refused.")
                         .arg(displayName(nameFromBytes(name)));
            return false;
        }
        if (name.isEmpty() || !checkName(name, error))
            return name.isEmpty() ? (*error = HostCopyText::tr("The host's archive has a file without a name."), false) : false;
        if (hashes.size() >= kTarMaxFiles) {
            *error = HostCopyText::tr("The host's entry has more than %1 files: no compiled module has that many; refused.").arg(kTarMaxFiles);
            return false;
        }
        if (!withinListing(name, qint64(size), error))
            return false;
        m_announced += qint64(size);
        if (!receiveFile(name, qint64(size), mode, mtime, error))
            return false;
    }
}

// Removes what run() made (files, then folders, deepest first), never following links.
void TarReceiver::undo()
{
    for (auto it = made.crbegin(); it != made.crend(); ++it) {
        if (it->endsWith('/'))
            ::unlinkat(m_root, it->chopped(1).constData(), AT_REMOVEDIR);
        else
            ::unlinkat(m_root, it->constData(), 0);
    }
    made.clear();
}

bool TarReceiver::checkName(const QByteArray &name, QString *error)
{
    if (name.contains('\0') || !isSafeRelativePath(nameFromBytes(name))) {
        *error = HostCopyText::tr("The host's archive names %1, a path outside the entry: refused.").arg(displayName(nameFromBytes(name)));
        return false;
    }
    return true;
}

bool TarReceiver::readData(qint64 size, QByteArray *out, QString *error)
{
    const qint64 total = padded(size);
    if (!m_s.readAtLeast(total))
        return false;
    if (m_s.available() < total) {
        *error = HostCopyText::tr("The host's archive ended early.");
        return false;
    }
    *out = QByteArray(m_s.data(), size);
    m_s.consume(total);
    return true;
}

bool TarReceiver::receiveFile(const QByteArray &name, qint64 size, unsigned mode, qint64 mtime, QString *error)
{
    if (hashes.contains(name)) {
        *error = HostCopyText::tr("The host's archive holds %1 twice: refused.").arg(displayName(nameFromBytes(name)));
        return false;
    }
    const int fd = ::openat(m_root, name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                            (mode | 0600) & 0777);
    if (fd < 0) {
        *error = HostCopyText::tr("Cannot create %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
        return false;
    }
    made << name;
    Sha256 h;
    qint64 left = size;
    bool ok = true;
    while (left > 0 && ok) {
        if (!m_s.readAtLeast(1)) {
            ok = false;
            break;
        }
        const qint64 n = std::min(left, m_s.available());
        if (n == 0) {
            *error = HostCopyText::tr("The host's archive ended early.");
            ok = false;
            break;
        }
        const char *p = m_s.data();
        qint64 w = 0;
        while (w < n) {
            const ssize_t r = ::write(fd, p + w, size_t(n - w));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                *error = HostCopyText::tr("Cannot write %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
                ok = false;
                break;
            }
            w += r;
        }
        if (!ok)
            break;
        h.addData(p, n);
        m_s.consume(n);
        left -= n;
        m_done += n;
        if (m_progress)
            m_progress(m_done, -1);
    }
    // The disk starts writing it now, while the next members arrive; the entry's commit waits for it (fsync of every
    // file before the rename). An fsync here held the stream for as long as the disk took.
    if (ok)
        ::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
    if (ok) {
        const timespec times[2] = {{0, UTIME_OMIT}, {mtime, 0}};
        ::futimens(fd, times);
    }
    ::close(fd);
    if (!ok)
        return false;
    // The padding to the next block.
    const qint64 pad = padded(size) - size;
    if (pad > 0) {
        if (!m_s.readAtLeast(pad))
            return false;
        if (m_s.available() < pad) {
            *error = HostCopyText::tr("The host's archive ended early.");
            return false;
        }
        m_s.consume(pad);
    }
    hashes.insert(name, h.result().toHex());
    return true;
}

// A member the listing does not allow: not listed, larger than listed, or past the entry's size in all.
bool TarReceiver::withinListing(const QByteArray &name, qint64 size, QString *error) const
{
    const auto it = m_listed.sizes.constFind(name);
    if (it == m_listed.sizes.cend()) {
        *error = HostCopyText::tr("The host's archive holds %1, which the entry's listing did not show: refused, "
                                  "nothing was kept.").arg(displayName(nameFromBytes(name)));
        return false;
    }
    if (size > *it || m_announced + size > m_listed.total) {
        *error = HostCopyText::tr("The host's archive announces %1 bytes for %2, more than the entry's listing "
                                  "showed (%3 bytes; the entry %4 bytes): refused, nothing was kept.")
                     .arg(size).arg(displayName(nameFromBytes(name))).arg(*it).arg(m_listed.total);
        return false;
    }
    return true;
}

}  // namespace ingot
