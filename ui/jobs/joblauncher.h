// The launcher of the Jobs page: a form for every setting of a training job, checked as you type (each problem
// next to its field), the figures that follow from the layout, the compile cache the job will use and whether it
// holds entries that block recompiling, and the exact command. The plan shown is the plan launched. It shows a
// LaunchForm (services/neuron/launchform.h): the checks, the plan, the presets and the cache's warnings are there.
#pragma once

#include "services/neuron/launchform.h"
#include "services/util/task.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QShowEvent;
class QSpinBox;
class QTableWidget;
class QTimer;
class QVBoxLayout;

namespace ingot {

class JobService;
class SlurmSection;

class JobLauncher final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobLauncher)

public:
    // How long the form must rest before its files are checked and the command planned.
    static constexpr int kSettleMs = 150;

    explicit JobLauncher(JobService *service, QWidget *parent = nullptr);
    ~JobLauncher() override;

    // The job the form describes now.
    JobSpec spec() const;
    // Fills the form ("Resume", "Launch again", presets).
    void setSpec(const JobSpec &spec);

    // For tests and the main window.
    QPushButton *launchButton() const { return m_launch; }
    QComboBox *runOnCombo() const { return m_runOn; }
    QComboBox *engineCombo() const { return m_engine; }
    // What the job's Python proposes ("Proposed: torch 2.6 without torch_xla: native PyTorch.").
    QLabel *engineProposalLabel() const { return m_engineProposal; }
    QPushButton *askComputeNodeButton() const { return m_askNode; }
    // The warnings and notes of the last check (jobNotes), one a line.
    QLabel *notesLabel() const { return m_notes; }
    // The message shown by a field (a flag such as "tensor_parallel_size", or "nproc_per_node", "nnodes", "script",
    // "module", "python", "extra_args", "env"); empty when it has none.
    QString problemText(const QString &field) const;
    QLabel *problemLabel(const QString &field) const { return m_problemLabels.value(field); }
    // The widget that edits a flag's value (a spin box, line edit, check box or combo box); nullptr for none.
    QWidget *fieldWidget(const QString &flag) const { return m_fields.value(flag); }
    QPlainTextEdit *preview() const { return m_preview; }
    QPushButton *copyButton() const { return m_copy; }
    QPushButton *copyScriptButton() const { return m_copyScript; }
    QComboBox *presetCombo() const { return m_presets; }
    QLabel *figuresLabel() const { return m_figuresLabel; }
    QLabel *cacheLabel() const { return m_cacheLabel; }
    QLabel *cacheWarning() const { return m_cacheWarning; }
    QLabel *priorGraphsLabel() const { return m_priorGraphs; }
    QCheckBox *seedBox() const { return m_seedBox; }        // *Bring compiled graphs first*
    QLineEdit *seedPlacesEdit() const { return m_seedPlaces; }
    QLabel *seedLabel() const { return m_seedNote; }
    QPushButton *seedStopButton() const { return m_seedStop; }
    QLabel *launchErrorLabel() const { return m_launchError; }
    QCheckBox *precompileCheck() const { return m_precompile; }
    // Why Precompile first cannot be chosen where the job runs (hidden when it can).
    QLabel *precompileReason() const { return m_precompileWhy; }
    SlurmSection *slurmSection() const { return m_slurm; }
    QPushButton *cleanCacheButton() const { return m_clean; }
    // The figures shown (from the last check of the form).
    const JobFigures &figures() const { return m_form->lastCheck().figures; }
    // The plan the preview shows and Launch starts; valid only while hasPlan().
    bool hasPlan() const { return m_form->hasPlan(); }
    const LaunchPlan &currentPlan() const { return m_form->plan(); }
    // The compile cache the job uses, as resolved from its environment.
    QString compileCacheRoot() const { return m_form->cacheNote().root; }
    // True while a check, a plan or a cache scan is pending or running.
    bool isBusy() const;

    // Presets without the name prompt (the buttons use these).
    void savePreset(const QString &name);
    void deletePreset(const QString &name);
    QStringList presetNames() const;

public Q_SLOTS:
    // The cache chosen on the Local cache page: the default NEURON_COMPILE_CACHE_URL of new jobs.
    void setDefaultCompileCache(const QString &root);
    // Launches the plan shown.
    void launch();
    // Scans the job's compile cache again.
    void recheckCache();

Q_SIGNALS:
    void launched(const QString &id);
    // "Clean…": the Local cache page should preview maintenance of that cache.
    void cleanCacheRequested(const QString &root);
    void checked();         // problems and figures shown for the current form
    void previewUpdated();  // the preview shows the current plan, or why there is none
    void cacheChecked();    // the compile cache's warning is up to date
    void priorGraphsChecked();  // the last run with these settings was looked for
    void seedChecked();         // what *Bring compiled graphs first* would bring was looked for
    void engineProposed();      // the proposal label says what the job's Python has

protected:
    // The background work (Python detection, checking the form, scanning the compile cache) starts when the
    // launcher is first shown: Ingot starts without it, and a user who never opens Jobs never pays for it.
    void showEvent(QShowEvent *e) override;

