#include "services/stores/shellcachestore.h"

#include "services/util/names.h"
#include "services/util/relpath.h"

#include <QCoreApplication>
#include <QDir>
#include <QMutexLocker>

#include <algorithm>
#include <cstring>
#include <limits>

namespace ingot {

namespace {

struct ShellCacheStoreText {
    Q_DECLARE_TR_FUNCTIONS(ingot::ShellCacheStore)
};

constexpr int listTimeoutMs = 10 * 60 * 1000;
constexpr int smallTimeoutMs = 60 * 1000;

// $1 is the root (printf %b form). Records, NUL-separated, from ONE traversal of the tree plus one batched stat and
// realpath over the links (a process per link made 100k-module caches list 20x slower than find):
//   R real-path identity                      the root
//   F type path size blocks mtime atime ctime  every file, folder and link (find -printf; %P relative, "" = root)
//   U path                                     a folder that cannot be read
//   L path written-target                      every link
//   S ./path "size dev ino mode atime"         a link whose target exists (stat -L); none: broken
//   B n ./path1 .. ./pathN real1 .. realK      a batch of such links and their real paths (K < N: a link changed
//                                              meanwhile: the batch is judged by the written targets)
// Exit 3: no such folder, 4: not a folder or not readable.
const char *listScript = R"SH(set -f
export LC_ALL=C
r=$(printf '%bX' "$1"); r=${r%X}
[ -e "$r" ] || [ -L "$r" ] || exit 3
cd -P -- "$r" 2>/dev/null || exit 4
printf 'R\0%s\0%s\0' "$(pwd -P)" "$(stat -c '%d:%i' .)"
t=$(mktemp "${TMPDIR:-/tmp}/ingot-links.XXXXXXXX" 2>/dev/null) || t=
[ -n "$t" ] && trap 'rm -f -- "$t"' EXIT HUP INT TERM PIPE
# The links whose targets exist go to $t during the same traversal (without a temporary file: a second find).
find . -printf 'F\0%y\0%P\0%s\0%b\0%T@\0%A@\0%C@\0' \
  , -type d \( ! -readable -o ! -executable \) -printf 'U\0%P\0' \
  , -type l -printf 'L\0%P\0%l\0' \( -xtype l -o -fprint0 "${t:-/dev/null}" \) 2>/dev/null
if [ -n "$t" ]; then links() { cat -- "$t"; }; else links() { find . -type l ! -xtype l -print0 2>/dev/null; }; fi
links | xargs -0 -r stat -L --printf 'S\0%n\0%s %d %i %f %.9X\0' -- 2>/dev/null
links | xargs -0 -r sh -c 'printf "B\0%s\0" "$#"; printf "%s\0" "$@"; realpath -z -- "$@" 2>/dev/null' sh
exit 0
)SH";

// $1 root, $2 entry (relative), $3 1: refuse when a *.lock is found. Prints the bytes freed. Exit 0 removed,
// 10 locked (put back), 3 missing, 5 not a folder (or a link), 7 could not rename aside, 11 not all removable (put
// back), 12 removal failed part-way (what is left stays aside under .ingot-removing-*). A connection that drops
// meanwhile does not stop it half-way (HUP and PIPE are ignored): the removal or the put-back completes.
const char *removeFolderScript = R"SH(set -f
trap '' HUP PIPE
export LC_ALL=C
r=$(printf '%bX' "$1"); r=${r%X}
e=$(printf '%bX' "$2"); e=${e%X}
cd -P -- "$r" 2>/dev/null || exit 3
[ -e "$e" ] || [ -L "$e" ] || exit 3
[ -d "$e" ] && [ ! -L "$e" ] || exit 5
p=$(dirname -- "$e")
a="$p/.ingot-removing-$$-$(date +%s%N)"
[ -e "$a" ] && exit 7
mv -n -T -- "$e" "$a" 2>/dev/null
[ -d "$a" ] && [ ! -e "$e" ] || exit 7
back() { mv -n -T -- "$a" "$e"; }
if [ "$3" = 1 ] && [ -n "$(find "$a" -name '*.lock' -print -quit 2>/dev/null)" ]; then back; exit 10; fi
if [ -n "$(find "$a" -type d \( ! -writable -o ! -executable -o ! -readable \) -print -quit 2>/dev/null)" ] ||
   [ -n "$(find "$a" -mindepth 1 -xdev -print -quit >/dev/null; find "$a" -mindepth 1 ! -xdev -print -quit 2>/dev/null)" ]; then
  back; exit 11
fi
freed=$(du -s -B1 -- "$a" 2>/dev/null | cut -f1)
rm -rf --one-file-system -- "$a" 2>/dev/null || exit 12
printf '%s' "${freed:-0}"
)SH";

