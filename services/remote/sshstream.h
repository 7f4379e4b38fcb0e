// SshStream: ssh as a streaming child for a long copy over the host's master connection: this side writes stdin and
// reads stdout as fast as the network takes them, with one idle timeout for both, a stop flag and bounded stderr.
//
// Why a wait of its own rather than runProcess (services/util/processrun.h, which runs the command/answer runs): a
// stream is fed while it runs (its child is started as runProcess's are, by spawnChild). stdin is a socket written with send(MSG_NOSIGNAL | MSG_DONTWAIT) as entries are read,
// so a vanished ssh is an error code, never SIGPIPE, and nothing is buffered on this side beyond one chunk; runProcess
// takes its whole input up front and hands the output back at the end. The child gets its own process group, so
// Ctrl-C on a terminal reaches Ingot, whose stop removes the host's staging, rather than killing ssh alone mid-copy.
// Both build their command line from SshConnection (streamCommand / the same ControlPath).
#pragma once

#include "services/remote/sshconnection.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QString>

#include <atomic>
#include <sys/types.h>

namespace ingot {

class SshStream final
{
public:
    explicit SshStream(const std::atomic_bool *stop) : m_stop(stop) {}
    ~SshStream();
    Q_DISABLE_COPY_MOVE(SshStream)

    // Starts `c`; false with words in *error.
    bool start(const SshConnection::StreamCommand &c, QString *error);

    // Writes all of `n` bytes, taking what ssh prints meanwhile into data()/err(). False when ssh ended, the stop
    // flag was set or nothing moved for too long.
    bool write(const char *p, qint64 n);
    void closeInput();

    // Reads until stdout holds at least `want` bytes (or has ended). False on stop or idle timeout.
    bool readAtLeast(qint64 want);
    // stdout not consumed yet; consume() moves past it.
    const char *data() const { return m_buf.constData() + m_pos; }
    qint64 available() const { return m_buf.size() - m_pos; }
    void consume(qint64 n);
    bool outputEnded() const { return m_out < 0; }
    // Everything up to the end of stdout, at most `limit` bytes (false past it, or on stop/timeout).
    bool readToEnd(qint64 limit);

    // Waits for ssh to end (closing its input); the exit status, -1 when it was killed or crashed.
    int finish();
    void kill();

    bool stopped() const { return m_stop && !m_ignoreStop && m_stop->load(); }
    // Once the host was told to commit, its last steps (sync, one rename) finish: a stop then would only hide
    // whether the entry landed.
    void ignoreStop() { m_ignoreStop = true; }
    bool timedOut() const { return m_timedOut; }
    bool wasStopped() const { return m_wasStopped; }
    const QByteArray &err() const { return m_errText; }

private:
    bool pump(bool forWrite);

    const std::atomic_bool *m_stop;
    pid_t m_pid = -1;
    int m_in = -1, m_out = -1, m_err = -1;
    QByteArray m_buf;
    qint64 m_pos = 0;
    QByteArray m_errText;
    QElapsedTimer m_idle;
    bool m_killed = false, m_timedOut = false, m_wasStopped = false, m_ignoreStop = false;
    int m_exited = -1;  // the wait status when pump() reaped ssh
};

}  // namespace ingot
