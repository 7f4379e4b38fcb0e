// The TorchNeuron / vLLM-Neuron compile cache (services/cache/torchneuron.h) in a window of its own: which folder
// (the local tier, the remote tier, or one chosen), every key with its state, size and last use, and the three
// maintenance actions, each previewed and confirmed, carried out off the UI thread with the service's re-checks.
#pragma once

#include "services/cache/torchneuron.h"
#include "services/stores/storelocation.h"
#include "services/util/task.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace ingot {

class TorchNeuronDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit TorchNeuronDialog(QWidget *parent = nullptr);
    ~TorchNeuronDialog() override;

    // Lists `folder` (off the UI thread); scanFinished() follows.
    void openFolder(const QString &folder);
    // Any cache location (a host's folder, an S3 prefix): there, whether a lock is held cannot be seen, so locks are
    // taken as held and not offered for removal.
    void openLocation(const StoreLocation &location);
    QString folder() const { return m_location.path; }
    const TorchNeuronSnapshot &snapshot() const { return m_snapshot; }
    QTreeWidget *entriesView() const { return m_view; }
    QLabel *summaryLabel() const { return m_summary; }
    QPushButton *actionButton(TorchNeuronAction action) const;
    // The preview of an action as the confirmation shows it (one line per step); empty when there is nothing to do.
    QStringList preview(TorchNeuronAction action) const;
    // Carries out the action's preview without asking (the buttons ask first); maintenanceFinished() follows.
    void runAction(TorchNeuronAction action);

Q_SIGNALS:
    void scanFinished();
    void maintenanceFinished(const ingot::TorchNeuronReport &report);

private:
    void ask(TorchNeuronAction action);
    void showSnapshot(const TorchNeuronSnapshot &snap);

    TorchNeuronLocations m_where;
    StoreLocation m_location;
    TorchNeuronSnapshot m_snapshot;
    QComboBox *m_place;
    QLabel *m_why;
    QTreeWidget *m_view;
    QLabel *m_summary;
    QPushButton *m_clean;
    QPushButton *m_locks;
    QPushButton *m_prune;
    Task m_task;
};

}  // namespace ingot
