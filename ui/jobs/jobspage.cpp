#include "ui/jobs/jobspage.h"

#include "ui/common/keyboard.h"
#include "services/remote/jobrunners.h"

#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/jobtext.h"
#include "services/util/names.h"
#include "services/util/format.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/runcomparison.h"
#include "ui/jobs/slurmqueuesection.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

JobRemoveDialog::JobRemoveDialog(JobService *service, const QString &id, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_id(id)
    , m_summary(new QLabel(tr("Looking at job %1…").arg(id), this))
    , m_withOutputs(new QCheckBox(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Remove job"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_withOutputs->hide();
    QPushButton *remove = m_buttons->addButton(tr("&Remove"), QDialogButtonBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("removeButton"));
    remove->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_service)
            m_service->remove(m_id, m_withOutputs->isVisible() && m_withOutputs->isChecked());
        accept();
    });
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_summary);
    col->addWidget(m_withOutputs);
    col->addStretch(1);
    col->addWidget(m_buttons);
    setMinimumWidth(480);

    // The job's folder first (and whether it may go at all), then the outputs outside it.
    QPointer<JobRemoveDialog> self(this);
    service->previewRemove(id, false, [self, service, id](const RemovePreview &job) {
        if (!self)
            return;
        if (!job.refusal.isEmpty()) {
            self->m_summary->setText(job.refusal);
            self->m_ready = true;
            Q_EMIT self->ready();
            return;
        }
        self->m_summary->setText(removeJobFolderText(job));
        service->previewRemove(id, true, [self, job](const RemovePreview &outputs) {
            if (!self)
                return;
            if (!outputs.outputFolder.isEmpty()) {
                self->m_withOutputs->setText(tr("Also delete the outputs (%1, %2)")
                                                 .arg(displayName(outputs.outputFolder),
                                                      formatBytes(outputs.outputBytes)));
                self->m_withOutputs->setChecked(false);
                self->m_withOutputs->show();
            } else if (!outputs.refusal.isEmpty()) {
                self->m_summary->setText(self->m_summary->text() + QLatin1Char('\n')
                                         + tr("The outputs are kept: %1").arg(outputs.refusal));
            } else {
                self->m_summary->setText(self->m_summary->text() + QLatin1Char('\n')
                                         + tr("The outputs are inside the job's folder and go with it."));
            }
            self->removeButton()->setEnabled(true);
            self->m_ready = true;
            Q_EMIT self->ready();
        });
    });
}

QPushButton *JobRemoveDialog::removeButton() const
{
    return findChild<QPushButton *>(QStringLiteral("removeButton"));
}

JobService *makeJobService(QObject *parent)
{
    std::shared_ptr<JobRunner> local = makeLocalJobRunner();
    return new JobService(local, JobRunners::create(local)->lookup(), parent);
}

