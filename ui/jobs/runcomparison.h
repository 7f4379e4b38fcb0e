// The comparison of runs (issue 38), opened from the Jobs page with two or more runs selected: their curves overlaid
// (loss, learning rate, throughput, gradient norm; by step or by wall time), the settings each recorded with the
// differences highlighted, and their graphs side by side with the explanation rule's verdicts. It only shows what
// services/neuron/runcompare.h computes (the same as `ingot-cli job compare`), read off the UI thread.
#pragma once

#include "services/neuron/runcompare.h"

#include <QDialog>
#include <QMap>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace ingot {

class ComparisonChart;
class JobService;

class RunComparisonDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunComparisonDialog)

public:
    // Starts reading the runs `ids` of `service`'s history (the first is the one the others are compared with).
    RunComparisonDialog(JobService *service, const QStringList &ids, QWidget *parent = nullptr);
    ~RunComparisonDialog() override;

    QStringList jobIds() const { return m_ids; }
    bool isReady() const { return m_ready; }
    const RunComparison &comparison() const { return m_comparison; }
    // Shows a comparison (what the reading hands back; tests may hand one in).
    void showComparison(const RunComparison &c);

    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *xAxisChoice() const { return m_xAxis; }
    ComparisonChart *chart(MetricKind kind) const { return m_charts.value(int(kind)); }
    QTableWidget *settingsTable() const { return m_settings; }
    QCheckBox *onlyDifferencesCheck() const { return m_onlyDifferences; }
    QTableWidget *curvesTable() const { return m_curves; }
    QTableWidget *graphsTable() const { return m_graphs; }
    QLabel *graphsSummary() const { return m_graphsSummary; }
    QLabel *runsLabel() const { return m_runs; }
    // Reads the runs again (a running run has gone on): enabled while no reading is under way.
    QPushButton *refreshButton() const { return m_refresh; }
    void refresh();

    // The role that holds, in the settings table's first column, whether the row differs; in the graphs table's run
    // columns, the verdict's name ("other-flags"; "" where the run has no such graph).
    static constexpr int DiffersRole = Qt::UserRole + 1;
    static constexpr int VerdictRole = Qt::UserRole + 2;

Q_SIGNALS:
    void ready();

private:
    QWidget *buildCurves();
    QWidget *buildSettings();
    QWidget *buildGraphs();
    void showRuns();
    void showCurves();
    void showSettings();
    void showGraphs();
    void applyOnlyDifferences();

    QPointer<JobService> m_service;
    QStringList m_ids;
    RunComparison m_comparison;
    bool m_ready = false;
    Task m_task;
    QLabel *m_runs;
    QTabWidget *m_tabs;
    QPushButton *m_refresh;
    QComboBox *m_xAxis = nullptr;
    QMap<int, ComparisonChart *> m_charts;
    QTableWidget *m_curves = nullptr;
    QTableWidget *m_settings = nullptr;
    QCheckBox *m_onlyDifferences = nullptr;
    QTableWidget *m_graphs = nullptr;
    QLabel *m_graphsSummary = nullptr;
};

}  // namespace ingot
