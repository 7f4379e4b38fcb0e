// A cache policy edited as `ingot-cli cache policy set` edits it (services/cache/cachepolicy.h): its name, the size the
// least recently used entries go down to, the newest compiler versions kept, the days unused after which entries go,
// failed entries, stale locks (with an age where compiles cannot be seen). OK saves it only while it is a policy: a
// plain name, every field readable, and at least one rule.
#pragma once

#include "services/cache/cachepolicy.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ingot {

class PolicyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PolicyDialog)

public:
    // A new policy (an empty name), or `policy` to change (its name then stays).
    explicit PolicyDialog(const CachePolicy &policy, QWidget *parent = nullptr);

    // The policy as the fields say; *why (may be null) says what is missing when it is not one.
    bool policy(CachePolicy *out, QString *why = nullptr) const;

    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *maxSizeEdit() const { return m_maxSize; }
    QSpinBox *keepVersionsBox() const { return m_keep; }
    QSpinBox *unusedDaysBox() const { return m_unused; }
    QCheckBox *failedBox() const { return m_failed; }
    QCheckBox *locksBox() const { return m_locks; }
    QLineEdit *lockAgeEdit() const { return m_lockAge; }
    QLabel *summaryLabel() const { return m_summary; }
    QDialogButtonBox *buttons() const { return m_buttons; }

    void accept() override;  // saves it (savePolicy)

private:
    void update();

    QLineEdit *m_name;
    QLineEdit *m_maxSize;
    QSpinBox *m_keep;
    QSpinBox *m_unused;
    QCheckBox *m_failed;
    QCheckBox *m_locks;
    QLineEdit *m_lockAge;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
};

}  // namespace ingot