JobsPage::JobsPage(JobService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new JobListModel(service, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_new(new QPushButton(tr("&New job…"), this))
    , m_remove(new QPushButton(tr("&Remove…"), this))
    , m_compare(new QPushButton(tr("Com&pare…"), this))
    , m_stack(new QStackedWidget(this))
    , m_launcher(new QLabel(tr("The job launcher goes here."), this))
    , m_monitor(new JobMonitor(service, this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(JobListModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);  // several runs: Compare
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(JobListModel::Started, Qt::DescendingOrder);
    m_view->verticalHeader()->hide();
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Every column fits the default window; Queued is shown once the history has a Slurm job.
    m_view->setColumnWidth(JobListModel::Name, 160);
    m_view->setColumnWidth(JobListModel::Where, 140);
    m_view->setColumnWidth(JobListModel::Model, 80);
    m_view->setColumnWidth(JobListModel::Queued, 80);
    m_view->setColumnWidth(JobListModel::Layout, 130);
    m_view->setColumnWidth(JobListModel::State, 130);
    m_view->setColumnWidth(JobListModel::Started, 150);
    m_view->setColumnWidth(JobListModel::Duration, 80);
    m_view->setColumnWidth(JobListModel::FinalLoss, 120);  // "2.6209 (latest)"
    m_new->setToolTip(tr("Set up and launch a training job"));
    m_remove->setToolTip(tr("Remove the selected job's folder (previewed first; outputs kept unless asked)"));
    m_remove->setEnabled(false);
    m_compare->setToolTip(tr("Compare the selected runs: their curves, settings and graphs side by side (select two or more)"));
    m_compare->setEnabled(false);
    static_cast<QLabel *>(m_launcher)->setAlignment(Qt::AlignCenter);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_new);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_compare);
    buttons->addStretch(1);
    auto *left = new QWidget(this);
    auto *leftCol = new QVBoxLayout(left);
    leftCol->setContentsMargins(0, 0, 0, 0);
    leftCol->addLayout(buttons);
    leftCol->addWidget(m_view, 1);
    m_otherSlurmJobs = new SlurmQueueSection(service, left);
    leftCol->addWidget(m_otherSlurmJobs);

    m_stack->addWidget(buildEmptyState());
    m_stack->addWidget(m_launcher);
    m_stack->addWidget(m_monitor);
    m_stack->setCurrentWidget(m_empty);
    updateEmptyState();
    // The history gets room for about eight rows at the default window size; the monitor the rest.
    m_view->setMinimumHeight(m_view->horizontalHeader()->sizeHint().height()
                             + 4 * m_view->verticalHeader()->defaultSectionSize());
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(left);
    split->addWidget(m_stack);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    const int rows = 8;
    const int historyHeight = m_new->sizeHint().height() + m_view->horizontalHeader()->sizeHint().height()
        + rows * m_view->verticalHeader()->defaultSectionSize() + 16;
    split->setSizes({historyHeight, std::max(400, 800 - historyHeight)});
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(4, 4, 4, 4);
    col->addWidget(split);

    connect(m_new, &QPushButton::clicked, this, &JobsPage::newJob);
    connect(m_remove, &QPushButton::clicked, this, &JobsPage::removeSelected);
    connect(m_compare, &QPushButton::clicked, this, &JobsPage::compareSelected);
    // Delete in the list: the same previewed removal as the button.
    addDeleteKeyForButton(m_view, m_remove, tr("Remove the selected job"));
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &JobsPage::onSelectionChanged);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &JobsPage::selectPending);
    connect(m_model, &QAbstractItemModel::modelReset, this, &JobsPage::selectPending);
    auto showQueued = [this] { m_view->setColumnHidden(JobListModel::Queued, !m_otherSlurmJobs->hasSlurmHistory()); };
    showQueued();
    connect(m_model, &QAbstractItemModel::rowsInserted, this, showQueued);
    connect(m_model, &QAbstractItemModel::modelReset, this, showQueued);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &JobsPage::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &JobsPage::updateEmptyState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &JobsPage::updateEmptyState);
    // The job shown was removed: back to the empty state, not a monitor of nothing.
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (showsMonitor() && m_pendingSelect.isEmpty() && m_model->rowOf(m_monitor->jobId()) < 0) {
            m_monitor->setJob(QString());
            m_stack->setCurrentWidget(m_empty);
        }
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] {
        const QString id = currentJob();
        const int row = m_model->rowOf(id);
        m_remove->setEnabled(m_view->selectionModel()->selectedRows().size() == 1 && row >= 0 && !m_model->status(row).alive);
    });
    connect(service, &JobService::launched, this, &JobsPage::showJob);
    connect(service, &JobService::launchFailed, this, [this](const QString &error) {
        QMessageBox::warning(this, tr("Launch failed"), error);
    });
    connect(service, &JobService::removed, this, [this](const QString &id, const QString &error) {
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Remove job"), tr("Job %1 was not removed: %2").arg(id, error));
    });
    connect(m_monitor, &JobMonitor::consolidateRequested, this, &JobsPage::consolidateRequested);
    connect(m_monitor, &JobMonitor::showCacheEntry, this, &JobsPage::showCacheEntry);
    auto toLauncher = [this](const JobSpec &spec) {
        m_stack->setCurrentWidget(m_launcher);
        Q_EMIT launcherSpecRequested(spec);
    };
    connect(m_monitor, &JobMonitor::resumeRequested, this, toLauncher);
    connect(m_monitor, &JobMonitor::launchAgainRequested, this, toLauncher);
    connect(m_monitor, &JobMonitor::jobRequested, this, &JobsPage::showJob);
    connect(m_emptyNew, &QPushButton::clicked, this, &JobsPage::newJob);
}

QWidget *JobsPage::buildEmptyState()
{
    m_empty = new QWidget(this);
    m_emptyTitle = new QLabel(m_empty);
    QFont big = m_emptyTitle->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_emptyTitle->setFont(big);
    m_emptyTitle->setAlignment(Qt::AlignCenter);
    m_emptyText = new QLabel(m_empty);
    m_emptyText->setObjectName(QStringLiteral("jobsEmptyText"));
    m_emptyText->setWordWrap(true);
    m_emptyText->setAlignment(Qt::AlignCenter);
    m_emptyText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_emptyText->setMaximumWidth(560);
    m_emptyNew = new QPushButton(tr("New job…"), m_empty);
    m_emptyNew->setToolTip(m_new->toolTip());
    auto *textRow = new QHBoxLayout;  // the text wraps at its width, centred
    textRow->addStretch(1);
    textRow->addWidget(m_emptyText, 4);
    textRow->addStretch(1);
    auto *col = new QVBoxLayout(m_empty);
    col->addStretch(1);
    col->addWidget(m_emptyTitle);
    col->addSpacing(8);
    col->addLayout(textRow);
    col->addSpacing(12);
    col->addWidget(m_emptyNew, 0, Qt::AlignHCenter);
    col->addStretch(2);
    return m_empty;
}

