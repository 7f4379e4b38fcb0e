// runProcess is posix_spawn and a poll loop rather than a QProcess: arguments and the environment reach execve as
// bytes (QProcess encodes a QString argument as UTF-8, so a name kept by nameFromBytes would arrive changed), no
// descriptor of Ingot's but 0, 1 and 2 reaches the program (closefrom in the child), stdin is a pipe written with
// SIGPIPE blocked on the writing thread and a pending one taken back (a program that stops reading is an error code
// here, never a SIGPIPE; a socket would do that with MSG_NOSIGNAL, but a program cannot open a socket as /dev/stdin,
// as `aws s3api delete-objects --delete file:///dev/stdin` does), and what is read goes straight
// under its limit (QProcess reads a pipe into a buffer of its own first).
#include "services/util/processrun.h"

#include "services/util/childspawn.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDeadlineTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ingot {

namespace {

struct ProcessRunText {
    Q_DECLARE_TR_FUNCTIONS(ingot::ProcessRun)
};

constexpr qsizetype kChunk = 64 << 10;
constexpr int kStopCheckMs = 50;     // how soon a stop flag is seen
constexpr int kReapAfterKillMs = 10000;  // a process that SIGKILL does not end (stuck in the kernel) is left

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

// One stream's kept bytes under its limit.
class Sink
{
public:
    Sink(OutputLimit limit, QByteArray *bytes, bool *truncated) : m_limit(limit), m_bytes(bytes), m_truncated(truncated)
    {
    }

    // False when a Stop limit was passed.
    bool take(const char *p, qsizetype n)
    {
        const qint64 max = std::max<qint64>(0, m_limit.maxBytes);
        if (m_limit.over == OutputLimit::Over::KeepEnd) {
            m_bytes->append(p, n);
            // Trimmed in steps, so that a long log costs one move per quarter of the limit, not per read.
            if (m_bytes->size() > max + std::max<qint64>(kChunk, max / 4))
                trimEnd();
            return true;
        }
        const qint64 room = max - m_bytes->size();
        if (n <= room) {
            m_bytes->append(p, n);
            return true;
        }
        m_bytes->append(p, qsizetype(std::max<qint64>(0, room)));
        *m_truncated = true;
        return m_limit.over != OutputLimit::Over::Stop;
    }

    void finish()
    {
        if (m_limit.over == OutputLimit::Over::KeepEnd)
            trimEnd();
    }

private:
    void trimEnd()
    {
        const qint64 max = std::max<qint64>(0, m_limit.maxBytes);
        if (m_bytes->size() > max) {
            m_bytes->remove(0, qsizetype(m_bytes->size() - max));
            *m_truncated = true;
        }
    }