// $1 root, $2 file or link: unlinks it (never its target). Prints the bytes freed.
const char *removeFileScript = R"SH(set -f
trap '' HUP PIPE
export LC_ALL=C
r=$(printf '%bX' "$1"); r=${r%X}
e=$(printf '%bX' "$2"); e=${e%X}
cd -P -- "$r" 2>/dev/null || exit 3
[ -e "$e" ] || [ -L "$e" ] || exit 3
if [ -L "$e" ] || [ "$(stat -c '%h' -- "$e")" != 1 ]; then f=0; else f=$(stat -c '%b' -- "$e"); f=$((f * 512)); fi
rm -f -- "$e" || exit 12
printf '%s' "$f"
)SH";

// $1 root, $2 file, $3 bytes, $4 1: from the end. A link is not read.
const char *readScript = R"SH(set -f
r=$(printf '%bX' "$1"); r=${r%X}
e=$(printf '%bX' "$2"); e=${e%X}
cd -P -- "$r" 2>/dev/null || exit 3
[ -L "$e" ] && exit 6
[ -f "$e" ] || exit 3
if [ "$4" = 1 ]; then tail -c "$3" -- "$e"; else head -c "$3" -- "$e"; fi
)SH";

const char *linkScript = R"SH(set -f
r=$(printf '%bX' "$1"); r=${r%X}
e=$(printf '%bX' "$2"); e=${e%X}
cd -P -- "$r" 2>/dev/null || exit 3
readlink -- "$e"
)SH";

// $1 the root: prints its real path and identity, NUL-separated (what open() needs; no listing). Exits as the
// listing does.
const char *statScript = R"SH(set -f
export LC_ALL=C
r=$(printf '%bX' "$1"); r=${r%X}
[ -e "$r" ] || [ -L "$r" ] || exit 3
cd -P -- "$r" 2>/dev/null || exit 4
[ -r . ] && [ -x . ] || exit 4
printf '%s\0%s\0' "$(pwd -P)" "$(stat -c '%d:%i' .)"
)SH";

// neuronx-cc processes: by comm, or argv[0]/argv[1] for Python entry points (as procscan.cpp does locally).
const char *compilersScript = R"SH([ -d /proc ] || exit 9
for d in /proc/[0-9]*; do
  c=$(cat "$d/comm" 2>/dev/null) || continue
  if [ "$c" = neuronx-cc ]; then echo "${d#/proc/}"; continue; fi
  a=$(tr '\0' '\n' < "$d/cmdline" 2>/dev/null | head -n 2 | sed 's|.*/||' | grep -x neuronx-cc)
  [ -n "$a" ] && echo "${d#/proc/}"
done
exit 0
)SH";

// Numbers from the host are not trusted: a time or a block count beyond any disk's saturates instead of overflowing.
constexpr qint64 kMaxSeconds = std::numeric_limits<qint64>::max() / 1000 - 1;

qint64 timeMs(QByteArrayView t)
{
    const int dot = t.indexOf('.');
    const qint64 sec = std::clamp<qint64>((dot < 0 ? t : t.first(dot)).toLongLong(), -kMaxSeconds, kMaxSeconds);
    const QByteArray frac = dot < 0 ? QByteArray() : QByteArray(t.sliced(dot + 1).toByteArray() + "000").left(3);
    return sec * 1000 + (t.startsWith('-') ? -frac.toLongLong() : frac.toLongLong());
}

