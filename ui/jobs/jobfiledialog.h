// A read-only look at files where a job runs (this machine or a host): a Slurm job's batch scripts, the output file
// of a job submitted outside Ingot. Each file's last 64 KiB at most, under its path, its bytes escaped; Refresh reads
// them again.
#pragma once

#include "services/util/task.h"

#include <QDialog>
#include <QStringList>

class QLabel;
class QPlainTextEdit;

namespace ingot {

class JobService;

class JobFileDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobFileDialog)

public:
    static constexpr qint64 maxBytes = 64 << 10;  // of each file: its end

    // `where`: "local" or a host; `paths`: absolute there, shown in this order.
    JobFileDialog(JobService *service, const QString &where, const QStringList &paths, const QString &title,
                  QWidget *parent = nullptr);
    ~JobFileDialog() override;
    QPlainTextEdit *text() const { return m_text; }
    QLabel *statusLabel() const { return m_status; }
    void refresh();

Q_SIGNALS:
    void loaded();  // every file was read (or failed to be)

private:
    void readNext(int index, QString shown, QStringList problems);

    JobService *m_service;
    QString m_where;
    QStringList m_paths;
    QLabel *m_status;
    QPlainTextEdit *m_text;
    Task m_task;
};

}  // namespace ingot
