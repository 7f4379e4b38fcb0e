#include "ui/remote/hostkeydialog.h"

#include "services/util/names.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace ingot {

namespace {
QLabel *selectable(const QString &text, QWidget *parent, bool mono = false)
{
    auto *l = new QLabel(text, parent);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    if (mono) {
        QFont f = l->font();
        f.setFamily(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
        l->setFont(f);
    }
    return l;
}
}  // namespace

HostKeyDialog::HostKeyDialog(const QString &host, const HostKeyOffer &offer, QWidget *parent)
    : QDialog(parent), m_offer(offer)
{
    setWindowTitle(tr("New host key — %1").arg(displayName(host)));
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(40, 40));
    auto *intro = new QLabel(tr("<b>Ingot has never connected to %1 before.</b><br>The host presented the key below. "
                                "Compare its fingerprint with the one the host's administrator gives you (on the host: "
                                "<tt>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</tt>). Trust it only if they "
                                "match: from then on ssh refuses any other key for this host.")
                                 .arg(displayName(host).toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    m_fingerprint = selectable(displayName(offer.fingerprint), this, true);
    m_knownHosts = selectable(displayName(offer.knownHostsFile), this);
    auto *form = new QFormLayout;
    form->addRow(tr("Host:"), selectable(displayName(host), this));
    form->addRow(tr("Key type:"), selectable(displayName(offer.keyType), this));
    form->addRow(tr("Fingerprint:"), m_fingerprint);
    form->addRow(tr("Recorded in:"), m_knownHosts);

    auto *buttons = new QDialogButtonBox(this);
    m_trust = buttons->addButton(tr("&Trust and connect"), QDialogButtonBox::AcceptRole);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setDefault(true);  // Enter never trusts a key
    m_trust->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    top->addWidget(icon, 0, Qt::AlignTop);
    top->addWidget(intro, 1);
    auto *col = new QVBoxLayout(this);
    col->addLayout(top);
    col->addLayout(form);
    col->addWidget(buttons);
    m_cancel->setFocus();
    resize(560, sizeHint().height());
}

QMessageBox *showHostKeyChanged(QWidget *parent, const QString &host, const QString &knownHostsName,
                                const QString &knownHostsFile, const QString &sshWords)
{
    const QString h = displayName(host);
    auto *box = new QMessageBox(QMessageBox::Critical, HostKeyDialog::tr("Host key changed — %1").arg(h),
                                HostKeyDialog::tr("The host key of %1 has CHANGED. Ingot refuses to connect.").arg(h),
                                QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("hostKeyChanged"));
    const QString name = knownHostsName.isEmpty() ? host : knownHostsName;
    QString fix = QStringLiteral("ssh-keygen -R '%1'").arg(displayName(name));
    if (!knownHostsFile.isEmpty())
        fix += QStringLiteral(" -f '%1'").arg(displayName(knownHostsFile));
    box->setInformativeText(
        HostKeyDialog::tr("The key this host presents differs from the one recorded when you first connected. Either someone "
                    "is intercepting the connection (a man-in-the-middle attack), or the host was reinstalled or got "
                    "a new key.\n\n"
                    "Ask the host's administrator for the new key's fingerprint. Only if it matches, remove the old "
                    "key yourself:\n\n    %1\n\nthen connect again: Ingot will show you the new key. Ingot never "
                    "accepts a changed key itself.")
            .arg(fix));
    if (!sshWords.isEmpty())
        box->setDetailedText(displayText(sshWords));
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return box;
}

}  // namespace ingot
