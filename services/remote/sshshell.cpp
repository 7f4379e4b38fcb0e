#include "services/remote/sshshell.h"

#include "services/util/names.h"

#include <QCoreApplication>

namespace ingot {

namespace {

// Decodes $1 (the script), then runs it with the arguments after it as $1..., still in their printf %b form, as
// RemoteShell promises (scripts decode them, as they do with makeLocalShell(); decoding here too would turn a
// backslash in a name into an escape). Written without a single quote or a backslash, so one pair of single quotes
// carries it through any login shell.
const char kPrelude[] = "s=$(printf \"%bX\" \"$1\"); s=${s%X}; shift; eval \"$s\"";

QString quoted(const QByteArray &ascii)
{
    return QLatin1Char('\'') + QString::fromLatin1(ascii) + QLatin1Char('\'');
}

}  // namespace

SshShell::SshShell(std::shared_ptr<SshConnection> connection) : m_connection(std::move(connection)) {}

QString SshShell::describe() const
{
    return m_connection->host().toString();
}

QString SshShell::commandFor(const QByteArray &script, const QVector<QByteArray> &args)
{
    QString cmd = QStringLiteral("sh -c ") + quoted(kPrelude) + QStringLiteral(" sh ") + quoted(shellOctal(script));
    for (const QByteArray &a : args)
        cmd += QLatin1Char(' ') + quoted(shellOctal(a));
    return cmd;
}

ShellResult SshShell::run(const QByteArray &script, const QVector<QByteArray> &args, const QByteArray &input,
                          qint64 maxOut, int timeoutMs)
{
    ShellResult r;
    const QString cmd = commandFor(script, args);
    if (cmd.size() > maxCommandBytes) {
        r.error = QCoreApplication::translate("ingot::RemoteShell", "the command for %1 is too long (%2 bytes)")
                      .arg(displayText(describe()))
                      .arg(cmd.size());
        return r;
    }
    const SshResult s = m_connection->run(cmd, input, timeoutMs, maxOut);
    if (!s.ok()) {
        r.error = s.errorText;
        return r;
    }
    r.exitCode = s.exitCode;
    r.out = s.out;
    r.err = s.err.left(1 << 16);
    return r;
}

}  // namespace ingot
