#include "services/transfer/hostcopy.h"

#include "services/util/sha256.h"

#include "services/cache/cachescanner.h"
#include "services/cache/classify.h"
#include "services/cache/compilerversion.h"
#include "services/cache/cachetypes.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshconnection.h"
#include "services/remote/sshshell.h"
#include "services/stores/storefactory.h"
#include "services/transfer/entryfiles.h"
#include "services/transfer/entrystaging.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/relpath.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ingot {

namespace {

struct HostCopyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HostCopy)
};

constexpr qint64 kChunk = 1 << 20;
constexpr int kIdleMs = 10 * 60 * 1000;  // no byte either way for this long: the host or the network hangs
constexpr qint64 kMaxErr = 64 << 10;
constexpr qint64 kMaxHashList = 64 << 20;
constexpr int kMaxFiles = 100000;
constexpr int kParallelEntries = 4;  // a hostile host could fill the disk with empty files

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
};

// $1 root, $2 compiler-version folder, $3 module, $4 the archive's exact byte count (stdin: the archive, then the
// verdict line). Extracts into a fresh staging folder beside the entry, held with flock, prints every file's sha256
// (sha256sum -z: NUL-ended, names unescaped) and "END", waits for "commit", then renames the staging onto the entry
// with mv -n -T: renameat2 RENAME_NOREPLACE where coreutils uses it (9.1 does); older ones check first, and the entry
// is checked right before too, which leaves only a window of microseconds. The staging still being there after mv
// means it was refused. Any failure or a dropped connection removes the staging.
// A staging a killed copy left behind is removed first, unless someone holds it (exit 12). A holder gets a few
// seconds to let go: the host's side of a copy stopped a moment ago ends (and removes its staging) only once its
// input closes, which a retry right after the stop can reach first.
const char *receiveScript = R"SH(set -f
export LC_ALL=C
r=$(printf '%bX' "$1"); r=${r%X}
v=$(printf '%bX' "$2"); v=${v%X}
m=$(printf '%bX' "$3"); m=${m%X}
n=$4
[ -d "$r" ] || mkdir -p -- "$r" 2>/dev/null
cd -P -- "$r" 2>/dev/null || exit 3
[ -L "$v" ] && exit 25
[ -d "$v" ] || mkdir -- "$v" 2>/dev/null
[ -d "$v" ] && [ ! -L "$v" ] || exit 25
e="$v/$m"
if [ -e "$e" ] || [ -L "$e" ]; then exit 20; fi
lk=; command -v flock >/dev/null 2>&1 && lk=1
set +f
for d in "$v"/.ingot-incoming-"$m".*; do
  [ -d "$d" ] && [ ! -L "$d" ] && [ -n "$lk" ] || continue
  flock -w 5 -E 75 "$d" rm -rf --one-file-system -- "$d" 2>/dev/null
  [ $? = 75 ] && exit 12
done
set -f
s=$(mktemp -d "$v/.ingot-incoming-$m.XXXXXX" 2>/dev/null) || exit 24
trap 'rm -rf --one-file-system -- "$s"' EXIT
trap 'exit 1' HUP INT TERM PIPE
if [ -n "$lk" ]; then exec 8<"$s"; flock -n 8 || exit 12; fi
head -c "$n" 8<&- | tar -x -f - -C "$s" --no-same-owner --no-overwrite-dir >&2 8<&- || exit 23
[ -z "$(find "$s" -mindepth 1 ! -type f ! -type d -print -quit)" ] || exit 23
(cd -P -- "$s" && find . -type f -print0 | xargs -0 -r sha256sum -z --) 8<&- || exit 23
printf 'END\0'
read -r verdict || exit 22
[ "$verdict" = commit ] || exit 22
(cd -P -- "$s" && find . -type f -exec sync -- {} + 2>/dev/null)
chmod "$(printf '%o' $((0777 & ~$(umask))))" "$s"
if [ -e "$e" ] || [ -L "$e" ]; then exit 20; fi
mv -n -T -- "$s" "$e" 2>/dev/null
[ -e "$s" ] && exit 20
sync -- "$v" 2>/dev/null
printf 'DONE\0'
)SH";

// $1 root, $2 compiler-version folder, $3 module. Prints a GNU tar of the entry (links followed, as a hub-blob
// link's content is what a cache needs; push's rules: only links that lead inside the cache root or to a Hugging
// Face hub blob, else exit 26 naming them, broken ones too; checked before and again after sending), waits for "go" (this side has every byte), then the sha256 of every file,
// computed after sending, so a file that changed meanwhile shows.
const char *sendScript = R"SH(set -f
export LC_ALL=C
r=$(printf '%bX' "$1"); r=${r%X}
v=$(printf '%bX' "$2"); v=${v%X}
m=$(printf '%bX' "$3"); m=${m%X}
cd -P -- "$r" 2>/dev/null || exit 3
[ -L "$v" ] && exit 25
e="$v/$m"
[ -L "$e" ] && exit 25
[ -d "$e" ] || exit 21
trap 'exit 1' HUP INT TERM PIPE
rr=$(pwd -P)
links() {
  bad=$(find "$e" -type l -exec sh -c 'for l do
    t=$(readlink -e -- "$l") || { printf "%s\n" "${l##*/}"; continue; }
    case $t in "$0"/*) continue;; esac
    case $t in */models--*|*/datasets--*) case $t in */blobs/*) continue;; esac;; esac
    printf "%s\n" "${l##*/}"
  done' "$rr" {} + | head -c 2000)
  if [ -n "$bad" ]; then printf '%s\n' "$bad" >&2; exit 26; fi
}
links
tar -c -f - -b 1 -h --hard-dereference --format=gnu -C "$e" . || exit 23
read -r go || exit 22
[ "$go" = go ] || exit 22
links
cd -- "$e" && find -L . -type f -print0 | xargs -0 -r sha256sum -z -- || exit 23
)SH";

