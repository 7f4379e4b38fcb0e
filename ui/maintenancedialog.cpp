#include "maintenancedialog.h"

#include "cachestore.h"
#include "statecolors.h"
#include "units.h"

#include <QCloseEvent>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ingot {

MaintenanceDialog::MaintenanceDialog(MaintenancePlan plan, StoreFactory storeFactory, QWidget *parent)
    : QDialog(parent)
    , m_plan(std::move(plan))
    , m_storeFactory(std::move(storeFactory))
    , m_summary(new QLabel(this))
    , m_refusal(new QLabel(this))
    , m_items(new QTreeWidget(this))
    , m_kept(new QTreeWidget(this))
    , m_notes(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_current(new QLabel(this))
    , m_buttons(new QDialogButtonBox(this))
{
    setWindowTitle(actionTitle(m_plan.action) + tr(" — preview"));
    resize(860, 520);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const int n = m_plan.entryCount();
    const bool locks = m_plan.action == MaintenanceAction::ClearLocks;
    m_summary->setWordWrap(true);
    if (m_plan.items.isEmpty())
        m_summary->setText(tr("<b>Nothing to do.</b> No entry matches this action."));
    else if (locks)
        m_summary->setText(tr("<b>Dry run:</b> lock files in %n entries would be removed. The entries themselves stay.", nullptr, n));
    else
        m_summary->setText(tr("<b>Dry run:</b> %n entries would be removed, freeing %1 (the cache goes from %2 to %3). "
                              "Nothing has been changed yet.", nullptr, n)
                               .arg(formatBytes(m_plan.bytes), formatBytes(m_plan.cacheBytesBefore),
                                    formatBytes(m_plan.cacheBytesAfter)));
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("QLabel { background: #fbe3e3; color: #8a1f1f; padding: 8px; border-radius: 4px; }"));
    m_refusal->setVisible(!m_plan.refusal.isEmpty());
    m_refusal->setText(tr("Refused: %1").arg(m_plan.refusal));

    m_items->setHeaderLabels({tr("Entry"), tr("State"), tr("Size"), tr("Last used"), tr("Why")});
    m_items->setRootIsDecorated(false);
    m_items->setSortingEnabled(true);
    m_items->setAlternatingRowColors(true);
    m_items->setUniformRowHeights(true);
    for (const PlanItem &it : std::as_const(m_plan.items)) {
        auto *row = new QTreeWidgetItem(m_items);
        row->setText(0, it.key);
        if (it.op != PlanItem::Op::RemoveFolderIfEmpty) {
            row->setText(1, stateLabel(it.state));
            row->setIcon(1, stateIcon(it.state));
        }
        row->setText(2, locks ? QString() : formatBytes(it.bytes));
        row->setData(2, Qt::UserRole, it.bytes);
        row->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(3, formatAge(it.lastUsedMs, now));
        row->setText(4, it.reason);
        row->setToolTip(4, it.reason);
    }
    m_items->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_items->setColumnWidth(0, 380);
    m_items->header()->setStretchLastSection(true);

    m_kept->setHeaderLabels({tr("Kept"), tr("Why")});
    m_kept->setRootIsDecorated(false);
    for (const PlanKept &k : std::as_const(m_plan.kept))
        (new QTreeWidgetItem(m_kept, {k.key, k.reason}))->setToolTip(1, k.reason);
    m_kept->setColumnWidth(0, 380);
    m_kept->setVisible(!m_plan.kept.isEmpty());
    m_kept->setMaximumHeight(140);
    m_notes->setWordWrap(true);
    m_notes->setText(m_plan.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!m_plan.notes.isEmpty());
    m_progress->hide();
    m_current->hide();

    const QString confirmText = m_plan.items.isEmpty() ? QString()
                                : locks ? tr("Remove locks in %n entries", nullptr, n)
                                        : tr("Delete %n entries (%1)", nullptr, n).arg(formatBytes(m_plan.bytes));
    m_confirm = m_buttons->addButton(confirmText.isEmpty() ? tr("Delete") : confirmText, QDialogButtonBox::DestructiveRole);
    m_confirm->setEnabled(!m_plan.items.isEmpty() && m_plan.refusal.isEmpty());
    m_confirm->setVisible(!m_plan.items.isEmpty());
    m_buttons->addButton(QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(m_confirm, &QPushButton::clicked, this, &MaintenanceDialog::run);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &MaintenanceDialog::reject);

    auto *col = new QVBoxLayout(this);
    col->addWidget(m_summary);
    col->addWidget(m_refusal);
    col->addWidget(m_items, 3);
    if (!m_plan.kept.isEmpty())
        col->addWidget(new QLabel(tr("These stay:"), this));
    col->addWidget(m_kept, 1);
    col->addWidget(m_notes);
    col->addWidget(m_current);
    col->addWidget(m_progress);
    col->addWidget(m_buttons);
}

