#include "ui/shell/settingsdialog.h"

#include "services/cache/cachelocation.h"
#include "services/cache/torchneuron.h"
#include "services/notify/notifier.h"
#include "services/cache/neffcache.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "ui/common/theme.h"

#include <QCheckBox>
#include <QEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

SettingsDialog::SettingsDialog(QWidget *parent)
    : QDialog(parent)
    , m_ttl(new QSpinBox(this))
    , m_size(new QDoubleSpinBox(this))
    , m_watch(new QCheckBox(tr("Follow the disk while jobs compile (watch folders, rescan after changes)"), this))
    , m_hubLayout(new QCheckBox(tr("Pull from the Hub as optimum-neuron does: files in the Hugging Face hub cache, "
                                   "linked into the compile cache"), this))
    , m_roots(new QListWidget(this))
    , m_sshConfig(new QLineEdit(this))
    , m_sshProblem(new QLabel(this))
    , m_language(new QComboBox(this))
    , m_appearance(new QComboBox(this))
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
    m_hubLayout->setChecked(AppSettings::pullHubCacheLayout());
    m_hubLayout->setToolTip(tr("Off (default): pulled modules are plain files in the compile cache. On: each file is a "
                               "blob under $HF_HOME/hub, shared with huggingface_hub downloads, and linked from the entry."));

    auto *prune = new QGroupBox(tr("Prune policy (as the Neuron docs describe it)"), this);
    auto *form = new QFormLayout(prune);
    form->addRow(tr("Keep entries used within:"), m_ttl);
    form->addRow(tr("Cache size limit:"), m_size);

    auto *rootsBox = new QGroupBox(tr("Cache folders you added"), this);
    auto *rl = new QVBoxLayout(rootsBox);
    m_roots->addItems(AppSettings::cacheRoots());
    m_roots->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_roots->setMaximumHeight(110);  // a few folders; the room goes to the texts that wrap
    auto *remove = new QPushButton(tr("Forget selected"), rootsBox);
    remove->setToolTip(tr("Removes the folder from this list; nothing on disk is touched."));
    connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(m_roots->selectedItems()); });
    rl->addWidget(m_roots);
    rl->addWidget(remove, 0, Qt::AlignLeft);

    QGroupBox *cachesBox = buildCachesBox();
    QGroupBox *sshBox = buildSshBox();
    QGroupBox *languageBox = buildLanguageBox();
    QGroupBox *notifyBox = buildNotificationsBox();

    auto *where = new QLabel(tr("Settings are stored in %1").arg(AppSettings::fileName()), this);
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Appearance: the system's look, or Fusion with Ingot's light or dark palette; shown as soon as it is chosen,
    // saved on OK, and the saved one comes back on Cancel.
    m_appearance->addItem(tr("System"), appearanceName(Appearance::System));
    m_appearance->addItem(tr("Light"), appearanceName(Appearance::Light));
    m_appearance->addItem(tr("Dark"), appearanceName(Appearance::Dark));
    m_appearance->setCurrentIndex(std::max(0, m_appearance->findData(AppSettings::appearance())));
    connect(m_appearance, &QComboBox::currentIndexChanged, this, [this] {
        applyAppearance(appearanceFromName(m_appearance->currentData().toString()));
        m_appearanceTried = true;
    });
    auto *appearanceRow = new QHBoxLayout;
    auto *appearanceLabel = new QLabel(tr("&Appearance:"), this);
    appearanceLabel->setBuddy(m_appearance);
    appearanceRow->addWidget(appearanceLabel);
    appearanceRow->addWidget(m_appearance);
    appearanceRow->addStretch(1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->addButton(m_restartButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *col = new QVBoxLayout(this);
    col->addWidget(prune);
    col->addWidget(m_watch);
    col->addWidget(m_hubLayout);
    col->addWidget(rootsBox);
    col->addWidget(cachesBox);
    col->addWidget(sshBox);
    col->addWidget(notifyBox);
    col->addWidget(languageBox);
    col->addLayout(appearanceRow);
    col->addWidget(where);
    col->addWidget(buttons);
    // Tab goes down the dialog as it reads: the fields, Language and Appearance, then Restart now, OK and Cancel at
    // the bottom. Made in another order, Restart now came after Cancel.
    QList<QWidget *> order{m_ttl, m_size, m_watch, m_hubLayout, m_roots, remove, m_sshConfig, m_sshBrowse};
    for (QCheckBox *c : std::as_const(m_notify))
        order << c;
    order << m_language << m_appearance << m_restartButton << buttons->button(QDialogButtonBox::Ok)
          << buttons->button(QDialogButtonBox::Cancel);
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order[i - 1], order[i]);
    resize(580, 860);
}