// ---- ssh as a streaming child: stdin a socket (send() with MSG_NOSIGNAL: a dead ssh never SIGPIPEs us) ----

class SshStream final
{
public:
    SshStream(const std::atomic_bool *stop) : m_stop(stop) {}
    ~SshStream()
    {
        kill();
        closeFd(m_in);
        closeFd(m_out);
        closeFd(m_err);
    }
    Q_DISABLE_COPY_MOVE(SshStream)

    bool start(const SshConnection::StreamCommand &c, QString *error)
    {
        int in[2], out[2], err[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
            *error = HostCopyText::tr("Cannot start ssh: %1.").arg(describeErrno(errno));
            return false;
        }
        if (::pipe2(out, O_CLOEXEC) != 0) {
            *error = HostCopyText::tr("Cannot start ssh: %1.").arg(describeErrno(errno));
            ::close(in[0]), ::close(in[1]);
            return false;
        }
        if (::pipe2(err, O_CLOEXEC) != 0) {
            *error = HostCopyText::tr("Cannot start ssh: %1.").arg(describeErrno(errno));
            ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
            return false;
        }
        QList<QByteArray> argBytes{QFile::encodeName(c.program)};
        for (const QString &a : c.arguments)
            argBytes << a.toUtf8();
        QList<QByteArray> envBytes;
        for (const QString &e : c.environment.toStringList())
            envBytes << e.toUtf8();
        std::vector<char *> argv, envp;
        for (QByteArray &a : argBytes)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        for (QByteArray &e : envBytes)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[1], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, err[1], 2);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t none;
        sigemptyset(&none);
        posix_spawnattr_setsigmask(&attr, &none);
        sigset_t defaults;
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        // Its own process group: Ctrl-C on a terminal reaches Ingot, whose stop removes the staging, not ssh alone.
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
        const int rc = ::posix_spawnp(&m_pid, argv[0], &fa, &attr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&attr);
        ::close(in[1]), ::close(out[1]), ::close(err[1]);
        m_in = in[0], m_out = out[0], m_err = err[0];
        if (rc != 0) {
            m_pid = -1;
            *error = sshErrorText(SshError::SshMissing, QString());
            return false;
        }
        for (int fd : {m_in, m_out, m_err})
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        m_idle.start();
        return true;
    }

    // Writes all of `n` bytes, taking what ssh prints meanwhile into out()/err(). False when ssh ended, the stop
    // flag was set or nothing moved for too long.
    bool write(const char *p, qint64 n)
    {
        while (n > 0) {
            if (!pump(true))
                return false;
            const ssize_t w = ::send(m_in, p, size_t(std::min(n, kChunk)), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w > 0) {
                p += w, n -= w;
                m_idle.restart();
            } else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return false;  // ssh closed its input: its status says why
            }
        }
        return true;
    }
    void closeInput() { closeFd(m_in); }

    // Reads until stdout holds at least `want` bytes (or has ended). False on stop or idle timeout.
    bool readAtLeast(qint64 want)
    {
        while (m_buf.size() - m_pos < want && m_out >= 0)
            if (!pump(false))
                return false;
        return true;
    }
    // stdout not consumed yet; consume() moves past it.
    const char *data() const { return m_buf.constData() + m_pos; }
    qint64 available() const { return m_buf.size() - m_pos; }
    void consume(qint64 n)
    {
        m_pos += n;
        if (m_pos > (4 << 20) || m_pos == m_buf.size()) {
            m_buf.remove(0, m_pos);
            m_pos = 0;
        }
    }
    bool outputEnded() const { return m_out < 0; }
    // Everything up to the end of stdout, at most `limit` bytes (false past it, or on stop/timeout).
    bool readToEnd(qint64 limit)
    {
        while (m_out >= 0) {
            if (!pump(false) || available() > limit)
                return false;
        }
        return true;
    }

    // Waits for ssh to end (closing its input); the exit status, -1 when it was killed or crashed.
    int finish()
    {
        closeInput();
        while (m_out >= 0 || m_err >= 0)
            if (!pump(false))
                break;
        if (m_pid < 0)
            return !m_killed && m_exited >= 0 && WIFEXITED(m_exited) ? WEXITSTATUS(m_exited) : -1;
        // ssh closes its output just before it exits.
        int status = 0;
        QElapsedTimer t;
        t.start();
        while (::waitpid(m_pid, &status, WNOHANG) == 0) {
            if (stopped() || t.elapsed() > 30000) {
                kill();
                return -1;
            }
            ::usleep(2000);
        }
        m_pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    void kill()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
            m_pid = -1;
            m_killed = true;
        }
    }
    bool stopped() const { return m_stop && !m_ignoreStop && m_stop->load(); }
    // Once the host was told to commit, its last steps (sync, one rename) finish: a stop then would only hide
    // whether the entry landed.
    void ignoreStop() { m_ignoreStop = true; }
    bool timedOut() const { return m_timedOut; }
    bool wasStopped() const { return m_wasStopped; }
    const QByteArray &err() const { return m_errText; }

