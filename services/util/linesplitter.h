// Lines of a stream that arrives in chunks, bounded: a line ends at '\n' or '\r', and a line longer than maxBytes is
// dropped whole (up to its next separator), so memory stays bounded whatever arrives. The scanners of job output
// (the compiler's lines, neuron_parallel_compile's) share it.
#pragma once

#include <QByteArray>

namespace ingot {

class LineSplitter
{
public:
    explicit LineSplitter(qsizetype maxBytes) : m_max(maxBytes) {}

    // Calls onLine(const QByteArray &) for each complete line in `bytes`.
    template<typename F>
    void feed(const QByteArray &bytes, F &&onLine)
    {
        qsizetype start = 0;
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            if (bytes[i] != '\n' && bytes[i] != '\r')
                continue;
            if (!m_discarding) {
                m_partial.append(bytes.constData() + start, i - start);
                if (m_partial.size() <= m_max)
                    onLine(m_partial);
            }
            m_partial.clear();
            m_discarding = false;
            start = i + 1;
        }
        if (m_discarding)
            return;
        m_partial.append(bytes.constData() + start, bytes.size() - start);
        if (m_partial.size() > m_max) {
            m_partial.clear();
            m_discarding = true;
        }
    }

    // The end of the stream: its unterminated last line, if any.
    template<typename F>
    void finish(F &&onLine)
    {
        if (!m_discarding && !m_partial.isEmpty())
            onLine(m_partial);
        m_partial.clear();
        m_discarding = false;
    }

private:
    qsizetype m_max;
    QByteArray m_partial;
    bool m_discarding = false;
};

}  // namespace ingot
