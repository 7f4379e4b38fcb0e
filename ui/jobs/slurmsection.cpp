#include "ui/jobs/slurmsection.h"

#include "services/util/names.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>

namespace ingot {

SlurmSection::SlurmSection(QWidget *parent)
    : QGroupBox(tr("Submit through Slurm"), parent)
    , m_partition(new QComboBox(this))
    , m_time(new QLineEdit(this))
    , m_account(new QLineEdit(this))
    , m_qos(new QLineEdit(this))
    , m_exclusive(new QCheckBox(tr("Whole nodes (--exclusive, as the Neuron tutorials)"), this))
    , m_precompile(new QCheckBox(tr("Precompile first (neuron_parallel_compile, a Slurm job of its own)"), this))
    , m_precompileWhy(new QLabel(this))
    , m_extra(new QPlainTextEdit(this))
    , m_cluster(new QLabel(this))
{
    setCheckable(true);
    setChecked(false);
    setToolTip(tr("sbatch on the machine chosen in Run on: one torchrun agent per allocated node (Nodes), the job "
                  "folder on the cluster's shared filesystem"));
    m_partition->setEditable(true);
    m_partition->setToolTip(tr("Empty: the cluster's default partition"));
    m_time->setPlaceholderText(tr("The partition's default (minutes, H:MM:SS, D-HH:MM:SS)"));
    m_account->setPlaceholderText(tr("Optional"));
    m_qos->setPlaceholderText(tr("Optional"));
    m_exclusive->setChecked(true);
    m_precompile->setToolTip(tr("A first Slurm job runs the same command under the Neuron SDK's neuron_parallel_compile, "
                                "which compiles every graph into the cache in parallel; the training job waits for it "
                                "(--dependency=afterok) and is cancelled by Slurm if it fails. Needs "
                                "neuron_parallel_compile beside the job's Python or on the PATH there."));
    m_extra->setPlaceholderText(tr("#SBATCH --mem=0\n#SBATCH --constraint=trn1.32xlarge"));
    m_extra->setTabChangesFocus(true);
    m_extra->setMaximumHeight(m_extra->fontMetrics().lineSpacing() * 4);
    m_cluster->setWordWrap(true);
    m_cluster->setEnabled(false);  // secondary text
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->addRow(tr("Partition:"), m_partition);
    form->addRow(tr("Time limit:"), m_time);
    form->addRow(tr("Account:"), m_account);
    form->addRow(tr("QoS:"), m_qos);
    form->addRow(QString(), m_exclusive);
    form->addRow(QString(), m_precompile);
    m_precompileWhy->setObjectName(QStringLiteral("precompileWhy"));
    m_precompileWhy->setWordWrap(true);
    m_precompileWhy->setTextFormat(Qt::PlainText);
    m_precompileWhy->setEnabled(false);  // secondary text
    m_precompileWhy->hide();
    form->addRow(QString(), m_precompileWhy);
    form->addRow(tr("Extra #SBATCH lines:"), m_extra);
    form->addRow(QString(), m_cluster);
    connect(this, &QGroupBox::toggled, this, &SlurmSection::changed);
    connect(m_partition, &QComboBox::currentTextChanged, this, &SlurmSection::changed);
    for (QLineEdit *e : {m_time, m_account, m_qos})
        connect(e, &QLineEdit::textChanged, this, &SlurmSection::changed);
    connect(m_exclusive, &QCheckBox::toggled, this, &SlurmSection::changed);
    connect(m_precompile, &QCheckBox::toggled, this, &SlurmSection::changed);
    connect(m_extra, &QPlainTextEdit::textChanged, this, &SlurmSection::changed);
}

void SlurmSection::setPrecompileUnavailable(const QString &why)
{
    m_precompile->setEnabled(why.isEmpty() || m_precompile->isChecked());
    m_precompileWhy->setText(why);
    m_precompileWhy->setVisible(!why.isEmpty());
}

SlurmSettings SlurmSection::settings() const
{
    SlurmSettings s;
    s.enabled = isChecked();
    // A partition offered by the cluster (its name behind the text shown), or the name typed.
    const int i = m_partition->currentIndex();
    s.partition = i >= 0 && m_partition->currentText() == m_partition->itemText(i) ? m_partition->itemData(i).toString()
                                                                                  : m_partition->currentText().trimmed();
    s.timeLimit = m_time->text().trimmed();
    s.account = m_account->text().trimmed();
    s.qos = m_qos->text().trimmed();
    s.exclusive = m_exclusive->isChecked();
    s.precompile = m_precompile->isChecked();
    for (const QString &line : m_extra->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString l = line.trimmed();
        if (!l.isEmpty())
            s.extraSbatch << (l.startsWith(QLatin1String("#SBATCH ")) ? l : QStringLiteral("#SBATCH ") + l);
    }
    return s;
}

void SlurmSection::setSettings(const SlurmSettings &s)
{
    setChecked(s.enabled);
    const int at = m_partition->findData(s.partition);
    if (at >= 0)
        m_partition->setCurrentIndex(at);
    else
        m_partition->setEditText(s.partition);
    m_time->setText(s.timeLimit);
    m_account->setText(s.account);
    m_qos->setText(s.qos);
    m_exclusive->setChecked(s.exclusive);
    m_precompile->setChecked(s.precompile);
    m_extra->setPlainText(s.extraSbatch.join(QLatin1Char('\n')));
}

void SlurmSection::showAsking(const QString &where)
{
    m_cluster->setText(tr("Asking the Slurm cluster of %1…").arg(displayName(where)));
}

void SlurmSection::showCluster(const SlurmClusterState &state, const QString &error)
{
    if (!error.isEmpty()) {
        m_cluster->setText(tr("Slurm could not be asked: %1").arg(displayText(error)));
        return;
    }
    if (!state.found) {
        m_cluster->setText(tr("No Slurm there: sinfo and sbatch are not on the PATH."));
        return;
    }
    const QString typed = settings().partition;
    const QSignalBlocker block(m_partition);
    m_partition->clear();
    QString defaultName;
    for (const SlurmPartition &p : state.info.partitions) {
        const QString name = slurmShown(p.name);
        m_partition->addItem(tr("%1 (%2 of %n node(s) idle, limit %3)%4", nullptr, p.totalNodes)
                                 .arg(name)
                                 .arg(p.idle)
                                 .arg(slurmShown(p.maxTime), p.isDefault ? tr(", default") : QString()),
                             name);
        if (p.isDefault)
            defaultName = name;
    }
    const int at = m_partition->findData(typed.isEmpty() ? defaultName : typed);
    if (at >= 0)
        m_partition->setCurrentIndex(at);
    else if (!typed.isEmpty())
        m_partition->setEditText(typed);
    const QString jobs = tr("%n job(s)", nullptr, int(state.info.queue.size()));  // two counts: two plurals
    m_cluster->setText(tr("Slurm %1, cluster %2: %n partition(s), your queue holds %3.", nullptr,
                          int(state.info.partitions.size()))
                           .arg(state.info.version, slurmShown(state.info.clusterName), jobs));
    Q_EMIT changed();
}

}  // namespace ingot
