#include "ui/fleet/fleetgcpanel.h"

#include "services/fleet/gcschedule.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QShowEvent>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <tuple>

namespace ingot {

namespace {
constexpr int kShownPerPlace = 200;  // a place's entries listed in the preview; the rest are counted

enum Column { PlaceColumn, FreesColumn, KeepsColumn, StatusColumn };

QString placeStatus(const FleetGcPlace &p)
{
    switch (p.status) {
    case FleetGcPlace::Status::Planned:
        return p.plan.refusal.isEmpty() ? FleetGcPanel::tr("planned") : displayName(p.plan.refusal);
    case FleetGcPlace::Status::NoPolicies:
        return FleetGcPanel::tr("policies do not apply: %1").arg(displayName(p.error));
    case FleetGcPlace::Status::Unreachable:
        break;
    }
    return FleetGcPanel::tr("not reached: %1").arg(displayName(p.error));
}

void addEntries(QTreeWidgetItem *row, const MaintenancePlan &plan)
{
    int shown = 0;
    for (const PlanItem &i : plan.items) {
        if (i.op != PlanItem::Op::RemoveEntry || shown++ >= kShownPerPlace)
            continue;
        new QTreeWidgetItem(row, {displayName(i.key), formatBytes(i.bytes), QString(), displayName(i.reason)});
    }
    for (const PlanKept &k : plan.kept) {
        if (shown++ >= kShownPerPlace)
            break;
        new QTreeWidgetItem(row, {displayName(k.key), QString(), FleetGcPanel::tr("kept"), displayName(k.reason)});
    }
    const int all = int(plan.items.size() + plan.kept.size());
    if (all > kShownPerPlace)
        new QTreeWidgetItem(row, {FleetGcPanel::tr("… and %n more", nullptr, all - kShownPerPlace)});
}
}  // namespace

FleetGcPanel::FleetGcPanel(std::function<QString()> policyName, QWidget *parent)
    : QWidget(parent)
    , m_policyName(std::move(policyName))
    , m_previewButton(new QPushButton(tr("Pre&view on all places"), this))
    , m_applyButton(new QPushButton(tr("&Apply"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_daily(new QCheckBox(tr("Run this policy every &day"), this))
    , m_scheduleText(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_plan(new QTreeWidget(this))
    , m_total(new QLabel(this))
{
    m_previewButton->setToolTip(tr("What the chosen policy would remove in each place, and the total: nothing is removed"));
    m_applyButton->setToolTip(tr("Remove what the preview lists, each entry checked again right before it goes"));
    m_progress->setVisible(false);
    m_progress->setMaximumHeight(16);
    m_cancelButton->setVisible(false);
    for (QLabel *l : {m_scheduleText, m_total}) {
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
    }
    m_plan->setHeaderLabels({tr("Place"), tr("Frees"), tr("Keeps"), tr("Why")});
    m_plan->setAccessibleName(tr("Preview of the policy on every place"));
    m_plan->setColumnWidth(PlaceColumn, 360);
    m_plan->setColumnWidth(FreesColumn, 160);
    m_plan->setColumnWidth(KeepsColumn, 90);
    m_plan->setUniformRowHeights(true);
    m_plan->setVisible(false);
    connect(m_previewButton, &QPushButton::clicked, this, &FleetGcPanel::previewPolicy);
    connect(m_applyButton, &QPushButton::clicked, this, &FleetGcPanel::applyPreview);
    connect(m_cancelButton, &QPushButton::clicked, this, &FleetGcPanel::cancel);
    connect(m_daily, &QCheckBox::clicked, this, &FleetGcPanel::setDaily);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    for (QWidget *w : {static_cast<QWidget *>(m_previewButton), static_cast<QWidget *>(m_applyButton),
                       static_cast<QWidget *>(m_cancelButton), static_cast<QWidget *>(m_progress)})
        row->addWidget(w);
    row->addSpacing(16);
    row->addWidget(m_daily);
    row->addWidget(m_scheduleText, 1);
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->addLayout(row);
    col->addWidget(m_total);
    col->addWidget(m_plan, 1);
    policyChanged();
}

FleetGcPanel::~FleetGcPanel()
{
    m_task.discard();
    m_scheduleTask.discard();
}

void FleetGcPanel::policyChanged()
{
    if (m_task.isRunning())
        m_task.discard();
    m_preview = FleetGcPreview();
    m_plan->clear();
    m_plan->setVisible(false);
    m_total->clear();
    m_progress->setVisible(false);
    readSchedule();
    updateButtons();
}

void FleetGcPanel::updateButtons()
{
    const bool busy = m_task.isRunning();
    const bool chosen = !m_policyName().isEmpty();
    m_previewButton->setEnabled(chosen && !busy);
    m_applyButton->setEnabled(!busy && m_preview.entryCount() > 0);
    m_cancelButton->setVisible(busy);
    m_daily->setEnabled(chosen && !m_scheduleTask.isRunning());
}

void FleetGcPanel::previewPolicy()
{
    CachePolicy policy;
    if (!findPolicy(m_policyName(), &policy)) {
        m_total->setText(tr("Choose a saved policy first (New… makes one)."));
        return;
    }
    m_preview = FleetGcPreview();
    m_plan->clear();
    m_total->setText(tr("Reading every place…"));
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    Q_EMIT statusChanged(tr("Previewing policy %1 on every place…").arg(policy.name), true);
    m_task = runTask(
        this,
        [policy, places = m_places, options = m_options](TaskControl &c) {
            const QVector<FleetPlace> list = places ? places() : knownFleetPlaces();
            return previewFleetGc(policy, list, QDateTime::currentMSecsSinceEpoch(), options,
                                  [&c](int done, int total, const QString &current) { c.setProgress(done, total, current); },
                                  c.stopFlag());
        },
        [this](FleetGcPreview preview) {
            m_preview = std::move(preview);
            showPreview();
            Q_EMIT statusChanged(m_total->text(), false);
            Q_EMIT previewed();
        },
        [this](const TaskProgress &p) {
            m_progress->setRange(0, int(p.total));
            m_progress->setValue(int(p.done));
        });
    updateButtons();
}

void FleetGcPanel::showPreview()
{
    m_progress->setVisible(false);
    m_plan->clear();
    for (const FleetGcPlace &p : std::as_const(m_preview.places)) {
        auto *row = new QTreeWidgetItem(m_plan, {displayName(p.place.shown()), QString(), QString(), placeStatus(p)});
        row->setToolTip(PlaceColumn, displayName(p.place.id));
        if (p.planned()) {
            row->setText(FreesColumn, tr("%1 in %n entries", nullptr, p.plan.entryCount()).arg(formatBytes(p.plan.bytes)));
            row->setText(KeepsColumn, tr("%n kept", nullptr, int(p.plan.kept.size())));
            addEntries(row, p.plan);
        }
    }
    m_plan->setVisible(true);
    QString total = tr("Policy %1 frees %2 in %n entries", nullptr, m_preview.entryCount())
                        .arg(m_preview.policy.name, formatBytes(m_preview.bytes()));
    total += tr(" over %n place(s)", nullptr, int(m_preview.places.size()));
    if (const int u = m_preview.unreachable())
        total += tr("; %n not reached", nullptr, u);
    m_total->setText(total + (m_preview.entryCount() > 0 ? tr(". Apply removes them.") : tr(". Nothing to remove.")));
    updateButtons();
}

void FleetGcPanel::applyPreview()
{
    if (m_preview.entryCount() == 0 || m_task.isRunning())
        return;
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    Q_EMIT statusChanged(tr("Applying policy %1…").arg(m_preview.policy.name), true);
    struct Outcome {
        GcRun run;
        QVector<MaintenanceReport> reports;
        QString logError;
    };
    m_task = runTask(
        this,
        [preview = m_preview, options = m_options](TaskControl &c) {
            Outcome o;
            o.run = applyFleetGc(preview, QStringLiteral("gui"),
                                 [&c](int done, int total, const QString &current) { c.setProgress(done, total, current); },
                                 c.stopFlag(), &o.reports, options);
            appendGcRun(o.run, &o.logError);
            return o;
        },
        [this](Outcome o) {
            showReport(o.run, o.reports);
            if (!o.logError.isEmpty())
                m_total->setText(m_total->text() + QLatin1Char(' ') + tr("(not logged: %1)").arg(o.logError));
            Q_EMIT statusChanged(m_total->text(), false);
            Q_EMIT applied(o.run);
        },
        [this](const TaskProgress &p) {
            m_progress->setRange(0, int(p.total));
            m_progress->setValue(int(p.done));
        });
    updateButtons();
}

void FleetGcPanel::showReport(const GcRun &run, const QVector<MaintenanceReport> &reports)
{
    m_progress->setVisible(false);
    for (int i = 0; i < m_plan->topLevelItemCount() && i < reports.size() && i < m_preview.places.size(); ++i) {
        if (!m_preview.places.at(i).planned())
            continue;
        const MaintenanceReport &r = reports.at(i);
        QTreeWidgetItem *row = m_plan->topLevelItem(i);
        row->setText(FreesColumn, tr("%1 freed", nullptr).arg(formatBytes(r.freed)));
        row->setText(StatusColumn, !r.refusal.isEmpty() ? displayName(r.refusal)
                                                        : tr("%n removed", nullptr, r.done)
                                                              + tr(", %n kept (changed since the preview)", nullptr, r.skipped)
                                                              + (r.failed ? tr(", %n failed", nullptr, r.failed) : QString()));
    }
    m_total->setText(tr("Done: %1.").arg(run.summary()));
    m_preview = FleetGcPreview();  // what was previewed is gone: preview again before another run
    updateButtons();
}

void FleetGcPanel::cancel()
{
    m_task.stop();
}

void FleetGcPanel::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (!m_shown && !e->spontaneous()) {
        m_shown = true;
        readSchedule();
    }
}

void FleetGcPanel::readSchedule()
{
    const QString policy = m_policyName();
    m_scheduleTask.discard();
    m_daily->setChecked(false);
    m_scheduleText->clear();
    if (policy.isEmpty() || !m_shown) {
        updateButtons();
        return;
    }
    m_scheduleTask = runTask(
        this,
        [](TaskControl &) {
            QString error;
            QVector<InstalledSchedule> all = installedSchedules(&error);
            return qMakePair(all, error);
        },
        [this, policy](const QPair<QVector<InstalledSchedule>, QString> &r) {
            bool on = false;
            for (const InstalledSchedule &s : r.first)
                on = on || s.schedule.policy == policy;
            m_daily->setChecked(on);
            GcRun last;
            if (!r.second.isEmpty())
                m_scheduleText->setText(r.second);
            else if (on && lastScheduledRun(policy, &last))
                m_scheduleText->setText(tr("Last scheduled run: %1").arg(last.summary()));
            else if (on)
                m_scheduleText->setText(tr("Runs every day; it has not run yet."));
            updateButtons();
            Q_EMIT scheduleChanged();
        });
    updateButtons();
}

void FleetGcPanel::setDaily(bool on)
{
    const QString policy = m_policyName();
    if (policy.isEmpty())
        return;
    m_scheduleText->setText(on ? tr("Installing the timer…") : tr("Removing the timer…"));
    m_scheduleTask = runTask(
        this,
        [policy, on](TaskControl &) {
            QString how, error;
            bool ok = false;
            if (on) {
                const QString cli = scheduledCliPath(&error);
                GcSchedule s;
                s.policy = policy;
                ok = !cli.isEmpty() && installSchedule(s, cli, &how, &error);
            } else {
                ok = removeSchedule(policy, &how, &error);
            }
            return std::make_tuple(ok, how, error);
        },
        [this, on](const std::tuple<bool, QString, QString> &r) {
            const auto &[ok, how, error] = r;
            m_daily->setChecked(ok ? on : !on);
            m_scheduleText->setText(ok ? how : error);
            updateButtons();
            Q_EMIT scheduleChanged();
        });
    updateButtons();
}

}  // namespace ingot