    OutputLimit m_limit;
    QByteArray *m_bytes;
    bool *m_truncated;
};

struct Child {
    pid_t pid = -1;
    int in = -1;
    int out = -1;
    int err = -1;
};

// Starts the program with stdin, stdout and stderr pipes (stdin /dev/null without input). 0, or an errno.
int spawn(const ProcessRequest &r, Child *child)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    auto closeAll = [&] {
        for (int *p : {in, out, err})
            closeFd(p[0]), closeFd(p[1]);
    };
    if ((!r.input.isEmpty() && ::pipe2(in, O_CLOEXEC) != 0)
        || ::pipe2(out, O_CLOEXEC) != 0 || (!r.mergeStderr && ::pipe2(err, O_CLOEXEC) != 0)) {
        const int e = errno;
        closeAll();
        return e;
    }
    ChildSetup setup;
    setup.program = r.program;
    setup.arguments = r.arguments;
    setup.environment = r.environment;
    setup.workingDirectory = r.workingDirectory;
    setup.stdinFd = in[0];
    setup.stdoutFd = out[1];
    setup.stderrFd = r.mergeStderr ? out[1] : err[1];
    const int rc = spawnChild(setup, &child->pid);
    closeFd(in[0]), closeFd(out[1]), closeFd(err[1]);
    if (rc != 0) {
        closeAll();
        return rc;
    }
    child->in = in[1], child->out = out[0], child->err = err[0];
    for (int fd : {child->in, child->out, child->err})
        if (fd >= 0)
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

// A write to a pipe whose reader is gone is EPIPE here, never a SIGPIPE for Ingot: SIGPIPE is blocked on this thread
// for the write, and one it raised is taken back before the mask is restored (one already pending is left as it was).
ssize_t writeWithoutSigpipe(int fd, const char *data, size_t size)
{
    sigset_t pipeOnly, old, pending;
    sigemptyset(&pipeOnly);
    sigaddset(&pipeOnly, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &old);
    sigpending(&pending);
    const bool wasPending = sigismember(&pending, SIGPIPE);
    const ssize_t w = ::write(fd, data, size);
    const int e = errno;
    if (w < 0 && e == EPIPE && !wasPending) {
        const timespec zero{0, 0};
        while (sigtimedwait(&pipeOnly, nullptr, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = e;
    return w;
}

int pidfdOpen(pid_t pid)
{
#ifdef SYS_pidfd_open
    return int(::syscall(SYS_pidfd_open, pid, 0));
#else
    Q_UNUSED(pid)
    return -1;
#endif
}

// The waiting: the child's pipes, its stdin, its end (a pidfd) and the limits, until it has exited.
class Runner
{
public:
    Runner(const ProcessRequest &r, Child c, ProcessResult *res)
        : m_r(r), m_c(c), m_res(res), m_out(r.stdoutLimit, &res->out, &res->outTruncated),
          m_err(r.stderrLimit, &res->err, &res->errTruncated),
          m_deadline(r.timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(r.timeoutMs))
    {
        m_pidfd = pidfdOpen(c.pid);
    }

    ~Runner()
    {
        closeFd(m_c.in), closeFd(m_c.out), closeFd(m_c.err), closeFd(m_pidfd);
    }

    void run()
    {
        int status = 0;
        for (;;) {
            const pid_t w = ::waitpid(m_c.pid, &status, WNOHANG);
            if (w == m_c.pid)
                break;
            if (w < 0 && errno != EINTR) {
                m_res->crashed = true;  // its status is lost (someone else reaped it): say nothing it did not say
                finish();
                return;
            }
            if (m_killed && m_killedAt.hasExpired()) {
                m_res->crashed = true;  // left to the kernel: nothing more can be done from here
                finish();
                return;
            }
            checkLimits();
            pollOnce();
        }
        // What the program wrote before it ended is in the pipes; a child of its own may hold them open longer.
        drain(m_c.out, m_out);
        drain(m_c.err, m_err);
        finish();
        if (WIFEXITED(status)) {
            m_res->exitCode = WEXITSTATUS(status);
        } else {
            m_res->crashed = true;
        }
    }

private:
    void finish()
    {
        m_out.finish();
        m_err.finish();
    }

    void end()
    {
        if (m_ending)
            return;
        m_ending = true;
        closeFd(m_c.in);
        ::kill(m_c.pid, SIGTERM);
        m_killAt = QDeadlineTimer(std::max(0, m_r.graceMs));
    }

    void checkLimits()
    {
        if (!m_ending) {
            if (m_r.stop && m_r.stop->load()) {
                m_res->stopped = true;
                end();
            } else if (m_deadline.hasExpired()) {
                m_res->timedOut = true;
                end();
            }
        } else if (!m_killed && m_killAt.hasExpired()) {
            ::kill(m_c.pid, SIGKILL);
            m_killed = true;
            m_killedAt = QDeadlineTimer(kReapAfterKillMs);
        }
    }

    int waitMs() const
    {
        qint64 ms = m_ending ? (m_killed ? 100 : m_killAt.remainingTime()) : m_deadline.remainingTime();
        if (ms < 0)
            ms = 1000;  // no limit: the pidfd or the pipes wake it
        if (m_r.stop && !m_ending)
            ms = std::min<qint64>(ms, kStopCheckMs);
        if (m_pidfd < 0)
            ms = std::min<qint64>(ms, 20);  // no pidfd (an old kernel): its end is seen by asking
        return int(std::max<qint64>(0, ms));
    }

    void pollOnce()
    {
        pollfd fds[4];
        nfds_t n = 0;
        const bool writing = m_c.in >= 0 && m_written < m_r.input.size();
        for (int fd : {m_c.out, m_c.err, m_pidfd})
            if (fd >= 0)
                fds[n++] = pollfd{fd, POLLIN, 0};
        if (writing)
            fds[n++] = pollfd{m_c.in, POLLOUT, 0};
        if (::poll(fds, n, waitMs()) <= 0)
            return;
        for (nfds_t i = 0; i < n; ++i) {
            if (!fds[i].revents)
                continue;
            if (fds[i].fd == m_c.out)
                readSome(m_c.out, m_out);
            else if (fds[i].fd == m_c.err)
                readSome(m_c.err, m_err);
            else if (fds[i].fd == m_c.in)
                writeSome();
        }
    }

    // Reads what is there (a few chunks at most, so that limits are checked between); EOF closes the descriptor.
    void readSome(int &fd, Sink &sink)
    {
        char buf[kChunk];
        for (int i = 0; i < 4 && fd >= 0; ++i) {
            const ssize_t k = ::read(fd, buf, sizeof buf);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return;
            if (k <= 0) {
                closeFd(fd);
                return;
            }
            if (!sink.take(buf, k) && !m_ending) {
                m_res->tooMuchOutput = true;
                end();
            }
        }
    }

    void drain(int &fd, Sink &sink)
    {
        while (fd >= 0) {
            char buf[kChunk];
            const ssize_t k = ::read(fd, buf, sizeof buf);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                closeFd(fd);
                return;
            }
            if (!sink.take(buf, k))
                m_res->tooMuchOutput = true;
        }
    }

    void writeSome()
    {
        const qsizetype left = m_r.input.size() - m_written;
        const ssize_t w = writeWithoutSigpipe(m_c.in, m_r.input.constData() + m_written, size_t(std::min(left, kChunk)));
        if (w > 0)
            m_written += w;
        else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            closeFd(m_c.in);  // it closed its stdin: what it does without the rest is its answer
        if (m_written == m_r.input.size())
            closeFd(m_c.in);  // the end of its input
    }

    const ProcessRequest &m_r;
    Child m_c;
    ProcessResult *m_res;
    Sink m_out;
    Sink m_err;
    QDeadlineTimer m_deadline;
    QDeadlineTimer m_killAt;
    QDeadlineTimer m_killedAt;
    int m_pidfd = -1;
    qsizetype m_written = 0;
    bool m_ending = false;
    bool m_killed = false;
};

}  // namespace

ProcessResult runProcess(const ProcessRequest &request)
{
    ProcessResult res;
    if (request.program.isEmpty()) {
        res.startError = describeErrno(ENOENT);
        return res;
    }
    Child child;
    if (const int rc = spawn(request, &child)) {
        res.startError = describeErrno(rc);
        return res;
    }
    res.started = true;
    Runner(request, child, &res).run();
    return res;
}

QString processProblem(const ProcessRequest &request, const ProcessResult &result)
{
    const QString program = displayName(request.program);
    if (!result.started)
        return ProcessRunText::tr("Cannot run %1: %2").arg(program, result.startError);
    if (result.timedOut)
        return ProcessRunText::tr("%1 did not end within %2 s.")
            .arg(program)
            .arg(std::max(1, (request.timeoutMs + 999) / 1000));
    if (result.stopped)
        return ProcessRunText::tr("%1 was stopped.").arg(program);
    if (result.tooMuchOutput) {
        const bool out = result.outTruncated && request.stdoutLimit.over == OutputLimit::Over::Stop;
        const qint64 limit = out ? request.stdoutLimit.maxBytes : request.stderrLimit.maxBytes;
        return ProcessRunText::tr("%1 printed more than %2 bytes.").arg(program).arg(limit);
    }
    if (result.crashed)
        return ProcessRunText::tr("%1 was killed.").arg(program);
    return {};
}

}  // namespace ingot