// The compile caches this environment gives the runtimes: neuronx-cc's (torch-neuronx, optimum-neuron) and
// TorchNeuron / vLLM-Neuron's, with why each is where it is. Set by the environment, not here.
QGroupBox *SettingsDialog::buildCachesBox()
{
    auto *box = new QGroupBox(tr("Compile caches in this environment"), this);
    const CacheLocation neuron = CacheLocation::resolve();
    const TorchNeuronLocations tn = resolveTorchNeuronLocations();
    auto *l = new QVBoxLayout(box);
    auto add = [&](const QString &text, bool small) {
        auto *label = new QLabel(text, box);
        label->setTextFormat(small ? Qt::PlainText : Qt::RichText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        if (small) {
            QFont f = label->font();
            f.setPointSizeF(f.pointSizeF() * 0.9);
            label->setFont(f);
            label->setContentsMargins(12, 0, 0, 4);
        }
        label->installEventFilter(this);  // its height follows its width (see eventFilter)
        m_caches << label;
        l->addWidget(label);
    };
    add(tr("<b>neuronx-cc</b> (torch-neuronx, optimum-neuron): %1").arg(displayName(neuron.path).toHtmlEscaped()), false);
    add(neuron.explanation, true);
    add(tr("<b>TorchNeuron / vLLM-Neuron</b>: %1%2")
            .arg(tn.disabled ? tr("off (NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1); ") : QString(), displayName(tn.local).toHtmlEscaped()),
        false);
    add(tn.localWhy + QLatin1Char(' ')
            + tr("Remote tier: %1.").arg(tn.remote.isEmpty() ? tr("none (NEURON_LIBTORCH_REMOTE_CACHE is not set)") : displayName(tn.remote)),
        true);
    const NeffCacheLocation neff = resolveNeffCacheLocation();
    add(tr("<b>TorchNeuron NEFF cache</b> (native PyTorch, Neuron 2.30 and later): %1").arg(displayName(neff.path).toHtmlEscaped()),
        false);
    add(neff.why, true);
    auto *hint = new QLabel(tr("Set by the environment Ingot was started in. ingot-cli cache status, ingot-cli "
                               "torchneuron status and ingot-cli neff status show the same."), box);
    hint->setWordWrap(true);
    hint->installEventFilter(this);
    l->addWidget(hint);
    return box;
}

// A dialog's layout sizes a wrapping label by its size hint, not by the lines it needs at the width it gets (a path
// one word too long for a line was cut off): these labels ask for that height whenever their width changes.
bool SettingsDialog::eventFilter(QObject *watched, QEvent *event)
{
    auto *label = qobject_cast<QLabel *>(watched);
    if (label && event->type() == QEvent::Resize) {
        const int need = label->heightForWidth(label->width());
        if (need > 0 && need != label->minimumHeight())
            label->setMinimumHeight(need);
    }
    return QDialog::eventFilter(watched, event);
}

QString SettingsDialog::cachesText() const
{
    QStringList lines;
    for (const QLabel *label : m_caches)
        lines << label->text();
    return lines.join(QLatin1Char('\n'));
}

QGroupBox *SettingsDialog::buildSshBox()
{
    auto *sshBox = new QGroupBox(tr("Remote hosts (SSH)"), this);
    auto *sl = new QVBoxLayout(sshBox);
    auto *sshRow = new QHBoxLayout;
    m_sshConfig->setText(AppSettings::sshConfigFile());
    m_sshConfig->setPlaceholderText(tr("your ssh config (~/.ssh/config and /etc/ssh/ssh_config)"));
    m_sshConfig->setClearButtonEnabled(true);
    auto *browse = m_sshBrowse = new QPushButton(tr("Choose…"), sshBox);
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
    setToneText(m_sshProblem, Tone::Bad);
    m_sshProblem->setWordWrap(true);
    m_sshProblem->hide();
    sl->addWidget(m_sshProblem);
    return sshBox;
}

QGroupBox *SettingsDialog::buildLanguageBox()
{
    // Each language named in itself, so that whoever cannot read the current one still finds their own.
    auto *languageBox = new QGroupBox(tr("Language"), this);
    auto *ll = new QVBoxLayout(languageBox);
    auto *languageRow = new QHBoxLayout;
    m_language->addItem(tr("System default"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral(u"简体中文"), QStringLiteral("zh_CN"));
    const int current = m_language->findData(AppSettings::language());
    if (current >= 0) {
        m_language->setCurrentIndex(current);
    } else {  // a name set by hand that Ingot has no translation for: kept as it is
        m_language->addItem(AppSettings::language(), AppSettings::language());
        m_language->setCurrentIndex(m_language->count() - 1);
    }
    auto *restart = m_restartButton = new QPushButton(tr("Restart now"), languageBox);
    restart->setToolTip(tr("Saves these settings and starts Ingot again in the language chosen."));
    restart->setEnabled(false);
    connect(m_language, &QComboBox::currentIndexChanged, this, [this, restart] {
        restart->setEnabled(m_language->currentData().toString() != AppSettings::language());
    });
    connect(restart, &QPushButton::clicked, this, [this] {
        m_restart = true;
        accept();
        if (result() != QDialog::Accepted)
            m_restart = false;
    });
    languageRow->addWidget(m_language, 1);
    ll->addLayout(languageRow);  // Restart now is with OK and Cancel: it saves, as OK does
    auto *languageHint = new QLabel(tr("A new language applies when Ingot starts again."), languageBox);
    languageHint->setWordWrap(true);
    ll->addWidget(languageHint);
    return languageBox;
}

// Desktop notifications, one check per kind (services/notify/notifier.h): shown only while Ingot is not in front.
QGroupBox *SettingsDialog::buildNotificationsBox()
{
    auto *box = new QGroupBox(tr("Desktop notifications, while Ingot is not in front"), this);
    auto *grid = new QGridLayout(box);
    const QVector<NotifyKind> kinds = allNotifyKinds();
    for (int i = 0; i < kinds.size(); ++i) {
        auto *check = new QCheckBox(notifyKindTitle(kinds[i]), box);
        check->setChecked(AppSettings::notificationOn(notifyKindName(kinds[i])));
        grid->addWidget(check, i / 2, i % 2);
        m_notify << check;
    }
    return box;
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
        RemoteHosts::instance().notifyChanged();  // the host lists read the new config's hosts
    }
    AppSettings::setTtlDays(m_ttl->value());
    AppSettings::setMaxCacheBytes(qint64(m_size->value() * 1e9));
    AppSettings::setWatchForChanges(m_watch->isChecked());
    AppSettings::setPullHubCacheLayout(m_hubLayout->isChecked());
    AppSettings::setLanguage(m_language->currentData().toString());
    const QVector<NotifyKind> kinds = allNotifyKinds();
    for (int i = 0; i < kinds.size() && i < m_notify.size(); ++i)
        AppSettings::setNotificationOn(notifyKindName(kinds[i]), m_notify[i]->isChecked());
    QStringList roots;
    for (int i = 0; i < m_roots->count(); ++i)
        roots << m_roots->item(i)->text();
    AppSettings::setCacheRoots(roots);
    const QString appearance = m_appearance->currentData().toString();
    if (appearance != AppSettings::appearance()) {
        AppSettings::setAppearance(appearance);
        applyAppearance(appearanceFromName(appearance));
    }
    m_appearanceTried = false;
    QDialog::accept();
}

// Cancel, Esc and closing the window all end here.
void SettingsDialog::done(int result)
{
    if (result != QDialog::Accepted)
        revertAppearance();
    QDialog::done(result);
}

void SettingsDialog::revertAppearance()
{
    if (!m_appearanceTried)
        return;
    m_appearanceTried = false;
    applyAppearance(appearanceFromName(AppSettings::appearance()));
}

SettingsDialog::~SettingsDialog()
{
    revertAppearance();  // closed without OK nor Cancel (the window went away): what was saved stays
}

}  // namespace ingot