private:
    static void closeFd(int &fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }

    // One poll round (at most 100 ms): drains stdout and stderr; with `forWrite`, returns once stdin can take more.
    bool pump(bool forWrite)
    {
        if (stopped()) {
            m_wasStopped = true;
            kill();
            return false;
        }
        if (m_idle.elapsed() > kIdleMs) {
            m_timedOut = true;
            kill();
            return false;
        }
        pollfd fds[3];
        int n = 0;
        if (forWrite && m_in >= 0)
            fds[n++] = {m_in, POLLOUT, 0};
        if (m_out >= 0)
            fds[n++] = {m_out, POLLIN, 0};
        if (m_err >= 0)
            fds[n++] = {m_err, POLLIN, 0};
        if (n == 0)
            return !forWrite;
        if (::poll(fds, nfds_t(n), 100) < 0 && errno != EINTR)
            return false;
        for (int i = 0; i < n; ++i) {
            if (fds[i].fd == m_in) {
                if (fds[i].revents & (POLLERR | POLLHUP))
                    return false;
                continue;
            }
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const bool isOut = fds[i].fd == m_out;
            char buf[1 << 16];
            const ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
            if (r > 0) {
                m_idle.restart();
                if (isOut)
                    m_buf.append(buf, r);
                else if (m_errText.size() < kMaxErr)
                    m_errText.append(buf, std::min<qint64>(r, kMaxErr - m_errText.size()));
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                closeFd(isOut ? m_out : m_err);
            }
        }
        if (forWrite && m_in >= 0 && m_pid > 0) {
            // ssh gone while we still write: its input will never drain.
            int status = 0;
            if (m_out < 0 && m_err < 0 && ::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_exited = status;
                m_pid = -1;
                return false;
            }
        }
        return true;
    }

    const std::atomic_bool *m_stop;
    pid_t m_pid = -1;
    int m_in = -1, m_out = -1, m_err = -1;
    QByteArray m_buf;
    qint64 m_pos = 0;
    QByteArray m_errText;
    QElapsedTimer m_idle;
    bool m_killed = false, m_timedOut = false, m_wasStopped = false, m_ignoreStop = false;
    int m_exited = -1;  // the wait status when pump() reaped ssh
};

// ---- GNU tar, only what an entry holds: folders and regular files, any bytes in names ----

constexpr int kBlock = 512;

qint64 padded(qint64 n)
{
    return (n + kBlock - 1) / kBlock * kBlock;
}

void putOctal(char *field, int width, quint64 v)
{
    // width - 1 octal digits and a NUL; beyond that, GNU's base-256 (first byte 0x80).
    const quint64 limit = width - 1 >= 21 ? ~quint64(0) : (quint64(1) << (3 * (width - 1))) - 1;
    if (v <= limit) {
        for (int i = width - 2; i >= 0; --i, v >>= 3)
            field[i] = char('0' + (v & 7));
        field[width - 1] = '\0';
        return;
    }
    std::memset(field, 0, size_t(width));
    for (int i = width - 1; i > 0; --i, v >>= 8)
        field[i] = char(v & 0xff);
    field[0] = char(0x80);
}

QByteArray header(const QByteArray &name, char type, quint64 size, unsigned mode, qint64 mtime)
{
    QByteArray h(kBlock, '\0');
    char *b = h.data();
    std::memcpy(b, name.constData(), size_t(std::min<qsizetype>(name.size(), 100)));
    putOctal(b + 100, 8, mode & 07777);
    putOctal(b + 108, 8, 0);
    putOctal(b + 116, 8, 0);
    putOctal(b + 124, 12, size);
    putOctal(b + 136, 12, quint64(std::max<qint64>(0, mtime)));
    b[156] = type;
    std::memcpy(b + 257, "ustar  ", 8);  // GNU magic and version
    std::memset(b + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < kBlock; ++i)
        sum += static_cast<unsigned char>(b[i]);
    putOctal(b + 148, 7, sum);
    b[155] = ' ';
    return h;
}

