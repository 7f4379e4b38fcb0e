#include "services/remote/sshprocess.h"

#include <QDeadlineTimer>
#include <QObject>
#include <QProcess>

namespace ingot {

ProcessResult runProcess(const QString &program, const QStringList &args, const QByteArray &stdinBytes,
                         int timeoutMs, qint64 maxOutputBytes, const QProcessEnvironment &env)
{
    ProcessResult r;
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    // Blocking waits emit these on this thread, one pipe read (at most the pipe's size) at a time: the output held
    // never passes the limit by more than that.
    auto take = [&](QProcess::ProcessChannel ch) {
        QByteArray &buf = ch == QProcess::StandardOutput ? r.out : r.err;
        if (r.tooMuchOutput) {
            p.setReadChannel(ch);
            p.readAll();
            return;
        }
        buf += ch == QProcess::StandardOutput ? p.readAllStandardOutput() : p.readAllStandardError();
        if (buf.size() > maxOutputBytes) {
            buf.truncate(maxOutputBytes);
            r.tooMuchOutput = true;
            p.kill();
        }
    };
    QObject::connect(&p, &QProcess::readyReadStandardOutput, [&] { take(QProcess::StandardOutput); });
    QObject::connect(&p, &QProcess::readyReadStandardError, [&] { take(QProcess::StandardError); });
    p.start(program, args);
    if (!p.waitForStarted(30000)) {
        r.startError = p.errorString();
        return r;
    }
    r.started = true;
    if (!stdinBytes.isEmpty())
        p.write(stdinBytes);
    p.closeWriteChannel();
    QDeadlineTimer deadline(timeoutMs);
    while (p.state() != QProcess::NotRunning) {
        if (deadline.hasExpired()) {
            r.timedOut = true;
            p.kill();
            p.waitForFinished(5000);
            break;
        }
        p.waitForFinished(int(qBound(qint64(1), deadline.remainingTime(), qint64(1000))));
    }
    take(QProcess::StandardOutput);
    take(QProcess::StandardError);
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = r.crashed ? -1 : p.exitCode();
    return r;
}

}  // namespace ingot
