// The guided consolidation: choose a checkpoint, see its problems, pick options, run with progress and cancel,
// and read the summary. All work runs off the UI thread.
#pragma once

#include "services/checkpoint/consolidate.h"

#include <QWizard>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace ingot {

class ConsolidateWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsolidateWizard)

public:
    enum PageId { ChoosePage, CheckPage, OptionsPage, RunPage, SummaryPage };

    explicit ConsolidateWizard(const QString &folder = {}, QWidget *parent = nullptr);
    ~ConsolidateWizard() override;

    // For tests and the command line: the chosen folder, and what was found in it.
    void setFolder(const QString &folder);
    QLineEdit *folderEdit() const { return m_folder; }
    QComboBox *checkpointCombo() const { return m_checkpoints; }
    QListWidget *problemList() const { return m_problems; }
    QLineEdit *outputEdit() const { return m_output; }
    QDoubleSpinBox *shardSizeSpin() const { return m_shardGb; }
    QCheckBox *verifyCheck() const { return m_verify; }
    QCheckBox *overwriteCheck() const { return m_overwrite; }
    QPushButton *cancelRunButton() const { return m_cancelRun; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *summaryLabel() const { return m_summary; }
    const ConsolidateReport &report() const { return m_report; }
    bool isRunning() const { return m_running; }
    const CheckpointCandidate *chosen() const;

    static QStringList recentFolders();

Q_SIGNALS:
    void detectionFinished(int checkpoints);
    void checkFinished(int problems);
    void progressed(int tensorsDone, int tensorsTotal);
    void runFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;
    void initializePage(int id) override;
    bool validateCurrentPage() override;
    void reject() override;

private:
    void detect();
    void check();
    void run();
    void updateFreeSpace();

    QVector<CheckpointCandidate> m_found;
    ConsolidationPlan m_plan;
    ConsolidateReport m_report;
    bool m_running = false;
    bool m_checked = false;
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_detectGen = 0;

    QLineEdit *m_folder;
    QComboBox *m_recent;
    QLabel *m_detected;
    QComboBox *m_checkpoints;
    QListWidget *m_problems;
    QLabel *m_checkStatus;
    QComboBox *m_format;
    QDoubleSpinBox *m_shardGb;
    QLineEdit *m_output;
    QLabel *m_space;
    QCheckBox *m_verify;
    QCheckBox *m_overwrite;
    QProgressBar *m_progress;
    QLabel *m_runStatus;
    QPushButton *m_cancelRun;
    QLabel *m_summary;
};

}  // namespace ingot
