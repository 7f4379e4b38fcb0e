#include "ui/localcache/maintenancedialog.h"

#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"
#include "models/cache/statecolors.h"
#include "services/util/format.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

namespace {
// Sizes and times sort by value, not by their text.
class PlanRow final : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int c = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant a = data(c, Qt::UserRole), b = other.data(c, Qt::UserRole);
        if (a.isValid() && b.isValid())
            return a.toLongLong() < b.toLongLong();
        return QTreeWidgetItem::operator<(other);
    }
};
// Long entry names and reasons are cut in the middle (both ends say something) and read whole in a tooltip; the
// columns can be resized, and the sizes, states and ages get the width their text needs.
void setUpPlanView(QTreeWidget *view)
{
    view->setRootIsDecorated(false);
    view->setAlternatingRowColors(true);
    view->setUniformRowHeights(true);
    view->setTextElideMode(Qt::ElideMiddle);
    view->header()->setSectionResizeMode(QHeaderView::Interactive);
    view->header()->setStretchLastSection(true);
}

void fitColumns(QTreeWidget *view, int entryColumnCap)
{
    for (int c = 1; c < view->columnCount() - 1; ++c)
        view->resizeColumnToContents(c);
    view->resizeColumnToContents(0);
    view->setColumnWidth(0, std::min(view->columnWidth(0), entryColumnCap));
}

// Runs `work` on a store of `location` (on the calling worker thread); a location no store can be made for gives a
// result refused with the factory's words.
template<class Result, class Work>
Result onStore(const StoreLocation &location, Work &&work)
{
    QString error;
    auto store = makeStore(location, &error);
    if (!store) {
        Result refused;
        refused.refusal = error;
        return refused;
    }
    return work(*store);
}
}  // namespace

MaintenanceDialog::MaintenanceDialog(MaintenancePlan plan, StoreLocation location, QWidget *parent)
    : QDialog(parent)
    , m_plan(std::move(plan))
    , m_location(std::move(location))
    , m_summary(new QLabel(this))
    , m_refusal(new QLabel(this))
    , m_items(new QTreeWidget(this))
    , m_kept(new QTreeWidget(this))
    , m_notes(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_current(new QLabel(this))
    , m_buttons(new QDialogButtonBox(this))
{
    setWindowTitle(tr("%1 — preview").arg(actionTitle(m_plan.action)));
    resize(980, 560);
    m_summary->setWordWrap(true);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("QLabel { background: #fbe3e3; color: #8a1f1f; padding: 8px; border-radius: 4px; }"));
    m_items->setHeaderLabels({tr("Entry"), tr("State"), tr("Size"), tr("Last used"), tr("Why")});
    setUpPlanView(m_items);
    m_items->setSortingEnabled(true);
    m_kept->setHeaderLabels({tr("Kept"), tr("Size"), tr("Why")});
    setUpPlanView(m_kept);
    m_kept->setMaximumHeight(140);
    m_keptLabel = new QLabel(tr("These stay:"), this);
    m_notes->setWordWrap(true);
    m_progress->hide();
    m_current->hide();
    m_confirm = m_buttons->addButton(tr("Delete"), QDialogButtonBox::DestructiveRole);
    m_buttons->addButton(QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(m_confirm, &QPushButton::clicked, this, &MaintenanceDialog::run);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &MaintenanceDialog::reject);

    auto *col = new QVBoxLayout(this);
    col->addWidget(m_summary);
    m_policyRow = new QWidget(this);
    col->addWidget(m_policyRow);
    m_policyRow->hide();
    col->addWidget(m_refusal);
    col->addWidget(m_items, 3);
    col->addWidget(m_keptLabel);
    col->addWidget(m_kept, 1);
    col->addWidget(m_notes);
    col->addWidget(m_current);
    col->addWidget(m_progress);
    col->addWidget(m_buttons);
    populate();
}

