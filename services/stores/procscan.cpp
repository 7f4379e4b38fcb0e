#include "services/stores/procscan.h"

#include <QFile>

#include <cstdlib>
#include <dirent.h>
#include <unistd.h>

namespace ingot {

QVector<qint64> findProcesses(const QString &programName)
{
    QVector<qint64> pids;
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return pids;
    const qint64 self = ::getpid();
    const QByteArray want = QFile::encodeName(programName);
    auto baseName = [](const QByteArray &p) {
        const int s = p.lastIndexOf('/');
        return s >= 0 ? p.mid(s + 1) : p;
    };
    while (struct dirent *de = ::readdir(proc)) {
        char *end = nullptr;
        const long pid = std::strtol(de->d_name, &end, 10);
        if (!end || *end != 0 || pid <= 0 || pid == self)
            continue;
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == want.left(15)) {
            pids << pid;
            continue;
        }
        // Python entry points run as "python3 /usr/bin/neuronx-cc ...": look at argv[0] and argv[1].
        QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!cmd.open(QIODevice::ReadOnly))
            continue;
        const auto args = cmd.read(4096).split('\0');
        if ((!args.isEmpty() && baseName(args[0]) == want) || (args.size() > 1 && baseName(args[1]) == want))
            pids << pid;
    }
    ::closedir(proc);
    return pids;
}

}  // namespace ingot