MaintenanceDialog::~MaintenanceDialog()
{
    if (m_cancel)
        m_cancel->store(true);
}

void MaintenanceDialog::run()
{
    if (m_running || m_ran)
        return;
    m_running = true;
    setWindowTitle(actionTitle(m_plan.action));
    m_confirm->setEnabled(false);
    m_progress->setRange(0, int(m_plan.items.size()));
    m_progress->setValue(0);
    m_progress->show();
    m_current->show();
    m_cancel = std::make_shared<std::atomic_bool>(false);
    QPointer<MaintenanceDialog> self(this);
    auto factory = m_storeFactory;
    auto cancel = m_cancel;
    const MaintenancePlan plan = m_plan;
    auto *watcher = new QFutureWatcher<MaintenanceReport>(this);
    connect(watcher, &QFutureWatcher<MaintenanceReport>::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_report = watcher->result();
        m_running = false;
        m_ran = true;
        showReport();
        Q_EMIT executed(m_report);
    });
    watcher->setFuture(QtConcurrent::run([self, factory, cancel, plan] {
        auto store = factory();
        return executePlan(*store, plan, [self](int done, int total, const QString &current) {
            QMetaObject::invokeMethod(self, [self, done, total, current] {
                if (!self)
                    return;
                self->m_progress->setValue(done);
                self->m_current->setText(current.isEmpty() ? QString() : tr("Removing %1 (%2 of %3)").arg(current).arg(done + 1).arg(total));
            }, Qt::QueuedConnection);
        }, cancel.get());
    }));
}

void MaintenanceDialog::reject()
{
    if (m_running) {
        m_cancel->store(true);  // stops before the next entry; the one in progress finishes
        m_current->setText(tr("Stopping after the current entry…"));
        return;
    }
    QDialog::reject();
}

void MaintenanceDialog::showReport()
{
    m_progress->setValue(m_progress->maximum());
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Close"));
    m_confirm->hide();
    if (!m_report.refusal.isEmpty()) {
        m_refusal->setText(tr("Refused: %1").arg(m_report.refusal));
        m_refusal->show();
        m_current->setText(tr("Nothing was changed."));
        return;
    }
    QString text = tr("%1 removed, %2 skipped, %3 failed; %4 freed on disk.")
                       .arg(m_report.done).arg(m_report.skipped).arg(m_report.failed).arg(formatBytes(m_report.freed));
    if (m_report.cancelled)
        text += QLatin1Char(' ') + tr("Stopped before the end: the remaining entries were not touched.");
    m_current->setText(text);
    m_summary->setText(m_report.failed ? tr("<b>Finished with problems.</b> Each failed entry says why below.")
                                       : tr("<b>Finished.</b>"));
    // Show each entry's outcome in the list.
    QHash<QString, const ItemOutcome *> byKey;
    for (const ItemOutcome &o : std::as_const(m_report.outcomes))
        byKey.insert(o.key, &o);
    m_items->setHeaderLabels({tr("Entry"), tr("State"), tr("Size"), tr("Last used"), tr("Result")});
    for (int i = 0; i < m_items->topLevelItemCount(); ++i) {
        QTreeWidgetItem *row = m_items->topLevelItem(i);
        const ItemOutcome *o = byKey.value(row->text(0));
        if (!o) {
            row->setText(4, tr("Not reached"));
            continue;
        }
        row->setText(4, o->message);
        row->setToolTip(4, o->message);
        if (o->result == ItemOutcome::Result::Failed)
            row->setForeground(4, stateColor(ModuleState::Failed));
        else if (o->result == ItemOutcome::Result::Skipped)
            row->setForeground(4, stateColor(ModuleState::Locked));
    }
}

}  // namespace ingot
