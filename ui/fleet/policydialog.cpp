#include "ui/fleet/policydialog.h"

#include "services/cache/maintenance.h"
#include "services/util/names.h"
#include "services/util/units.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ingot {

namespace {
// A size as parseBytes reads it back, in the largest power of 1000 that writes it whole ("200GB").
QString sizeText(qint64 bytes)
{
    const char *units[] = {"TB", "GB", "MB", "KB"};
    qint64 scale = qint64(1000) * 1000 * 1000 * 1000;
    for (const char *u : units) {
        if (bytes % scale == 0)
            return QString::number(bytes / scale) + QLatin1String(u);
        scale /= 1000;
    }
    return QString::number(bytes) + QLatin1Char('B');
}
}  // namespace

PolicyDialog::PolicyDialog(const CachePolicy &policy, QWidget *parent)
    : QDialog(parent)
    , m_name(new QLineEdit(policy.name, this))
    , m_maxSize(new QLineEdit(this))
    , m_keep(new QSpinBox(this))
    , m_unused(new QSpinBox(this))
    , m_failed(new QCheckBox(tr("Remove &failed entries (the next run compiles them again)"), this))
    , m_locks(new QCheckBox(tr("Clear stale &locks (never while neuronx-cc runs there)"), this))
    , m_lockAge(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(policy.name.isEmpty() ? tr("New cache policy") : tr("Cache policy %1").arg(policy.name));
    m_name->setReadOnly(!policy.name.isEmpty());
    m_name->setPlaceholderText(tr("team-daily"));
    m_maxSize->setPlaceholderText(tr("no limit (e.g. 200GB, 500GiB)"));
    if (policy.maxBytes > 0)
        m_maxSize->setText(sizeText(policy.maxBytes));
    m_keep->setRange(0, 1000);
    m_keep->setSpecialValueText(tr("every version"));
    m_keep->setValue(policy.keepVersions);
    m_unused->setRange(0, 36500);
    m_unused->setSpecialValueText(tr("no age rule"));
    m_unused->setSuffix(tr(" days"));
    m_unused->setValue(policy.unusedDays);
    m_failed->setChecked(policy.removeFailed);
    m_locks->setChecked(policy.clearLocks);
    m_lockAge->setPlaceholderText(tr("where compiles cannot be seen (S3): e.g. 2h, 1d"));
    if (policy.lockAgeMs > 0)
        m_lockAge->setText(lockAgeText(policy.lockAgeMs));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Maximum size:"), m_maxSize);
    form->addRow(tr("&Keep the newest compilers:"), m_keep);
    form->addRow(tr("Remove entries &unused for over:"), m_unused);
    form->addRow(QString(), m_failed);
    form->addRow(QString(), m_locks);
    form->addRow(tr("Lock &age:"), m_lockAge);
    auto *col = new QVBoxLayout(this);
    col->addLayout(form);
    col->addWidget(m_summary);
    col->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &PolicyDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &PolicyDialog::reject);
    for (QLineEdit *e : {m_name, m_maxSize, m_lockAge})
        connect(e, &QLineEdit::textChanged, this, &PolicyDialog::update);
    for (QSpinBox *b : {m_keep, m_unused})
        connect(b, &QSpinBox::valueChanged, this, &PolicyDialog::update);
    for (QCheckBox *c : {m_failed, m_locks})
        connect(c, &QCheckBox::toggled, this, &PolicyDialog::update);
    update();
}

bool PolicyDialog::policy(CachePolicy *out, QString *why) const
{
    QString reason;
    CachePolicy p;
    p.name = m_name->text().trimmed();
    p.keepVersions = m_keep->value();
    p.unusedDays = m_unused->value();
    p.removeFailed = m_failed->isChecked();
    p.clearLocks = m_locks->isChecked();
    const QString size = m_maxSize->text().trimmed();
    p.maxBytes = size.isEmpty() ? 0 : parseBytes(size);
    const QString age = m_lockAge->text().trimmed();
    p.lockAgeMs = age.isEmpty() ? 0 : parseLockAge(age);
    if (!CachePolicy::validName(p.name))
        reason = tr("A name: letters, digits, '-', '_' and '.', 1 to 64 of them.");
    else if (p.maxBytes < 0)
        reason = tr("The maximum size is a size such as 100GB, 500M or 20GiB, not \"%1\".").arg(displayName(size));
    else if (p.lockAgeMs < 0)
        reason = tr("The lock age is an age such as 90m, 2h or 7d, not \"%1\".").arg(displayName(age));
    else if (p.isEmpty())
        reason = tr("A policy removes something: give a maximum size, the compilers to keep, an age, failed entries or stale locks.");
    if (why)
        *why = reason;
    if (reason.isEmpty() && out)
        *out = p;
    return reason.isEmpty();
}

void PolicyDialog::update()
{
    CachePolicy p;
    QString why;
    const bool ok = policy(&p, &why);
    m_summary->setText(ok ? tr("Removes: %1.").arg(p.summary()) : why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

void PolicyDialog::accept()
{
    CachePolicy p;
    if (!policy(&p))
        return;
    savePolicy(p);
    QDialog::accept();
}

}  // namespace ingot
