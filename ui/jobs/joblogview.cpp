#include "ui/jobs/joblogview.h"

#include "models/common/tones.h"
#include "services/util/names.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSyntaxHighlighter>

#include <cmath>
#include <utility>
#include <QTextBlock>
#include <QVBoxLayout>

namespace ingot {

namespace {
constexpr int maxLineBytes = 64 * 1024;  // a longer line without a separator is cut there

QString numberText(double v)
{
    return QLocale().toString(v, 'g', 4);
}

// The backend's report lines (resources/backend/ingot_train/reporting.py: "INGOT_METRIC " or "INGOT_EVENT " and one
// JSON object) as a short line people read; the charts and the job's state come from the same lines. Empty for any
// other line, or one whose JSON is not an object (shown as it is).
QString readableReport(const QByteArray &line)
{
    static const QByteArray metric = "INGOT_METRIC ", event = "INGOT_EVENT ";
    const bool isMetric = line.startsWith(metric);
    if (!isMetric && !line.startsWith(event))
        return {};
    const QJsonDocument doc = QJsonDocument::fromJson(line.mid(isMetric ? metric.size() : event.size()));
    if (!doc.isObject())
        return {};
    const QJsonObject o = doc.object();
    QStringList parts;
    if (isMetric) {
        const std::pair<const char *, QString> named[] = {
            {"loss", JobLogView::tr("loss %1")}, {"learning_rate", JobLogView::tr("learning rate %1")},
            {"grad_norm", JobLogView::tr("gradient norm %1")}, {"tokens_per_second", JobLogView::tr("%1 tokens/s")},
            {"step_time", JobLogView::tr("%1 s a step")}};
        for (const auto &[key, text] : named) {
            const QJsonValue v = o.value(QLatin1String(key));
            if (!v.isDouble())
                continue;
            const bool whole = qstrcmp(key, "tokens_per_second") == 0 && std::abs(v.toDouble()) < 1e15;
            parts << text.arg(whole ? QLocale().toString(qint64(std::llround(v.toDouble()))) : numberText(v.toDouble()));
        }
        return JobLogView::tr("\u25B8 step %1: %2").arg(QLocale().toString(qint64(o.value(QLatin1String("step")).toDouble())),
                                                          parts.join(QStringLiteral(", ")));
    }
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == QLatin1String("event") || it.key() == QLatin1String("time"))
            continue;
        if (it->isDouble())
            parts << it.key() + QLatin1Char(' ') + numberText(it->toDouble());
        else if (it->isString() && !it->toString().isEmpty())
            parts << it.key() + QLatin1Char(' ') + displayName(it->toString());
        else if (it->isBool())
            parts << it.key() + QLatin1Char(' ') + (it->toBool() ? QStringLiteral("true") : QStringLiteral("false"));
    }
    const QString name = displayName(o.value(QLatin1String("event")).toString());
    return parts.isEmpty() ? JobLogView::tr("\u25B8 %1").arg(name)
                           : JobLogView::tr("\u25B8 %1: %2").arg(name, parts.join(QStringLiteral(", ")));
}
}  // namespace

// Error lines in red, search matches on yellow; only blocks that change are highlighted again.
class LogHighlighter final : public QSyntaxHighlighter
{
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;
    void setTerm(const QString &term)
    {
        if (term == m_term)
            return;
        m_term = term;
        rehighlight();
    }

protected:
    void highlightBlock(const QString &text) override
    {
        if (JobLogView::isErrorLine(text)) {
            QTextCharFormat f;
            f.setForeground(toneTextColor(Tone::Bad));
            setFormat(0, int(text.size()), f);
        }
        if (m_term.isEmpty())
            return;
        QTextCharFormat match;
        match.setBackground(QColor(0xff, 0xe0, 0x6a));
        match.setForeground(QColor(0x1a, 0x1a, 0x1a));  // dark on yellow in the dark palette too
        for (qsizetype at = text.indexOf(m_term, 0, Qt::CaseInsensitive); at >= 0;
             at = text.indexOf(m_term, at + m_term.size(), Qt::CaseInsensitive))
            setFormat(int(at), int(m_term.size()), match);
    }

private:
    QString m_term;
};

