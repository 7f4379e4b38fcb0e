#include "services/remote/sshhost.h"

#include <QCoreApplication>
#include <QFile>
#include <QSet>

#include <glob.h>
#include <pwd.h>
#include <unistd.h>

namespace ingot {

namespace {

struct SshHostText {
    Q_DECLARE_TR_FUNCTIONS(ingot::SshHost)
};

// Letters, digits and the few punctuation characters host names, aliases and IPv6 literals use.
bool plainChars(const QString &s, const QString &extra)
{
    for (const QChar c : s) {
        const ushort u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || extra.contains(c);
        if (!ok)
            return false;
    }
    return true;
}

bool parsePort(const QString &text, int *port)
{
    bool ok = false;
    const int p = text.toInt(&ok);
    if (!ok || text.isEmpty() || !plainChars(text, QString()) || p < 1 || p > 65535)
        return false;
    *port = p;
    return true;
}

// ssh's keywords are case-insensitive and may be followed by '=' instead of (or with) blanks; arguments may be
// double-quoted.
QStringList configTokens(const QString &line)
{
    QStringList out;
    QString cur;
    bool quoted = false;
    bool have = false;
    for (const QChar c : line) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
            have = true;
        } else if (!quoted && (c.isSpace() || (out.isEmpty() && c == QLatin1Char('=')))) {
            if (have)
                out << cur;
            cur.clear();
            have = false;
        } else {
            cur += c;
            have = true;
        }
    }
    if (have)
        out << cur;
    return out;
}

QStringList globFiles(const QString &pattern)
{
    QStringList out;
    glob_t g{};
    if (::glob(QFile::encodeName(pattern).constData(), 0, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; ++i)
            out << QFile::decodeName(g.gl_pathv[i]);
    }
    ::globfree(&g);
    return out;
}

void collectHosts(const QString &path, const QString &sshDir, int depth, QStringList *hosts, QSet<QString> *seen)
{
    if (depth > 16)
        return;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return;
    int lines = 0;
    while (!f.atEnd() && ++lines <= 100000) {
        const QString line = QString::fromUtf8(f.readLine(1 << 16)).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList t = configTokens(line);
        if (t.isEmpty())
            continue;
        const QString key = t.first().toLower();
        if (key == QLatin1String("host")) {
            for (int i = 1; i < t.size(); ++i) {
                const QString &h = t[i];
                if (h.contains(QLatin1Char('*')) || h.contains(QLatin1Char('?')) || h.startsWith(QLatin1Char('!')))
                    continue;
                SshHost parsed;
                QString error;
                if (!parseSshHost(h, &parsed, &error) || seen->contains(h))
                    continue;
                seen->insert(h);
                *hosts << h;
            }
        } else if (key == QLatin1String("include")) {
            for (int i = 1; i < t.size(); ++i) {
                QString pattern = expandTilde(t[i]);
                if (!pattern.startsWith(QLatin1Char('/')))
                    pattern = sshDir + QLatin1Char('/') + pattern;
                for (const QString &file : globFiles(pattern))
                    collectHosts(file, sshDir, depth + 1, hosts, seen);
            }
        }
    }
}

}  // namespace

QString SshHost::toString() const
{
    QString out;
    if (!user.isEmpty())
        out += user + QLatin1Char('@');
    const bool v6 = destination.contains(QLatin1Char(':'));
    if (port > 0)
        out += (v6 ? QLatin1Char('[') + destination + QLatin1Char(']') : destination) + QLatin1Char(':')
               + QString::number(port);
    else
        out += destination;
    return out;
}

QStringList SshHost::sshArguments() const
{
    QStringList args;
    if (!user.isEmpty())
        args << QStringLiteral("-l") << user;
    if (port > 0)
        args << QStringLiteral("-p") << QString::number(port);
    args << QStringLiteral("--") << destination;
    return args;
}

bool parseSshHost(const QString &text, SshHost *host, QString *error)
{
    *host = SshHost();
    const QString s = text.trimmed();
    if (s.isEmpty()) {
        *error = SshHostText::tr("Enter a host: an alias from your ssh config, host, user@host or user@host:port.");
        return false;
    }
    if (s.size() > 255) {
        *error = SshHostText::tr("The host is too long.");
        return false;
    }
    for (const QChar c : s) {
        if (c.isSpace() || c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
            || c.isSurrogate()) {
            *error = SshHostText::tr("A host cannot contain spaces or control characters.");
            return false;
        }
    }
    if (s.startsWith(QLatin1Char('-'))) {
        *error = SshHostText::tr("A host cannot start with '-' (it would be read as an ssh option).");
        return false;
    }
    SshHost h;
    QString rest = s;
    const int at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        h.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (h.user.isEmpty() || h.user.startsWith(QLatin1Char('-')) || !plainChars(h.user, QStringLiteral("._-"))) {
            *error = SshHostText::tr("The user name before '@' is not valid.");
            return false;
        }
    }
    if (rest.startsWith(QLatin1Char('['))) {
        const int close = rest.indexOf(QLatin1Char(']'));
        if (close < 0) {
            *error = SshHostText::tr("A '[' without its ']'.");
            return false;
        }
        h.destination = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty() && (!after.startsWith(QLatin1Char(':')) || !parsePort(after.mid(1), &h.port))) {
            *error = SshHostText::tr("The port after ']' must be ':' and a number from 1 to 65535.");
            return false;
        }
    } else if (rest.count(QLatin1Char(':')) == 1) {
        const int colon = rest.indexOf(QLatin1Char(':'));
        h.destination = rest.left(colon);
        if (!parsePort(rest.mid(colon + 1), &h.port)) {
            *error = SshHostText::tr("The port after ':' must be a number from 1 to 65535.");
            return false;
        }
    } else {
        h.destination = rest;  // a name, or an IPv6 address without a port
    }
    if (h.destination.isEmpty() || h.destination.startsWith(QLatin1Char('-'))) {
        *error = SshHostText::tr("The host name is missing or starts with '-'.");
        return false;
    }
    if (!plainChars(h.destination, QStringLiteral("._-:%+"))) {
        *error = SshHostText::tr("The host name contains characters no host name or ssh alias uses.");
        return false;
    }
    *host = h;
    return true;
}

QString accountHomeDir()
{
    if (const passwd *pw = ::getpwuid(::getuid()); pw && pw->pw_dir)
        return QFile::decodeName(pw->pw_dir);
    return QString();
}

QString expandTilde(const QString &path)
{
    if (path == QLatin1String("~"))
        return accountHomeDir();
    if (path.startsWith(QLatin1String("~/")))
        return accountHomeDir() + path.mid(1);
    return path;
}

QStringList sshConfigHosts(const QString &configPath, const QString &sshDir)
{
    QStringList hosts;
    QSet<QString> seen;
    collectHosts(configPath, sshDir.isEmpty() ? accountHomeDir() + QStringLiteral("/.ssh") : sshDir, 0, &hosts,
                 &seen);
    return hosts;
}

}  // namespace ingot
