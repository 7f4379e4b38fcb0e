#include "services/jobs/tfevents.h"

#include "tfevents_subset.pb.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace ingot {

namespace {

struct TfEventsText {
    Q_DECLARE_TR_FUNCTIONS(ingot::TfEventReader)
};

constexpr qint64 headerBytes = 12;  // uint64 length, uint32 masked CRC of it
constexpr qint64 footerBytes = 4;   // uint32 masked CRC of the data
constexpr int dtFloat = 1;          // tensorboard/compat/proto/types.proto
constexpr int dtDouble = 2;

std::uint32_t crcTable(int i)
{
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0x82f63b78u ^ (c >> 1) : c >> 1;  // Castagnoli, reflected
            t[n] = c;
        }
        return t;
    }();
    return table[std::size_t(i)];
}

std::uint32_t readLe32(const char *p)
{
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | std::uint8_t(p[i]);
    return v;
}

std::uint64_t readLe64(const char *p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | std::uint8_t(p[i]);
    return v;
}

// A tensor of exactly one float or double value (every dimension 1, or a scalar of rank 0).
bool oneValue(const tfevents::TensorProto &t, double *out)
{
    qint64 elements = 1;
    for (const auto &d : t.tensor_shape().dim()) {
        if (d.size() != 1)
            elements = 0;
    }
    if (elements != 1)
        return false;
    if (t.dtype() == dtFloat) {
        if (t.float_val_size() == 1) {
            *out = t.float_val(0);
            return true;
        }
        if (t.float_val_size() == 0 && t.tensor_content().size() == 4) {
            float f;
            const std::uint32_t bits = readLe32(t.tensor_content().data());
            std::memcpy(&f, &bits, 4);
            *out = f;
            return true;
        }
    } else if (t.dtype() == dtDouble) {
        if (t.double_val_size() == 1) {
            *out = t.double_val(0);
            return true;
        }
        if (t.double_val_size() == 0 && t.tensor_content().size() == 8) {
            double d;
            const std::uint64_t bits = readLe64(t.tensor_content().data());
            std::memcpy(&d, &bits, 8);
            *out = d;
            return true;
        }
    }
    return false;
}

}  // namespace

std::uint32_t maskedCrc32c(const char *data, qint64 size)
{
    std::uint32_t c = 0xffffffffu;
    for (qint64 i = 0; i < size; ++i)
        c = crcTable(int((c ^ std::uint8_t(data[i])) & 0xff)) ^ (c >> 8);
    c ^= 0xffffffffu;
    return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

void TfEventReader::feed(const char *data, qint64 size)
{
    while (size > 0 && m_error.isEmpty()) {
        if (m_skip > 0) {
            const qint64 n = std::min(m_skip, size);
            m_skip -= n;
            m_offset += n;
            data += n;
            size -= n;
            continue;
        }
        // Take what the header or the record still needs.
        qint64 need = headerBytes - m_pending.size();
        if (need <= 0) {
            const std::uint64_t length = readLe64(m_pending.constData());
            need = headerBytes + qint64(length) + footerBytes - m_pending.size();
        }
        const qint64 n = std::min(need, size);
        m_pending.append(data, n);
        data += n;
        size -= n;
        if (m_pending.size() == headerBytes) {
            const std::uint64_t length = readLe64(m_pending.constData());
            if (readLe32(m_pending.constData() + 8) != maskedCrc32c(m_pending.constData(), 8)) {
                m_error = TfEventsText::tr("The record at byte %1 has a length whose CRC is wrong: the rest of the file "
                                           "cannot be read.").arg(m_offset);
                return;
            }
            if (length > std::uint64_t(maxRecordBytes)) {
                ++m_skippedLarge;
                // Passed over unread (a length past any file just runs to its end, counted as truncated then).
                constexpr std::uint64_t far = std::uint64_t(1) << 62;
                m_skip = qint64(std::min(length, far)) + footerBytes;
                m_offset += headerBytes;
                m_pending.clear();
            }
            continue;
        }
        if (m_pending.size() > headerBytes
            && m_pending.size() == headerBytes + qint64(readLe64(m_pending.constData())) + footerBytes) {
            const qint64 length = m_pending.size() - headerBytes - footerBytes;
            const char *body = m_pending.constData() + headerBytes;
            if (readLe32(body + length) != maskedCrc32c(body, length))
                ++m_bad;
            else
                record(body, length);
            m_offset += m_pending.size();
            m_pending.clear();
        }
    }
}

void TfEventReader::finish()
{
    m_truncated += m_pending.size();
    m_pending.clear();
}

void TfEventReader::record(const char *data, qint64 size)
{
    tfevents::Event event;
    if (!event.ParseFromArray(data, int(size))) {
        ++m_bad;
        return;
    }
    ++m_records;
    const double wall = event.wall_time();
    if (std::isfinite(wall) && wall > 0) {
        if (m_firstWall <= 0 || wall < m_firstWall)
            m_firstWall = wall;
        m_lastWall = std::max(m_lastWall, wall);
    }
    if (!event.has_summary())
        return;
    for (const auto &v : event.summary().value()) {
        TfScalar p;
        p.step = event.step();
        p.wallTime = std::isfinite(wall) ? wall : 0;
        if (v.value_case() == tfevents::Summary::Value::kSimpleValue)
            p.value = v.simple_value();
        else if (!(v.value_case() == tfevents::Summary::Value::kTensor && oneValue(v.tensor(), &p.value)))
            continue;  // an image, a histogram, text: not a scalar
        addPoint(QByteArray::fromStdString(v.tag()), p);
    }
}

void TfEventReader::addPoint(const QByteArray &tag, const TfScalar &p)
{
    auto it = m_series.find(tag);
    if (it == m_series.end()) {
        if (m_series.size() >= maxTags || tag.size() > 1024) {
            ++m_droppedTags;
            return;
        }
        it = m_series.insert(tag, TfScalarSeries{});
    }
    TfScalarSeries &s = *it;
    if (s.seen++ % s.stride != 0)
        return;
    s.points << p;
    if (s.points.size() >= maxPointsPerTag) {
        // Thinned evenly: every other point kept, and from now on one of every 2 × stride.
        QVector<TfScalar> kept;
        kept.reserve(s.points.size() / 2 + 1);
        for (qsizetype i = 0; i < s.points.size(); i += 2)
            kept << s.points.at(i);
        s.points = kept;
        s.stride *= 2;
    }
}

}  // namespace ingot
