#include "services/remote/sshresolve.h"

#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/util/processrun.h"

#include <QCoreApplication>

namespace ingot {

namespace {

struct SshResolveText {
    Q_DECLARE_TR_FUNCTIONS(ingot::SshResolve)
};

}  // namespace

SshClientConfig SshClientConfig::fromSettings()
{
    SshClientConfig c;
    c.configFile = AppSettings::sshConfigFile();
    return c;
}

QStringList SshClientConfig::baseArguments() const
{
    if (configFile.isEmpty())
        return {};
    return {QStringLiteral("-F"), configFile};
}

SshResolved parseSshG(const QByteArray &output)
{
    SshResolved r;
    const QList<QByteArray> lines = output.split('\n');
    for (const QByteArray &raw : lines) {
        const QByteArray line = raw.trimmed();
        const int sp = line.indexOf(' ');
        if (line.isEmpty() || sp <= 0)
            continue;
        const QString key = QString::fromUtf8(line.left(sp)).toLower();
        const QString value = nameFromBytes(line.mid(sp + 1));
        r.options[key] << value;
    }
    auto one = [&r](const char *key) { return r.options.value(QLatin1String(key)).value(0); };
    r.hostname = one("hostname");
    r.user = one("user");
    bool ok = false;
    const int port = one("port").toInt(&ok);
    r.port = ok && port > 0 && port < 65536 ? port : 22;
    for (const QString &f : r.options.value(QStringLiteral("identityfile")))
        r.identityFiles << expandTilde(f);
    r.proxyJump = one("proxyjump");
    if (r.proxyJump == QLatin1String("none"))
        r.proxyJump.clear();
    r.controlPath = one("controlpath");
    for (const QString &line : r.options.value(QStringLiteral("userknownhostsfile")))
        for (const QString &f : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            r.userKnownHostsFiles << expandTilde(f);
    r.hashKnownHosts = one("hashknownhosts") == QLatin1String("yes");
    r.hostKeyAlias = one("hostkeyalias");
    return r;
}

bool resolveSshHost(const SshClientConfig &client, const SshHost &host, SshResolved *out, QString *error)
{
    if (!host.isValid()) {
        *error = SshResolveText::tr("No host given.");
        return false;
    }
    const QStringList args = client.baseArguments() + QStringList{QStringLiteral("-G")} + host.sshArguments();
    // ssh -G prints a few KiB: 15 s and 1 MiB per stream, output past that is an error.
    ProcessRequest request;
    request.program = client.program;
    request.arguments = args;
    request.timeoutMs = 15000;
    request.stdoutLimit = request.stderrLimit = OutputLimit{1 << 20, OutputLimit::Over::Stop};
    const ProcessResult p = runProcess(request);
    if (!p.started) {
        *error = SshResolveText::tr("Cannot run %1: %2").arg(client.program, p.startError);
        return false;
    }
    if (p.timedOut || p.tooMuchOutput || p.exitCode != 0) {
        const QString why = displayText(nameFromBytes(p.err.trimmed().left(2000)));
        *error = SshResolveText::tr("ssh cannot resolve %1: %2").arg(displayName(host.toString()), why);
        return false;
    }
    *out = parseSshG(p.out);
    return true;
}

}  // namespace ingot