qint64 blocksToBytes(QByteArrayView blocks)
{
    return std::clamp<qint64>(blocks.toLongLong(), 0, std::numeric_limits<qint64>::max() / 512) * 512;
}

QString parentOf(const QString &rel)
{
    const int slash = rel.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : rel.left(slash);
}

QString nameOf(const QString &rel)
{
    return rel.mid(rel.lastIndexOf(QLatin1Char('/')) + 1);
}

}  // namespace

ShellCacheStore::ShellCacheStore(std::shared_ptr<RemoteShell> shell, QString where, QString root)
    : m_shell(std::move(shell)), m_where(std::move(where)), m_root(std::move(root))
{
}

QString ShellCacheStore::displayRoot() const
{
    return m_where + QLatin1Char(':') + m_root;
}

QString ShellCacheStore::fullPath(const QString &rel) const
{
    return displayRoot() + (rel.isEmpty() ? QString() : QLatin1Char('/') + rel);
}

QByteArray ShellCacheStore::rootBytes() const
{
    return nameToBytes(m_root);
}

namespace {
// "./a/b" (as find -print0 and stat %n give it) -> "a/b"
QString withoutDotSlash(QByteArrayView path)
{
    return nameFromBytes((path.startsWith("./") ? path.sliced(2) : path).toByteArray());
}

// The NUL-separated fields of `out` as views into it (no copy; a listing has millions of fields).
QVector<QByteArrayView> fieldsOf(const QByteArray &out)
{
    QVector<QByteArrayView> f;
    f.reserve(out.count('\0') + 1);
    const char *p = out.constData();
    const char *const end = p + out.size();
    while (p < end) {
        const auto *z = static_cast<const char *>(std::memchr(p, 0, size_t(end - p)));
        if (!z) {
            f.append(QByteArrayView(p, end - p));
            break;
        }
        f.append(QByteArrayView(p, z - p));
        p = z + 1;
    }
    return f;
}
}  // namespace

