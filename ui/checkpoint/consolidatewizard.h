// The guided consolidation: choose a checkpoint (found as the path is typed), see the plan (every output tensor and
// how it is merged) or its problems, pick options, run with progress and cancel, and read the summary. All work runs
// off the UI thread, the disk checks of the output folder included. Once a run has written its output the wizard
// goes on to the summary and there is no way back into it; a failed or cancelled run lets the user go back.
#pragma once

#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/reshard.h"
#include "services/util/task.h"

#include <QElapsedTimer>
#include <QWizard>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QStackedWidget;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QGroupBox;
class QPushButton;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;

namespace ingot {

class PlanModel;

class ConsolidateWizard final : public QWizard
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsolidateWizard)

public:
    enum PageId { ChoosePage, CheckPage, OptionsPage, RunPage, SummaryPage };

    // What the disk says about an output folder: the space free where it would go, whether it already exists and
    // holds files, and why it can never be used for the checked checkpoint (outputRefusal(): a link, not a folder,
    // the shards themselves or a folder holding them), if it cannot.
    struct OutputSpace {
        qint64 bytesFree = 0;
        bool existsNonEmpty = false;
        QString refusal;
    };
    // Asks the disk about an output folder; runs off the UI thread (it may stall on network file systems).
    using StorageProbe = std::function<OutputSpace(const QString &output)>;
    static OutputSpace probeOutput(const QString &output);
    // How long the output field must rest before its folder is checked.
    static constexpr int kOutputCheckDelayMs = 250;
    // How long the folder field must rest before checkpoints are looked for in it.
    static constexpr int kFolderLookDelayMs = 300;

    explicit ConsolidateWizard(const QString &folder = {}, QWidget *parent = nullptr);
    ~ConsolidateWizard() override;

    // For tests and the command line: the chosen folder, and what was found in it.
    void setFolder(const QString &folder);
    QLineEdit *folderEdit() const { return m_folder; }
    QComboBox *checkpointCombo() const { return m_checkpoints; }
    QLabel *detectedLabel() const { return m_detected; }
    QListWidget *problemList() const { return m_problems; }
    QGroupBox *problemBox() const { return m_problemBox; }
    QTreeView *planView() const { return m_planView; }
    PlanModel *planModel() const { return m_planModel; }
    QLineEdit *planFilter() const { return m_planFilter; }
    QLabel *checkStatusLabel() const { return m_checkStatus; }
    const ConsolidationPlan &plan() const { return m_plan; }
    QLineEdit *outputEdit() const { return m_output; }
    QLabel *spaceLabel() const { return m_space; }
    QDoubleSpinBox *shardSizeSpin() const { return m_shardGb; }
    QCheckBox *verifyCheck() const { return m_verify; }
    // A LoRA adapter: also merge it into its base model (a folder), written to <output>/merged.
    QCheckBox *mergeCheck() const { return m_merge; }
    QLineEdit *baseModelEdit() const { return m_baseModel; }
    QCheckBox *overwriteCheck() const { return m_overwrite; }
    // What is written: the consolidated model, or (re-shard) the checkpoint of another tensor/pipeline-parallel layout
    // of the bundled backend, which resumes from it.
    QComboBox *modeCombo() const { return m_mode; }
    bool isResharding() const;
    QSpinBox *reshardTpSpin() const { return m_reshardTp; }
    QSpinBox *reshardPpSpin() const { return m_reshardPp; }
    QCheckBox *weightsOnlyCheck() const { return m_weightsOnly; }
    QLabel *reshardNotesLabel() const { return m_reshardNotes; }
    const ReshardPlan &reshardPlan() const { return m_reshardPlan; }
    QPushButton *cancelRunButton() const { return m_cancelRun; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *runStatusLabel() const { return m_runStatus; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *loadSnippet() const { return m_snippet; }
    const ConsolidateReport &report() const { return m_report; }
    bool isRunning() const { return m_running; }
    const CheckpointCandidate *chosen() const;
    // For tests: replaces probeOutput() (called off the UI thread).
    void setStorageProbe(StorageProbe probe);

    static QStringList recentFolders();

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
    void initializePage(int id) override;
    bool validateCurrentPage() override;
    void reject() override;

private:
    // What a run hands back: the report, and the size of each file it wrote (read off the UI thread).
    struct RunResult {
        ConsolidateReport report;
        QVector<qint64> fileSizes;
        ConsolidateReport merged;  // the adapter merged into its base model, when asked for
        QString mergedOutput;
        bool resharded = false;  // the report is a re-shard's
    };

    void buildChoosePage();
    void buildCheckPage();
    void buildOptionsPage();
    void buildRunPage();
    void buildSummaryPage();
    // The re-shard choice on the Options page (reshardchoice.cpp).
    void buildReshardChoice(QFormLayout *form, QWidget *page, QWidget *consolidateSettings);
    void showModeChoice();
    void replanReshard();
    void showReshardPlan(const ReshardPlan &plan);
    ReshardOptions reshardOptions() const;
    void showReshardSummary(const RunResult &r);
    void refreshPage(int id);
    // The Check page (consolidatecheck.cpp): every member of the chosen checkpoint's consolidation set planned, the
    // plans shown as one table with a part per adapter.
    QString choiceText(int candidate) const;  // empty for an adapter listed with the first of its checkpoint's
    qint64 plannedBytes() const;

    void folderEdited();
    void detect();
    void showDetected(const QVector<CheckpointCandidate> &found, const QString &error, const QString &folder);
    void check();
    void showCheck(const QVector<ConsolidationPlan> &plans);
    void forgetOutputAnswer();
    void outputEdited();
    void checkOutput();
    void showOutputState();
    bool outputReady() const;
    ConsolidateOptions options() const;
    void run();
    void showProgress(const ConsolidateProgress &p);
    void showRunResult(const RunResult &r, const ConsolidateOptions &o);
    void showSummary(const RunResult &r, const ConsolidateOptions &o);
    void updateBackButton();

    QString m_detectedFolder;  // the folder m_found is (or is being) read from
    quint64 m_detectGeneration = 0;  // of the latest detect(): an answer from an older one is dropped
    QString m_autoOutput;  // the output path the wizard proposed (replaced when another folder is chosen)
    QTimer *m_folderDelay = nullptr;
    bool m_closeWhenStopped = false;  // Cancel was pressed during a run: close once it has cleaned up
    bool m_ran = false;  // a run wrote its output: the pages before the summary are closed
    qint64 m_runMs = 0;
    QVector<CheckpointCandidate> m_found;
    ConsolidationPlan m_plan;  // of the chosen checkpoint (its first adapter), once checked; its problems are all the plans'
    QVector<ConsolidationPlan> m_plans;  // every member of its consolidation set (several for a checkpoint's adapters)
    ConsolidateReport m_report;
    bool m_running = false;
    bool m_checked = false;
    Task m_detecting;
    Task m_checking;
    Task m_probing;
    Task m_consolidating;
    StorageProbe m_probe = &ConsolidateWizard::probeOutput;
    QTimer *m_outputDelay = nullptr;
    bool m_spaceKnown = false;  // m_spaceAnswer answers for the output path m_spaceFor
    QString m_spaceFor;
    OutputSpace m_spaceAnswer;
    QElapsedTimer m_runClock;

    QLineEdit *m_folder = nullptr;
    QComboBox *m_recent = nullptr;
    QLabel *m_detected = nullptr;
    QComboBox *m_checkpoints = nullptr;
    QListWidget *m_problems = nullptr;
    QGroupBox *m_problemBox = nullptr;
    QLabel *m_checkStatus = nullptr;
    QLineEdit *m_planFilter = nullptr;
    QTreeView *m_planView = nullptr;
    PlanModel *m_planModel = nullptr;
    QSortFilterProxyModel *m_planProxy = nullptr;
    QComboBox *m_format = nullptr;
    QDoubleSpinBox *m_shardGb = nullptr;
    QLineEdit *m_output = nullptr;
    QLabel *m_space = nullptr;
    QCheckBox *m_verify = nullptr;
    QCheckBox *m_merge = nullptr;
    QLineEdit *m_baseModel = nullptr;
    void showMergeChoice();
    QCheckBox *m_overwrite = nullptr;
    QComboBox *m_mode = nullptr;
    QSpinBox *m_reshardTp = nullptr;
    QSpinBox *m_reshardPp = nullptr;
    QCheckBox *m_weightsOnly = nullptr;
    QLabel *m_reshardNotes = nullptr;
    QStackedWidget *m_modeSettings = nullptr;  // the consolidation's settings, or the re-shard's
    ReshardPlan m_reshardPlan;
    bool m_reshardPlanned = false;  // m_reshardPlan answers for the layout in the fields
    Task m_reshardPlanning;
    QProgressBar *m_progress = nullptr;
    QLabel *m_runStatus = nullptr;
    QPushButton *m_cancelRun = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_snippet = nullptr;
};

}  // namespace ingot
