// The consolidation wizard's Run step: the request run off the UI thread, its progress, and a stop that leaves
// nothing behind. A failed or stopped run stays here and says so; a finished one is handed on (finished).
#pragma once

#include "services/checkpoint/consolidationrequest.h"
#include "services/util/task.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QWizardPage>

#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ingot {

class ConsolidateRunPage final : public QWizardPage
{
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidateWizard)  // the wizard's words, one context for translators
    Q_DISABLE_COPY_MOVE(ConsolidateRunPage)

public:
    explicit ConsolidateRunPage(const ConsolidationRequest &request, QWidget *parent = nullptr);
    ~ConsolidateRunPage() override;

    void initializePage() override;  // runs the request
    bool isComplete() const override { return !m_running && m_ran; }
    // Stops the run; `closing`: the window closes once it has cleaned up (said so meanwhile).
    void stop(bool closing);
    bool isRunning() const { return m_running; }
    bool hasRun() const { return m_ran; }  // a run wrote its output
    const ConsolidationResult &result() const { return m_result; }
    qint64 runMs() const { return m_runMs; }

    std::function<void(int tensorsDone, int tensorsTotal)> progressed;
    std::function<void()> finished;  // result() holds the run's

    QPushButton *stopButton() const { return m_stop; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }

private:
    void showProgress(const ConsolidateProgress &p);
    void showResult(const ConsolidationResult &r);
    void refresh() { Q_EMIT completeChanged(); }

    const ConsolidationRequest &m_request;
    Task m_task;
    bool m_running = false;
    bool m_ran = false;
    ConsolidationResult m_result;
    QElapsedTimer m_clock;
    qint64 m_runMs = 0;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_stop = nullptr;
};

}  // namespace ingot
