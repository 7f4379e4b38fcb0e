// The consolidation wizard's first step: the folder (typed or pasted, browsed, recent or dropped; looked into off the
// UI thread once typing rests) and, when it holds several, the checkpoint, as the request's source and choice.
#pragma once

#include "services/checkpoint/consolidationrequest.h"
#include "services/util/task.h"

#include <QCoreApplication>
#include <QWizardPage>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace ingot {

class ChooseCheckpointPage final : public QWizardPage
{
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidateWizard)  // the wizard's words, one context for translators
    Q_DISABLE_COPY_MOVE(ChooseCheckpointPage)

public:
    // How long the folder field must rest before checkpoints are looked for in it.
    static constexpr int kFolderLookDelayMs = 300;

    explicit ChooseCheckpointPage(ConsolidationRequest &request, QWidget *parent = nullptr);
    ~ChooseCheckpointPage() override;

    void setFolder(const QString &folder);
    bool isComplete() const override;
    // Next: once the folder typed last was looked into and a checkpoint is chosen; remembers the folder.
    bool validatePage() override;

    std::function<void(const QString &folder)> detectionStarted;
    std::function<void(int checkpoints)> detectionFinished;  // the request has the folder's checkpoints
    std::function<void()> choiceChanged;                     // another checkpoint: its plan no longer holds

    QLineEdit *folderEdit() const { return m_folder; }
    QComboBox *checkpointCombo() const { return m_checkpoints; }
    QLabel *detectedLabel() const { return m_detected; }

private:
    void folderEdited();
    void detect();
    void showDetected(const QVector<CheckpointCandidate> &found, const QString &error, const QString &folder);
    QString choiceText(int candidate) const;
    void refresh() { Q_EMIT completeChanged(); }

    ConsolidationRequest &m_request;
    QString m_detectedFolder;        // the folder the request's checkpoints are (or are being) read from
    quint64 m_detectGeneration = 0;  // of the latest detect(): an answer from an older one is dropped
    Task m_detecting;
    QTimer *m_folderDelay = nullptr;
    QLineEdit *m_folder = nullptr;
    QComboBox *m_recent = nullptr;
    QLabel *m_detected = nullptr;
    QComboBox *m_checkpoints = nullptr;
};

}  // namespace ingot
