// The Fleet page (issue 39, "Every cache I know, on one page"): every place Ingot knows — this machine's caches of
// both formats, the folders added, the hosts in the list, the S3 caches opened before, the Hub cache repos — in one
// table with its size, entries by state, compiler versions, last use, and whether it could be read (or why not).
// The places are read in the background (services/fleet/fleetsummary: a few at once, each within its time limit) on
// first show, on Refresh (F5) and every few minutes while the page is shown; a row says "reading…" while its place
// is read. Open (or a double-click) shows a place on its own page. Below the table: the saved cache policies and the
// last policy run's line from the gc log (services/fleet/gclog.h).
#pragma once

#include "services/fleet/fleetsummary.h"
#include "services/util/task.h"

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;

namespace ingot {

class FleetGcPanel;
class FleetModel;
class PolicyDialog;
class SecretStore;

class FleetPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetPage)

public:
    explicit FleetPage(QWidget *parent = nullptr);
    ~FleetPage() override;

    FleetModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QAction *refreshAction() const { return m_refresh; }
    QAction *openAction() const { return m_open; }
    QLabel *summaryLabel() const { return m_summary; }
    QComboBox *policyBox() const { return m_policies; }
    QLabel *policyLabel() const { return m_policyText; }
    QLabel *lastRunLabel() const { return m_lastRun; }
    QAction *newPolicyAction() const { return m_newPolicy; }
    QAction *editPolicyAction() const { return m_editPolicy; }
    // The chosen policy previewed on every place and applied; its daily schedule.
    FleetGcPanel *gcPanel() const { return m_gc; }
    bool isReading() const { return m_task.isRunning(); }
    // How often the places are read again while the page is shown (default 5 minutes).
    void setRefreshIntervalMs(int ms);
    // How the places are read (tests make the time limit short); the keychain for the Hub's token.
    void setReadOptions(const FleetSummaryOptions &options) { m_options = options; }
    // The place of the current row; nullptr when none is selected.
    const FleetPlace *currentPlace() const;
    void selectPlace(const QString &placeId);

public Q_SLOTS:
    // Reads every place again (the list of places too); a read under way is stopped first.
    void refresh();
    // What the timer does: the same, but a Hub repo read less than hubRereadMs() ago keeps its row (a cache repo's
    // listing is hundreds of requests: read on first show, on Refresh, and at most twice an hour).
    void refreshChanged();
    static constexpr qint64 hubRereadMs() { return 30 * 60 * 1000; }
    void openCurrent();
    // The saved policies, and the gc log's last run read again (off the UI thread: lastRunRead() follows).
    void reloadPolicies();
    // The policy editor, on a new policy or on the chosen one; a policy saved there is chosen. Returns it (modal with
    // exec() in use; tests drive the returned dialog).
    PolicyDialog *editPolicy(bool newOne);

Q_SIGNALS:
    // Show this place on its own page: a cache (folder, host, S3, TorchNeuron) on the Local cache page, a Hub repo on
    // the Hub page.
    void openPlaceRequested(const ingot::FleetPlace &place);
    void statusChanged(const QString &text, bool busy);
    void refreshed();  // every place of a refresh was read (or said why not)
    void lastRunRead();  // the gc log's last run is shown

protected:
    void showEvent(QShowEvent *e) override;
    void hideEvent(QHideEvent *e) override;

private:
    void buildUi();
    void read(bool everything);
    QWidget *buildPolicies();
    void placesKnown(const QVector<FleetPlace> &places);
    void placeRead(const FleetSummary &summary);
    void readDone();
    void updateSummary();
    void updateActions();
    void showPolicy();

    FleetModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view = nullptr;
    QAction *m_refresh = nullptr;
    QAction *m_open = nullptr;
    QLabel *m_summary = nullptr;
    QComboBox *m_policies = nullptr;
    QLabel *m_policyText = nullptr;
    QLabel *m_lastRun = nullptr;
    QAction *m_newPolicy = nullptr;
    QAction *m_editPolicy = nullptr;
    FleetGcPanel *m_gc = nullptr;
    QTimer *m_timer;
    FleetSummaryOptions m_options;
    Task m_task;
    Task m_logTask;
    bool m_shownOnce = false;
};

}  // namespace ingot