JobLogView::JobLogView(QWidget *parent)
    : QWidget(parent)
    , m_rank(new QComboBox(this))
    , m_follow(new QCheckBox(tr("&Follow"), this))
    , m_search(new QLineEdit(this))
    , m_find(new QPushButton(tr("Find &next"), this))
    , m_notice(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
    , m_highlighter(new LogHighlighter(m_text->document()))
{
    m_rank->setToolTip(tr("Which process's output to show: a rank, or torchrun's own"));
    m_rank->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest line in view"));
    m_search->setPlaceholderText(tr("Search the log"));
    m_search->setClearButtonEnabled(true);
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->hide();
    m_text->setReadOnly(true);
    // Long lines wrap (a traceback's, a warning's): Follow keeps the newest line in view and the left edge too.
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_text->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_text->setMaximumBlockCount(m_maxLines);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setUndoRedoEnabled(false);

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Process:"), this));
    row->addWidget(m_rank);
    row->addWidget(m_follow);
    row->addStretch(1);
    row->addWidget(m_search, 2);
    row->addWidget(m_find);
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->addLayout(row);
    col->addWidget(m_notice);
    col->addWidget(m_text, 1);

    connect(m_rank, &QComboBox::currentIndexChanged, this, [this] { rebuildView(); });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &t) { m_highlighter->setTerm(t); });
    connect(m_search, &QLineEdit::returnPressed, this, &JobLogView::findNext);
    connect(m_find, &QPushButton::clicked, this, &JobLogView::findNext);
    auto *focusSearch = new QAction(tr("Find: go to the log's search"), this);
    focusSearch->setShortcut(QKeySequence::Find);
    connect(focusSearch, &QAction::triggered, this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    addAction(focusSearch);
    auto *next = new QAction(tr("Find the next match in the log"), this);
    next->setShortcut(QKeySequence::FindNext);
    connect(next, &QAction::triggered, this, &JobLogView::findNext);
    addAction(next);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    });
}

JobLogView::~JobLogView() = default;

bool JobLogView::isErrorLine(const QString &line)
{
    return line.contains(QLatin1String("Traceback")) || line.contains(QLatin1String("Error"))
        || line.contains(QLatin1String("ingot_train: error:"));
}

void JobLogView::setJob(const QString &id, const QString &jobFolder)
{
    m_job = id;
    m_jobFolder = jobFolder;
    const QSignalBlocker block(m_rank);
    m_rank->clear();
    const JobLogs &logs = m_logs[id];
    QList<int> ranks = logs.keys();
    if (!ranks.contains(0))
        ranks << 0;
    addRanks(ranks);
    m_rank->setCurrentIndex(m_rank->findData(0));
    rebuildView();
}

void JobLogView::addRanks(const QList<int> &ranks)
{
    for (int r : ranks)
        ensureRankItem(r);
}

void JobLogView::ensureRankItem(int rank)
{
    if (m_rank->findData(rank) >= 0)
        return;
    // Ranks in order, torchrun last.
    int at = 0;
    while (at < m_rank->count()) {
        const int r = m_rank->itemData(at).toInt();
        if (rank >= 0 && (r < 0 || r > rank))
            break;
        ++at;
    }
    const bool wasEmpty = m_rank->count() == 0;
    const QSignalBlocker block(m_rank);
    m_rank->insertItem(at, rank < 0 ? tr("torchrun") : tr("Rank %1").arg(rank), rank);
    if (wasEmpty)
        m_rank->setCurrentIndex(0);
}

void JobLogView::showRank(int rank)
{
    ensureRankItem(rank);
    m_rank->setCurrentIndex(m_rank->findData(rank));
}

int JobLogView::shownRank() const
{
    return m_rank->currentIndex() < 0 ? 0 : m_rank->currentData().toInt();
}

void JobLogView::setMaxLines(int lines)
{
    m_maxLines = std::max(1, lines);
    m_text->setMaximumBlockCount(m_maxLines);
    rebuildView();
}

