#include "services/util/remoteshell.h"

#include "services/util/processrun.h"

#include <QCoreApplication>

namespace ingot {

RemoteShell::~RemoteShell() = default;

QByteArray shellOctal(const QByteArray &bytes)
{
    QByteArray out;
    out.reserve(bytes.size() * 2);
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.'
            || c == '_' || c == '-') {
            out += char(c);
        } else {
            out += "\\0";
            out += char('0' + ((c >> 6) & 7));
            out += char('0' + ((c >> 3) & 7));
            out += char('0' + (c & 7));
        }
    }
    return out;
}

namespace {

class LocalShell final : public RemoteShell
{
public:
    QString describe() const override { return QCoreApplication::translate("ingot::RemoteShell", "this machine"); }

    ShellResult run(const QByteArray &script, const QVector<QByteArray> &args, const QByteArray &input, qint64 maxOut,
                    int timeoutMs) override
    {
        // The script's arguments are shellOctal() text, as over any other transport (the scripts decode them).
        ProcessRequest request;
        request.program = QStringLiteral("/bin/sh");
        request.arguments = QStringList{QStringLiteral("-c"), QString::fromUtf8(script), QStringLiteral("sh")};
        for (const QByteArray &a : args)
            request.arguments << QString::fromLatin1(shellOctal(a));
        request.input = input;
        request.timeoutMs = timeoutMs;
        // stdout is the answer: more than maxOut is an error. stderr is for words: its first 64 KiB are kept.
        request.stdoutLimit = OutputLimit{maxOut, OutputLimit::Over::Stop};
        request.stderrLimit = OutputLimit{1 << 16, OutputLimit::Over::KeepStart};
        const ProcessResult p = runProcess(request);
        ShellResult r;
        r.out = p.out;
        r.err = p.err;
        if (!p.started)
            r.error = p.startError;
        else if (p.tooMuchOutput)
            r.error = QCoreApplication::translate("ingot::RemoteShell", "more than %1 bytes of output").arg(maxOut);
        else if (p.timedOut)
            r.error = QCoreApplication::translate("ingot::RemoteShell", "no answer within %1 s").arg(timeoutMs / 1000);
        if (r.ran())
            r.exitCode = p.crashed ? -1 : p.exitCode;
        return r;
    }
};

}  // namespace

std::shared_ptr<RemoteShell> makeLocalShell()
{
    return std::make_shared<LocalShell>();
}

}  // namespace ingot
