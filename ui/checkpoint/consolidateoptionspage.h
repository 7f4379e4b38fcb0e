// The consolidation wizard's Options step: what is written (the consolidated model, or a re-shard's checkpoint), its
// format, the output folder (the request's output check, asked off the UI thread once typing rests, never decided
// from an answer about another path), replacing, verifying, and merging a LoRA adapter into its base model. Every
// setting goes into the request as it changes.
#pragma once

#include "services/checkpoint/consolidationrequest.h"
#include "services/util/task.h"

#include <QCoreApplication>
#include <QWizardPage>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTimer;

namespace ingot {

class ReshardChoice;

class ConsolidateOptionsPage final : public QWizardPage
{
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidateWizard)  // the wizard's words, one context for translators
    Q_DISABLE_COPY_MOVE(ConsolidateOptionsPage)

public:
    // How long the output field must rest before its folder is checked.
    static constexpr int kOutputCheckDelayMs = 250;

    explicit ConsolidateOptionsPage(ConsolidationRequest &request, QWidget *parent = nullptr);
    ~ConsolidateOptionsPage() override;

    // The request's default output in the field, unless the user typed one of their own (proposed again for each
    // folder found, and as the re-shard layout changes).
    void proposeOutput();
    void initializePage() override;  // the disk is asked again at once: it may have changed while the page was away
    bool isComplete() const override;
    bool validatePage() override { return isComplete(); }
    bool isResharding() const;

    std::function<void(const QString &output)> outputChecked;
    std::function<void(int problems)> reshardPlanned;  // the re-shard plan for the layout in the fields is known

    QLineEdit *outputEdit() const { return m_output; }
    QLabel *spaceLabel() const { return m_space; }
    QDoubleSpinBox *shardSizeSpin() const { return m_shardGb; }
    QCheckBox *verifyCheck() const { return m_verify; }
    QCheckBox *mergeCheck() const { return m_merge; }
    QCheckBox *optimizerCheck() const { return m_optimizer; }
    QLineEdit *baseModelEdit() const { return m_baseModel; }
    QCheckBox *overwriteCheck() const { return m_overwrite; }
    QComboBox *modeCombo() const { return m_mode; }
    ReshardChoice *reshardChoice() const { return m_reshard; }

private:
    QWidget *buildConsolidateSettings();
    void alignLabels(const QList<QLayout *> &forms);
    void apply();  // the fields into the request
    void showMergeChoice();
    void showModeChoice();
    void replanReshard();
    void forgetOutputAnswer();
    void outputEdited();
    void checkOutput();
    void showOutputState();
    bool outputReady() const;
    void refresh() { Q_EMIT completeChanged(); }

    ConsolidationRequest &m_request;
    QString m_autoOutput;  // the output path proposed (replaced when another folder is chosen)
    QTimer *m_outputDelay = nullptr;
    Task m_probing;
    bool m_spaceKnown = false;  // m_spaceAnswer answers for the output path m_spaceFor
    QString m_spaceFor;
    OutputSpace m_spaceAnswer;
    Task m_reshardPlanning;
    bool m_reshardPlanned = false;  // the request's re-shard plan answers for the layout in the fields
    QComboBox *m_mode = nullptr;
    QStackedWidget *m_modeSettings = nullptr;  // the consolidation's settings, or the re-shard's
    QComboBox *m_format = nullptr;
    QDoubleSpinBox *m_shardGb = nullptr;
    ReshardChoice *m_reshard = nullptr;
    QLineEdit *m_output = nullptr;
    QLabel *m_space = nullptr;
    QCheckBox *m_overwrite = nullptr;
    QCheckBox *m_verify = nullptr;
    QCheckBox *m_merge = nullptr;
    QCheckBox *m_optimizer = nullptr;  // a DCP checkpoint's optimizer state too
    QLineEdit *m_baseModel = nullptr;
};

}  // namespace ingot