// The header(s) of one member: a GNU long-name record first when the name passes 100 bytes.
QByteArray memberHeader(const QByteArray &name, char type, quint64 size, unsigned mode, qint64 mtime)
{
    QByteArray out;
    if (name.size() > 100) {
        out += header("././@LongLink", 'L', quint64(name.size() + 1), 0644, 0);
        QByteArray n = name + '\0';
        n.append(QByteArray(int(padded(n.size()) - n.size()), '\0'));
        out += n;
    }
    out += header(name, type, size, mode, mtime);
    return out;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// sha256sum -z output ("<64 hex>  ./name\0" per file) into name -> hex. False on anything else.
bool parseHashList(QByteArrayView text, QHash<QByteArray, QByteArray> *out)
{
    while (!text.isEmpty()) {
        const qsizetype z = text.indexOf('\0');
        if (z < 0)
            return false;
        const QByteArrayView line = text.first(z);
        text = text.sliced(z + 1);
        if (line.size() < 67 || (line.at(65) != ' ' && line.at(65) != '*') || line.at(64) != ' ')
            return false;
        for (int i = 0; i < 64; ++i)
            if (hexValue(line.at(i)) < 0)
                return false;
        QByteArrayView name = line.sliced(66);
        while (name.startsWith("./"))
            name = name.sliced(2);
        if (name.isEmpty() || out->contains(name.toByteArray()))
            return false;
        out->insert(name.toByteArray(), line.first(64).toByteArray());
    }
    return true;
}

// What a host script's exit says, for a person. `shown`: the entry as "host:root/key".
HostCopyResult hostFailure(int code, const SshStream &s, SshConnection &connection, const QString &shown, QString *error)
{
    if (s.wasStopped()) {
        *error = HostCopyText::tr("Stopped.");
        return HostCopyResult::Stopped;
    }
    if (s.timedOut()) {
        *error = sshErrorText(SshError::Timeout, connection.host().toString());
        return HostCopyResult::Failed;
    }
    const QString said = displayText(nameFromBytes(s.err().trimmed().right(2000)));
    switch (code) {
    case ExitExists:
        *error = HostCopyText::tr("%1 exists already; it was left as it is.").arg(shown);
        return HostCopyResult::Exists;
    case ExitBusy:
        *error = HostCopyText::tr("Another transfer is writing %1 (its staging folder is in use); nothing was done to it.").arg(shown);
        return HostCopyResult::Busy;
    case ExitRootUnusable:
        *error = HostCopyText::tr("The cache folder for %1 cannot be opened or created on the host.").arg(shown);
        return HostCopyResult::Failed;
    case ExitNoEntry:
        *error = HostCopyText::tr("%1 does not exist on the host.").arg(shown);
        return HostCopyResult::Failed;
    case ExitLinked:
        *error = HostCopyText::tr("%1: its compiler-version folder or the entry is a link (or not a folder); links are never followed.").arg(shown);
        return HostCopyResult::Failed;
    case ExitLinkOutside:
        *error = HostCopyText::tr("%1 holds links that lead outside the cache (not into the Hugging Face hub cache) or "
                                  "nowhere; Ingot does not follow them, nothing was copied: %2").arg(shown, said);
        return HostCopyResult::Failed;
    case ExitNoStaging:
        *error = HostCopyText::tr("Cannot create a staging folder beside %1 on the host (permissions, a full disk?).").arg(shown);
        return HostCopyResult::Failed;
    case ExitTarFailed:
        *error = HostCopyText::tr("Copying %1 failed on the host: %2").arg(shown, said.isEmpty() ? HostCopyText::tr("tar failed.") : said);
        return HostCopyResult::Failed;
    default:
        break;
    }
    SshError e = code == 255 || code < 0 ? classifySshStderr(s.err()) : SshError::None;
    if (e == SshError::None && (code == 255 || code < 0))
        e = connection.check() ? SshError::Other : SshError::ConnectionLost;
    if (e == SshError::ConnectionLost)
        connection.close();  // the next entry connects afresh
    if (e != SshError::None)
        *error = HostCopyText::tr("Copying %1 failed: %2").arg(shown, sshErrorText(e, connection.host().toString()));
    else
        *error = said.isEmpty() ? HostCopyText::tr("Copying %1 failed on the host (status %2).").arg(shown).arg(code)
                                : HostCopyText::tr("Copying %1 failed on the host (status %2): %3").arg(shown).arg(code).arg(said);
    return HostCopyResult::Failed;
}

bool splitKey(const QString &key, QString *version, QString *module)
{
    if (!isTransferableKey(key))
        return false;
    const int slash = key.indexOf(QLatin1Char('/'));
    *version = key.left(slash);
    *module = key.mid(slash + 1);
    return true;
}

bool connectFor(SshConnection &connection, QString *error)
{
    // A master whose server went away is noticed here, not halfway through a stream.
    if (connection.check() || connection.connect())
        return true;
    *error = connection.errorText();
    return false;
}

// ---- receiving a tar stream into a local folder ----

quint64 parseNumber(const char *field, int width, bool *ok)
{
    const auto *u = reinterpret_cast<const unsigned char *>(field);
    quint64 v = 0;
    *ok = true;
    if (u[0] & 0x80) {
        if (u[0] != 0x80) {  // negative or wider than 64 bits: no size of ours
            *ok = false;
            return 0;
        }
        for (int i = 1; i < width; ++i) {
            if (v >> 56) {
                *ok = false;
                return 0;
            }
            v = (v << 8) | u[i];
        }
        return v;
    }
    int i = 0;
    while (i < width && field[i] == ' ')
        ++i;
    bool any = false;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i) {
        if (v >> 60) {
            *ok = false;
            return 0;
        }
        v = v * 8 + quint64(field[i] - '0');
        any = true;
    }
    if (!any || (i < width && field[i] != ' ' && field[i] != '\0'))
        *ok = false;
    return v;
}

bool checksumOk(const char *b)
{
    bool ok = false;
    const quint64 want = parseNumber(b + 148, 8, &ok);
    if (!ok)
        return false;
    unsigned sum = 0;
    for (int i = 0; i < kBlock; ++i)
        sum += (i >= 148 && i < 156) ? unsigned(' ') : static_cast<unsigned char>(b[i]);
    return want == sum;
}

// "len key=value\n" records of a pax header: the path, if any.
QByteArray paxPath(const QByteArray &data)
{
    QByteArray path;
    qsizetype at = 0;
    while (at < data.size()) {
        const qsizetype sp = data.indexOf(' ', at);
        if (sp < 0)
            break;
        const qint64 len = data.mid(at, sp - at).toLongLong();
        if (len <= 0 || at + len > data.size())
            break;
        const QByteArray rec = data.mid(sp + 1, at + len - sp - 2);  // without the newline
        if (rec.startsWith("path="))
            path = rec.mid(5);
        at += len;
    }
    return path;
}

// Writes the members of a tar stream under `root` (a folder fd): folders and regular files only, names checked
// to stay inside; each file's sha256 computed as it is written. Records what it made so a failure can undo it.
class TarReceiver final
{
public:
    TarReceiver(int root, SshStream &s, const HostCopyProgress &progress, const ListedEntry &listed)
        : m_root(root), m_s(s), m_progress(progress), m_listed(listed)
    {
    }

    QHash<QByteArray, QByteArray> hashes;  // name -> hex
    QVector<QByteArray> made;              // in creation order

