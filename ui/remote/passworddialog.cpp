#include "ui/remote/passworddialog.h"

#include "services/util/names.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMutex>
#include <QMutexLocker>
#include <QPointer>
#include <QPushButton>
#include <QStyle>
#include <QThread>
#include <QVBoxLayout>
#include <QWaitCondition>

namespace ingot {

PasswordDialog::PasswordDialog(const QString &host, const QString &prompt, QWidget *parent)
    : QDialog(parent), m_prompt(new QLabel(this)), m_edit(new QLineEdit(this))
{
    setWindowTitle(host.isEmpty() ? tr("ssh asks") : tr("ssh asks — %1").arg(displayName(host)));
    setModal(true);
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxQuestion).pixmap(32, 32));
    m_prompt->setText(displayText(prompt).trimmed());
    m_prompt->setTextFormat(Qt::PlainText);
    m_prompt->setWordWrap(true);
    m_prompt->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_edit->setEchoMode(QLineEdit::Password);
    m_edit->setMinimumWidth(320);
    auto *note = new QLabel(tr("Ingot hands this to ssh and does not store it. Load your key into ssh-agent to be "
                               "asked less often."), this);
    note->setWordWrap(true);
    QPalette pal = note->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::Disabled, QPalette::WindowText));
    note->setPalette(pal);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *top = new QHBoxLayout;
    top->addWidget(icon, 0, Qt::AlignTop);
    auto *col = new QVBoxLayout;
    col->addWidget(m_prompt);
    col->addWidget(m_edit);
    top->addLayout(col, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(note);
    layout->addWidget(buttons);
    m_edit->setFocus();
}

PasswordDialog::~PasswordDialog()
{
    m_edit->clear();
}

QByteArray PasswordDialog::takeSecret()
{
    QByteArray secret = m_edit->text().toUtf8();
    m_edit->clear();
    return secret;
}

// One prompt a worker waits on.
struct Pending {
    bool done = false;
    std::optional<QByteArray> answer;
};

// What the asking threads and the UI thread share. `presenter` lives on the UI thread; it is only posted to while
// the mutex is held, and it clears itself (under the mutex) before it goes, so a post never reaches a dead object.
struct GuiAskPass::Shared {
    QMutex mutex;
    QWaitCondition answered;
    bool closed = false;
    QList<std::shared_ptr<Pending>> pending;
    QObject *presenter = nullptr;
    QString host;

    void finish(const std::shared_ptr<Pending> &p, std::optional<QByteArray> answer)
    {
        QMutexLocker lock(&mutex);
        if (p->done)
            return;
        p->done = true;
        p->answer = std::move(answer);
        pending.removeAll(p);
        answered.wakeAll();
    }
    void closeAll()
    {
        QMutexLocker lock(&mutex);
        closed = true;
        for (const std::shared_ptr<Pending> &p : std::as_const(pending))
            p->done = true;
        pending.clear();
        answered.wakeAll();
    }
};

namespace {

// Lives on the UI thread as a child of the widget the dialogs open over; cancels every prompt when it goes.
class Presenter final : public QObject
{
public:
    Presenter(QWidget *parent, std::shared_ptr<GuiAskPass::Shared> shared)
        : QObject(parent), m_shared(std::move(shared))
    {
    }
    ~Presenter() override
    {
        {
            QMutexLocker lock(&m_shared->mutex);
            m_shared->presenter = nullptr;
        }
        m_shared->closeAll();
    }

    void show(const std::shared_ptr<Pending> &p, const QString &prompt)
    {
        {
            QMutexLocker lock(&m_shared->mutex);
            if (p->done)
                return;  // closed meanwhile
        }
        auto *dlg = new PasswordDialog(m_shared->host, prompt, qobject_cast<QWidget *>(parent()));
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        std::weak_ptr<GuiAskPass::Shared> weak = m_shared;
        connect(dlg, &QDialog::finished, dlg, [dlg, p, weak](int result) {
            std::optional<QByteArray> answer;
            if (result == QDialog::Accepted)
                answer = dlg->takeSecret();
            if (auto shared = weak.lock())
                shared->finish(p, std::move(answer));
        });
        m_dialogs.removeAll(nullptr);
        m_dialogs.append(dlg);  // a prompt closed from elsewhere (the page closing) closes its dialog too
        dlg->open();
    }

    void rejectAll()
    {
        const QList<QPointer<PasswordDialog>> dialogs = m_dialogs;
        for (const QPointer<PasswordDialog> &d : dialogs)
            if (d)
                d->reject();
    }

private:
    std::shared_ptr<GuiAskPass::Shared> m_shared;
    QList<QPointer<PasswordDialog>> m_dialogs;
};

}  // namespace

GuiAskPass::GuiAskPass(QWidget *parent, QString host) : m_shared(std::make_shared<Shared>())
{
    m_shared->host = std::move(host);
    m_shared->presenter = new Presenter(parent, m_shared);
}

GuiAskPass::~GuiAskPass()
{
    close();
}

void GuiAskPass::close()
{
    {
        QMutexLocker lock(&m_shared->mutex);
        // Posted under the mutex: the presenter clears itself under it before it goes (see Shared).
        if (auto *presenter = static_cast<Presenter *>(m_shared->presenter)) {
            m_shared->presenter = nullptr;
            // The dialogs close on the UI thread; their answers no longer count.
            QMetaObject::invokeMethod(presenter, [presenter] {
                presenter->rejectAll();
                presenter->deleteLater();
            }, Qt::QueuedConnection);
        }
    }
    m_shared->closeAll();
}

std::optional<QByteArray> GuiAskPass::ask(const QString &prompt)
{
    auto p = std::make_shared<Pending>();
    QMutexLocker lock(&m_shared->mutex);
    if (m_shared->closed || !m_shared->presenter)
        return std::nullopt;
    if (QThread::currentThread() == m_shared->presenter->thread()) {
        qWarning("GuiAskPass::ask called on the UI thread: answered as cancelled");
        return std::nullopt;
    }
    m_shared->pending.append(p);
    auto *presenter = static_cast<Presenter *>(m_shared->presenter);
    QMetaObject::invokeMethod(presenter, [presenter, p, prompt] { presenter->show(p, prompt); },
                              Qt::QueuedConnection);
    while (!p->done)
        m_shared->answered.wait(&m_shared->mutex);
    return p->answer;
}

}  // namespace ingot
