// The monitor's stall banner (issue 38): a running job whose step has not advanced for longer than its threshold
// (services/jobs/stallrule.h): since when, the threshold, the ranks that logged last (jobStallText), and Dump stacks,
// which asks the job's ranks for their Python stacks (JobService::stacksOf) and shows them, a tab per rank. Its
// threshold button (which the monitor places in its header: a threshold is set before a stall) sets the job's own
// threshold while it runs (JobService::setStallAfter).
#pragma once

#include "services/jobs/jobservice.h"
#include "services/util/task.h"

#include <QFrame>
#include <QPointer>

class QInputDialog;
class QLabel;
class QPushButton;
class QTabWidget;

namespace ingot {

class StallBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StallBanner)

public:
    explicit StallBanner(JobService *service, QWidget *parent = nullptr);
    ~StallBanner() override;
    // Shown while the job is stalled (or its stacks are shown); hidden otherwise. A new job clears the stacks.
    void showStatus(const JobRecordFile &record, const JobStatus &status);

    QLabel *textLabel() const { return m_text; }
    QPushButton *dumpButton() const { return m_dump; }
    QTabWidget *stacksView() const { return m_stacks; }  // a tab per rank
    QLabel *answerLabel() const { return m_answer; }     // why nothing was asked, or a rank that wrote nothing
    QPushButton *thresholdButton() const { return m_thresholdButton; }  // shown while the job runs
    // The threshold dialog (open, not modal: its answer is set through the service); nullptr without a running job.
    QInputDialog *askThreshold();

public Q_SLOTS:
    void dumpStacks();

Q_SIGNALS:
    void stacksShown();  // the stacks (or why there are none) are shown
    void thresholdSet(const QString &error);  // the answer of a threshold set through the dialog ("" : set)

private:
    void showDump(const StackDump &d);

    QPointer<JobService> m_service;
    JobRecordFile m_record;
    Task m_task;
    bool m_busy = false;  // a dump is on its way
    QLabel *m_text;
    QPushButton *m_dump;
    QLabel *m_answer;
    QTabWidget *m_stacks;
    QPushButton *m_thresholdButton;
    double m_threshold = 0;  // the job's own, as last set (0: the default rule)
    Task m_thresholdTask;
};

}  // namespace ingot
