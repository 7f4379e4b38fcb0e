// The ETags S3 gives an object of some bytes, computed while the bytes go by: the MD5 of the whole (one PutObject) and
// the MD5 of its parts' MD5s with "-N" (a multipart upload in parts of `partSize`), and their SHA-256 as S3 keeps it
// (x-amz-checksum-sha256). Shared by the S3 transfers (checking what S3 stored) and cache verify.
#pragma once

#include "services/util/sha256.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <algorithm>

namespace ingot {

class EtagDigest final
{
public:
    explicit EtagDigest(qint64 partSize) : m_partSize(partSize) {}
    void add(const char *data, qint64 size)
    {
        m_whole.addData(QByteArrayView(data, size));
        m_sha256.addData(data, size);
        while (size > 0) {
            const qint64 n = std::min(size, m_partSize - m_inPart);
            m_part.addData(QByteArrayView(data, n));
            m_inPart += n, data += n, size -= n;
            if (m_inPart == m_partSize)
                closePart();
        }
    }
    // Whether `etag` (quotes removed) is one of the two; an ETag of another shape (SSE-KMS, another part size)
    // cannot be checked here and is taken (the Content-MD5 of each request was checked by S3 itself).
    bool matches(const QByteArray &etag)
    {
        const QByteArray e = etag.toLower();
        const int dash = e.indexOf('-');
        if (dash < 0)
            return e.size() != 32 || e == m_whole.result().toHex();
        if (m_inPart > 0)
            closePart();
        const QByteArray multi = QCryptographicHash::hash(m_digests, QCryptographicHash::Md5).toHex() + '-'
                                 + QByteArray::number(m_parts);
        return e.mid(dash + 1).toInt() != m_parts || e == multi;
    }
    // Whether `etag` has a shape these bytes can be checked against: a plain MD5, or a multipart one of as many parts
    // as `partSize` makes. Call once every byte was added.
    bool checkable(const QByteArray &etag)
    {
        const QByteArray e = etag.toLower();
        const int dash = e.indexOf('-');
        if (dash < 0)
            return e.size() == 32;
        if (m_inPart > 0)
            closePart();
        return e.mid(dash + 1).toInt() == m_parts;
    }
    // The object's SHA-256 as S3 keeps it (base64), compared with what arrived.
    bool matchesChecksum(const QByteArray &base64) { return m_sha256.result().toBase64() == base64; }
    void reset()
    {
        m_whole.reset(), m_part.reset(), m_sha256.reset();
        m_digests.clear();
        m_inPart = 0, m_parts = 0;
    }

private:
    void closePart()
    {
        m_digests += m_part.result();
        m_part.reset();
        m_inPart = 0;
        ++m_parts;
    }
    qint64 m_partSize;
    QCryptographicHash m_whole{QCryptographicHash::Md5};
    QCryptographicHash m_part{QCryptographicHash::Md5};
    Sha256 m_sha256;
    QByteArray m_digests;
    qint64 m_inPart = 0;
    int m_parts = 0;
};

}  // namespace ingot
