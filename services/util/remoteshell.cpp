#include "services/util/remoteshell.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QProcess>

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
        ShellResult r;
        // Arguments go through printf %b: QProcess's arguments are text, names are bytes.
        QStringList argv{QStringLiteral("-c"), QString::fromUtf8(script), QStringLiteral("sh")};
        for (const QByteArray &a : args)
            argv << QString::fromLatin1(shellOctal(a));
        QProcess p;
        p.start(QStringLiteral("/bin/sh"), argv);
        if (!p.waitForStarted(10000)) {
            r.error = p.errorString();
            return r;
        }
        p.write(input);
        p.closeWriteChannel();
        QDeadlineTimer deadline(timeoutMs);
        while (p.state() != QProcess::NotRunning) {
            p.waitForReadyRead(100);
            r.out += p.readAllStandardOutput();
            r.err += p.readAllStandardError().left(1 << 16);
            if (r.out.size() > maxOut) {
                p.kill();
                p.waitForFinished();
                r.error = QCoreApplication::translate("ingot::RemoteShell", "more than %1 bytes of output").arg(maxOut);
                return r;
            }
            if (deadline.hasExpired()) {
                p.kill();
                p.waitForFinished();
                r.error = QCoreApplication::translate("ingot::RemoteShell", "no answer within %1 s").arg(timeoutMs / 1000);
                return r;
            }
        }
        r.out += p.readAllStandardOutput();
        r.err += p.readAllStandardError().left(1 << 16);
        if (r.out.size() > maxOut) {
            r.error = QCoreApplication::translate("ingot::RemoteShell", "more than %1 bytes of output").arg(maxOut);
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        return r;
    }
};

}  // namespace

std::shared_ptr<RemoteShell> makeLocalShell()
{
    return std::make_shared<LocalShell>();
}

}  // namespace ingot
