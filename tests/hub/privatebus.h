// A D-Bus session bus of a test's own (dbus-daemon in a folder of the test's), for tests of the system keychain: no
// service activation, so a keyring daemon stopped or gone is never replaced behind the test's back by one that would
// ask for a password on a screen. Header-only: tests/hub/tst_keychain and tests/ui/tst_hubcachepage use it.
#pragma once

#include "tests/support/testsupport.h"

#include <QStandardPaths>
#include <QString>

#include <csignal>

namespace ingot::test {

class PrivateBus
{
public:
    static bool installed() { return !QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty(); }

    // Starts the bus with its socket in `dir` and points this process (and what it starts) at it.
    bool start(const QString &dir, QString *error)
    {
        const QString config = dir + QStringLiteral("/bus.conf");
        writeFile(config, QStringLiteral(
                              "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                              " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                              "<busconfig><type>session</type><listen>unix:dir=%1</listen>"
                              "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
                              "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n")
                              .arg(dir.toHtmlEscaped())
                              .toUtf8());
        const ProgramRun r = runProgram(QStringLiteral("dbus-daemon"),
                                        {QStringLiteral("--config-file=") + config, QStringLiteral("--fork"),
                                         QStringLiteral("--print-address=1"), QStringLiteral("--print-pid=1")},
                                        30000);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        if (r.code != 0 || lines.size() != 2 || lines[1].trimmed().toLongLong() <= 0) {
            *error = QStringLiteral("dbus-daemon did not start: ") + QString::fromLocal8Bit(r.err);
            return false;
        }
        m_pid = lines[1].trimmed().toLongLong();
        m_previous = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        qputenv("DBUS_SESSION_BUS_ADDRESS", lines[0].trimmed());
        return true;
    }
    qint64 pid() const { return m_pid; }
    bool pause() const { return m_pid > 0 && ::kill(pid_t(m_pid), SIGSTOP) == 0; }
    bool resume() const { return m_pid > 0 && ::kill(pid_t(m_pid), SIGCONT) == 0; }

    // Ends the bus, by its pid. GLib's D-Bus raises SIGTERM in a process whose session bus goes away (exit-on-close):
    // call this last, at the end of the test; SIGTERM is ignored for the little the process has left to do.
    void stopAtExit()
    {
        if (m_pid <= 0)
            return;
        std::signal(SIGTERM, SIG_IGN);
        ::kill(pid_t(m_pid), SIGCONT);
        ::kill(pid_t(m_pid), SIGTERM);
        m_pid = 0;
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_previous);
    }

private:
    qint64 m_pid = 0;
    QByteArray m_previous;
};

}  // namespace ingot::test
