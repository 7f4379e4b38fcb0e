#include "services/remote/sshstream.h"

#include "services/util/childspawn.h"
#include "services/util/errnotext.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ingot {

namespace {

// The words were written for host copies, their first user: the same translation context keeps them translated.
struct SshStreamText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HostCopy)
};

constexpr qint64 kChunk = 1 << 20;
constexpr int kIdleMs = 10 * 60 * 1000;  // no byte either way for this long: the host or the network hangs
constexpr qint64 kMaxErr = 64 << 10;

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

}  // namespace

SshStream::~SshStream()
{
    kill();
    closeFd(m_in);
    closeFd(m_out);
    closeFd(m_err);
}

bool SshStream::start(const SshConnection::StreamCommand &c, QString *error)
{
    int in[2], out[2], err[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
        *error = SshStreamText::tr("Cannot start ssh: %1.").arg(describeErrno(errno));
        return false;
    }
    if (::pipe2(out, O_CLOEXEC) != 0) {
        *error = SshStreamText::tr("Cannot start ssh: %1.").arg(describeErrno(errno));
        ::close(in[0]), ::close(in[1]);
        return false;
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        *error = SshStreamText::tr("Cannot start ssh: %1.").arg(describeErrno(errno));
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        return false;
    }
    ChildSetup setup;
    setup.program = c.program;
    setup.arguments = c.arguments;
    setup.environment = c.environment;
    setup.stdinFd = in[1];
    setup.stdoutFd = out[1];
    setup.stderrFd = err[1];
    // Its own process group: Ctrl-C on a terminal reaches Ingot, whose stop removes the staging, not ssh alone.
    setup.ownProcessGroup = true;
    const int rc = spawnChild(setup, &m_pid);
    ::close(in[1]), ::close(out[1]), ::close(err[1]);
    m_in = in[0], m_out = out[0], m_err = err[0];
    if (rc != 0) {
        m_pid = -1;
        *error = sshErrorText(SshError::SshMissing, QString());
        return false;
    }
    for (int fd : {m_in, m_out, m_err})
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    m_idle.start();
    return true;
}

bool SshStream::write(const char *p, qint64 n)
{
    while (n > 0) {
        if (!pump(true))
            return false;
        const ssize_t w = ::send(m_in, p, size_t(std::min(n, kChunk)), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            p += w, n -= w;
            m_idle.restart();
        } else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return false;  // ssh closed its input: its status says why
        }
    }
    return true;
}

void SshStream::closeInput()
{
    closeFd(m_in);
}

bool SshStream::readAtLeast(qint64 want)
{
    while (m_buf.size() - m_pos < want && m_out >= 0)
        if (!pump(false))
            return false;
    return true;
}

void SshStream::consume(qint64 n)
{
    m_pos += n;
    if (m_pos > (4 << 20) || m_pos == m_buf.size()) {
        m_buf.remove(0, m_pos);
        m_pos = 0;
    }
}

bool SshStream::readToEnd(qint64 limit)
{
    while (m_out >= 0) {
        if (!pump(false) || available() > limit)
            return false;
    }
    return true;
}

int SshStream::finish()
{
    closeInput();
    while (m_out >= 0 || m_err >= 0)
        if (!pump(false))
            break;
    if (m_pid < 0)
        return !m_killed && m_exited >= 0 && WIFEXITED(m_exited) ? WEXITSTATUS(m_exited) : -1;
    // ssh closes its output just before it exits.
    int status = 0;
    QElapsedTimer t;
    t.start();
    while (::waitpid(m_pid, &status, WNOHANG) == 0) {
        if (stopped() || t.elapsed() > 30000) {
            kill();
            return -1;
        }
        ::usleep(2000);
    }
    m_pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void SshStream::kill()
{
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        ::waitpid(m_pid, &status, 0);
        m_pid = -1;
        m_killed = true;
    }
}

// One poll round (at most 100 ms): drains stdout and stderr; with `forWrite`, returns once stdin can take more.
bool SshStream::pump(bool forWrite)
{
    if (stopped()) {
        m_wasStopped = true;
        kill();
        return false;
    }
    if (m_idle.elapsed() > kIdleMs) {
        m_timedOut = true;
        kill();
        return false;
    }
    pollfd fds[3];
    int n = 0;
    if (forWrite && m_in >= 0)
        fds[n++] = {m_in, POLLOUT, 0};
    if (m_out >= 0)
        fds[n++] = {m_out, POLLIN, 0};
    if (m_err >= 0)
        fds[n++] = {m_err, POLLIN, 0};
    if (n == 0)
        return !forWrite;
    if (::poll(fds, nfds_t(n), 100) < 0 && errno != EINTR)
        return false;
    for (int i = 0; i < n; ++i) {
        if (fds[i].fd == m_in) {
            if (fds[i].revents & (POLLERR | POLLHUP))
                return false;
            continue;
        }
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        const bool isOut = fds[i].fd == m_out;
        char buf[1 << 16];
        const ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
        if (r > 0) {
            m_idle.restart();
            if (isOut)
                m_buf.append(buf, r);
            else if (m_errText.size() < kMaxErr)
                m_errText.append(buf, std::min<qint64>(r, kMaxErr - m_errText.size()));
        } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
            closeFd(isOut ? m_out : m_err);
        }
    }
    if (forWrite && m_in >= 0 && m_pid > 0) {
        // ssh gone while we still write: its input will never drain.
        int status = 0;
        if (m_out < 0 && m_err < 0 && ::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_exited = status;
            m_pid = -1;
            return false;
        }
    }
    return true;
}

}  // namespace ingot
