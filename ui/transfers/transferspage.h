// The Transfers page: every pull, push and copy with its progress, speed and time left; pause, resume, cancel,
// retry failed entries; the entries of the selected transfer with why any failed. The queue itself lives in the main
// window (one for the app) and keeps running whichever page is shown.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace ingot {

class TransferQueue;
class TransfersModel;
class TransferItemsModel;

class TransfersPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransfersPage)

public:
    explicit TransfersPage(TransferQueue *queue, QWidget *parent = nullptr);

    void select(const QString &id);
    QString selected() const;
    QTableView *transfersView() const { return m_view; }
    QTableView *itemsView() const { return m_items; }
    TransfersModel *model() const { return m_model; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *resumeButton() const { return m_resume; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *retryButton() const { return m_retry; }
    QLabel *detailsLabel() const { return m_details; }
    // Shown when a transfer's state could not be saved (TransferQueue::saveFailed); hidden until then.
    QLabel *saveErrorLabel() const { return m_saveError; }

Q_SIGNALS:
    // Running transfers and bytes per second of them all, for the status bar ("" when none runs).
    void summaryChanged(const QString &text);

private:
    void updateButtons();
    void updateDetails();
    void updateSummary();

    TransferQueue *m_queue;
    TransfersModel *m_model;
    TransferItemsModel *m_itemsModel;
    QTableView *m_view;
    QTableView *m_items;
    QLabel *m_details;
    QLabel *m_empty;
    QLabel *m_saveError;
    QPushButton *m_pause;
    QPushButton *m_resume;
    QPushButton *m_cancel;
    QPushButton *m_retry;
    QPushButton *m_remove;
    QPushButton *m_clear;
};

}  // namespace ingot