bool ShellCacheStore::parseListing(const QByteArray &out, Tree *tree, QString *error)
{
    Tree t;
    const QVector<QByteArrayView> f = fieldsOf(out);
    qsizetype i = 0;
    auto need = [&](qsizetype n) { return i + n <= f.size(); };
    auto ensureFolder = [&](const QString &rel) -> ListResult & {
        ListResult &l = t.folders[rel];
        l.ok = true;
        return l;
    };
    QHash<QString, qsizetype> indexOf;  // a link's root-relative path -> its index in its folder
    QHash<QString, QByteArray> written, stats, reals;  // by the link's root-relative path
    while (i < f.size()) {
        const QByteArrayView tag = f.at(i);
        if (tag == "R" && need(3)) {
            t.real = f.at(i + 1).toByteArray();
            t.identity = QString::fromLatin1(f.at(i + 2));
            i += 3;
        } else if (tag == "F" && need(8)) {
            const QByteArrayView type = f.at(i + 1);
            const QString rel = nameFromBytes(f.at(i + 2).toByteArray());
            if (!rel.isEmpty() && !isSafeRelativePath(rel)) {
                *error = ShellCacheStoreText::tr("the listing holds a path that leaves the root: %1").arg(displayName(rel));
                return false;
            }
            StoreEntry e;
            e.name = nameOf(rel);
            e.type = type == "f" ? StoreEntry::Type::File
                : type == "d"    ? StoreEntry::Type::Dir
                : type == "l"    ? StoreEntry::Type::Symlink
                                 : StoreEntry::Type::Other;
            const bool link = e.type == StoreEntry::Type::Symlink;
            e.size = link ? 0 : f.at(i + 3).toLongLong();
            e.allocated = link ? 0 : blocksToBytes(f.at(i + 4));
            e.mtimeMs = timeMs(f.at(i + 5));
            e.atimeMs = link ? 0 : timeMs(f.at(i + 6));
            e.ctimeMs = timeMs(f.at(i + 7));
            if (rel.isEmpty()) {
                ensureFolder(QString()).self = e;
            } else {
                if (e.type == StoreEntry::Type::Dir) {
                    StoreEntry self = e;  // a folder's own times, nameless as the local store gives them
                    self.name.clear();
                    ensureFolder(rel).self = self;
                }
                ListResult &parent = ensureFolder(parentOf(rel));
                if (link)  // where the link records find it
                    indexOf.insert(rel, parent.entries.size());
                parent.entries.append(e);
            }
            i += 8;
        } else if (tag == "U" && need(2)) {
            const QString rel = nameFromBytes(f.at(i + 1).toByteArray());
            if (!rel.isEmpty() && !isSafeRelativePath(rel)) {
                *error = ShellCacheStoreText::tr("the listing holds a path that leaves the root: %1").arg(displayName(rel));
                return false;
            }
            ListResult &l = ensureFolder(rel);
            l.ok = false;
            l.entries.clear();
            l.error = ShellCacheStoreText::tr("Cannot read %1: permission denied.").arg(displayName(rel));
            i += 2;
        } else if (tag == "L" && need(3)) {
            written.insert(nameFromBytes(f.at(i + 1).toByteArray()), f.at(i + 2).toByteArray());
            i += 3;
        } else if (tag == "S" && need(3)) {
            stats.insert(withoutDotSlash(f.at(i + 1)), f.at(i + 2).toByteArray());
            i += 3;
        } else if (tag == "B" && need(2)) {
            bool ok = false;
            const qsizetype n = f.at(i + 1).toLongLong(&ok);
            if (!ok || n < 0 || !need(2 + n)) {
                *error = ShellCacheStoreText::tr("the host's listing is not in the expected form (record %1)").arg(i);
                return false;
            }
            const qsizetype names = i + 2;
            i += 2 + n;
            qsizetype k = 0;
            while (k < n && i + k < f.size() && f.at(i + k).startsWith('/'))
                ++k;
            if (k == n) {
                for (qsizetype j = 0; j < n; ++j)
                    reals.insert(withoutDotSlash(f.at(names + j)), f.at(i + j).toByteArray());
            }
            i += k;
        } else {
            *error = ShellCacheStoreText::tr("the host's listing is not in the expected form (record %1)").arg(i);
            return false;
        }
    }
    if (t.real.isEmpty() || !t.folders.contains(QString())) {
        *error = ShellCacheStoreText::tr("the host's listing has no root record");
        return false;
    }
    for (auto l = written.cbegin(); l != written.cend(); ++l) {
        const QString &rel = l.key();
        const auto at = indexOf.constFind(rel);
        if (at == indexOf.cend())
            continue;
        StoreEntry &e = t.folders[parentOf(rel)].entries[*at];
        const QList<QByteArray> st = stats.value(rel).split(' ');
        if (st.size() == 5) {
            e.size = st.at(0).toLongLong();
            e.linkId = (st.at(1).toULongLong() << 40) ^ st.at(2).toULongLong();
            e.linkTargetIsDir = (st.at(3).toUInt(nullptr, 16) & 0170000) == 0040000;
            e.atimeMs = timeMs(st.at(4));
        } else {
            e.linkBroken = true;
        }
        QByteArray judged = e.linkBroken ? QByteArray() : reals.value(rel);
        if (judged.isEmpty()) {  // broken, looping or changed meanwhile: judge by the written target
            const QByteArray dir = t.real + (parentOf(rel).isEmpty() ? QByteArray() : '/' + nameToBytes(parentOf(rel)));
            const QByteArray abs = l.value().startsWith('/') ? l.value() : dir + '/' + l.value();
            judged = nameToBytes(QDir::cleanPath(nameFromBytes(abs)));
        }
        e.linkOutsideRoot = !judged.startsWith(QByteArray(t.real + '/'));
        e.linkToHubBlob = isHubBlobPath(judged);
    }
    *tree = std::move(t);
    return true;
}

