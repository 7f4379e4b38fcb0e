// First contact with a host: the key it offered (type, SHA256 fingerprint) and where it would be recorded. Only
// "Trust and connect" accepts; Cancel is the default. A changed key has no dialog that accepts it: see
// showHostKeyChanged().
#pragma once

#include "services/remote/sshconnection.h"

#include <QDialog>

class QLabel;
class QMessageBox;
class QPushButton;

namespace ingot {

class HostKeyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostKeyDialog)

public:
    HostKeyDialog(const QString &host, const HostKeyOffer &offer, QWidget *parent = nullptr);

    const HostKeyOffer &offer() const { return m_offer; }
    QLabel *fingerprintLabel() const { return m_fingerprint; }
    QLabel *knownHostsLabel() const { return m_knownHosts; }
    QPushButton *trustButton() const { return m_trust; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    HostKeyOffer m_offer;
    QLabel *m_fingerprint;
    QLabel *m_knownHosts;
    QPushButton *m_trust;
    QPushButton *m_cancel;
};

// The refusal of a changed host key, explained (a possible attack, or a reinstalled host) with how to fix it
// yourself: the only button closes it. `knownHostsName` is the name the key is recorded under ("[10.0.0.5]:2222",
// or the HostKeyAlias); `knownHostsFile` where. Opened (not exec'd) over `parent`; deletes itself on close.
QMessageBox *showHostKeyChanged(QWidget *parent, const QString &host, const QString &knownHostsName,
                                const QString &knownHostsFile, const QString &sshWords);

}  // namespace ingot
