// The re-shard settings on the consolidation wizard's Options step (services/checkpoint/reshard.h): the new
// tensor/pipeline-parallel layout, whether the optimizer state goes along, and the words of the plan made for them.
#pragma once

#include <QCoreApplication>
#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QSpinBox;

namespace ingot {

struct ReshardPlan;

class ReshardChoice final : public QWidget
{
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidateWizard)  // the wizard's words, one context for translators
    Q_DISABLE_COPY_MOVE(ReshardChoice)

public:
    explicit ReshardChoice(QWidget *parent = nullptr);
    ~ReshardChoice() override;

    int tpSize() const;
    int ppSize() const;
    bool weightsOnly() const;
    // The plan is being made for the numbers in the fields; then its words (what it cannot do, or what it writes).
    void showPlanning();
    void showPlan(const ReshardPlan &plan);

    std::function<void()> changed;  // a number or the weights-only choice changed

    QSpinBox *tpSpin() const { return m_tp; }
    QSpinBox *ppSpin() const { return m_pp; }
    QCheckBox *weightsOnlyCheck() const { return m_weightsOnly; }
    QLabel *notesLabel() const { return m_notes; }

private:
    QSpinBox *m_tp = nullptr;
    QSpinBox *m_pp = nullptr;
    QCheckBox *m_weightsOnly = nullptr;
    QLabel *m_notes = nullptr;
};

}  // namespace ingot