    // Reads members until the end of the archive. False with words in *error.
    bool run(QString *error)
    {
        QByteArray longName;
        int zeros = 0;
        for (;;) {
            if (!m_s.readAtLeast(kBlock))
                return false;
            if (m_s.available() < kBlock) {
                if (zeros == 1 && m_s.available() == 0)
                    return true;  // one zero block then the end: tolerated as GNU tar does
                *error = HostCopyText::tr("The host's archive ended early.");
                return false;
            }
            const QByteArray h(m_s.data(), kBlock);
            m_s.consume(kBlock);
            if (h.count('\0') == kBlock) {
                if (++zeros == 2)
                    return true;
                continue;
            }
            zeros = 0;
            if (!checksumOk(h.constData())) {
                *error = HostCopyText::tr("The host did not send a valid archive (a header's checksum is wrong).");
                return false;
            }
            bool ok = false;
            const quint64 size = parseNumber(h.constData() + 124, 12, &ok);
            if (!ok || size > (quint64(1) << 42)) {
                *error = HostCopyText::tr("The host's archive has a member of an impossible size.");
                return false;
            }
            const char type = h.at(156);
            if (type == 'L' || type == 'x' || type == 'g') {
                if (size > (1 << 20)) {
                    *error = HostCopyText::tr("The host's archive has a name record that is too long.");
                    return false;
                }
                QByteArray data;
                if (!readData(qint64(size), &data, error))
                    return false;
                if (type == 'L')
                    longName = data.left(data.indexOf('\0') < 0 ? data.size() : data.indexOf('\0'));
                else if (type == 'x') {
                    const QByteArray p = paxPath(data);
                    if (!p.isEmpty())
                        longName = p;
                }
                continue;
            }
            QByteArray name = longName;
            longName.clear();
            if (name.isEmpty()) {
                name = QByteArray(h.constData(), qsizetype(strnlen(h.constData(), 100)));
                if (std::memcmp(h.constData() + 257, "ustar\0", 6) == 0 && h.at(345) != '\0')
                    name = QByteArray(h.constData() + 345, qsizetype(strnlen(h.constData() + 345, 155))) + '/' + name;
            }
            while (name.startsWith("./"))
                name.remove(0, 2);
            while (name.endsWith('/'))
                name.chop(1);
            if (name == ".")
                name.clear();
            const unsigned mode = unsigned(parseNumber(h.constData() + 100, 8, &ok)) & 0777;
            const qint64 mtime = qint64(parseNumber(h.constData() + 136, 12, &ok));
            if (type == '5') {
                if (name.isEmpty())
                    continue;  // the entry's own folder
                if (!checkName(name, error))
                    return false;
                if (::mkdirat(m_root, name.constData(), 0755) != 0 && errno != EEXIST) {
                    *error = HostCopyText::tr("Cannot create %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
                    return false;
                }
                made << name + '/';
                continue;
            }
            if (type != '0' && type != '\0' && type != '7') {
                *error = HostCopyText::tr("The host's archive holds %1, which is not a file or a folder (a link or a device): refused.")
                             .arg(displayName(nameFromBytes(name)));
                return false;
            }
            if (name.isEmpty() || !checkName(name, error))
                return name.isEmpty() ? (*error = HostCopyText::tr("The host's archive has a file without a name."), false) : false;
            if (hashes.size() >= kMaxFiles) {
                *error = HostCopyText::tr("The host's entry has more than %1 files: no compiled module has that many; refused.").arg(kMaxFiles);
                return false;
            }
            if (!withinListing(name, qint64(size), error))
                return false;
            m_announced += qint64(size);
            if (!receiveFile(name, qint64(size), mode, mtime, error))
                return false;
        }
    }

    qint64 bytes() const { return m_done; }

    // Removes what run() made (files, then folders, deepest first), never following links.
    void undo()
    {
        for (auto it = made.crbegin(); it != made.crend(); ++it) {
            if (it->endsWith('/'))
                ::unlinkat(m_root, it->chopped(1).constData(), AT_REMOVEDIR);
            else
                ::unlinkat(m_root, it->constData(), 0);
        }
        made.clear();
    }

private:
    bool checkName(const QByteArray &name, QString *error)
    {
        if (name.contains('\0') || !isSafeRelativePath(nameFromBytes(name))) {
            *error = HostCopyText::tr("The host's archive names %1, a path outside the entry: refused.").arg(displayName(nameFromBytes(name)));
            return false;
        }
        return true;
    }

    bool readData(qint64 size, QByteArray *out, QString *error)
    {
        const qint64 total = padded(size);
        if (!m_s.readAtLeast(total))
            return false;
        if (m_s.available() < total) {
            *error = HostCopyText::tr("The host's archive ended early.");
            return false;
        }
        *out = QByteArray(m_s.data(), size);
        m_s.consume(total);
        return true;
    }

    bool receiveFile(const QByteArray &name, qint64 size, unsigned mode, qint64 mtime, QString *error)
    {
        if (hashes.contains(name)) {
            *error = HostCopyText::tr("The host's archive holds %1 twice: refused.").arg(displayName(nameFromBytes(name)));
            return false;
        }
        const int fd = ::openat(m_root, name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                (mode | 0600) & 0777);
        if (fd < 0) {
            *error = HostCopyText::tr("Cannot create %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
            return false;
        }
        made << name;
        Sha256 h;
        qint64 left = size;
        bool ok = true;
        while (left > 0 && ok) {
            if (!m_s.readAtLeast(1)) {
                ok = false;
                break;
            }
            const qint64 n = std::min(left, m_s.available());
            if (n == 0) {
                *error = HostCopyText::tr("The host's archive ended early.");
                ok = false;
                break;
            }
            const char *p = m_s.data();
            qint64 w = 0;
            while (w < n) {
                const ssize_t r = ::write(fd, p + w, size_t(n - w));
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0) {
                    *error = HostCopyText::tr("Cannot write %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
                    ok = false;
                    break;
                }
                w += r;
            }
            if (!ok)
                break;
            h.addData(p, n);
            m_s.consume(n);
            left -= n;
            m_done += n;
            if (m_progress)
                m_progress(m_done, -1);
        }
        if (ok && ::fsync(fd) != 0) {
            *error = HostCopyText::tr("Cannot write %1: %2.").arg(displayName(nameFromBytes(name)), describeErrno(errno));
            ok = false;
        }
        if (ok) {
            const timespec times[2] = {{0, UTIME_OMIT}, {mtime, 0}};
            ::futimens(fd, times);
        }
        ::close(fd);
        if (!ok)
            return false;
        // The padding to the next block.
        const qint64 pad = padded(size) - size;
        if (pad > 0) {
            if (!m_s.readAtLeast(pad))
                return false;
            if (m_s.available() < pad) {
                *error = HostCopyText::tr("The host's archive ended early.");
                return false;
            }
            m_s.consume(pad);
        }
        hashes.insert(name, h.result().toHex());
        return true;
    }

    // A member the listing does not allow: not listed, larger than listed, or past the entry's size in all.
    bool withinListing(const QByteArray &name, qint64 size, QString *error) const
    {
        const auto it = m_listed.sizes.constFind(name);
        if (it == m_listed.sizes.cend()) {
            *error = HostCopyText::tr("The host's archive holds %1, which the entry's listing did not show: refused, "
                                      "nothing was kept.").arg(displayName(nameFromBytes(name)));
            return false;
        }
        if (size > *it || m_announced + size > m_listed.total) {
            *error = HostCopyText::tr("The host's archive announces %1 bytes for %2, more than the entry's listing "
                                      "showed (%3 bytes; the entry %4 bytes): refused, nothing was kept.")
                         .arg(size).arg(displayName(nameFromBytes(name))).arg(*it).arg(m_listed.total);
            return false;
        }
        return true;
    }

    int m_root;
    SshStream &m_s;
    const HostCopyProgress &m_progress;
    const ListedEntry &m_listed;
    qint64 m_done = 0;
    qint64 m_announced = 0;  // sizes of the files accepted so far
};

QString shownEntry(const SshConnection &connection, const QString &root, const QString &key)
{
    return displayName(connection.host().toString() + QLatin1Char(':') + root + QLatin1Char('/') + key);
}

QString mismatchText(const QString &shown, const QByteArray &name)
{
    return name.isEmpty() ? HostCopyText::tr("%1: the files the host has differ from those sent: nothing was kept.").arg(shown)
                          : HostCopyText::tr("%1: the sha256 of %2 differs between this machine and the host (corrupted in transit, "
                               "or it changed meanwhile): nothing was kept.")
                                .arg(shown, displayName(nameFromBytes(name)));
}

// Which file differs between the two lists; "" when the sets of names differ; null when they agree.
std::optional<QByteArray> firstDifference(const QHash<QByteArray, QByteArray> &mine,
                                          const QHash<QByteArray, QByteArray> &theirs)
{
    if (mine.size() != theirs.size())
        return QByteArray();
    for (auto it = mine.cbegin(); it != mine.cend(); ++it) {
        const auto t = theirs.constFind(it.key());
        if (t == theirs.cend())
            return QByteArray();
        if (t.value() != it.value())
            return it.key();
    }
    return std::nullopt;
}

}  // namespace

HostCopyResult sendFolderToHost(SshConnection &connection, const QString &localRoot, const QString &remoteRoot,
                                const QString &key, const HostCopyProgress &progress, const std::atomic_bool *stop,
                                QString *error, int *fileCount)
{
    QString version, module;
    const QString shown = shownEntry(connection, remoteRoot, key);
    if (!splitKey(key, &version, &module)) {
        *error = HostCopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        return HostCopyResult::Failed;
    }
    // Push's rules for what may leave this machine; every byte sent is read from these descriptors.
    EntryFiles local;
    if (!local.open(localRoot, key, EntryFiles::Names::All, error)) {
        *error = displayName(localRoot + QLatin1Char('/') + key) + QStringLiteral(": ") + *error;
        return HostCopyResult::Failed;
    }
    QVector<QByteArray> sums(local.files().size());
    qint64 archive = 2 * kBlock, total = 0;
    int files = 0;
    for (const EntryFile &f : local.files()) {
        archive += memberHeader(f.name + (f.dir ? "/" : ""), f.dir ? '5' : '0', 0, 0, 0).size();
        if (!f.dir)
            archive += padded(f.size), total += f.size, ++files;
    }
    if (fileCount)
        *fileCount = files;
    if (!connectFor(connection, error))
        return HostCopyResult::Failed;
    const QString command = SshShell::commandFor(receiveScript, {nameToBytes(remoteRoot), nameToBytes(version),
                                                                 nameToBytes(module), QByteArray::number(archive)});
    SshStream s(stop);
    if (!s.start(connection.streamCommand(command), error))
        return HostCopyResult::Failed;
    if (progress)
        progress(0, total);
    qint64 done = 0;
    bool sent = true;
    QByteArray buf;
    for (qsizetype k = 0; k < local.files().size(); ++k) {
        const EntryFile &f = local.files()[k];
        const QByteArray name = f.name + (f.dir ? "/" : "");
        const QByteArray h = memberHeader(name, f.dir ? '5' : '0', f.dir ? 0 : quint64(f.size), f.mode, f.mtime);
        if (!(sent = s.write(h.constData(), h.size())))
            break;
        if (f.dir)
            continue;
        Sha256 sha;
        qint64 left = f.size;
        buf.resize(kChunk);
        while (left > 0) {
            const ssize_t r = ::read(f.fd, buf.data(), size_t(std::min(left, kChunk)));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                s.kill();
                *error = r < 0 ? HostCopyText::tr("Cannot read %1: %2.").arg(displayName(nameFromBytes(f.name)), describeErrno(errno))
                               : HostCopyText::tr("%1 became shorter while it was sent: nothing was kept.").arg(displayName(nameFromBytes(f.name)));
                return HostCopyResult::Failed;
            }
            sha.addData(buf.constData(), r);
            if (!(sent = s.write(buf.constData(), r)))
                break;
            left -= r, done += r;
            if (progress)
                progress(done, total);
        }
        if (!sent)
            break;
        struct stat st {};
        if (::fstat(f.fd, &st) != 0 || st.st_size != f.size) {
            s.kill();
            *error = HostCopyText::tr("%1 changed while it was sent: nothing was kept.").arg(displayName(nameFromBytes(f.name)));
            return HostCopyResult::Failed;
        }
        const QByteArray pad(int(padded(f.size) - f.size), '\0');
        if (!(sent = s.write(pad.constData(), pad.size())))
            break;
        sums[k] = sha.result().toHex();
    }
    if (sent) {
        const QByteArray end(2 * kBlock, '\0');
        sent = s.write(end.constData(), end.size());
    }
    // The host's sha256 of what it extracted, then "END".
    QHash<QByteArray, QByteArray> theirs;
    bool listed = false;
    if (sent) {
        for (;;) {
            const QByteArrayView seen(s.data(), s.available());
            // "END" on a line of its own: a file name may end in END, a sha256sum line never is just that.
            if (seen == QByteArrayView("END\0", 4) || seen.endsWith(QByteArrayView("\0END\0", 5))) {
                listed = parseHashList(seen.chopped(4), &theirs);
                s.consume(s.available());
                break;
            }
            if (s.outputEnded() || s.available() > kMaxHashList || !s.readAtLeast(s.available() + 1))
                break;
        }
    }
    if (!listed)
        return hostFailure(s.finish(), s, connection, shown, error);
    QHash<QByteArray, QByteArray> mine;
    for (qsizetype k = 0; k < local.files().size(); ++k)
        if (!local.files()[k].dir)
            mine.insert(local.files()[k].name, sums[k]);
    if (const auto diff = firstDifference(mine, theirs)) {
        const QByteArray no("abort\n");
        s.write(no.constData(), no.size());
        s.finish();
        *error = mismatchText(shown, *diff);
        return HostCopyResult::Failed;
    }
    const QByteArray go("commit\n");
    s.ignoreStop();
    if (!s.write(go.constData(), go.size()))
        return hostFailure(s.finish(), s, connection, shown, error);
    s.closeInput();
    if (!s.readToEnd(1 << 16) && (s.wasStopped() || s.timedOut()))
        return hostFailure(-1, s, connection, shown, error);
    const bool confirmed = QByteArrayView(s.data(), s.available()) == QByteArrayView("DONE\0", 5);
    const int code = s.finish();
    if (code == 0 && confirmed)
        return HostCopyResult::Done;
    return hostFailure(code == 0 ? ExitTarFailed : code, s, connection, shown, error);
}

