// runProcess: the one way Ingot runs a program to its end and waits for it (ssh and ssh-keygen, the local /bin/sh
// of RemoteShell, a Python probe, ingot-cli). A ProcessRequest says what runs and within which limits; the
// ProcessResult says how it ended and what it printed.
// - The program gets its arguments exactly: each is handed to execve as nameToBytes() gives it (a name read as bytes
//   survives, undecodable bytes included), never through a shell.
// - What it prints is kept up to a limit per stream: what is over the limit is dropped and flagged, never held.
// - A time limit, a stop flag and output over a Stop limit end it the same way: SIGTERM, then SIGKILL once the grace
//   has passed.
// Blocking, without an event loop: call it off the UI thread (runTask's TaskControl::stopFlag() is a stop flag).
// Programs that must outlive Ingot (a training job, the GUI's restart) are started detached elsewhere, and a host
// copy's ssh stream (services/remote/sshstream.h) waits in a way of its own: docs/architecture.md says why. Both
// runProcess and the stream start their child through spawnChild (services/util/childspawn.h).
#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <atomic>

namespace ingot {

struct OutputLimit {
    enum class Over {
        Stop,       // the process is ended and the run flagged tooMuchOutput: an answer that big is an error
        KeepStart,  // the first maxBytes are kept, the rest read and dropped
        KeepEnd,    // the last maxBytes are kept (a log whose end says how it went)
    };
    qint64 maxBytes = 1 << 20;
    Over over = Over::Stop;
};

struct ProcessRequest {
    QString program;  // a path, or a name looked up on this process's PATH
    QStringList arguments;
    QProcessEnvironment environment;  // empty: this process's environment
    QString workingDirectory;         // empty: this process's
    QByteArray input;                 // written to stdin, which is then closed; empty: stdin is /dev/null
    OutputLimit stdoutLimit;
    OutputLimit stderrLimit{1 << 16, OutputLimit::Over::KeepStart};
    bool mergeStderr = false;  // stderr goes where stdout goes (one stream, stdoutLimit)
    int timeoutMs = 30000;
    int graceMs = 2000;  // from SIGTERM to SIGKILL
    const std::atomic_bool *stop = nullptr;
};

struct ProcessResult {
    bool started = false;
    QString startError;          // why it did not start (words for an errno)
    bool timedOut = false;       // ended because the time limit passed
    bool stopped = false;        // ended because the stop flag was set
    bool tooMuchOutput = false;  // ended because a stream with a Stop limit passed it
    bool outTruncated = false;   // bytes of stdout were dropped
    bool errTruncated = false;
    bool crashed = false;  // ended by a signal (the SIGTERM or SIGKILL of an end included)
    int exitCode = -1;     // its exit status when it exited by itself; -1 otherwise
    QByteArray out;
    QByteArray err;

    // It ran and exited by itself (any exit code), within its limits.
    bool ranToEnd() const { return started && !crashed && !timedOut && !stopped && !tooMuchOutput; }
};

ProcessResult runProcess(const ProcessRequest &request);

// What went wrong, in words that name the program (escaped for display): empty when ranToEnd().
QString processProblem(const ProcessRequest &request, const ProcessResult &result);

}  // namespace ingot
