// The POSIX sh scripts a host copy runs on the host (through SshShell::commandFor, over the master connection), the
// exit statuses they end with, and the parser of the sha256 list they print. hostcopy.cpp runs them; docs/formats.md
// describes them.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>

namespace ingot::hostcopy {

// Exit statuses of the host scripts (besides 0 and ssh's 255).
enum HostExit {
    ExitRootUnusable = 3,
    ExitBusy = 12,
    ExitExists = 20,
    ExitNoEntry = 21,
    ExitAborted = 22,   // no go-ahead from this side (it refused or went away)
    ExitTarFailed = 23,
    ExitNoStaging = 24,
    ExitLinked = 25,    // the compiler-version folder or the entry is a link: never followed
    ExitLinkOutside = 26,  // a link in the entry leads outside the cache (not to a hub blob), or nowhere
    ExitChanged = 27,      // a file of the entry changed on the host while it was sent
};

// The shell function both scripts start with: `hashfiles [-L]` prints the sha256 of every file below "." in the
// form parseHashList reads (exposed for its test: with and without openssl, names with a newline or a backslash).
extern const char *const hashFilesFunction;
extern const char *const receiveScript;
extern const char *const sendScript;

// sha256sum -z output ("<64 hex>  ./name\0" per file) into name -> hex. False on anything else.
bool parseHashList(QByteArrayView text, QHash<QByteArray, QByteArray> *out);

}  // namespace ingot::hostcopy
