// The consolidation wizard's last step: what the run wrote where, how long it took, whether it was verified, and how
// to load it (transformers, PEFT for an adapter, the merged model) or, for a re-shard, how to resume from it.
#pragma once

#include <QCoreApplication>
#include <QWizardPage>

class QLabel;

namespace ingot {

class ConsolidationRequest;
struct ConsolidationResult;

class ConsolidateSummaryPage final : public QWizardPage
{
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidateWizard)  // the wizard's words, one context for translators
    Q_DISABLE_COPY_MOVE(ConsolidateSummaryPage)

public:
    explicit ConsolidateSummaryPage(QWidget *parent = nullptr);
    ~ConsolidateSummaryPage() override;

    // The result of a run of `request` that took `runMs`.
    void showResult(const ConsolidationRequest &request, const ConsolidationResult &r, qint64 runMs);

    QLabel *summaryLabel() const { return m_summary; }
    QLabel *loadSnippet() const { return m_snippet; }

private:
    void showConsolidated(const ConsolidationRequest &request, const ConsolidationResult &r, qint64 runMs);
    void showResharded(const ConsolidationRequest &request, const ConsolidationResult &r);

    QString m_output;  // as given
    QLabel *m_summary = nullptr;
    QLabel *m_snippetTitle = nullptr;
    QLabel *m_snippet = nullptr;
};

}  // namespace ingot
