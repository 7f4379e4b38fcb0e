// One job as it runs or ran: its state and progress (with the reason when it failed), the metrics as charts (loss
// raw and smoothed, learning rate, gradient norm, throughput; other runs overlaid), the logs per rank, what it added
// to the compile cache, and what can be done with it next (stop, resume, consolidate, open, launch again).
#pragma once

#include "services/cache/compilelog.h"
#include "services/jobs/jobservice.h"
#include "services/util/task.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QTabWidget;
class QTimer;
class QToolButton;
class QTreeWidget;

namespace ingot {

struct PrecompileProgress;
class NeuronCoresView;

class CacheSession;
class JobFileDialog;
class JobLogView;
class MetricChart;
class StallBanner;

class JobMonitor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobMonitor)

public:
    explicit JobMonitor(JobService *service, QWidget *parent = nullptr);
    ~JobMonitor() override;

    // Shows a job of the service's history (follows it: JobService::watch).
    void setJob(const QString &id);
    QString jobId() const { return m_id; }
    JobStatus status() const;
    // The newest output_dir/checkpoint-N found ("" : none), as last looked for.
    QString latestCheckpoint() const { return m_checkpoint; }
    // The compile cache this job uses (its NEURON_COMPILE_CACHE_URL / NEURON_CC_FLAGS, else the default).
    QString compileCacheRoot() const { return m_cacheRoot; }
    // Overlays another run of the history on the charts (as the Compare menu does).
    void setOverlay(const QString &otherId, bool on);
    QStringList overlays() const { return m_overlayIds; }

    // For tests.
    QLabel *titleLabel() const { return m_title; }
    QLabel *stateLabel() const { return m_state; }
    // "Resumed from <the job>": a link to the job whose checkpoint this one resumed (hidden for others).
    QLabel *resumedFromLabel() const { return m_resumedFrom; }
    QWidget *reasonBanner() const { return m_banner; }
    QLabel *reasonLabel() const { return m_reason; }
    StallBanner *stallBanner() const { return m_stall; }  // a stalled job: since when, the ranks, Dump stacks
    QToolButton *reasonDetailToggle() const { return m_detailToggle; }
    QPlainTextEdit *reasonDetail() const { return m_detail; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *factsLabel() const { return m_facts; }
    MetricChart *chart(MetricKind kind) const;
    QComboBox *xAxisCombo() const { return m_xAxis; }
    QCheckBox *logScaleCheck() const { return m_logScale; }
    QSlider *smoothingSlider() const { return m_smoothing; }
    QToolButton *compareButton() const { return m_compare; }
    JobLogView *logView() const { return m_logs; }
    QTabWidget *tabs() const { return m_tabs; }
    QTreeWidget *compileList() const { return m_compileList; }
    QLabel *compileLabel() const { return m_compileLabel; }
    QLabel *graphDetail() const { return m_graphDetail; }
    QGroupBox *precompileBox() const { return m_precompileBox; }
    QLabel *precompileLabel() const { return m_precompileLabel; }
    QTreeWidget *precompileList() const { return m_precompileList; }
    NeuronCoresView *neuronCores() const { return m_neuron; }
    // NeuronCores are asked for while the job lives (a sample planned or on its way); false once it ended, or the
    // SDK is not where it runs.
    bool samplesNeuronCores() const;
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *resumeButton() const { return m_resume; }
    QPushButton *consolidateButton() const { return m_consolidate; }
    QPushButton *openOutputButton() const { return m_openOutput; }
    QPushButton *launchAgainButton() const { return m_launchAgain; }
    QPushButton *batchScriptButton() const { return m_batchScript; }  // shown for a Slurm job
    JobFileDialog *showBatchScript();  // its batch script(s), read where it runs; nullptr for other jobs

public Q_SLOTS:
    void stop();  // SIGTERM; after JobManager::stopGraceSeconds the button kills (SIGKILL)
    void resume();
    void launchAgain();
    void consolidate();
    void openOutputFolder();
    void rescanCompileCache();

Q_SIGNALS:
    void resumeRequested(const ingot::JobSpec &spec);  // the same settings, resumeFrom = latestCheckpoint()
    void launchAgainRequested(const ingot::JobSpec &spec);
    void consolidateRequested(const QString &outputFolder);
    void showCacheEntry(const QString &root, const QString &key);
    void jobRequested(const QString &id);  // "Resumed from …" was clicked: show that job
    void checkpointsScanned();  // latestCheckpoint() was looked for again
    void compileActivityChanged();  // the compile list was filled again
    void precompileChanged();       // the precompile phase's progress was read again
    void neuronCoresSampled();      // a NeuronCore sample (or why there is none) is shown
    void consolidatedThere(int code, const QString &text);  // a consolidation on the job's host ended (or was cancelled)

private:
    QWidget *buildHeader();
    QWidget *buildCharts();
    QWidget *buildCompileActivity();
    QWidget *buildNeuronCores();
    void sampleNeuronCores();
    void onJobUpdated(const QString &id);
    void updateStatus();
    void updateResumedFrom();
    void updateActions();
    void scanCheckpoints();
    void rebuildCompareMenu();
    void applyOverlays();
    void openCompileCache();
    void refreshCompileList();
    void showGraphs(const JobGraphs &graphs);
    void showPrecompile(const PrecompileProgress &p);
    bool hasRecord() const { return !m_record.id.isEmpty(); }

    QPointer<JobService> m_service;
    QString m_id;
    JobRecordFile m_record;
    QString m_checkpoint;
    QString m_lastCheckpointSeen;
    JobState m_lastState = JobState::Starting;
    bool m_outputExists = false;
    bool m_killArmed = false;
    bool m_stopSent = false;
    Task m_checkpointScan;
    Task m_cacheTask;
    Task m_graphsTask;  // the compile activity's verdicts, worked out off the UI thread
    QHash<QString, JobGraph> m_graphs;  // by key, for the next refresh
    QString m_cacheRule;
    Task m_seedTask;     // what *Bring compiled graphs first* brought before the job started (JOB/seed.json)
    QString m_seedLine;
    Task m_consolidateTask;  // on the job's host; the Consolidate button cancels it meanwhile
    bool m_consolidateCancelled = false;
    QStringList m_overlayIds;
    QHash<QString, QVector<MetricPoint>> m_overlayPoints;
    QString m_cacheRoot;

    QLabel *m_title;
    QLabel *m_state;
    QLabel *m_resumedFrom;
    QWidget *m_banner;
    StallBanner *m_stall;
    QLabel *m_reason;
    QToolButton *m_detailToggle;
    QPlainTextEdit *m_detail;
    QProgressBar *m_progress;
    QLabel *m_facts;
    QPushButton *m_stop;
    QPushButton *m_resume;
    QPushButton *m_consolidate;
    QPushButton *m_openOutput;
    QPushButton *m_launchAgain;
    QPushButton *m_batchScript;
    QTimer *m_killTimer;
    QTabWidget *m_tabs;
    QVector<MetricChart *> m_charts;
    QComboBox *m_xAxis = nullptr;
    QCheckBox *m_logScale = nullptr;
    QSlider *m_smoothing = nullptr;
    QLabel *m_smoothingValue = nullptr;
    QToolButton *m_compare = nullptr;
    JobLogView *m_logs;
    CacheSession *m_cache;
    QTimer *m_cacheTimer;
    QTreeWidget *m_compileList = nullptr;
    QLabel *m_graphDetail = nullptr;
    QGroupBox *m_precompileBox = nullptr;
    QLabel *m_precompileLabel = nullptr;
    QTreeWidget *m_precompileList = nullptr;
    QPlainTextEdit *m_precompileLog = nullptr;
    Task m_precompileTask;
    NeuronCoresView *m_neuron = nullptr;
    QTimer *m_neuronTimer = nullptr;
    Task m_neuronTask;
    bool m_neuronUnavailable = false;  // no neuron-monitor where the job runs: not asked again for this job
    bool m_neuronDevicesRead = false;
    QLabel *m_compileLabel = nullptr;
};

}  // namespace ingot