void MaintenanceDialog::populate()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const int n = m_plan.entryCount();
    const bool locks = m_plan.action == MaintenanceAction::ClearLocks;
    if (m_plan.items.isEmpty())
        m_summary->setText(tr("<b>Nothing to do.</b> No entry matches this action."));
    else if (locks)
        m_summary->setText(tr("<b>Dry run:</b> lock files in %n entries would be removed. The entries themselves stay.", nullptr, n));
    else
        m_summary->setText(summaryText());
    m_refusal->setVisible(!m_plan.refusal.isEmpty());
    m_refusal->setText(tr("Refused: %1").arg(m_plan.refusal));
    m_items->setSortingEnabled(false);
    m_items->clear();
    for (const PlanItem &it : std::as_const(m_plan.items)) {
        auto *row = new PlanRow(m_items);
        row->setText(0, it.key);
        row->setToolTip(0, it.key);
        const bool entry = it.op != PlanItem::Op::RemoveFolderIfEmpty;
        if (entry) {
            row->setText(1, stateLabel(it.state));
            row->setIcon(1, stateIcon(it.state));
        }
        // Every entry's size, a locked one's too (clearing its locks frees nothing: the summary says what goes).
        row->setText(2, entry ? formatBytes(it.size) : QString());
        row->setData(2, Qt::UserRole, it.size);
        row->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(3, formatAge(it.lastUsedMs, now));
        row->setData(3, Qt::UserRole, it.lastUsedMs);
        row->setToolTip(3, formatDateTime(it.lastUsedMs));
        row->setText(4, it.reason);
        row->setToolTip(4, it.reason);
    }
    m_items->setSortingEnabled(true);
    m_kept->clear();
    for (const PlanKept &k : std::as_const(m_plan.kept)) {
        auto *row = new QTreeWidgetItem(m_kept, {k.key, k.size < 0 ? QString() : formatBytes(k.size), k.reason});
        row->setToolTip(0, k.key);
        row->setToolTip(2, k.reason);
        row->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    }
    // Fitted once there is something to fit: a plan made again (new prune numbers) keeps widths set by hand.
    const int entryCap = fontMetrics().averageCharWidth() * 56;
    if (!m_itemsFitted && !m_plan.items.isEmpty()) {
        fitColumns(m_items, entryCap);
        m_itemsFitted = true;
    }
    if (!m_keptFitted && !m_plan.kept.isEmpty()) {
        fitColumns(m_kept, entryCap);
        m_keptFitted = true;
    }
    m_kept->setVisible(!m_plan.kept.isEmpty());
    m_keptLabel->setVisible(!m_plan.kept.isEmpty());
    m_notes->setText(m_plan.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!m_plan.notes.isEmpty());
    m_confirm->setText(m_plan.items.isEmpty() ? tr("Delete")
                       : locks ? tr("Remove locks in %n entries", nullptr, n)
                               : tr("Delete %n entries (%1)", nullptr, n).arg(formatBytes(m_plan.bytes)));
    m_confirm->setEnabled(!m_plan.items.isEmpty() && m_plan.refusal.isEmpty());
    m_confirm->setVisible(!m_plan.items.isEmpty());
}

QString MaintenanceDialog::summaryText() const
{
    const int n = m_plan.entryCount();
    const auto [before, after] = formatBytesBeforeAfter(m_plan.cacheBytesBefore, m_plan.cacheBytesAfter);
    if (before == after)  // a few bytes of a large cache
        return tr("<b>Dry run:</b> %n entries would be removed, freeing %1 of the cache's %2. Nothing has been "
                  "changed yet.", nullptr, n).arg(formatBytes(m_plan.bytes), formatBytes(m_plan.cacheBytesBefore));
    return tr("<b>Dry run:</b> %n entries would be removed, freeing %1 (the cache goes from %2 to %3). "
              "Nothing has been changed yet.", nullptr, n).arg(formatBytes(m_plan.bytes), before, after);
}

void MaintenanceDialog::setPruneReplanner(int ttlDays, qint64 maxBytes, PruneReplanner replan)
{
    m_replan = std::move(replan);
    auto *row = new QHBoxLayout(m_policyRow);
    row->setContentsMargins(0, 0, 0, 0);
    m_ttl = new QSpinBox(m_policyRow);
    m_ttl->setRange(0, 3650);
    m_ttl->setSuffix(tr(" days"));
    m_ttl->setSpecialValueText(tr("no TTL"));
    m_ttl->setValue(ttlDays);
    m_limit = new QDoubleSpinBox(m_policyRow);
    m_limit->setRange(0, 100000);
    m_limit->setDecimals(1);
    m_limit->setSuffix(tr(" GB"));
    m_limit->setSpecialValueText(tr("no limit"));
    m_limit->setValue(double(maxBytes) / 1e9);
    row->addWidget(new QLabel(tr("Keep entries used within:"), m_policyRow));
    row->addWidget(m_ttl);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Size limit:"), m_policyRow));
    row->addWidget(m_limit);
    row->addStretch();
    // The preview follows the numbers as they change.
    auto update = [this] {
        if (m_running || m_ran)
            return;
        setPlan(m_replan(m_ttl->value(), qint64(m_limit->value() * 1e9)));
    };
    connect(m_ttl, &QSpinBox::valueChanged, this, update);
    connect(m_limit, &QDoubleSpinBox::valueChanged, this, update);
    m_policyRow->show();
}

int MaintenanceDialog::pruneTtlDays() const
{
    return m_ttl ? m_ttl->value() : -1;
}