int JobLogView::lineCount(int rank) const
{
    const auto job = m_logs.find(m_job);
    if (job == m_logs.end() || !job->contains(rank))
        return 0;
    RankLog &log = (*job)[rank];
    const_cast<JobLogView *>(this)->catchUp(log);
    return int(log.lines.size());
}

qint64 JobLogView::droppedLines(int rank) const
{
    const auto job = m_logs.find(m_job);
    if (job == m_logs.end() || !job->contains(rank))
        return 0;
    RankLog &log = (*job)[rank];
    const_cast<JobLogView *>(this)->catchUp(log);
    return log.dropped;
}

QString JobLogView::decode(const QByteArray &bytes)
{
    // ANSI CSI sequences (colours, cursor moves: ESC [ params final) are dropped; a lone ESC is shown escaped.
    QByteArray plain;
    plain.reserve(bytes.size());
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        if (bytes[i] == '\x1b' && i + 1 < bytes.size() && bytes[i + 1] == '[') {
            qsizetype j = i + 2;
            while (j < bytes.size() && !(bytes[j] >= '@' && bytes[j] <= '~'))
                ++j;
            if (j < bytes.size()) {
                i = j;
                continue;
            }
        }
        plain += bytes[i];
    }
    // Tabs stay tabs; every other control character and every undecodable byte is shown escaped.
    QStringList parts = nameFromBytes(plain).split(QLatin1Char('\t'));
    for (QString &p : parts)
        p = displayName(p);
    return parts.join(QLatin1Char('\t'));
}

void JobLogView::store(RankLog &log, Line line, Change *change)
{
    if (!log.lines.empty() && log.lines.back().open && log.lines.back().stderrLine == line.stderrLine) {
        const bool lastShown = change->lines.isEmpty();
        log.lines.back() = line;
        if (lastShown) {
            change->replaceLast = true;
            change->lines << line.text;
        } else {
            change->lines.last() = line.text;
        }
        return;
    }
    log.lines.push_back(std::move(line));
    change->lines << log.lines.back().text;
    while (log.lines.size() > size_t(m_maxLines)) {
        log.lines.pop_front();
        ++log.dropped;
    }
}

JobLogView::Change JobLogView::take(RankLog &log, const LogChunk &chunk)
{
    Change change;
    const int s = chunk.isStderr ? 1 : 0;
    QByteArray &partial = log.partial[s];
    const QByteArray &in = chunk.bytes;
    qsizetype from = 0;
    if (log.afterCr[s] && !in.isEmpty() && in.front() == '\n')
        from = 1;  // the '\n' of a "\r\n" split between two reads
    log.afterCr[s] = false;
    for (qsizetype i = from; i < in.size(); ++i) {
        const char c = in[i];
        if (c != '\n' && c != '\r')
            continue;
        partial += in.mid(from, i - from);
        Line line;
        line.stderrLine = chunk.isStderr;
        line.text = readableReport(partial);
        if (line.text.isEmpty())
            line.text = decode(partial);
        line.error = isErrorLine(line.text);
        partial.clear();
        if (c == '\r') {
            if (i + 1 < in.size() && in[i + 1] == '\n') {
                ++i;
            } else {
                line.open = true;  // tqdm redraws: the next line of this stream replaces this one
                log.afterCr[s] = i + 1 == in.size();
            }
        }
        store(log, std::move(line), &change);
        from = i + 1;
    }
    partial += in.mid(from);
    if (partial.size() > maxLineBytes) {
        Line line;
        line.stderrLine = chunk.isStderr;
        line.text = tr("%1 [line cut]").arg(decode(partial.left(maxLineBytes)));
        partial.clear();
        store(log, std::move(line), &change);
    }
    return change;
}