ListedEntry listedEntry(const CacheModule &module)
{
    ListedEntry out;
    for (const CacheFile &f : module.files) {
        if (f.is(CacheFile::Directory))
            continue;
        out.sizes.insert(nameToBytes(f.name), std::max<qint64>(0, f.size));
        out.total += std::max<qint64>(0, f.size);
    }
    return out;
}

HostCopyResult fetchEntryFromHost(SshConnection &connection, const QString &remoteRoot, const QString &key,
                                  const ListedEntry &listed, const QString &localFolder,
                                  const HostCopyProgress &progress, const std::atomic_bool *stop, QString *error,
                                  int *fileCount)
{
    QString version, module;
    const QString shown = shownEntry(connection, remoteRoot, key);
    if (!splitKey(key, &version, &module)) {
        *error = HostCopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        return HostCopyResult::Failed;
    }
    const int dfd = ::open(nameToBytes(localFolder).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        *error = HostCopyText::tr("Cannot open %1: %2.").arg(displayName(localFolder), describeErrno(errno));
        return HostCopyResult::Failed;
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{dfd};
    if (!connectFor(connection, error))
        return HostCopyResult::Failed;
    const QString command
        = SshShell::commandFor(sendScript, {nameToBytes(remoteRoot), nameToBytes(version), nameToBytes(module)});
    SshStream s(stop);
    if (!s.start(connection.streamCommand(command), error))
        return HostCopyResult::Failed;
    TarReceiver rx(dfd, s, progress, listed);
    QString why;
    if (!rx.run(&why)) {
        rx.undo();
        // The host ended first (no such entry, a link, the connection): its status says more than a short archive.
        if (s.outputEnded() && !s.wasStopped() && !s.timedOut()) {
            const int code = s.finish();
            if (code != 0)
                return hostFailure(code, s, connection, shown, error);
        }
        if (why.isEmpty())
            return hostFailure(-1, s, connection, shown, error);
        s.kill();
        *error = HostCopyText::tr("%1: %2").arg(shown, why);
        return HostCopyResult::Failed;
    }
    if (fileCount)
        *fileCount = int(rx.hashes.size());
    // Every byte is here: the host hashes its files now.
    const QByteArray go("go\n");
    s.write(go.constData(), go.size());
    s.closeInput();
    const bool whole = s.readToEnd(kMaxHashList);
    QByteArrayView list(s.data(), s.available());
    while (list.startsWith('\0'))
        list = list.sliced(1);  // the archive's padding to its record size
    QHash<QByteArray, QByteArray> theirs;
    const bool parsed = whole && parseHashList(list, &theirs);
    const int code = s.finish();
    if (!whole || code != 0 || !parsed) {
        rx.undo();
        if (code == 0 && whole) {
            *error = HostCopyText::tr("%1: the host's sha256 list could not be read: nothing was kept.").arg(shown);
            return HostCopyResult::Failed;
        }
        return hostFailure(code, s, connection, shown, error);
    }
    if (const auto diff = firstDifference(rx.hashes, theirs)) {
        rx.undo();
        *error = mismatchText(shown, *diff);
        return HostCopyResult::Failed;
    }
    return HostCopyResult::Done;
}

namespace {

// The entry at the source, checked: SUCCESS only. False with why in *error.
bool checkSource(CacheStore &store, const QString &key, CacheModule *module, QString *error)
{
    const int slash = key.indexOf(QLatin1Char('/'));
    CacheScanner scanner(store);
    bool vanished = false;
    QString listError;
    *module = scanner.scanModule(key.left(slash), key.mid(slash + 1), &vanished, &listError);
    if (vanished) {
        *error = HostCopyText::tr("%1 does not exist in %2.").arg(displayName(key), displayName(store.displayRoot()));
        return false;
    }
    if (!listError.isEmpty()) {
        *error = listError;
        return false;
    }
    if (!module->isModule()) {
        *error = HostCopyText::tr("%1 is not a compiled module.").arg(displayName(key));
        return false;
    }
    if (module->state != ModuleState::Success) {
        QString why;
        classifyModule(module->files, CompilerVersion::parse(module->version).writesDoneMarker(), &why);
        *error = HostCopyText::tr("%1 is %2, not SUCCESS: only compiled modules are copied. %3")
                     .arg(displayName(key), stateName(module->state), why);
        return false;
    }
    return true;
}


// One entry of copyEntries(); the store is this thread's own.
HostCopyResult copyOne(const StoreLocation &from, const StoreLocation &to, bool up, SshConnection &connection,
                       CacheStore &source, TransferItem &item, int i, TransferReporter &reporter,
                       const std::atomic_bool *stop, QString *error)
{
    if (!isTransferableKey(item.key)) {
        *error = HostCopyText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(item.key));
        return HostCopyResult::Failed;
    }
    if (up && QFileInfo(from.path + QLatin1Char('/') + item.key.section(QLatin1Char('/'), 0, 0)).isSymLink()) {
        *error = HostCopyText::tr("%1: its compiler-version folder is a link; links are never followed.").arg(displayName(item.key));
        return HostCopyResult::Failed;
    }
    CacheModule module;
    if (!checkSource(source, item.key, &module, error))
        return HostCopyResult::Failed;
    item.state = TransferItem::State::Running;
    item.bytesTotal = module.size + module.linkedSize;
    item.bytesDone = 0;
    item.files = module.fileCount();
    reporter.itemStarted(i, item.bytesTotal);
    const HostCopyProgress progress = [&](qint64 done, qint64) {
        item.bytesDone = done;
        reporter.itemProgress(i, done);
    };
    if (up)
        return sendFolderToHost(connection, from.path, to.path, item.key, progress, stop, error, &item.files);
    IncomingEntry incoming;
    QString why;
    switch (IncomingEntry::open(to.path, item.key, &incoming, &why)) {
    case IncomingEntry::Status::Exists:
        *error = HostCopyText::tr("%1 exists already in %2; it was left as it is.").arg(displayName(item.key), displayName(to.path));
        return HostCopyResult::Exists;
    case IncomingEntry::Status::Busy:
        *error = why;
        return HostCopyResult::Busy;
    case IncomingEntry::Status::Failed:
        *error = why;
        return HostCopyResult::Failed;
    case IncomingEntry::Status::Ready:
        break;
    }
    // An adopted staging may hold a pull's partial files: a copy starts from nothing.
    if (!incoming.prune({}, &why)) {
        incoming.abandon();
        *error = why;
        return HostCopyResult::Failed;
    }
    // No member larger than the listing just taken showed, nor more bytes than the entry's size.
    const HostCopyResult r = fetchEntryFromHost(connection, from.path, item.key, listedEntry(module), incoming.stagingPath(),
                                                progress, stop, error, &item.files);
    if (r != HostCopyResult::Done) {
        incoming.abandon();
        return r;
    }
    switch (incoming.commit(&why)) {
    case IncomingEntry::Status::Ready:
        return HostCopyResult::Done;
    case IncomingEntry::Status::Exists:
        *error = HostCopyText::tr("%1 appeared in %2 meanwhile; it was left as it is.").arg(displayName(item.key), displayName(to.path));
        return HostCopyResult::Exists;
    default:
        *error = why;
        return HostCopyResult::Failed;
    }
}

}  // namespace

