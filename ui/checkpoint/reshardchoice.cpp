#include "ui/checkpoint/reshardchoice.h"

#include "services/checkpoint/reshard.h"
#include "services/util/names.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>

namespace ingot {

ReshardChoice::ReshardChoice(QWidget *parent)
    : QWidget(parent)
{
    auto *sizes = new QWidget(this);
    auto *row = new QHBoxLayout(sizes);
    row->setContentsMargins(0, 0, 0, 0);
    m_tp = new QSpinBox(sizes);
    m_pp = new QSpinBox(sizes);
    for (QSpinBox *spin : {m_tp, m_pp})
        spin->setRange(1, 1024);
    row->addWidget(new QLabel(tr("Tensor parallel:"), sizes));
    row->addWidget(m_tp);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Pipeline parallel:"), sizes));
    row->addWidget(m_pp);
    row->addStretch();
    m_weightsOnly = new QCheckBox(tr("Weights only (the resumed run starts its optimizer afresh)"), this);
    m_notes = new QLabel;
    m_notes->setTextFormat(Qt::PlainText);  // names from the checkpoint
    m_notes->setWordWrap(true);
    m_notes->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The plan's words scroll within a few lines: a long list of problems made the wizard taller, and it stayed so.
    auto *notesScroll = new QScrollArea(this);
    notesScroll->setObjectName(QStringLiteral("reshardNotesScroll"));
    notesScroll->setWidget(m_notes);
    notesScroll->setWidgetResizable(true);
    notesScroll->setFrameShape(QFrame::NoFrame);
    notesScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    notesScroll->setFixedHeight(m_notes->fontMetrics().lineSpacing() * 6 + 4);
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("New layout:"), sizes);
    form->addRow(QString(), m_weightsOnly);
    form->addRow(QString(), notesScroll);
    const auto notify = [this] {
        if (changed)
            changed();
    };
    for (QSpinBox *spin : {m_tp, m_pp})
        connect(spin, &QSpinBox::valueChanged, this, notify);
    connect(m_weightsOnly, &QCheckBox::toggled, this, notify);
}

ReshardChoice::~ReshardChoice() = default;

int ReshardChoice::tpSize() const
{
    return m_tp->value();
}

int ReshardChoice::ppSize() const
{
    return m_pp->value();
}

bool ReshardChoice::weightsOnly() const
{
    return m_weightsOnly->isChecked();
}

void ReshardChoice::showPlanning()
{
    m_notes->setText(tr("Checking the layout…"));
}

void ReshardChoice::showPlan(const ReshardPlan &plan)
{
    QStringList lines;
    for (const QString &p : std::as_const(plan.problems))
        lines << tr("Cannot: %1").arg(displayName(p));
    if (lines.isEmpty()) {
        lines << (plan.optimizer ? tr("%n tensor(s) and their optimizer state (step %1), split for tp=%2 pp=%3.", nullptr, int(plan.entries.size()))
                                       .arg(plan.optimizerStep).arg(plan.tpSize).arg(plan.ppSize)
                                 : tr("%n tensor(s), split for tp=%1 pp=%2.", nullptr, int(plan.entries.size())).arg(plan.tpSize).arg(plan.ppSize));
        for (const QString &n : std::as_const(plan.notes))
            lines << displayName(n);
    }
    m_notes->setText(lines.join(QLatin1Char('\n')));
}

}  // namespace ingot