void JobLogView::keep(RankLog &log, const LogChunk &chunk)
{
    log.pending.append(chunk);
    log.pendingBytes += chunk.bytes.size();
    // Over the bound: the oldest bytes go (they are in the job's files); their lines count as dropped.
    while (log.pendingBytes > maxPendingBytes && log.pending.size() > 1) {
        const LogChunk &old = log.pending.first();
        log.dropped += old.bytes.count('\n');
        log.pendingBytes -= old.bytes.size();
        log.partial[old.isStderr ? 1 : 0].clear();  // a line cut in two is not shown as one
        log.pending.removeFirst();
    }
}

void JobLogView::catchUp(RankLog &log)
{
    if (log.pending.isEmpty())
        return;
    const QVector<LogChunk> pending = std::exchange(log.pending, {});
    log.pendingBytes = 0;
    for (const LogChunk &chunk : pending)
        take(log, chunk);
}

void JobLogView::append(const QString &id, const QVector<LogChunk> &chunks)
{
    JobLogs &logs = m_logs[id];
    Change shown;  // all of this delivery's lines for the view, shown in one step
    for (const LogChunk &chunk : chunks) {
        RankLog &log = logs[chunk.rank];
        if (id != m_job || chunk.rank != shownRank()) {
            keep(log, chunk);
            if (id == m_job)
                ensureRankItem(chunk.rank);
            continue;
        }
        catchUp(log);
        Change c = take(log, chunk);
        if (c.replaceLast && !shown.lines.isEmpty()) {
            shown.lines.last() = c.lines.takeFirst();
            c.replaceLast = false;
        }
        if (shown.lines.isEmpty())
            shown.replaceLast = c.replaceLast;
        shown.lines += c.lines;
    }
    // More lines than the view keeps (a long job opened, a burst): the view is rebuilt from the kept lines, rather
    // than made to lay out lines it drops at once (a 24-hour job's 170k lines froze the window for a second).
    if (shown.lines.size() > m_maxLines / 2)
        rebuildView();
    else
        applyChange(shown);
    if (id == m_job)
        updateNotice();
}

void JobLogView::applyChange(const Change &change)
{
    if (change.lines.isEmpty())
        return;
    QScrollBar *bar = m_text->verticalScrollBar();
    const int keep = bar->value();
    QStringList lines = change.lines;
    if (change.replaceLast && m_text->document()->blockCount() > 0 && !m_text->document()->isEmpty()) {
        QTextCursor c(m_text->document()->lastBlock());
        c.movePosition(QTextCursor::StartOfBlock);
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        c.insertText(lines.takeFirst());
    }
    if (!lines.isEmpty())
        m_text->appendPlainText(lines.join(QLatin1Char('\n')));
    if (m_follow->isChecked())
        bar->setValue(bar->maximum());
    else
        bar->setValue(keep);
}

void JobLogView::rebuildView()
{
    QStringList lines;
    const auto job = m_logs.find(m_job);
    if (job != m_logs.end()) {
        const auto rank = job->find(shownRank());
        if (rank != job->end()) {
            catchUp(*rank);
            lines.reserve(qsizetype(rank->lines.size()));
            for (const Line &l : rank->lines)
                lines << l.text;
        }
    }
    m_text->setPlainText(lines.join(QLatin1Char('\n')));
    if (m_follow->isChecked())
        m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    updateNotice();
}

void JobLogView::updateNotice()
{
    const int rank = shownRank();
    const qint64 dropped = droppedLines(rank);
    if (dropped <= 0) {
        m_notice->hide();
        return;
    }
    const QString file = rank < 0 ? m_jobFolder + QStringLiteral("/launcher.log")
                                  : m_jobFolder + QStringLiteral("/logs/…/%1/stdout.log, stderr.log").arg(rank);
    m_notice->setText(tr("Showing the last %L1 lines; %L2 older lines are in %3")
                          .arg(m_maxLines)
                          .arg(dropped)
                          .arg(displayName(file)));
    m_notice->show();
}

bool JobLogView::findNext()
{
    const QString term = m_search->text();
    if (term.isEmpty())
        return false;
    if (m_text->find(term))
        return true;
    QTextCursor c = m_text->textCursor();
    c.movePosition(QTextCursor::Start);
    m_text->setTextCursor(c);
    return m_text->find(term);
}

}  // namespace ingot
