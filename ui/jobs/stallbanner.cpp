#include "ui/jobs/stallbanner.h"

#include "services/jobs/jobtext.h"
#include "services/jobs/stallrule.h"
#include "services/util/names.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QMessageBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ingot {

StallBanner::StallBanner(JobService *service, QWidget *parent)
    : QFrame(parent), m_service(service), m_text(new QLabel(this)), m_dump(new QPushButton(tr("Dump stacks"), this)),
      m_answer(new QLabel(this)), m_stacks(new QTabWidget(this)),
      m_thresholdButton(new QPushButton(tr("Stall &threshold…"), this))
{
    m_thresholdButton->setToolTip(tr("When the job counts as stalled: its step has not advanced for this long while "
                                     "it runs (default: 10 × its median step time, at least 5 minutes)"));
    m_thresholdButton->hide();
    connect(m_thresholdButton, &QPushButton::clicked, this, &StallBanner::askThreshold);
    setObjectName(QStringLiteral("stallBanner"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#stallBanner { background: #fff4d6; border: 1px solid #c98a00; border-radius: 4px; } "
                                 "#stallBanner > QLabel { color: #4a3300; }"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_answer->setWordWrap(true);
    m_answer->setTextFormat(Qt::PlainText);
    m_answer->hide();
    m_stacks->setMinimumHeight(160);
    m_stacks->hide();
    connect(m_dump, &QPushButton::clicked, this, &StallBanner::dumpStacks);
    auto *row = new QHBoxLayout;
    row->addWidget(m_text, 1);
    row->addWidget(m_dump, 0, Qt::AlignTop);
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(8, 6, 8, 6);
    col->addLayout(row);
    col->addWidget(m_answer);
    col->addWidget(m_stacks);
    hide();
}

StallBanner::~StallBanner()
{
    m_task.discard();
    m_thresholdTask.discard();
}

QInputDialog *StallBanner::askThreshold()
{
    if (!m_service || m_record.id.isEmpty() || m_thresholdButton->isHidden())
        return nullptr;
    auto *dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Stall threshold"));
    dialog->setLabelText(tr("Report the job stalled when its step has not advanced for (90s, 10m, 2h; empty: 10 × its "
                            "median step time, at least 5 minutes):"));
    dialog->setTextValue(m_threshold > 0 ? QStringLiteral("%1s").arg(m_threshold) : QString());
    const QString id = m_record.id;
    connect(dialog, &QInputDialog::textValueSelected, this, [this, id](const QString &text) {
        double seconds = 0;
        if (!text.trimmed().isEmpty() && !parseStallDuration(text, &seconds)) {
            QMessageBox::warning(this, tr("Stall threshold"), tr("Not a duration: %1. Write 90s, 10m or 2h.").arg(displayName(text)));
            Q_EMIT thresholdSet(tr("Not a duration"));
            return;
        }
        m_thresholdTask = m_service->setStallAfter(id, seconds, [this, seconds](const QString &error) {
            if (error.isEmpty())
                m_threshold = seconds;
            Q_EMIT thresholdSet(error);
        });
    });
    dialog->open();
    return dialog;
}

void StallBanner::showStatus(const JobRecordFile &record, const JobStatus &st)
{
    if (record.id != m_record.id) {
        m_task.discard();
        m_stacks->clear();
        m_stacks->hide();
        m_answer->hide();
        m_busy = false;
    }
    if (record.id != m_record.id)
        m_threshold = record.spec.stallAfterSeconds;
    m_record = record;
    m_thresholdButton->setVisible(st.alive && !isFinal(st.state));
    const bool stalled = st.state == JobState::Stalled;
    if (stalled)
        m_text->setText(displayText(jobStallText(st)));
    else if (m_stacks->isVisible())
        m_text->setText(tr("The job is no longer stalled. The stacks below were dumped while it was."));
    m_dump->setVisible(stalled);
    m_dump->setEnabled(!m_busy && st.stall.stacksReady);
    m_dump->setToolTip(st.stall.stacksReady
                           ? tr("Ask each rank for its Python stacks (SIGUSR2 to the backend's ranks, which dump them "
                                "with faulthandler); a program that did not register that is never signalled")
                           : tr("This job's ranks did not say that they dump their stacks on SIGUSR2 (not Ingot's "
                                "backend): py-spy dump --pid PID where it runs, if installed, shows them"));
    setVisible(stalled || m_stacks->isVisible() || m_answer->isVisible());
}

void StallBanner::dumpStacks()
{
    if (!m_service || m_record.id.isEmpty())
        return;
    m_busy = true;
    m_dump->setEnabled(false);
    m_answer->setText(tr("Asking the ranks for their stacks…"));
    m_answer->show();
    m_task = m_service->stacksOf(m_record, [this](const StackDump &d) { showDump(d); });
}

void StallBanner::showDump(const StackDump &d)
{
    m_busy = false;
    m_dump->setEnabled(true);
    m_stacks->clear();
    QStringList silent;
    for (const RankStack &r : d.ranks) {
        if (r.stack.isEmpty()) {
            silent << QString::number(r.rank);
            continue;
        }
        auto *view = new QPlainTextEdit(m_stacks);
        view->setReadOnly(true);
        view->setLineWrapMode(QPlainTextEdit::NoWrap);
        view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        view->setPlainText(displayText(r.stack));
        m_stacks->addTab(view, tr("Rank %1").arg(r.rank));
    }
    m_stacks->setVisible(m_stacks->count() > 0);
    QString answer = displayText(d.error);
    if (!silent.isEmpty())
        answer = tr("No stack came from rank(s) %1 in time.").arg(silent.join(QStringLiteral(", ")));
    m_answer->setText(answer);
    m_answer->setVisible(!answer.isEmpty());
    setVisible(true);
    Q_EMIT stacksShown();
}

}  // namespace ingot
