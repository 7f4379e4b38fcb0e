#include "services/util/childspawn.h"

#include "services/util/names.h"

#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <vector>

extern char **environ;

namespace ingot {

int spawnChild(const ChildSetup &s, pid_t *pid)
{
    std::vector<QByteArray> argBytes{nameToBytes(s.program)};
    for (const QString &a : s.arguments)
        argBytes.push_back(nameToBytes(a));
    std::vector<QByteArray> envBytes;
    for (const QString &e : s.environment.toStringList())
        envBytes.push_back(nameToBytes(e));
    std::vector<char *> argv, envp;
    for (QByteArray &a : argBytes)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (QByteArray &e : envBytes)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (s.stdinFd >= 0)
        posix_spawn_file_actions_adddup2(&fa, s.stdinFd, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, s.stdoutFd, 1);
    posix_spawn_file_actions_adddup2(&fa, s.stderrFd, 2);
    const QByteArray cwd = nameToBytes(s.workingDirectory);
    if (!cwd.isEmpty())
        posix_spawn_file_actions_addchdir_np(&fa, cwd.constData());
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (s.ownProcessGroup) {
        posix_spawnattr_setpgroup(&attr, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&attr, flags);
    const int rc = ::posix_spawnp(pid, argv[0], &fa, &attr, argv.data(), s.environment.isEmpty() ? environ : envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        *pid = -1;
    return rc;
}

}  // namespace ingot