// One small round trip: the root is there, readable, and which folder it is. The tree is listed by list().
bool ShellCacheStore::open(QString *error)
{
    const ShellResult run = m_shell->run(statScript, {rootBytes()}, {}, 1 << 16, smallTimeoutMs);
    if (!run.ran()) {
        *error = ShellCacheStoreText::tr("Cannot open %1: %2").arg(displayName(displayRoot()), run.error);
        return false;
    }
    if (run.exitCode == 3) {
        *error = ShellCacheStoreText::tr("The cache folder %1 does not exist.").arg(displayName(displayRoot()));
        return false;
    }
    const QList<QByteArray> f = run.out.split('\0');
    if (run.exitCode != 0 || f.size() < 2 || f.at(0).isEmpty() || f.at(1).isEmpty()) {
        *error = ShellCacheStoreText::tr("Cannot open the cache folder %1: %2")
                     .arg(displayName(displayRoot()), run.exitCode == 4 ? ShellCacheStoreText::tr("not a folder, or not readable.")
                                                                        : displayText(QString::fromUtf8(run.err.trimmed().left(500))));
        return false;
    }
    QMutexLocker lock(&m_mutex);
    m_identity = QStringLiteral("shell:%1:%2").arg(m_where, QString::fromLatin1(f.at(1)));
    return true;
}

ListResult ShellCacheStore::list(const QString &rel)
{
    ListResult r;
    if (!rel.isEmpty() && !isSafeRelativePath(rel)) {
        r.error = ShellCacheStoreText::tr("Refused to list \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return r;
    }
    if (rel.isEmpty()) {
        // A new scan: the whole tree in one round trip.
        const ShellResult run = m_shell->run(listScript, {rootBytes()}, {}, maxListingBytes, listTimeoutMs);
        if (!run.ran()) {
            r.error = ShellCacheStoreText::tr("Cannot list %1: %2").arg(displayName(displayRoot()), run.error);
            return r;
        }
        if (run.exitCode == 3) {
            r.vanished = true;
            r.error = ShellCacheStoreText::tr("The cache folder %1 does not exist.").arg(displayName(displayRoot()));
            return r;
        }
        if (run.exitCode != 0) {
            r.error = ShellCacheStoreText::tr("Cannot open the cache folder %1: %2")
                          .arg(displayName(displayRoot()),
                               run.exitCode == 4 ? ShellCacheStoreText::tr("not a folder, or not readable.")
                                                 : displayText(QString::fromUtf8(run.err.trimmed().left(500))));
            return r;
        }
        Tree tree;
        QString error;
        if (!parseListing(run.out, &tree, &error)) {
            r.error = ShellCacheStoreText::tr("Cannot list %1: %2").arg(displayName(displayRoot()), error);
            return r;
        }
        QMutexLocker lock(&m_mutex);
        m_tree = std::move(tree);
        m_identity = QStringLiteral("shell:%1:%2").arg(m_where, m_tree.identity);
        m_listed = true;
        return m_tree.folders.value(QString());
    }
    {
        QMutexLocker lock(&m_mutex);
        if (!m_listed) {
            // A folder below before any listing (the details pane, a maintenance re-check): the tree first.
            lock.unlock();
            const ListResult root = list(QString());
            if (!root.ok)
                return root;
        }
    }
    QMutexLocker lock(&m_mutex);
    const auto it = m_tree.folders.constFind(rel);
    if (!m_listed || it == m_tree.folders.cend()) {
        r.vanished = true;
        r.error = ShellCacheStoreText::tr("Cannot read %1: no such folder.").arg(displayName(fullPath(rel)));
        return r;
    }
    return *it;
}

bool ShellCacheStore::readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = ShellCacheStoreText::tr("Refused to read \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return false;
    }
    const ShellResult run = m_shell->run(readScript,
                                         {rootBytes(), nameToBytes(rel), QByteArray::number(std::max<qint64>(0, maxBytes)),
                                          fromEnd ? "1" : "0"},
                                         {}, maxBytes, smallTimeoutMs);
    if (!run.ran() || run.exitCode != 0) {
        *error = ShellCacheStoreText::tr("Cannot read %1: %2")
                     .arg(displayName(fullPath(rel)),
                          !run.ran() ? run.error : run.exitCode == 6 ? ShellCacheStoreText::tr("a symbolic link") : ShellCacheStoreText::tr("no such file"));
        return false;
    }
    *out = run.out;
    return true;
}