void copyEntries(const StoreLocation &from, const StoreLocation &to, QVector<TransferItem> &items,
                 TransferReporter &reporter, const std::atomic_bool *stop, QVector<HostCopyResult> *results)
{
    const int n = int(items.size());
    // Workers write distinct elements: no copy-on-write detach may happen on their threads.
    TransferItem *const item = items.data();
    HostCopyResult *result = nullptr;
    if (results) {
        results->fill(HostCopyResult::Failed, n);
        result = results->data();
    }
    auto finish = [&](int i, TransferItem::State state, const QString &message) {
        item[i].state = state;
        item[i].message = message;
        reporter.itemFinished(i, state, message);
    };
    auto failAll = [&](const QString &message) {
        for (int i = 0; i < n; ++i)
            if (!item[i].finished())
                finish(i, TransferItem::State::Failed, message);
    };
    const bool up = from.isLocal() && to.kind == sshStoreKind();
    const bool down = from.kind == sshStoreKind() && to.isLocal();
    if (!up && !down) {
        failAll(HostCopyText::tr("Copying from %1 to %2 is not supported: copies go between this machine and a host.")
                    .arg(displayName(from.display()), displayName(to.display())));
        return;
    }
    QString error;
    const std::shared_ptr<SshConnection> connection
        = RemoteHosts::instance().connection((up ? to : from).host, &error);
    if (!connection) {
        failAll(error);
        return;
    }
    if (!connectFor(*connection, &error)) {
        failAll(error);
        return;
    }
    // A few entries at once: one costs a listing, a master check and a session (round trips), beyond its bytes.
    std::atomic_int next{0};
    QMutex failMutex;
    QString setupError;
    auto work = [&] {
        QString e;
        const auto source = makeStore(from, &e);
        if (!source || !source->open(&e)) {
            QMutexLocker lock(&failMutex);
            setupError = HostCopyText::tr("The source cache cannot be read: %1").arg(e);
            return;
        }
        for (;;) {
            if (stop && stop->load())
                return;
            const int i = next++;
            if (i >= n)
                return;
            TransferItem &it = item[i];
            if (it.finished())
                continue;
            QString why;
            const HostCopyResult r = copyOne(from, to, up, *connection, *source, it, i, reporter, stop, &why);
            if (result)
                result[i] = r;
            switch (r) {
            case HostCopyResult::Done:
                it.bytesDone = it.bytesTotal;
                reporter.itemProgress(i, it.bytesDone);
                finish(i, TransferItem::State::Done, QString());
                break;
            case HostCopyResult::Exists:
                finish(i, TransferItem::State::Skipped, why);
                break;
            case HostCopyResult::Busy:
            case HostCopyResult::Failed:
                finish(i, TransferItem::State::Failed, why);
                break;
            case HostCopyResult::Stopped:
                // Nothing of it landed: it waits to be run again.
                it.state = TransferItem::State::Pending;
                it.bytesDone = 0;
                return;
            }
        }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < std::min(kParallelEntries, n); ++t)
        helpers.emplace_back(work);
    work();
    for (std::thread &t : helpers)
        t.join();
    if (!setupError.isEmpty())
        failAll(setupError);
}

}  // namespace ingot
