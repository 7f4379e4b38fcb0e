// What the Local cache page shows when there is no cache to show: where Ingot looked, why, and what to do.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace ingot {

class EmptyStateWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EmptyStateWidget)

public:
    explicit EmptyStateWidget(QWidget *parent = nullptr);
    void setMessage(const QString &title, const QString &details);

    QLabel *titleLabel() const { return m_title; }
    QLabel *detailsLabel() const { return m_details; }
    QPushButton *addFolderButton() const { return m_add; }
    QPushButton *sampleButton() const { return m_sample; }
    QPushButton *retryButton() const { return m_retry; }

Q_SIGNALS:
    void addFolderRequested();
    void sampleRequested();
    void retryRequested();

private:
    QLabel *m_title;
    QLabel *m_details;
    QPushButton *m_add;
    QPushButton *m_sample;
    QPushButton *m_retry;
};

}  // namespace ingot
