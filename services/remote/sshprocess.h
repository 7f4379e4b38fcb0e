// Runs the OpenSSH tools (ssh, ssh-keygen) as blocking subprocesses with a time limit and bounded output: what
// they print beyond the limit stops them and is reported, never held in memory. Call off the UI thread.
#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace ingot {

struct ProcessResult {
    bool started = false;
    bool timedOut = false;
    bool tooMuchOutput = false;  // stdout or stderr passed the limit: the process was killed
    bool crashed = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString startError;
};

// `stdinBytes` is written and stdin closed. An empty environment means the caller's.
ProcessResult runProcess(const QString &program, const QStringList &args, const QByteArray &stdinBytes,
                         int timeoutMs, qint64 maxOutputBytes,
                         const QProcessEnvironment &env = QProcessEnvironment());

}  // namespace ingot
