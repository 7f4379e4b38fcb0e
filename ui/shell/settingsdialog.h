// Preferences: the prune policy, watching, the list of cache folders, and the ssh config Ingot's ssh reads.
#pragma once

#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace ingot {

class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    explicit SettingsDialog(QWidget *parent = nullptr);
    void accept() override;  // saves

    QSpinBox *ttlSpin() const { return m_ttl; }
    QDoubleSpinBox *sizeSpin() const { return m_size; }
    QCheckBox *watchCheck() const { return m_watch; }
    QLineEdit *sshConfigEdit() const { return m_sshConfig; }

private:
    QSpinBox *m_ttl;
    QDoubleSpinBox *m_size;
    QCheckBox *m_watch;
    QListWidget *m_roots;
    QLineEdit *m_sshConfig;
    QLabel *m_sshProblem;
};

}  // namespace ingot
