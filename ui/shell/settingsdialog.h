// Preferences: the prune policy, watching, the list of cache folders, the ssh config Ingot's ssh reads, and the
// language of the interface (applies at the next start; "Restart now" saves and asks the window to restart), and
// the appearance (shown at once while the dialog is open; kept on OK, undone on Cancel), and which desktop
// notifications are shown.
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace ingot {

class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    explicit SettingsDialog(QWidget *parent = nullptr);
    ~SettingsDialog() override;
    void accept() override;  // saves
    void done(int result) override;  // not accepted: shows the saved appearance again

    QSpinBox *ttlSpin() const { return m_ttl; }
    QDoubleSpinBox *sizeSpin() const { return m_size; }
    QCheckBox *watchCheck() const { return m_watch; }
    QCheckBox *hubLayoutCheck() const { return m_hubLayout; }
    QLineEdit *sshConfigEdit() const { return m_sshConfig; }
    QComboBox *languageCombo() const { return m_language; }
    // The dialog was closed with "Restart now": the settings are saved, the app should start again.
    bool restartRequested() const { return m_restart; }
    QComboBox *appearanceCombo() const { return m_appearance; }
    // One check per kind of desktop notification, in allNotifyKinds()'s order.
    QList<QCheckBox *> notificationChecks() const { return m_notify; }
    QPushButton *restartButton() const { return m_restartButton; }
    // Where the runtimes keep compiled graphs, as this environment places them (read-only): the texts shown.
    QString cachesText() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QGroupBox *buildCachesBox();
    QGroupBox *buildSshBox();
    QGroupBox *buildLanguageBox();
    QGroupBox *buildNotificationsBox();
    QSpinBox *m_ttl;
    QDoubleSpinBox *m_size;
    QCheckBox *m_watch;
    QCheckBox *m_hubLayout;
    QListWidget *m_roots;
    QLineEdit *m_sshConfig;
    QLabel *m_sshProblem;
    QList<QLabel *> m_caches;
    QComboBox *m_language;
    QPushButton *m_sshBrowse = nullptr;
    QPushButton *m_restartButton = nullptr;
    bool m_restart = false;
    QComboBox *m_appearance;
    bool m_appearanceTried = false;
    QList<QCheckBox *> m_notify;  // an appearance was shown that is not saved yet

    void revertAppearance();
};

}  // namespace ingot