QString ShellCacheStore::linkTarget(const QString &rel)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel))
        return {};
    const ShellResult run = m_shell->run(linkScript, {rootBytes(), nameToBytes(rel)}, {}, 1 << 16, smallTimeoutMs);
    if (!run.ran() || run.exitCode != 0)
        return {};
    QByteArray t = run.out;
    if (t.endsWith('\n'))
        t.chop(1);
    return nameFromBytes(t);
}

bool ShellCacheStore::remove(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = ShellCacheStoreText::tr("Refused to remove \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return false;
    }
    const ListResult parent = list(parentOf(rel));
    for (const StoreEntry &e : parent.entries)
        if (e.name == nameOf(rel) && e.type == StoreEntry::Type::Dir)
            return removeFolder(rel, false, freed, error) == RemoveResult::Removed;
    const ShellResult run = m_shell->run(removeFileScript, {rootBytes(), nameToBytes(rel)}, {}, 64, smallTimeoutMs);
    if (!run.ran() || run.exitCode != 0) {
        *error = ShellCacheStoreText::tr("Cannot remove %1: %2").arg(displayName(fullPath(rel)),
                                                !run.ran() ? run.error
                                                           : run.exitCode == 3 ? ShellCacheStoreText::tr("it no longer exists.")
                                                                               : ShellCacheStoreText::tr("the host refused (permissions?)."));
        return false;
    }
    *freed += run.out.trimmed().toLongLong();
    return true;
}

CacheStore::RemoveResult ShellCacheStore::removeEntry(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = ShellCacheStoreText::tr("Refused to remove \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return RemoveResult::Failed;
    }
    return removeFolder(rel, true, freed, error);
}

CacheStore::RemoveResult ShellCacheStore::removeFolder(const QString &rel, bool refuseLocked, qint64 *freed,
                                                       QString *error)
{
    const QString shown = displayName(fullPath(rel));
    const ShellResult run = m_shell->run(removeFolderScript, {rootBytes(), nameToBytes(rel), refuseLocked ? "1" : "0"},
                                         {}, 64, listTimeoutMs);
    if (!run.ran()) {
        *error = ShellCacheStoreText::tr("Cannot remove %1: %2").arg(shown, run.error);
        return RemoveResult::Failed;
    }
    switch (run.exitCode) {
    case 0: *freed += run.out.trimmed().toLongLong(); return RemoveResult::Removed;
    case 10: *error = ShellCacheStoreText::tr("%1 is locked: a compile started on it. Left in place.").arg(shown); return RemoveResult::Locked;
    case 3: *error = ShellCacheStoreText::tr("Cannot remove %1: it no longer exists.").arg(shown); break;
    case 5: *error = ShellCacheStoreText::tr("Refused to remove %1: not a folder (a link is never followed).").arg(shown); break;
    case 7: *error = ShellCacheStoreText::tr("Cannot remove %1: it could not be renamed aside.").arg(shown); break;
    case 11: *error = ShellCacheStoreText::tr("Cannot remove %1: not all of it can be removed (permissions or a mount); left whole.").arg(shown); break;
    default: *error = ShellCacheStoreText::tr("Removing %1 stopped part-way; what is left is in a .ingot-removing-* folder beside it.").arg(shown);
    }
    return RemoveResult::Failed;
}

QVector<qint64> ShellCacheStore::runningCompilers(QString *error)
{
    QVector<qint64> pids;
    const ShellResult run = m_shell->run(compilersScript, {}, {}, 1 << 20, smallTimeoutMs);
    if (!run.ran() || run.exitCode != 0) {
        *error = ShellCacheStoreText::tr("Cannot tell whether neuronx-cc is running on %1: %2")
                     .arg(m_where, run.ran() ? ShellCacheStoreText::tr("/proc is not available") : run.error);
        return pids;
    }
    for (const QByteArray &line : run.out.split('\n'))
        if (const qint64 pid = line.trimmed().toLongLong(); pid > 0)
            pids << pid;
    return pids;
}

}  // namespace ingot
