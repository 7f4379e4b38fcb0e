#include "services/cache/cachelocation.h"

#include "services/util/remoteshell.h"

#include <QCoreApplication>
#include <QDir>

namespace ingot {

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct CacheLocationText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CacheLocation)
};

QStringList splitFlags(const QString &flags)
{
    QStringList out;
    QString cur;
    QChar quote;
    bool have = false;
    for (const QChar c : flags) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                cur += c;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
            have = true;
        } else if (c.isSpace()) {
            if (have || !cur.isEmpty())
                out << cur;
            cur.clear();
            have = false;
        } else {
            cur += c;
        }
    }
    if (have || !cur.isEmpty())
        out << cur;
    return out;
}

QString expandHome(const QString &p, const QString &home)
{
    if (p == QLatin1String("~"))
        return home;
    if (p.startsWith(QLatin1String("~/")))
        return home + p.mid(1);
    return p;
}
}  // namespace

QString cacheDirFromCcFlags(const QString &flags, bool *noCache)
{
    const QStringList args = splitFlags(flags);
    QString dir;
    if (noCache)
        *noCache = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a.startsWith(QLatin1String("--cache_dir=")))
            dir = a.mid(12);
        else if (a == QLatin1String("--cache_dir") && i + 1 < args.size())
            dir = args[++i];
        else if (a == QLatin1String("--no_cache") && noCache)
            *noCache = true;
    }
    return dir;  // the last one wins, as with any repeated flag
}

CacheLocation CacheLocation::resolve(const QProcessEnvironment &env)
{
    return resolve(env, QDir::homePath());
}

CacheLocation CacheLocation::resolve(const QProcessEnvironment &env, const QString &home)
{
    CacheLocation loc;
    const QString flags = env.value(QStringLiteral("NEURON_CC_FLAGS"));
    bool noCache = false;
    const QString fromFlags = cacheDirFromCcFlags(flags, &noCache);
    loc.cachingDisabled = noCache;
    const QString url = env.value(QStringLiteral("NEURON_COMPILE_CACHE_URL")).trimmed();

    if (!fromFlags.isEmpty()) {
        loc.rule = Rule::CcFlagsCacheDir;
        loc.path = fromFlags;
        loc.explanation = CacheLocationText::tr("NEURON_CC_FLAGS contains --cache_dir=%1, which takes precedence over "
                             "NEURON_COMPILE_CACHE_URL and the default.").arg(fromFlags);
    } else if (!url.isEmpty()) {
        loc.rule = Rule::CompileCacheUrl;
        loc.path = url;
        loc.explanation = CacheLocationText::tr("NEURON_COMPILE_CACHE_URL is set to %1 (NEURON_CC_FLAGS has no --cache_dir).").arg(url);
    } else {
        loc.rule = Rule::Default;
        loc.path = defaultPath();
        loc.explanation = CacheLocationText::tr("Neither --cache_dir in NEURON_CC_FLAGS nor NEURON_COMPILE_CACHE_URL is set, so the "
                             "Neuron default %1 is used.").arg(loc.path);
    }
    if (loc.path.startsWith(QLatin1String("s3://"), Qt::CaseInsensitive)) {
        loc.kind = Kind::S3;
    } else {
        if (loc.path.startsWith(QLatin1String("file://")))
            loc.path = loc.path.mid(7);
        loc.path = QDir::cleanPath(expandHome(loc.path, home));
    }
    if (loc.cachingDisabled)
        loc.explanation += QLatin1Char(' ') + CacheLocationText::tr("Note: --no_cache in NEURON_CC_FLAGS disables the compile cache for jobs "
                                                 "started with these flags.");
    return loc;
}

namespace {

// Prints the variables the cache location depends on, NUL-separated, as the plain remote command sees them and then
// as a login shell sees them (behind a marker: profile files may print). A login shell that is not POSIX (fish,
// csh) is not asked, and one that fails or hangs leaves the plain values. The login shell writes its answer to a
// file of its own and its output goes nowhere: a process its profile leaves running (an agent, `sleep &`) would
// otherwise hold the connection's output open, and the answer with it, until it ends.
const char kLocationScript[] = R"SH(
printf 'plain\0%s\0%s\0%s\0%s\0%s\0' "${NEURON_CC_FLAGS-}" "${NEURON_COMPILE_CACHE_URL-}" "${HOME-}" \
  "${NEURON_CC_FLAGS+set}" "${NEURON_COMPILE_CACHE_URL+set}"
sh_=${SHELL:-/bin/sh}
case $sh_ in
  */bash|*/sh|*/dash|*/zsh|*/ksh|*/mksh) ;;
  *) exit 0 ;;
