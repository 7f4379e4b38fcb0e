// A POSIX shell somewhere: where a store that is not a local folder (a trn host over SSH) runs its small scripts.
// Stores send a script and byte-exact arguments and get its output back; nothing is installed where it runs.
// makeLocalShell() runs /bin/sh here (tests compare a shell store with the local one on the same folder); the SSH
// connection provides another.
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

#include <memory>

namespace ingot {

struct ShellResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString error;  // the shell could not be reached or the output was too large (words); empty when it ran
    bool ran() const { return error.isEmpty(); }
};

class RemoteShell
{
public:
    virtual ~RemoteShell();
    virtual QString describe() const = 0;  // "this machine", a host
    // Runs `script` with /bin/sh, its positional parameters $1.. being `args` in shellOctal() form (ASCII; any
    // bytes survive any transport): the script decodes each with printf %b (see shellOctal). stdin is `input`. More
    // than maxOut bytes of stdout is an error. Blocking: call off the UI thread.
    virtual ShellResult run(const QByteArray &script, const QVector<QByteArray> &args, const QByteArray &input,
                            qint64 maxOut, int timeoutMs) = 0;
};

std::shared_ptr<RemoteShell> makeLocalShell();

// Bytes as a printf %b argument (\0ooo for every byte but [A-Za-z0-9/._-]), so any name survives any shell and
// transport; scripts decode with: v=$(printf '%bX' "$1"); v=${v%X}
QByteArray shellOctal(const QByteArray &bytes);

}  // namespace ingot