void JobsPage::updateEmptyState()
{
    if (!m_emptyTitle)
        return;
    if (m_model->rowCount() == 0) {
        m_emptyTitle->setText(tr("No training jobs yet"));
        m_emptyText->setText(
            tr("New job… opens the launcher: choose the model, the parallel layout, the data and where the job runs. "
               "It checks the settings as you type and shows the exact command; Launch starts the job, and its "
               "loss, logs and checkpoints are followed here.\n\nJobs started with ingot-cli job launch are listed "
               "here too."));
    } else {
        m_emptyTitle->setText(tr("No job selected"));
        m_emptyText->setText(tr("Select a job in the list to follow its loss, logs and checkpoints; New job… sets "
                                "up another."));
    }
}

JobsPage::~JobsPage() = default;

void JobsPage::setLauncher(QWidget *launcher)
{
    // By name: the launcher's header is not needed here, only these two signals.
    launcher->setParent(this);
    QWidget *shown = m_stack->currentWidget();
    const int at = m_stack->indexOf(m_launcher);
    m_stack->insertWidget(at, launcher);
    m_stack->removeWidget(m_launcher);
    m_stack->setCurrentWidget(shown == m_launcher ? launcher : shown);
    m_launcher->deleteLater();
    m_launcher = launcher;
    if (launcher->metaObject()->indexOfSignal("launched(QString)") >= 0)
        connect(launcher, SIGNAL(launched(QString)), this, SLOT(showJob(QString)));
    if (launcher->metaObject()->indexOfSignal("cleanCacheRequested(QString)") >= 0)
        connect(launcher, SIGNAL(cleanCacheRequested(QString)), this, SIGNAL(cleanCacheRequested(QString)));
}

QString JobsPage::currentJob() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(JobListModel::JobIdRole).toString();
}

bool JobsPage::showsMonitor() const
{
    return m_stack->currentWidget() == m_monitor;
}

void JobsPage::showJob(const QString &id)
{
    m_monitor->setJob(id);
    m_stack->setCurrentWidget(m_monitor);
    m_pendingSelect = id;
    selectPending();
    if (!m_pendingSelect.isEmpty())
        m_service->refreshHistory();  // launched a moment ago: listed on the next read
}

void JobsPage::selectPending()
{
    if (m_pendingSelect.isEmpty())
        return;
    const int row = m_model->rowOf(m_pendingSelect);
    if (row < 0)
        return;
    m_pendingSelect.clear();
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

void JobsPage::newJob()
{
    m_stack->setCurrentWidget(m_launcher);
}

void JobsPage::onSelectionChanged()
{
    const QString id = currentJob();
    const int row = m_model->rowOf(id);
    const int selected = int(m_view->selectionModel()->selectedRows().size());
    m_remove->setEnabled(selected == 1 && row >= 0 && !m_model->status(row).alive);
    m_compare->setEnabled(selected >= 2);
    if (id.isEmpty())
        return;
    if (id != m_monitor->jobId())
        m_monitor->setJob(id);
    m_stack->setCurrentWidget(m_monitor);
}

QStringList JobsPage::selectedJobs() const
{
    // Oldest first: the first run is the one the others are compared with.
    QModelIndexList rows = m_view->selectionModel()->selectedRows(JobListModel::Started);
    std::stable_sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) {
        return a.data(JobListModel::SortRole).toLongLong() < b.data(JobListModel::SortRole).toLongLong();
    });
    QStringList ids;
    for (const QModelIndex &i : std::as_const(rows))
        ids << i.data(JobListModel::JobIdRole).toString();
    return ids;
}

RunComparisonDialog *JobsPage::compareSelected()
{
    const QStringList ids = selectedJobs();
    if (ids.size() < 2)
        return nullptr;
    auto *dlg = new RunComparisonDialog(m_service, ids, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->show();
    return dlg;
}

JobRemoveDialog *JobsPage::removeSelected()
{
    if (m_view->selectionModel()->selectedRows().size() != 1)
        return nullptr;
    const QString id = currentJob();
    if (id.isEmpty())
        return nullptr;
    auto *dlg = new JobRemoveDialog(m_service, id, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->open();
    return dlg;
}

}  // namespace ingot
