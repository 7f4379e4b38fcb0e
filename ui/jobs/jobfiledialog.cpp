#include "ui/jobs/jobfiledialog.h"

#include "services/jobs/jobservice.h"
#include "services/util/names.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace ingot {

JobFileDialog::JobFileDialog(JobService *service, const QString &where, const QStringList &paths, const QString &title,
                             QWidget *parent)
    : QDialog(parent), m_service(service), m_where(where), m_paths(paths), m_status(new QLabel(this)), m_text(new QPlainTextEdit(this))
{
    setWindowTitle(title);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *again = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    connect(again, &QPushButton::clicked, this, &JobFileDialog::refresh);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_status);
    col->addWidget(m_text, 1);
    col->addWidget(buttons);
    resize(860, 560);
    refresh();
}

JobFileDialog::~JobFileDialog()
{
    m_task.discard();
}

void JobFileDialog::refresh()
{
    m_task.discard();
    if (m_paths.isEmpty()) {
        m_status->setText(tr("There is no file to show."));
        Q_EMIT loaded();
        return;
    }
    m_status->setText(tr("Reading %1…").arg(displayName(m_paths.join(QStringLiteral(", ")))));
    readNext(0, QString(), QStringList());
}

void JobFileDialog::readNext(int index, QString shown, QStringList problems)
{
    if (index >= m_paths.size()) {
        m_status->setText(problems.isEmpty() ? tr("Read-only; each file's last %1 KiB at most.").arg(maxBytes >> 10)
                                             : problems.join(QLatin1Char('\n')));
        // A file's bytes are any bytes: escaped line by line, never shown raw.
        m_text->setPlainText(shown);
        m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
        Q_EMIT loaded();
        return;
    }
    const QString path = m_paths.at(index);
    m_task = m_service->tailOn(m_where, path, maxBytes, [=, this](const QByteArray &tail, bool cut, const QString &error) mutable {
        if (m_paths.size() > 1)
            shown += (shown.isEmpty() ? QString() : QStringLiteral("\n")) + QStringLiteral("# ") + displayName(path) + QLatin1Char('\n');
        if (!error.isEmpty())
            problems << tr("%1: %2").arg(displayName(path), displayText(error));
        else if (cut)
            shown += tr("[… the start of the file is not shown]") + QLatin1Char('\n');
        shown += displayText(nameFromBytes(tail));
        readNext(index + 1, shown, problems);
    });
}

}  // namespace ingot
