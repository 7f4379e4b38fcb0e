// Passphrases and passwords for ssh, asked in a dialog and never stored. GuiAskPass is the app's AskPass: ssh's
// prompt arrives on a worker thread (the AskPassServer's), is shown in a PasswordDialog on the UI thread (opened,
// not exec'd: no nested event loop), and the worker waits until the dialog is answered or the page goes away.
#pragma once

#include "services/remote/askpass.h"

#include <QDialog>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ingot {

class PasswordDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PasswordDialog)

public:
    // `prompt` is ssh's own text, already escaped for display; `host` the host being connected to.
    PasswordDialog(const QString &host, const QString &prompt, QWidget *parent = nullptr);
    ~PasswordDialog() override;

    // The answer, once; the field is emptied.
    QByteArray takeSecret();
    QLineEdit *secretEdit() const { return m_edit; }
    QLabel *promptLabel() const { return m_prompt; }

private:
    QLabel *m_prompt;
    QLineEdit *m_edit;
};

class GuiAskPass final : public AskPass
{
public:
    // Dialogs open over `parent` (its window), on `parent`'s (the UI) thread. Make it on the UI thread.
    explicit GuiAskPass(QWidget *parent, QString host = QString());
    ~GuiAskPass() override;
    Q_DISABLE_COPY_MOVE(GuiAskPass)

    // Called on ssh's prompt thread: blocks it until the user answers (nullopt: cancelled, or the asker closed).
    // Never blocks the UI thread: called there, it answers nullopt at once.
    std::optional<QByteArray> ask(const QString &prompt) override;
    // Any thread: cancels the open prompts and every later one (the page is closing).
    void close();

    struct Shared;

private:
    std::shared_ptr<Shared> m_shared;
};

}  // namespace ingot