esac
f=$(mktemp "${TMPDIR:-/tmp}/ingot-env.XXXXXXXX" 2>/dev/null) || exit 0
trap 'rm -f -- "$f"' EXIT HUP INT TERM PIPE
# A profile that waits (a lock, a prompt) must not hold the answer: the plain values stand after 15 s, when timeout
# ends the login shell's whole process group.
t=; command -v timeout >/dev/null 2>&1 && t="timeout -k 2 15"
INGOT_ENV_FILE=$f $t "$sh_" -lc 'printf "INGOT-LOGIN-ENV\0%s\0%s\0%s\0%s\0%s\0" "${NEURON_CC_FLAGS-}" "${NEURON_COMPILE_CACHE_URL-}" "${HOME-}" "${NEURON_CC_FLAGS+set}" "${NEURON_COMPILE_CACHE_URL+set}" > "$INGOT_ENV_FILE"' </dev/null >/dev/null 2>&1
head -c 65536 -- "$f"
exit 0
)SH";

struct RemoteEnv {
    bool found = false;
    QProcessEnvironment env;
    QString home;
};

// The five fields after `marker` in `out`: at the start, or else the last marker after a record or a line (a
// profile could print the marker's words first).
RemoteEnv envAfter(const QByteArray &out, const QByteArray &marker, bool atStart)
{
    RemoteEnv r;
    const QByteArray head = marker + QByteArray(1, '\0');
    const int at = atStart ? (out.startsWith(head) ? 0 : -1) : int(out.lastIndexOf(head));
    if (at < 0 || (at > 0 && out.at(at - 1) != '\0' && out.at(at - 1) != '\n'))
        return r;
    const QList<QByteArray> f = out.mid(at + marker.size() + 1).split('\0');
    if (f.size() < 5)
        return r;
    r.found = true;
    if (f.at(3) == "set")
        r.env.insert(QStringLiteral("NEURON_CC_FLAGS"), QString::fromUtf8(f.at(0)));
    if (f.at(4) == "set")
        r.env.insert(QStringLiteral("NEURON_COMPILE_CACHE_URL"), QString::fromUtf8(f.at(1)));
    r.home = QString::fromUtf8(f.at(2));
    return r;
}

}  // namespace

bool CacheLocation::resolveOn(RemoteShell &shell, CacheLocation *out, QString *error)
{
    const ShellResult r = shell.run(kLocationScript, {}, {}, 1 << 20, 60000);
    if (!r.ran()) {
        *error = r.error;
        return false;
    }
    const RemoteEnv plain = envAfter(r.out, "plain", true);
    if (!plain.found) {
        *error = CacheLocationText::tr("%1 did not answer the question where its compile cache is (exit status %2).")
                     .arg(shell.describe())
                     .arg(r.exitCode);
        return false;
    }
    const RemoteEnv login = envAfter(r.out, "INGOT-LOGIN-ENV", false);
    const RemoteEnv &use = login.found ? login : plain;
    const QString home = use.home.isEmpty() ? plain.home : use.home;
    *out = resolve(use.env, home.isEmpty() ? QStringLiteral("/") : home);
    out->where = shell.describe();
    out->explanation = (login.found ? CacheLocationText::tr("On %1 (as its login shell sets the environment): %2")
                                    : CacheLocationText::tr("On %1: %2"))
                           .arg(shell.describe(), out->explanation);
    return true;
}

QString CacheLocation::unsupportedReason() const
{
    if (kind == Kind::S3)
        return CacheLocationText::tr("%1 is an S3 cache, and this works on folders. Open the S3 cache itself: File > "
                                     "Open an S3 cache, or ingot-cli cache status --cache-dir %1 (cache copy --from %1 "
                                     "brings entries here).").arg(path);
    return {};
}

}  // namespace ingot
