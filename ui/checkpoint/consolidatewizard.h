// The guided consolidation: the steps of one ConsolidationRequest (services/checkpoint/consolidationrequest.h), a
// page each: choose a checkpoint (found as the path is typed), see the plan (every output tensor and how it is merged)
// or its problems, pick options (the output folder checked for room), run with progress and cancel, and read the
// summary. All work runs off the UI thread, the disk checks of the output folder included. Once a run has written its
// output the wizard goes on to the summary and there is no way back into it; a failed or cancelled run lets the user
// go back.
#pragma once

#include "services/checkpoint/consolidationrequest.h"
#include "ui/checkpoint/choosecheckpointpage.h"
#include "ui/checkpoint/consolidateoptionspage.h"
#include "ui/checkpoint/consolidateplanpage.h"
#include "ui/checkpoint/consolidaterunpage.h"
#include "ui/checkpoint/consolidatesummarypage.h"
#include "ui/checkpoint/reshardchoice.h"

#include <QWizard>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeView;

namespace ingot {

class ConsolidateWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsolidateWizard)

public:
    enum PageId { ChoosePage, CheckPage, OptionsPage, RunPage, SummaryPage };

    static constexpr int kOutputCheckDelayMs = ConsolidateOptionsPage::kOutputCheckDelayMs;
    static constexpr int kFolderLookDelayMs = ChooseCheckpointPage::kFolderLookDelayMs;

    explicit ConsolidateWizard(const QString &folder = {}, QWidget *parent = nullptr);
    ~ConsolidateWizard() override;

    void setFolder(const QString &folder);
    const ConsolidationRequest &request() const { return m_request; }
    const CheckpointCandidate *chosen() const { return m_request.checkpoint(); }
    const ConsolidateReport &report() const { return m_run->result().report; }
    bool isRunning() const { return m_run->isRunning(); }
    bool isResharding() const { return m_options->isResharding(); }
    // For tests: replaces the request's look at the disk (called off the UI thread).
    void setStorageProbe(ConsolidationRequest::OutputProbe probe) { m_request.setOutputProbe(std::move(probe)); }
    static QStringList recentFolders();

    // For tests: the pages' widgets.
    QLineEdit *folderEdit() const { return m_choose->folderEdit(); }
    QComboBox *checkpointCombo() const { return m_choose->checkpointCombo(); }
    QLabel *detectedLabel() const { return m_choose->detectedLabel(); }
    QListWidget *problemList() const { return m_check->problemList(); }
    QGroupBox *problemBox() const { return m_check->problemBox(); }
    QTreeView *planView() const { return m_check->planView(); }
    PlanModel *planModel() const { return m_check->planModel(); }
    QLineEdit *planFilter() const { return m_check->planFilter(); }
    QLabel *checkStatusLabel() const { return m_check->statusLabel(); }
    QLineEdit *outputEdit() const { return m_options->outputEdit(); }
    QLabel *spaceLabel() const { return m_options->spaceLabel(); }
    QDoubleSpinBox *shardSizeSpin() const { return m_options->shardSizeSpin(); }
    QCheckBox *verifyCheck() const { return m_options->verifyCheck(); }
    QCheckBox *mergeCheck() const { return m_options->mergeCheck(); }
    QCheckBox *optimizerCheck() const { return m_options->optimizerCheck(); }
    QLineEdit *baseModelEdit() const { return m_options->baseModelEdit(); }
    QCheckBox *overwriteCheck() const { return m_options->overwriteCheck(); }
    QComboBox *modeCombo() const { return m_options->modeCombo(); }
    QSpinBox *reshardTpSpin() const { return m_options->reshardChoice()->tpSpin(); }
    QSpinBox *reshardPpSpin() const { return m_options->reshardChoice()->ppSpin(); }
    QCheckBox *weightsOnlyCheck() const { return m_options->reshardChoice()->weightsOnlyCheck(); }
    QLabel *reshardNotesLabel() const { return m_options->reshardChoice()->notesLabel(); }
    QPushButton *cancelRunButton() const { return m_run->stopButton(); }
    QProgressBar *progressBar() const { return m_run->progressBar(); }
    QLabel *runStatusLabel() const { return m_run->statusLabel(); }
    QLabel *summaryLabel() const { return m_summary->summaryLabel(); }
    QLabel *loadSnippet() const { return m_summary->loadSnippet(); }

Q_SIGNALS:
    void detectionStarted(const QString &folder);
    void detectionFinished(int checkpoints);
    void checkFinished(int problems);
    void outputChecked(const QString &output);
    void progressed(int tensorsDone, int tensorsTotal);
    void runFinished(bool ok);
    void reshardPlanned(int problems);  // the re-shard plan for the layout in the fields is known

protected:
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;
    void reject() override;

private:
    void connectPages();
    void runFinishedHere();
    void updateBackButton();

    ConsolidationRequest m_request;  // the pages' steps fill it in, in order
    bool m_closeWhenStopped = false;  // Cancel was pressed during a run: close once it has cleaned up
    ChooseCheckpointPage *m_choose = nullptr;
    ConsolidatePlanPage *m_check = nullptr;
    ConsolidateOptionsPage *m_options = nullptr;
    ConsolidateRunPage *m_run = nullptr;
    ConsolidateSummaryPage *m_summary = nullptr;
};

}  // namespace ingot
