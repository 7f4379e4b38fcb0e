#include "services/remote/askpass.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace ingot {

AskPassServer::AskPassServer(AskPass *askPass, const QString &parentDir)
    : m_askPass(askPass)
{
    QByteArray tmpl = QFile::encodeName(parentDir) + "/ap-XXXXXX";
    if (!::mkdtemp(tmpl.data()))  // mode 0700: nobody else can reach the socket
        return;
    m_dir = QFile::decodeName(tmpl);
    m_socketPath = m_dir + QStringLiteral("/s");
    const QByteArray path = QFile::encodeName(m_socketPath);
    sockaddr_un addr{};
    if (size_t(path.size()) >= sizeof(addr.sun_path) || ::pipe2(m_stopPipe, O_CLOEXEC) != 0)
        return;
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.constData(), size_t(path.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 || ::listen(fd, 4) != 0) {
        ::close(fd);
        return;
    }
    m_listenFd = fd;
    m_thread = std::thread([this] { serve(); });
}

AskPassServer::~AskPassServer()
{
    if (m_thread.joinable()) {
        const char c = 'x';
        (void)!::write(m_stopPipe[1], &c, 1);
        m_thread.join();
    }
    for (int fd : {m_listenFd, m_stopPipe[0], m_stopPipe[1]})
        if (fd >= 0)
            ::close(fd);
    if (!m_socketPath.isEmpty())
        QFile::remove(m_socketPath);
    if (!m_dir.isEmpty())
        QDir().rmdir(m_dir);
}

void AskPassServer::serve()
{
    for (;;) {
        pollfd fds[2] = {{m_listenFd, POLLIN, 0}, {m_stopPipe[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (fds[1].revents)
            return;
        if (fds[0].revents & POLLIN) {
            const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0) {
                answer(fd);
                ::close(fd);
            }
        }
    }
}

void AskPassServer::answer(int fd)
{
    ucred cred{};
    socklen_t len = sizeof(cred);
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::getuid())
        return;
    // The prompt: at most 4 KiB, until the helper shuts its side (or 10 s pass).
    QByteArray prompt;
    char buf[1024];
    while (prompt.size() < 4096) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 10000) <= 0)
            return;
        const ssize_t n = ::read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        prompt.append(buf, n);
    }
    std::optional<QByteArray> secret = m_askPass ? m_askPass->ask(displayText(nameFromBytes(prompt.left(4096))))
                                                 : std::nullopt;
    QByteArray reply = secret && !secret->contains('\n') && !secret->contains('\0') ? "y" + *secret
                                                                                    : QByteArray("n");
    const char *data = reply.constData();
    qsizetype left = reply.size();
    while (left > 0) {
        const ssize_t n = ::send(fd, data, size_t(left), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        data += n;
        left -= n;
    }
    ++m_answered;
    // Leave no copy of the secret behind in this process's heap.
    if (secret)
        secret->fill('\0');
    reply.fill('\0');
}

QString askPassProgram()
{
    const QString env = qEnvironmentVariable("INGOT_ASKPASS");
    if (!env.isEmpty())
        return env;
    // The build tree has it next to ingot and ingot-cli; an installed Ingot in <prefix>/libexec/ingot (a helper that
    // only ssh runs, kept off the PATH).
    const QString bin = QCoreApplication::applicationDirPath();
    const QString beside = bin + QStringLiteral("/ingot-askpass");
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QDir::cleanPath(bin + QStringLiteral("/../libexec/ingot/ingot-askpass"));
}

}  // namespace ingot
