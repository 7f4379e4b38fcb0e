// A job's logs, one rank at a time: stdout and stderr in arrival order, torchrun's own output as "torchrun", error
// lines highlighted, search, follow. Log bytes come from the job and are untrusted: they are decoded with
// nameFromBytes and shown escaped (no control characters but tabs; ANSI colour codes dropped; '\r' rewrites the
// line, as a terminal shows tqdm's bar). The backend's INGOT_METRIC and INGOT_EVENT lines read as short lines
// ("▸ step 10: loss 2.31, …") rather than raw JSON; long lines wrap, so Follow never scrolls sideways. It keeps the last maxLines() lines of each rank of every job it was
// given, and appends to the view incrementally.
#pragma once

#include "services/jobs/jobfollower.h"

#include <QHash>
#include <QWidget>

#include <deque>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace ingot {

class LogHighlighter;

class JobLogView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobLogView)

public:
    explicit JobLogView(QWidget *parent = nullptr);
    ~JobLogView() override;

    // Shows a job's logs (those received so far); `jobFolder` is named when older lines were dropped.
    void setJob(const QString &id, const QString &jobFolder);
    QString job() const { return m_job; }
    // New bytes of any job (JobService::logsAppended); only the shown job's shown rank touches the view.
    void append(const QString &id, const QVector<LogChunk> &chunks);
    bool hasLogs(const QString &id) const { return m_logs.contains(id); }
    // Ranks the service found (their entries appear before any byte arrives).
    void addRanks(const QList<int> &ranks);
    void showRank(int rank);  // -1: torchrun
    int shownRank() const;

    void setMaxLines(int lines);  // 20,000 by default
    int maxLines() const { return m_maxLines; }
    // Lines kept of a rank of the shown job, and how many older ones were dropped.
    int lineCount(int rank) const;
    qint64 droppedLines(int rank) const;
    // Searches from the cursor, wrapping once; false when the text is nowhere.
    bool findNext();

    QComboBox *rankCombo() const { return m_rank; }
    QCheckBox *followCheck() const { return m_follow; }
    QLineEdit *searchEdit() const { return m_search; }
    QPushButton *findButton() const { return m_find; }
    QPlainTextEdit *text() const { return m_text; }
    QLabel *notice() const { return m_notice; }
    static bool isErrorLine(const QString &line);

private:
    struct Line {
        QString text;
        bool error = false;
        bool stderrLine = false;
        bool open = false;  // ended by '\r': the next line of its stream replaces it
    };
    struct RankLog {
        std::deque<Line> lines;
        qint64 dropped = 0;
        QByteArray partial[2];
        bool afterCr[2] = {false, false};
        // Bytes of a rank nobody looks at, split into lines only when it is shown or counted: 32 ranks logging
        // 1,000 lines a second would otherwise cost the UI thread their decoding. Bounded (the oldest dropped).
        QVector<LogChunk> pending;
        qint64 pendingBytes = 0;
    };
    using JobLogs = QHash<int, RankLog>;

    // Splits new bytes into lines, stores them; returns how the view must change.
    struct Change {
        bool replaceLast = false;  // the view's last line is rewritten first with the first of `lines`
        QStringList lines;
    };
    Change take(RankLog &log, const LogChunk &chunk);
    void keep(RankLog &log, const LogChunk &chunk);   // for later (a rank not shown)
    void catchUp(RankLog &log);                        // splits what was kept for later
    static constexpr qint64 maxPendingBytes = 1 << 20;
    void store(RankLog &log, Line line, Change *change);
    static QString decode(const QByteArray &bytes);
    void applyChange(const Change &change);
    void rebuildView();
    void ensureRankItem(int rank);
    void updateNotice();

    mutable QHash<QString, JobLogs> m_logs;  // lineCount() catches a rank up
    QString m_job;
    QString m_jobFolder;
    int m_maxLines = 20000;

    QComboBox *m_rank;
    QCheckBox *m_follow;
    QLineEdit *m_search;
    QPushButton *m_find;
    QLabel *m_notice;
    QPlainTextEdit *m_text;
    LogHighlighter *m_highlighter;
};

}  // namespace ingot
