#include "ui/checkpoint/consolidaterunpage.h"

#include "services/util/format.h"
#include "services/util/names.h"

#include <QLabel>
#include <QMutex>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWizard>

#include <memory>

namespace ingot {

namespace {
// The newest progress of a run: written by the worker, read on the UI thread when it is told there is news.
class LatestProgress final
{
    Q_DISABLE_COPY_MOVE(LatestProgress)

public:
    LatestProgress() = default;
    void set(const ConsolidateProgress &p)
    {
        QMutexLocker lock(&m_mutex);
        m_latest = p;
    }
    ConsolidateProgress get()
    {
        QMutexLocker lock(&m_mutex);
        return m_latest;
    }

private:
    QMutex m_mutex;
    ConsolidateProgress m_latest;
};
}  // namespace

ConsolidateRunPage::ConsolidateRunPage(const ConsolidationRequest &request, QWidget *parent)
    : QWizardPage(parent)
    , m_request(request)
{
    setTitle(tr("Consolidating"));
    setSubTitle(tr("Written into a temporary folder that becomes the output only once everything is in it: "
                   "stopping leaves nothing behind."));
    m_progress = new QProgressBar(this);
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setToolTip(tr("Stops the run and removes what it wrote so far"));
    auto *rl = new QVBoxLayout(this);
    rl->addWidget(m_progress);
    rl->addWidget(m_status);
    rl->addWidget(m_stop, 0, Qt::AlignLeft);
    rl->addStretch();
    connect(m_stop, &QPushButton::clicked, this, [this] { stop(false); });
}

ConsolidateRunPage::~ConsolidateRunPage()
{
    m_task.stop();
}

void ConsolidateRunPage::stop(bool closing)
{
    m_task.stop();
    m_stop->setEnabled(false);
    m_status->setText(closing ? tr("Stopping; nothing will be left behind. The window closes when it is done…")
                              : tr("Stopping; nothing will be left behind…"));
}

// Writes what the Check page planned (and the Options page set): the shards are not planned again.
void ConsolidateRunPage::initializePage()
{
    if (!m_request.isPlanned() || !m_request.planProblems().isEmpty())
        return;
    m_running = true;
    m_ran = false;
    m_result = ConsolidationResult();
    m_stop->setEnabled(true);
    m_stop->show();
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status->setText(tr("Starting…"));
    const bool resharding = m_request.mode == ConsolidationRequest::Mode::Reshard;
    setTitle(resharding ? tr("Re-sharding") : tr("Consolidating"));
    refresh();
    m_clock.start();
    auto latest = std::make_shared<LatestProgress>();
    m_task = runTask(
        this,
        [request = m_request, latest](TaskControl &control) mutable {
            ConsolidationResult r = request.run([&control, latest](const ConsolidateProgress &p) {
                latest->set(p);
                control.setProgress(p.bytesDone, p.bytesTotal, p.current);
            }, control.stopFlag());
            r.outputs.clear();  // they point into this copy of the request
            return r;
        },
        [this](const ConsolidationResult &r) { showResult(r); },
        [this, latest](const TaskProgress &) { showProgress(latest->get()); });
}

void ConsolidateRunPage::showProgress(const ConsolidateProgress &p)
{
    if (!m_running || !m_stop->isEnabled())
        return;  // stopping: keep saying so
    const double secs = double(m_clock.elapsed()) / 1000.0;
    const double rate = secs > 0 ? double(p.bytesDone) / secs : 0;
    const int eta = rate > 0 ? int(double(p.bytesTotal - p.bytesDone) / rate) : 0;
    m_progress->setValue(p.bytesTotal > 0 ? int(1000 * p.bytesDone / p.bytesTotal) : 1000);
    m_status->setText(tr("%1 of %2 — %3 of %4 tensors — about %5 s left\n%6")
                          .arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal))
                          .arg(p.tensorsDone).arg(p.tensorsTotal).arg(eta).arg(displayName(p.current)));
    if (progressed)
        progressed(p.tensorsDone, p.tensorsTotal);
}

void ConsolidateRunPage::showResult(const ConsolidationResult &r)
{
    const ConsolidateReport &rep = r.report;
    m_result = r;
    m_running = false;
    m_runMs = m_clock.elapsed();
    m_stop->setEnabled(false);
    m_stop->hide();
    m_ran = rep.ok();
    if (rep.cancelled) {
        m_status->setText(tr("Stopped. Nothing was written to %1. Go back to change the settings, or close the window.")
                              .arg(m_request.options.output));
    } else if (!rep.ok()) {
        QStringList all = rep.problems + rep.verifyProblems;
        if (!rep.error.isEmpty())
            all << rep.error;
        m_status->setText(tr("Failed, and nothing was left behind: %1\n\nGo back to change the settings, or close the window.")
                              .arg(all.join(QLatin1Char('\n'))));
    } else {
        m_progress->setValue(1000);
        m_status->setText(tr("Finished."));
    }
    refresh();
    if (finished)
        finished();
}

}  // namespace ingot
