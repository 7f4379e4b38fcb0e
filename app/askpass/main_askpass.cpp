// ingot-askpass: the SSH_ASKPASS program Ingot hands to ssh. It forwards ssh's prompt (argv[1]) to the Ingot that
// started ssh, over the unix socket named in INGOT_ASKPASS_SOCKET, and prints the answer for ssh. The secret only
// passes through this process's memory and its stdout pipe to ssh: never argv, the environment, a file or a log.
// Exit status 1: the user cancelled (ssh then stops asking).
#include <cerrno>
#include "services/util/fdio.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using ingot::writeAll;

namespace {

}  // namespace

int main(int argc, char **argv)
{
    const char *path = std::getenv("INGOT_ASKPASS_SOCKET");
    if (!path || std::strlen(path) >= sizeof(sockaddr_un::sun_path)) {
        static const char msg[] = "ingot-askpass: run by Ingot only (INGOT_ASKPASS_SOCKET is not set)\n";
        writeAll(2, msg, sizeof(msg) - 1);
        return 2;
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strcpy(addr.sun_path, path);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0)
        return 2;
    const std::string prompt = argc > 1 ? std::string(argv[1]).substr(0, 4000) : std::string();
    if (!writeAll(fd, prompt.data(), prompt.size()) || ::shutdown(fd, SHUT_WR) != 0)
        return 2;
    // The answer: 'y' and the secret, or 'n' (cancelled).
    char buf[8192];
    size_t have = 0;
    while (have < sizeof(buf)) {
        const ssize_t n = ::read(fd, buf + have, sizeof(buf) - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        have += size_t(n);
    }
    ::close(fd);
    int rc = 1;
    if (have >= 1 && buf[0] == 'y' && writeAll(1, buf + 1, have - 1) && writeAll(1, "\n", 1))
        rc = 0;
    ::explicit_bzero(buf, sizeof(buf));
    return rc;
}