qint64 MaintenanceDialog::pruneMaxBytes() const
{
    return m_limit ? qint64(m_limit->value() * 1e9) : -1;
}

void MaintenanceDialog::offerLockAge(LockAgePlanner planner)
{
    auto *col = new QVBoxLayout(m_policyRow);
    col->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    m_age = new QSpinBox(m_policyRow);
    m_age->setRange(0, 9999);
    m_age->setSpecialValueText(tr("no age"));
    m_age->setValue(0);
    m_ageUnit = new QComboBox(m_policyRow);
    m_ageUnit->addItem(tr("minutes"), qint64(60'000));
    m_ageUnit->addItem(tr("hours"), qint64(3'600'000));
    m_ageUnit->addItem(tr("days"), qint64(86'400'000));
    m_ageUnit->setCurrentIndex(1);
    row->addWidget(new QLabel(tr("Clear locks older than:"), m_policyRow));
    row->addWidget(m_age);
    row->addWidget(m_ageUnit);
    row->addStretch();
    col->addLayout(row);
    m_ageRule = new QLabel(m_policyRow);
    m_ageRule->setWordWrap(true);
    col->addWidget(m_ageRule);
    // The preview follows the age as it changes, planned on a store off the UI thread as the first one was.
    auto update = [this, planner = std::move(planner)] {
        if (m_running || m_ran)
            return;
        const qint64 age = lockAgeMs();
        m_ageRule->setText(age > 0 ? tr("Lock objects older than %1 are removed; how the Neuron runtime marks a live compile on "
                                        "S3 is not public, so a younger lock is kept.").arg(lockAgeText(age))
                                   : tr("Set an age: lock objects older than it are removed; how the Neuron runtime marks a "
                                        "live compile on S3 is not public, so a younger lock is kept. With no age nothing is "
                                        "removed."));
        planAsync(tr("Planning…"), [planner, age](CacheStore &store) { return planner(store, age); });
    };
    connect(m_age, &QSpinBox::valueChanged, this, update);
    connect(m_ageUnit, &QComboBox::currentIndexChanged, this, update);
    m_policyRow->show();
    update();
}

qint64 MaintenanceDialog::lockAgeMs() const
{
    return m_age ? m_age->value() * m_ageUnit->currentData().toLongLong() : 0;
}

MaintenanceDialog::~MaintenanceDialog()
{
    m_planning.discard();
    m_execution.discard();  // a run in progress stops after the current entry
}

void MaintenanceDialog::setPlan(MaintenancePlan plan)
{
    // A plan made again (new prune numbers, the compiler check) is for the same previewed root.
    if (plan.rootIdentity.isEmpty())
        plan.rootIdentity = m_plan.rootIdentity;
    m_plan = std::move(plan);
    populate();
}

void MaintenanceDialog::planAsync(const QString &checking, AsyncPlanner planner)
{
    m_confirm->setEnabled(false);
    m_current->setText(checking);
    m_current->show();
    m_planning.discard();
    const StoreLocation location = m_location;
    m_planning = runTask(
        this,
        [location, planner = std::move(planner)](TaskControl &) {
            return onStore<MaintenancePlan>(location, planner);
        },
        [this](MaintenancePlan plan) {
            m_current->clear();
            m_current->hide();
            setPlan(std::move(plan));
        });
}

void MaintenanceDialog::run()
{
    if (m_running || m_ran || m_planning.isRunning())
        return;
    m_running = true;
    setWindowTitle(actionTitle(m_plan.action));
    m_confirm->setEnabled(false);
    m_policyRow->setEnabled(false);
    m_progress->setRange(0, int(m_plan.items.size()));
    m_progress->setValue(0);
    m_progress->show();
    m_current->show();
    const StoreLocation location = m_location;
    const MaintenancePlan plan = m_plan;
    m_execution = runTask(
        this,
        [location, plan](TaskControl &control) {
            return onStore<MaintenanceReport>(location, [&](CacheStore &store) {
                return executePlan(store, plan, [&control](int done, int total, const QString &current) {
                    control.setProgress(done, total, current);
                }, control.stopFlag());
            });
        },
        [this](MaintenanceReport report) {
            m_report = std::move(report);
            m_running = false;
            m_ran = true;
            showReport();
            Q_EMIT executed(m_report);
        },
        [this](const TaskProgress &p) {
            m_progress->setValue(int(p.done));
            m_current->setText(p.text.isEmpty() ? QString()
                                                : tr("Removing %1 (%2 of %3)").arg(p.text).arg(p.done + 1).arg(p.total));
        });
}

void MaintenanceDialog::reject()
{
    if (m_running) {
        m_execution.stop();  // stops before the next entry; the one in progress finishes
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
