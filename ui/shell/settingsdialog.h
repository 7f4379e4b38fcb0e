// Preferences: the prune policy, watching, and the list of cache folders.
#pragma once

#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
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

private:
    QSpinBox *m_ttl;
    QDoubleSpinBox *m_size;
    QCheckBox *m_watch;
    QListWidget *m_roots;
};

}  // namespace ingot
