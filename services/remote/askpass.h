// Passphrases and passwords for ssh, asked of the user and never stored: ssh runs ingot-askpass (SSH_ASKPASS with
// SSH_ASKPASS_REQUIRE=force), which hands ssh's prompt to an AskPassServer over a unix socket in a private folder;
// the server asks the AskPass and sends the answer back. The secret stays out of argv, the environment and logs.
#pragma once

#include <QByteArray>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

namespace ingot {

// Asks the user (a dialog in the app, the terminal in the CLI, a stand-in in tests).
class AskPass
{
public:
    virtual ~AskPass() = default;
    // Called on a thread of its own while ssh waits; `prompt` is ssh's text, already escaped for display
    // ("Enter passphrase for key '/home/u/.ssh/id_ed25519': "). nullopt: the user cancelled.
    virtual std::optional<QByteArray> ask(const QString &prompt) = 0;
};

// The listening side, for one ssh run. Accepts only connections from this user (SO_PEERCRED).
class AskPassServer final
{
public:
    AskPassServer(AskPass *askPass, const QString &parentDir);
    ~AskPassServer();
    AskPassServer(const AskPassServer &) = delete;
    AskPassServer &operator=(const AskPassServer &) = delete;

    bool isListening() const { return m_listenFd >= 0; }
    QString socketPath() const { return m_socketPath; }
    int promptsAnswered() const { return m_answered; }

private:
    void serve();
    void answer(int fd);

    AskPass *m_askPass;
    QString m_dir;
    QString m_socketPath;
    int m_listenFd = -1;
    int m_stopPipe[2] = {-1, -1};
    std::atomic_int m_answered{0};
    std::thread m_thread;
};

// Where ingot-askpass is: $INGOT_ASKPASS, else next to this program (the build tree), else installed in
// <bin>/../libexec/ingot.
QString askPassProgram();

}  // namespace ingot
