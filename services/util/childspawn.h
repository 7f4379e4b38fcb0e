// spawnChild: how Ingot starts a child process it talks to through descriptors (runProcess's programs, a host copy's
// ssh stream). One setup for every such child: the program and its arguments handed to execve as bytes
// (nameToBytes: a name read as bytes arrives unchanged), never through a shell; stdin, stdout and stderr the
// descriptors given and no other descriptor of Ingot's (closefrom in the child); no signal blocked, and SIGPIPE,
// SIGTERM, SIGINT and SIGHUP at their defaults whatever Ingot ignores or handles (a closed pipe or SIGTERM ends it).
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace ingot {

struct ChildSetup {
    QString program;  // a path, or a name looked up on this process's PATH
    QStringList arguments;
    QProcessEnvironment environment;  // empty: this process's
    QString workingDirectory;         // empty: this process's
    int stdinFd = -1;                 // -1: /dev/null
    int stdoutFd = -1;
    int stderrFd = -1;
    bool ownProcessGroup = false;  // a process group of its own (Ctrl-C on a terminal reaches Ingot, not the child)
};

// Starts the child; 0 and its pid, or an errno. The descriptors given stay open here: the caller closes its ends.
int spawnChild(const ChildSetup &setup, pid_t *pid);

}  // namespace ingot