private:
    enum PythonRole { PathRole = Qt::UserRole + 1, ChooseRole };  // the Python list's item data

    QWidget *buildWhatRuns();
    QWidget *buildModel();
    QWidget *buildParallelism();
    QWidget *buildBatch();
    QWidget *buildOptimisation();
    QWidget *buildSaving();
    QWidget *buildEnvironment();
    QWidget *buildSidePanel();
    void addSeedWidgets(QVBoxLayout *cv);
    QWidget *withProblem(const QString &field, QWidget *editor, QWidget *shown = nullptr);
    QWidget *withBrowse(QLineEdit *edit, const std::function<void()> &browse);
    void watch(QWidget *w);

    void onChanged();
    void invalidate();
    void updateEnabled();
    // What the form holds, for the launch form.
    LaunchInput input() const;
    void check();
    void showCheck();
    void showProblems(const QVector<JobProblem> &problems);
    void showFigures(const LaunchCheck &check, const JobSpec &spec);
    void showPreview();
    void updateLaunchButton();
    void showCache();
    void showPriorGraphs();
    void showEngineProposal();
    void showNotes(const QVector<JobNote> &notes);

    void fillPythons(const QVector<PythonInfo> &pythons);
    // "Run on": this machine ("local") or a host; a multi-node job's hosts, the chosen one first.
    QString where() const;
    QStringList nodes() const;
    void fillHosts();
    void onRunOnChanged();
    void askSlurm();  // the cluster of Run on, when the Slurm section is on
    void detectPythonsThere();
    void selectPython(const QString &path);
    void updatePythonInfo();
    void choosePython();
    void reloadPresets(const QString &select);
    void applyPreset(int index);
    void askPresetName();

    JobService *m_service;
    LaunchForm *m_form;
    QTimer *m_settle;
    bool m_applying = false;
    QString m_defaultCache;
    bool m_started = false;       // shown once: background work may run

    QHash<QString, QWidget *> m_fields;
    QHash<QString, QLabel *> m_problemLabels;

    // What runs
    QLineEdit *m_name;
    QButtonGroup *m_programGroup;
    QRadioButton *m_backend, *m_script, *m_module;
    QLineEdit *m_scriptEdit, *m_moduleEdit, *m_extraArgs;
    QCheckBox *m_passSettings;
    QComboBox *m_engine;
    QLabel *m_engineProposal;
    QPushButton *m_askNode;
    // Model and data
    QRadioButton *m_builtinModel, *m_folderModel;
    QComboBox *m_configName;
    QLineEdit *m_modelPath;
    QLabel *m_modelInfo;
    QRadioButton *m_sampleData, *m_fileData, *m_folderData;
    QLineEdit *m_trainFile;
    QLineEdit *m_outputDir;
    // Parallelism and batch
    QSpinBox *m_nproc, *m_nnodes, *m_tp, *m_pp, *m_microbatches;
    QCheckBox *m_zero1, *m_fsdp, *m_sequenceParallel, *m_embeddingParallel;
    QSpinBox *m_batch, *m_accumulation, *m_blockSize;
    // Optimisation
    QLineEdit *m_learningRate, *m_weightDecay, *m_maxGradNorm, *m_epochs;
    QSpinBox *m_warmup, *m_maxSteps;
    QRadioButton *m_byEpochs, *m_bySteps;
    QCheckBox *m_bf16, *m_torchCompile;
    // Saving, other
    QSpinBox *m_loggingSteps, *m_saveSteps, *m_saveTotalLimit, *m_seed;
    QLineEdit *m_resumeFrom;
    QString m_resumedFromJob, m_resumedFromPath;  // the job the form resumes (kept while resumeFrom is its path)
    QComboBox *m_device;
    // Where
    QComboBox *m_runOn;
    QLineEdit *m_otherNodes;
    SlurmSection *m_slurm;
    Task m_slurmTask;
    QString m_slurmAsked;  // where the cluster was last asked (and with which slurm.conf)
    QLabel *m_runOnInfo;
    // Environment
    QComboBox *m_python;
    QLabel *m_pythonInfo;
    QLineEdit *m_ccFlags, *m_cacheUrl;
    QTableWidget *m_env;

    // Side panel
    QComboBox *m_presets;
    QPushButton *m_deletePreset;
    QLabel *m_figuresLabel;
    QLabel *m_cacheLabel;
    QLabel *m_priorGraphs = nullptr;
    QCheckBox *m_seedBox = nullptr;
    QLineEdit *m_seedPlaces = nullptr;
    QLabel *m_seedNote = nullptr;
    QPushButton *m_seedStop = nullptr;
    QCheckBox *m_precompile = nullptr;
    QLabel *m_precompileWhy = nullptr;
    QLabel *m_cacheWarning;
    QPushButton *m_clean;
    QLabel *m_generalProblems;
    QLabel *m_notes;
    QPlainTextEdit *m_preview;
    QPushButton *m_copy, *m_copyScript;
    QLabel *m_launchError;
    QPushButton *m_launch;
};

}  // namespace ingot
