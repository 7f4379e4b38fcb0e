// TensorBoard event files (events.out.tfevents.*, what torch.utils.tensorboard.SummaryWriter and TensorFlow write) read
// into scalar series by tag. The framing is TFRecord's (tensorboard/summary/writer/record_writer.py): a little-endian
// uint64 length, the masked CRC32C of those 8 bytes, the data, the masked CRC32C of the data; each record's data is an
// `Event` proto (tfevents_subset.proto, TensorBoard's field numbers). A scalar is a Summary value's simple_value, or a
// tensor of one float or double (the "new style" scalar of SummaryWriter and tf.summary).
// Bounded whatever the file holds: a record over maxRecordBytes is skipped unread (its length's CRC holds) or ends the
// reading (it does not: nothing after it can be trusted), at most maxTags tags are kept and at most maxPointsPerTag
// points of each (thinned evenly past that: every other point dropped, then every fourth kept, and so on).
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QVector>

#include <cstdint>

namespace ingot {

struct TfScalar {
    qint64 step = 0;
    double wallTime = 0;  // seconds since the epoch
    double value = 0;
};

struct TfScalarSeries {
    QVector<TfScalar> points;  // in file order
    int stride = 1;            // 1: every point kept; k: one of every k kept (the series was thinned)
    qint64 seen = 0;           // points read of this tag
};

class TfEventReader final
{
public:
    static constexpr qint64 maxRecordBytes = 64 << 20;
    static constexpr int maxTags = 256;
    static constexpr int maxPointsPerTag = 20000;

    // Bytes of one event file, in order, in chunks of any size. Memory: the unfinished record (at most
    // maxRecordBytes + 16), the series.
    void feed(const char *data, qint64 size);
    void feed(const QByteArray &bytes) { feed(bytes.constData(), bytes.size()); }
    // The end of the file: an unfinished record there is counted in truncatedBytes() (a file still being written
    // ends so), not as an error.
    void finish();

    const QMap<QByteArray, TfScalarSeries> &scalars() const { return m_series; }
    qint64 records() const { return m_records; }          // whole records read (CRCs checked)
    qint64 badRecords() const { return m_bad; }           // data CRC wrong, or not an Event: skipped
    qint64 skippedLarge() const { return m_skippedLarge; } // over maxRecordBytes: skipped unread
    qint64 droppedTags() const { return m_droppedTags; }  // scalar values of tags past maxTags
    qint64 truncatedBytes() const { return m_truncated; }
    double firstWallTime() const { return m_firstWall; }  // 0: none
    double lastWallTime() const { return m_lastWall; }
    // Why reading stopped before the end ("" when it did not): a length whose CRC is wrong.
    const QString &error() const { return m_error; }
    qint64 offset() const { return m_offset; }  // bytes consumed from the start of the file

private:
    void record(const char *data, qint64 size);
    void addPoint(const QByteArray &tag, const TfScalar &p);

    QByteArray m_pending;   // the header, or the record being assembled
    qint64 m_skip = 0;      // bytes of a record too large still to pass over
    qint64 m_offset = 0;
    QMap<QByteArray, TfScalarSeries> m_series;
    qint64 m_records = 0, m_bad = 0, m_skippedLarge = 0, m_droppedTags = 0, m_truncated = 0;
    double m_firstWall = 0, m_lastWall = 0;
    QString m_error;
};

// CRC32C (Castagnoli) as TFRecord masks it: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
std::uint32_t maskedCrc32c(const char *data, qint64 size);

}  // namespace ingot
