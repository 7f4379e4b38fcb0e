#include "ui/transfers/transferspage.h"

#include "ui/common/keyboard.h"
#include "models/transfer/transfersmodel.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace ingot {

namespace {
// A progress bar in the Progress column, with the model's text on it.
class ProgressDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const double f = index.data(TransfersModel::FractionRole).toDouble();
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 3, -2, -3);
        bar.minimum = 0;
        bar.maximum = f < 0 ? 0 : 1000;  // unknown size: a busy bar
        bar.progress = f < 0 ? 0 : int(f * 1000);
        bar.text = index.data(Qt::DisplayRole).toString();
        bar.textVisible = true;
        bar.textAlignment = Qt::AlignCenter;
        bar.state = option.state | QStyle::State_Horizontal;
        bar.palette = option.palette;
        if (option.state & QStyle::State_Selected)
            painter->fillRect(option.rect, option.palette.highlight());
        const QWidget *w = option.widget;
        (w ? w->style() : QApplication::style())->drawControl(QStyle::CE_ProgressBar, &bar, painter, w);
    }
};

QPushButton *button(const QString &text, const QString &tip, QStyle::StandardPixmap icon, QWidget *parent)
{
    auto *b = new QPushButton(parent->style()->standardIcon(icon), text, parent);
    b->setToolTip(tip);
    return b;
}
}  // namespace

TransfersPage::TransfersPage(TransferQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_model(new TransfersModel(queue, this))
    , m_itemsModel(new TransferItemsModel(queue, this))
    , m_view(new QTableView(this))
    , m_items(new QTableView(this))
    , m_details(new QLabel(this))
    , m_empty(new QLabel(this))
    , m_saveError(new QLabel(this))
{
    m_pause = button(tr("&Pause"), tr("Stop moving bytes; what arrived is kept and the transfer resumes from there"),
                     QStyle::SP_MediaPause, this);
    m_resume = button(tr("R&esume"), tr("Go on from where it stopped"), QStyle::SP_MediaPlay, this);
    m_cancel = button(tr("&Cancel"), tr("Stop this transfer; entries that arrived whole stay"), QStyle::SP_DialogCancelButton, this);
    m_retry = button(tr("&Retry failed"), tr("Run the failed entries again"), QStyle::SP_BrowserReload, this);
    m_remove = button(tr("Re&move"), tr("Remove this transfer from the list (it must not be running)"), QStyle::SP_TrashIcon, this);
    m_clear = button(tr("C&lear finished"), tr("Remove every finished transfer from the list"), QStyle::SP_DialogResetButton, this);

    auto *bar = new QHBoxLayout;
    for (QPushButton *b : {m_pause, m_resume, m_cancel, m_retry, m_remove})
        bar->addWidget(b);
    bar->addStretch(1);
    bar->addWidget(m_clear);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->setAlternatingRowColors(true);
    m_view->setItemDelegateForColumn(TransfersModel::ProgressColumn, new ProgressDelegate(m_view));
    m_view->horizontalHeader()->setSectionResizeMode(TransfersModel::WhatColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(TransfersModel::ProgressColumn, 300);
    m_view->setColumnWidth(TransfersModel::SpeedColumn, 90);
    m_view->setColumnWidth(TransfersModel::EtaColumn, 90);
    m_view->setColumnWidth(TransfersModel::StateColumn, 150);
    m_view->setWordWrap(false);

    auto *itemsProxy = new QSortFilterProxyModel(this);
    itemsProxy->setSourceModel(m_itemsModel);
    itemsProxy->setSortRole(TransferItemsModel::SortRole);
    m_items->setModel(itemsProxy);
    m_items->setSortingEnabled(true);
    m_items->sortByColumn(TransferItemsModel::EntryColumn, Qt::AscendingOrder);
    m_items->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_items->verticalHeader()->hide();
    m_items->setAlternatingRowColors(true);
    m_items->horizontalHeader()->setSectionResizeMode(TransferItemsModel::MessageColumn, QHeaderView::Stretch);
    m_items->setColumnWidth(TransferItemsModel::EntryColumn, 560);
    m_items->setColumnWidth(TransferItemsModel::BytesColumn, 150);
    m_items->setWordWrap(false);

    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::PlainText);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(tr("No transfers yet.\n\nPull modules from a Hub cache repo (Hub caches: select \"Hub only\" modules, "
                        "Pull to local cache), push compiled modules to one (Local cache: Push to the Hub cache repo…), "
                        "or copy them to a remote host (Local cache: Copy to a remote host…). Every transfer shows here, "
                        "survives a restart and resumes."));

    m_saveError->setWordWrap(true);
    m_saveError->setTextFormat(Qt::PlainText);
    m_saveError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_saveError->setStyleSheet(QStringLiteral("QLabel { color: #b3261e; font-weight: bold; }"));
    m_saveError->hide();

    auto *lower = new QWidget(this);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_details);
    lowerLayout->addWidget(m_items, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_saveError);
    layout->addWidget(m_empty);
    layout->addWidget(split, 1);

    auto current = [this] { return selected(); };
    connect(m_pause, &QPushButton::clicked, this, [this, current] { m_queue->pause(current()); });
    connect(m_resume, &QPushButton::clicked, this, [this, current] { m_queue->resume(current()); });
    connect(m_cancel, &QPushButton::clicked, this, [this, current] { m_queue->cancel(current()); });
    connect(m_retry, &QPushButton::clicked, this, [this, current] { m_queue->retryFailed(current()); });
    connect(m_remove, &QPushButton::clicked, this, [this, current] { m_queue->remove(current()); });
    connect(m_clear, &QPushButton::clicked, m_queue, &TransferQueue::clearFinished);
    // Delete in the list removes the selected transfer from it, as the button does (never one that runs).
    addDeleteKeyForButton(m_view, m_remove, tr("Remove the transfer from the list"));
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_itemsModel->setTransfer(selected());
        updateButtons();
        updateDetails();
    });
    connect(m_queue, &TransferQueue::changed, this, [this](const QString &id) {
        if (id == selected()) {
            updateButtons();
            updateDetails();
        }
        updateSummary();
    });
    // The queue cannot write its state: say so where the transfers are, with what to do (the text says which).
    connect(m_queue, &TransferQueue::saveFailed, this, [this](const QString &, const QString &message) {
        m_saveError->setText(message);
        m_saveError->show();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_empty->setVisible(m_model->rowCount() == 0);
        if (m_model->rowCount() > 0 && !m_view->currentIndex().isValid())
            m_view->selectRow(0);
        m_itemsModel->setTransfer(selected());
        updateButtons();
        updateDetails();
        updateSummary();
    });
    m_empty->setVisible(m_model->rowCount() == 0);
    if (m_model->rowCount() > 0)
        m_view->selectRow(0);
    updateButtons();
    updateDetails();
}

