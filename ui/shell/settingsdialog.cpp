#include "ui/shell/settingsdialog.h"

#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ingot {

SettingsDialog::SettingsDialog(QWidget *parent)
    : QDialog(parent)
    , m_ttl(new QSpinBox(this))
    , m_size(new QDoubleSpinBox(this))
    , m_watch(new QCheckBox(tr("Follow the disk while jobs compile (watch folders, rescan after changes)"), this))
    , m_roots(new QListWidget(this))
    , m_sshConfig(new QLineEdit(this))
    , m_sshProblem(new QLabel(this))
{
    setWindowTitle(tr("Ingot Settings"));
    m_ttl->setRange(0, 3650);
    m_ttl->setSuffix(tr(" days"));
    m_ttl->setSpecialValueText(tr("no TTL"));
    m_ttl->setValue(AppSettings::ttlDays());
    m_ttl->setToolTip(tr("Entries unused for longer are pruned; entries used within this window are always kept, "
                         "even over the size limit. 0: no TTL (size limit alone, least recently used first)."));
    m_size->setRange(0, 100000);
    m_size->setDecimals(1);
    m_size->setSuffix(tr(" GB"));
    m_size->setSpecialValueText(tr("no limit"));
    m_size->setValue(double(AppSettings::maxCacheBytes()) / 1e9);
    m_watch->setChecked(AppSettings::watchForChanges());

    auto *prune = new QGroupBox(tr("Prune policy (as the Neuron docs describe it)"), this);
    auto *form = new QFormLayout(prune);
    form->addRow(tr("Keep entries used within:"), m_ttl);
    form->addRow(tr("Cache size limit:"), m_size);

    auto *rootsBox = new QGroupBox(tr("Cache folders you added"), this);
    auto *rl = new QVBoxLayout(rootsBox);
    m_roots->addItems(AppSettings::cacheRoots());
    m_roots->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto *remove = new QPushButton(tr("Forget selected"), rootsBox);
    remove->setToolTip(tr("Removes the folder from this list; nothing on disk is touched."));
    connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(m_roots->selectedItems()); });
    rl->addWidget(m_roots);
    rl->addWidget(remove, 0, Qt::AlignLeft);

    auto *sshBox = new QGroupBox(tr("Remote hosts (SSH)"), this);
    auto *sl = new QVBoxLayout(sshBox);
    auto *sshRow = new QHBoxLayout;
    m_sshConfig->setText(AppSettings::sshConfigFile());
    m_sshConfig->setPlaceholderText(tr("your ssh config (~/.ssh/config and /etc/ssh/ssh_config)"));
    m_sshConfig->setClearButtonEnabled(true);
    auto *browse = new QPushButton(tr("Choose…"), sshBox);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("An ssh config file"), m_sshConfig->text());
        if (!f.isEmpty())
            m_sshConfig->setText(f);
    });
    sshRow->addWidget(new QLabel(tr("ssh config file:"), sshBox));
    sshRow->addWidget(m_sshConfig, 1);
    sshRow->addWidget(browse);
    sl->addLayout(sshRow);
    auto *sshHint = new QLabel(tr("Empty: ssh reads your own config, as in a terminal. A file here is passed as "
                                  "<tt>ssh -F</tt> and used <i>instead</i> (Include your own config from it to keep "
                                  "both). The Remote hosts list shows its Host names."), sshBox);
    sshHint->setWordWrap(true);
    sl->addWidget(sshHint);
    m_sshProblem->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_sshProblem->setWordWrap(true);
    m_sshProblem->hide();
    sl->addWidget(m_sshProblem);

    auto *where = new QLabel(tr("Settings are stored in %1").arg(AppSettings::fileName()), this);
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *col = new QVBoxLayout(this);
    col->addWidget(prune);
    col->addWidget(m_watch);
    col->addWidget(rootsBox);
    col->addWidget(sshBox);
    col->addWidget(where);
    col->addWidget(buttons);
    resize(560, 560);
}

void SettingsDialog::accept()
{
    const QString ssh = m_sshConfig->text().trimmed();
    if (!ssh.isEmpty() && !QFileInfo(ssh).isFile()) {
        m_sshProblem->setText(tr("%1 is not a file. Choose an ssh config file, or leave the field empty.").arg(displayName(ssh)));
        m_sshProblem->show();
        m_sshConfig->setFocus();
        return;
    }
    if (ssh != AppSettings::sshConfigFile()) {
        AppSettings::setSshConfigFile(ssh);
        RemoteHosts::instance().reset();  // connections made with the old config are not reused
    }
    AppSettings::setTtlDays(m_ttl->value());
    AppSettings::setMaxCacheBytes(qint64(m_size->value() * 1e9));
    AppSettings::setWatchForChanges(m_watch->isChecked());
    QStringList roots;
    for (int i = 0; i < m_roots->count(); ++i)
        roots << m_roots->item(i)->text();
    AppSettings::setCacheRoots(roots);
    QDialog::accept();
}

}  // namespace ingot
