// The launcher's Slurm section: submit the job through the Slurm cluster of the machine chosen in "Run on" (this
// machine or a login node), with its partition (as sinfo lists them, each with its idle nodes), time limit,
// account, QoS, whole nodes or shared, and extra #SBATCH lines. A checkable group: unchecked, the job runs as before.
#pragma once

#include "services/jobs/jobspec.h"
#include "services/slurm/slurmcluster.h"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ingot {

class SlurmSection final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SlurmSection)

public:
    explicit SlurmSection(QWidget *parent = nullptr);

    SlurmSettings settings() const;
    void setSettings(const SlurmSettings &s);
    // What the cluster said (or why it could not be asked): the partitions offered, and a line about it.
    void showCluster(const SlurmClusterState &state, const QString &error);
    void showAsking(const QString &where);
    QComboBox *partitionBox() const { return m_partition; }
    QLabel *clusterLabel() const { return m_cluster; }
    QCheckBox *precompileCheck() const { return m_precompile; }
    // Precompile first where the job runs: `why` it cannot be chosen (precompileUnavailableReason), shown under the
    // option, which is then disabled (unless checked, so it can be unchecked); empty: it can.
    void setPrecompileUnavailable(const QString &why);
    QLabel *precompileReason() const { return m_precompileWhy; }

Q_SIGNALS:
    void changed();

private:
    QComboBox *m_partition;
    QLineEdit *m_time;
    QLineEdit *m_account;
    QLineEdit *m_qos;
    QCheckBox *m_exclusive;
    QCheckBox *m_precompile;
    QLabel *m_precompileWhy;
    QPlainTextEdit *m_extra;
    QLabel *m_cluster;
};

}  // namespace ingot