QString TransfersPage::selected() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? m_model->idAt(i.row()) : QString();
}

void TransfersPage::select(const QString &id)
{
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_view->selectRow(row);
}

void TransfersPage::updateButtons()
{
    const TransferRecord *r = m_queue->record(selected());
    const bool running = r && m_queue->isRunning(r->id);
    const bool active = r && !r->finished();
    m_pause->setEnabled(active && !r->paused);
    m_resume->setEnabled(active && r->paused);
    m_cancel->setEnabled(active);
    m_retry->setEnabled(r && !running &&
                        (r->count(TransferItem::State::Failed) > 0 || !r->error.isEmpty() || r->cancelled));
    m_remove->setEnabled(r && !running);
}

void TransfersPage::updateDetails()
{
    const TransferRecord *r = m_queue->record(selected());
    if (!r) {
        m_details->clear();
        return;
    }
    QStringList lines;
    lines << tr("From %1 to %2 · %3").arg(displayName(r->from.display()), displayName(r->to.display()),
                                          transferStateText(*m_queue, *r));
    const int failed = r->count(TransferItem::State::Failed);
    const int skipped = r->count(TransferItem::State::Skipped);
    lines << tr("%1 done, %2 skipped, %3 failed, %4 to go")
                 .arg(r->count(TransferItem::State::Done))
                 .arg(skipped)
                 .arg(failed)
                 .arg(r->count(TransferItem::State::Pending) + r->count(TransferItem::State::Running));
    for (const QString &note : m_queue->notes(r->id))
        lines << displayName(note);
    m_details->setText(lines.join(QLatin1Char('\n')));
}

void TransfersPage::updateSummary()
{
    int running = 0;
    double bps = 0;
    for (const TransferRecord &r : m_queue->records())
        if (m_queue->isRunning(r.id)) {
            ++running;
            bps += m_queue->rate(r.id);
        }
    Q_EMIT summaryChanged(running == 0 ? QString()
                                       : tr("%n transfers running, %1/s", nullptr, running).arg(formatBytes(qint64(bps))));
}

}  // namespace ingot
