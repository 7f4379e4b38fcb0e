#include "ui/jobs/slurmqueuesection.h"

#include "services/jobs/jobservice.h"
#include "services/jobs/jobtext.h"
#include "services/util/names.h"
#include "ui/jobs/jobfiledialog.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <utility>

namespace ingot {

namespace {

QString clusterText(const SlurmClusterRef &c)
{
    const QString where = displayName(placeName(c.where));
    return c.slurmConf.isEmpty() ? where : QStringLiteral("%1 (%2)").arg(where, displayName(c.slurmConf));
}

}  // namespace

SlurmQueueSection::SlurmQueueSection(JobService *service, QWidget *parent)
    : QGroupBox(tr("Other jobs in your Slurm queue (submitted outside Ingot, read-only)"), parent)
    , m_service(service)
    , m_list(new QTreeWidget(this))
    , m_status(new QLabel(this))
    , m_output(new QPushButton(tr("Show &output"), this))
    , m_refresh(new QPushButton(tr("Re&fresh"), this))
    , m_timer(new QTimer(this))
{
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("Slurm job"), tr("Name"), tr("Cluster"), tr("State"), tr("Nodes"), tr("Time (used / limit)"),
                             tr("Output file")});
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(Job, 90);
    m_list->setColumnWidth(Name, 160);
    m_list->setColumnWidth(Cluster, 140);
    m_list->setColumnWidth(State, 200);
    m_list->setColumnWidth(Nodes, 120);
    m_list->setColumnWidth(Time, 140);
    m_list->setMaximumHeight(150);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_output->setToolTip(tr("The end of the selected job's output file, read where the job writes it"));
    m_output->setEnabled(false);
    m_refresh->setToolTip(tr("Ask the clusters for your queue again (squeue --me)"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_output);
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_status, 1);
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_list);
    col->addLayout(buttons);
    setVisible(false);

    connect(m_list, &QTreeWidget::itemSelectionChanged, this,
            [this] { m_output->setEnabled(!m_list->selectedItems().isEmpty()); });
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { showOutput(); });
    connect(m_output, &QPushButton::clicked, this, [this] { showOutput(); });
    connect(m_refresh, &QPushButton::clicked, this, &SlurmQueueSection::refresh);
    connect(service, &JobService::historyChanged, this, &SlurmQueueSection::refresh);
    m_timer->setInterval(30000);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_task.isRunning())
            refresh();
    });
    m_timer->start();
    refresh();
}

SlurmQueueSection::~SlurmQueueSection()
{
    m_task.discard();
}

bool SlurmQueueSection::hasSlurmHistory() const
{
    return !slurmClustersOf(m_service->history()).isEmpty();
}

void SlurmQueueSection::refresh()
{
    if (!hasSlurmHistory()) {
        showJobs({}, 0, {});  // no Slurm job in the history: no cluster to ask
        return;
    }
    if (m_task.isRunning()) {
        m_askAgain = true;  // one question at a time (a history that changes often would start one per change)
        return;
    }
    m_status->setText(tr("Asking for your queue…"));
    m_refresh->setEnabled(false);
    m_task = m_service->otherSlurmJobsOnClusters([this](const QVector<OtherSlurmJob> &jobs, int clusters, const QStringList &errors) {
        showJobs(jobs, clusters, errors);
        if (std::exchange(m_askAgain, false))
            QTimer::singleShot(0, this, &SlurmQueueSection::refresh);
    });
}

void SlurmQueueSection::showJobs(const QVector<OtherSlurmJob> &jobs, int clusters, const QStringList &errors)
{
    m_refresh->setEnabled(true);
    m_clusters = clusters;
    // The selection follows its job across refreshes.
    const QList<QTreeWidgetItem *> selected = m_list->selectedItems();
    const QString selectedKey = selected.isEmpty() ? QString() : selected.first()->data(Job, Qt::UserRole).toString();
    m_jobs = jobs;
    m_list->clear();
    for (int i = 0; i < jobs.size(); ++i) {
        const SlurmQueueJob &j = jobs[i].job;
        auto *item = new QTreeWidgetItem(m_list);
        const QString key = jobs[i].cluster.where + QLatin1Char('\n') + jobs[i].cluster.slurmConf + QLatin1Char('\n')
            + QString::fromLatin1(j.id);
        item->setData(Job, Qt::UserRole, key);
        item->setData(Job, Qt::UserRole + 1, i);
        item->setText(Job, slurmShown(j.id));
        item->setText(Name, slurmShown(j.name));
        item->setText(Cluster, clusterText(jobs[i].cluster));
        item->setText(State, j.reason.isEmpty() || j.state != "PENDING"
                                 ? slurmJobStateText(j.state)
                                 : tr("%1 (%2)").arg(slurmJobStateText(j.state), slurmShown(j.reason)));
        item->setText(Nodes, j.nodeList.isEmpty() ? QString::number(j.nodes)
                                                  : tr("%1: %2").arg(j.nodes).arg(slurmShown(j.nodeList)));
        item->setText(Time, tr("%1 / %2").arg(slurmShown(j.timeUsed), slurmShown(j.timeLimit)));
        item->setText(Output, slurmShown(j.stdOut));
        item->setToolTip(Output, slurmShown(j.stdOut));
        item->setToolTip(Name, slurmShown(j.workDir).isEmpty() ? slurmShown(j.name)
                                                               : tr("%1\nin %2").arg(slurmShown(j.name), slurmShown(j.workDir)));
        if (key == selectedKey)
            item->setSelected(true);
    }
    QString text = jobs.isEmpty() ? tr("No other jobs in your queue on %n cluster(s).", nullptr, clusters)
                                  : tr("%n other job(s) in your queue.", nullptr, int(jobs.size()));
    if (!errors.isEmpty())
        text += QLatin1Char(' ') + tr("Not asked: %1").arg(displayText(errors.join(QStringLiteral("; "))));
    m_status->setText(text);
    setVisible(clusters > 0);
    Q_EMIT refreshed();
}

JobFileDialog *SlurmQueueSection::showOutput()
{
    const QList<QTreeWidgetItem *> selected = m_list->selectedItems();
    if (selected.isEmpty())
        return nullptr;
    const int i = selected.first()->data(Job, Qt::UserRole + 1).toInt();
    if (i < 0 || i >= m_jobs.size())
        return nullptr;
    const SlurmQueueJob &j = m_jobs[i].job;
    auto *dialog = new JobFileDialog(m_service, m_jobs[i].cluster.where, j.stdOut.isEmpty() ? QStringList() : QStringList{nameFromBytes(j.stdOut)},
                                     tr("Output of Slurm job %1").arg(slurmShown(j.id)), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

}  // namespace ingot
