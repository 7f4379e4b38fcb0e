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

// What every script that works below the root starts with: enter() goes into the root $1 (its identity, device and
// inode, must be $2 when $2 is not empty: a root swapped since open() is refused) and then into each folder of the
// root-relative path $3, all of it with $4 = all, else all but its last part, which is left in $n. Never through a
// link: a part that is not a folder is refused, and a part swapped for a link between the look and the cd is found
// by its identity (the folder entered must be the one looked at). Work is then done relative to the folder entered,
// which a later swap of any folder on the path cannot redirect. The real path and identity of the root are left in
// $real and $rid. Exit 3: missing, 4: cannot enter (not a folder, not readable), 5: a link or not a folder on the
// way, 13: the root is another folder now.
const char kEnter[] = R"SH(
enter() {
  r=$(printf '%bX' "$1"); r=${r%X}
  rest=$(printf '%bX' "$3"); rest=${rest%X}
  want=$(printf '%bX' "$2"); want=${want%X}
  [ -e "$r" ] || [ -L "$r" ] || exit 3
  cd -P -- "$r" 2>/dev/null || exit 4
  real=$(pwd -P); rid=$(stat -c '%d:%i' .) || exit 4
  [ -z "$want" ] || [ "$rid" = "$want" ] || exit 13
  n=
  while [ -n "$rest" ]; do
    case $rest in */*) c=${rest%%/*}; rest=${rest#*/} ;; *) c=$rest; rest= ;; esac
    if [ -z "$rest" ] && [ "$4" != all ]; then n=$c; break; fi
    s=$(stat -c '%F/%d:%i' -- "$c" 2>/dev/null) || exit 3
    [ "${s%%/*}" = directory ] || exit 5
    cd -P -- "$c" 2>/dev/null || exit 4
    [ "$(stat -c '%d:%i' .)" = "${s#*/}" ] || exit 5
  done
}
)SH";

// $1 the root, $2 its expected identity (or ""), $3 the folder to list ("" the root; entered as enter() does), all
// in printf %b form. Records, NUL-separated, from ONE traversal of the tree plus one batched stat and realpath over
// the links (a process per link made 100k-module caches list 20x slower than find); paths relative to $3:
//   R real-path identity                      the root
//   F type depth name size blocks mtime atime ctime
//                                              every file, folder and link (find -printf, in its pre-order: an entry
//                                              at depth d is in the last folder named at depth d-1; depth 0 is $3).
//                                              Names, not paths: a 100k-module listing is 40 % fewer bytes to
//                                              encrypt and send than with %P, for the same information
//   U path                                     a folder that cannot be read (after the F records)
//   L path written-target                      every link
//   S ./path "size dev ino mode atime"         a link whose target exists (stat -L); none: broken
//   B n ./path1 .. ./pathN real1 .. realK      a batch of such links and their real paths (K < N: a link changed
//                                              meanwhile: the batch is judged by the written targets)
// Exits as enter() does.
const QByteArray listScript = QByteArray("set -f\nexport LC_ALL=C\n") + kEnter + R"SH(
enter "$1" "$2" "$3" all
[ -r . ] && [ -x . ] || exit 4
printf 'R\0%s\0%s\0' "$real" "$rid"
t=$(mktemp "${TMPDIR:-/tmp}/ingot-links.XXXXXXXX" 2>/dev/null) || t=
[ -n "$t" ] && trap 'rm -f -- "$t"' EXIT HUP INT TERM PIPE
# The links whose targets exist go to $t during the same traversal (without a temporary file: a second find).
# Folders that cannot be read are looked for only when find met one (it then exits non-zero): two access() calls
# per folder cost a 100k-module listing half a second.
find . -printf 'F\0%y\0%d\0%f\0%s\0%b\0%T@\0%A@\0%C@\0' \
  , -type l -printf 'L\0%P\0%l\0' \( -xtype l -o -fprint0 "${t:-/dev/null}" \) 2>/dev/null ||
  find . -type d \( ! -readable -o ! -executable \) -printf 'U\0%P\0' 2>/dev/null
if [ -n "$t" ]; then links() { cat -- "$t"; }; else links() { find . -type l ! -xtype l -print0 2>/dev/null; }; fi
links | xargs -0 -r stat -L --printf 'S\0%n\0%s %d %i %f %.9X\0' -- 2>/dev/null
links | xargs -0 -r sh -c 'printf "B\0%s\0" "$#"; printf "%s\0" "$@"; realpath -z -- "$@" 2>/dev/null' sh
exit 0
)SH";

// $1 root, $2 its expected identity, $3 entry (relative), $4 1: refuse when a *.lock is found. The entry is renamed
// aside within the folder entered (its identity must be the one looked at: an entry swapped for a link meanwhile
// is put back), then removed; "REMOVED <bytes freed>" is printed only once it is gone. Exit 0 removed, 10 locked
// (put back), 3 missing, 5 not a folder (or a link, or a link on the way), 7 could not rename aside, 11 not all
// removable (put back), 12 removal failed part-way (what is left stays aside under .ingot-removing-*), 13 the root
// is another folder now. A connection that drops meanwhile does not stop it half-way (HUP and PIPE are ignored):
// the removal or the put-back completes.
const QByteArray removeFolderScript = QByteArray("set -f\ntrap '' HUP PIPE\nexport LC_ALL=C\n") + kEnter + R"SH(
enter "$1" "$2" "$3"
e=$n
[ -e "$e" ] || [ -L "$e" ] || exit 3
[ -d "$e" ] && [ ! -L "$e" ] || exit 5
id=$(stat -c '%d:%i' -- "$e") || exit 3
a=".ingot-removing-$$-$(date +%s%N)"
[ -e "$a" ] || [ -L "$a" ] && exit 7
mv -n -T -- "$e" "$a" 2>/dev/null
[ -e "$a" ] || [ -L "$a" ] || exit 7
back() { mv -n -T -- "$a" "$e"; }
if [ -L "$a" ] || [ ! -d "$a" ] || [ "$(stat -c '%d:%i' -- "$a")" != "$id" ]; then back; exit 5; fi
if [ "$4" = 1 ] && [ -n "$(find "$a" -name '*.lock' -print -quit 2>/dev/null)" ]; then back; exit 10; fi
if [ -n "$(find "$a" -type d \( ! -writable -o ! -executable -o ! -readable \) -print -quit 2>/dev/null)" ] ||
   [ -n "$(find "$a" -mindepth 1 -xdev -print -quit >/dev/null; find "$a" -mindepth 1 ! -xdev -print -quit 2>/dev/null)" ]; then
  back; exit 11
fi
freed=$(du -s -B1 -- "$a" 2>/dev/null | cut -f1)
rm -rf --one-file-system -- "$a" 2>/dev/null || exit 12
[ -e "$a" ] || [ -L "$a" ] && exit 12
printf 'REMOVED %s\n' "${freed:-0}"
)SH";

// $1 root, $2 its expected identity, $3 file or link: unlinks it (never its target; a folder is refused: exit 5).
// Prints "REMOVED <bytes freed>".
const QByteArray removeFileScript = QByteArray("set -f\ntrap '' HUP PIPE\nexport LC_ALL=C\n") + kEnter + R"SH(
enter "$1" "$2" "$3"
e=$n
[ -e "$e" ] || [ -L "$e" ] || exit 3
[ -d "$e" ] && [ ! -L "$e" ] && exit 5
if [ -L "$e" ] || [ "$(stat -c '%h' -- "$e")" != 1 ]; then f=0; else f=$(stat -c '%b' -- "$e"); f=$((f * 512)); fi
rm -f -- "$e" || exit 12
printf 'REMOVED %s\n' "$f"
)SH";

// $1 root, $2 file, $3 bytes, $4 1: from the end, $5 the root's expected identity. A link is not read, nor a file
// reached through one.
const QByteArray readScript = QByteArray("set -f\n") + kEnter + R"SH(
enter "$1" "$5" "$2"
[ -L "$n" ] && exit 6
[ -f "$n" ] || exit 3
if [ "$4" = 1 ]; then tail -c "$3" -- "$n"; else head -c "$3" -- "$n"; fi
)SH";

// $1 root, $2 link, $3 the root's expected identity: what the link says.
const QByteArray linkScript = QByteArray("set -f\n") + kEnter + R"SH(
enter "$1" "$3" "$2"
readlink -- "$n"
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
// "./a/b" (as find -print0 and stat %n give it) -> "a/b", below `prefix` when there is one.
QString withoutDotSlash(QByteArrayView path, const QString &prefix)
{
    const QString rel = nameFromBytes((path.startsWith("./") ? path.sliced(2) : path).toByteArray());
    return prefix.isEmpty() || rel.isEmpty() ? (rel.isEmpty() ? prefix : rel) : prefix + QLatin1Char('/') + rel;
}

QString below(const QString &prefix, QByteArrayView rel)
{
    const QString r = nameFromBytes(rel.toByteArray());
    return prefix.isEmpty() ? r : r.isEmpty() ? prefix : prefix + QLatin1Char('/') + r;
}

// The NUL-separated fields of a listing, one at a time, as views into it: nothing is copied per field (a listing
// has millions of them), and a field longer than any path is refused.
class FieldReader
{
public:
    explicit FieldReader(const QByteArray &out) : m_p(out.constData()), m_end(out.constData() + out.size()) {}
    bool atEnd() const { return m_p >= m_end; }
    qsizetype offset(const QByteArray &out) const { return m_p - out.constData(); }
    // The next field without taking it; false at the end.
    bool peek(QByteArrayView *f) const
    {
        if (atEnd())
            return false;
        const auto *z = static_cast<const char *>(std::memchr(m_p, 0, size_t(m_end - m_p)));
        *f = QByteArrayView(m_p, (z ? z : m_end) - m_p);
        return true;
    }
    bool take(QByteArrayView *f)
    {
        if (!peek(f))
            return false;
        m_p += f->size() + 1;
        return true;
    }
    // n fields into f[0..n-1]; false when the listing ends first or a field is too long.
    bool take(int n, QByteArrayView *f)
    {
        for (int k = 0; k < n; ++k)
            if (!take(&f[k]) || f[k].size() > ShellCacheStore::maxListingField)
                return false;
        return true;
    }

private:
    const char *m_p;
    const char *m_end;
};

// How many records `out` holds, read without keeping anything (so a listing beyond the cap is refused before any of
// it is built); what is not in the expected form is left to the parse to refuse.
qint64 countRecords(const QByteArray &out)
{
    FieldReader reader(out);
    qint64 records = 0;
    QByteArrayView tag, f;
    while (reader.take(&tag)) {
        ++records;
        const int fields = tag == "R" || tag == "L" || tag == "S" ? 2 : tag == "F" ? 8 : tag == "U" ? 1 : 0;
        for (int k = 0; k < fields; ++k)
            reader.take(&f);
        if (tag == "B" && reader.take(&f)) {
            const qint64 n = std::max<qint64>(0, f.toLongLong());
            records += n;
            for (qint64 j = 0; j < n && reader.take(&f); ++j) {}
            for (qint64 j = 0; j < n && reader.peek(&f) && f.startsWith('/'); ++j)
                reader.take(&f);
        }
        if (records > ShellCacheStore::maxListingRecords)
            break;
    }
    return records;
}
// Fills in the links of `t` from the link records (by root-relative path): their targets' metadata, and whether
// they lead outside the root or to a hub blob.
void judgeLinks(ShellCacheStore::Tree *tree, const QHash<QString, QByteArray> &written,
                const QHash<QString, QByteArray> &stats, const QHash<QString, QByteArray> &reals,
                const QHash<QString, qsizetype> &indexOf)
{
    ShellCacheStore::Tree &t = *tree;
    for (auto l = written.cbegin(); l != written.cend(); ++l) {
        const QString &rel = l.key();
        const auto at = indexOf.constFind(rel);
        if (at == indexOf.cend())
            continue;
        // A folder marked unreadable after its entries were placed has none left: its links' indexes lead nowhere.
        ListResult &folder = t.folders[parentOf(rel)];
        if (!folder.ok || *at >= folder.entries.size() || folder.entries.at(*at).type != StoreEntry::Type::Symlink)
            continue;
        StoreEntry &e = folder.entries[*at];
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
}

// One pass over the listing script's records (listScript above) into a Tree. find lists in pre-order, so a folder's
// entries go to the tree in one step when no later record can be in it (closeFrom); the link records are kept by
// root-relative path and judged at the end (judgeLinks).
class ListingParser
{
public:
    ListingParser(const QByteArray &out, const QString &prefix, QString *error)
        : m_out(out), m_reader(out), m_prefix(prefix), m_error(error)
    {
    }

    bool parse(ShellCacheStore::Tree *tree)
    {
        while (!m_reader.atEnd()) {
            if (++m_records > ShellCacheStore::maxListingRecords)
                return tooLarge();
            QByteArrayView tag;
            m_reader.take(&tag);
            if (!record(tag))
                return false;
        }
        closeFrom(0);
        if (m_tree.real.isEmpty() || !m_tree.folders.contains(m_prefix)) {
            *m_error = ShellCacheStoreText::tr("the host's listing has no root record");
            return false;
        }
        judgeLinks(&m_tree, m_written, m_stats, m_reals, m_indexOf);
        *tree = std::move(m_tree);
        return true;
    }

    bool tooLarge()
    {
        *m_error = ShellCacheStoreText::tr("the listing is too large: more than %1 files, folders and links (Ingot reads "
                                           "at most that many from a host)").arg(ShellCacheStore::maxListingRecords);
        return false;
    }

private:
    // The folders an F record may be in, by depth, with what they hold so far.
    struct OpenFolder {
        QString rel;
        QVector<StoreEntry> entries;
        QVector<QPair<QString, qsizetype>> links;  // root-relative path, index in entries
    };

    bool record(QByteArrayView tag)
    {
        if (tag == "R" && m_reader.take(2, m_f)) {
            m_tree.real = m_f[0].toByteArray();
            m_tree.identity = QString::fromLatin1(m_f[1]);
        } else if (tag == "F" && m_reader.take(8, m_f)) {
            return entry();
        } else if (tag == "U" && m_reader.take(1, m_f)) {
            const QString rel = below(m_prefix, m_f[0]);
            if (!rel.isEmpty() && !isSafeRelativePath(rel))
                return leaves(rel);
            ListResult &l = ensureFolder(rel);
            l.ok = false;
            l.entries.clear();
            l.error = ShellCacheStoreText::tr("Cannot read %1: permission denied.").arg(displayName(rel));
        } else if (tag == "L" && m_reader.take(2, m_f)) {
            m_written.insert(below(m_prefix, m_f[0]), m_f[1].toByteArray());
        } else if (tag == "S" && m_reader.take(2, m_f)) {
            m_stats.insert(withoutDotSlash(m_f[0], m_prefix), m_f[1].toByteArray());
        } else if (tag == "B" && m_reader.take(1, m_f)) {
            return batch(m_f[0]);
        } else {
            return malformed();
        }
        return true;
    }

    // An F record (in m_f): a file, folder or link at its depth below the listed folder.
    bool entry()
    {
        // The path from the folders above: m_open[k] is the last folder named at depth k (m_open[0]: the listed one).
        bool ok = false;
        const qsizetype depth = m_f[1].toLongLong(&ok);
        if (!ok || depth < 0 || depth > m_open.size() || (depth == 0) != (m_f[2] == "."))
            return malformed();
        StoreEntry e;
        QString rel = m_prefix;
        if (depth > 0) {
            // A field is followed by its NUL (or the listing's end): read in place.
            e.name = nameFromBytes(m_f[2].data());
            const QString &parentRel = m_open.at(depth - 1).rel;
            if (m_f[2].isEmpty() || m_f[2] == ".." || m_f[2].contains('/'))
                return leaves(parentRel + QLatin1Char('/') + e.name);
            rel = parentRel.isEmpty() ? e.name : parentRel + QLatin1Char('/') + e.name;
        }
        const QByteArrayView type = m_f[0];
        e.type = type == "f" ? StoreEntry::Type::File
            : type == "d"    ? StoreEntry::Type::Dir
            : type == "l"    ? StoreEntry::Type::Symlink
                             : StoreEntry::Type::Other;
        const bool link = e.type == StoreEntry::Type::Symlink;
        e.size = link ? 0 : m_f[3].toLongLong();
        e.allocated = link ? 0 : blocksToBytes(m_f[4]);
        e.mtimeMs = timeMs(m_f[5]);
        e.atimeMs = link ? 0 : timeMs(m_f[6]);
        e.ctimeMs = timeMs(m_f[7]);
        // What may hold the next depth: this entry when it is a folder, nothing deeper otherwise.
        closeFrom(depth);
        if (depth > 0) {
            OpenFolder &parent = m_open.last();
            if (link)  // where the link records find it
                parent.links.append({rel, parent.entries.size()});
            parent.entries.append(e);
        }
        if (e.type == StoreEntry::Type::Dir) {
            e.name.clear();  // a folder's own times, nameless as the local store gives them
            ensureFolder(rel).self = e;
            m_open.append(OpenFolder{rel, {}, {}});
        }
        return true;
    }

    // A B record: n link paths, then the real paths realpath printed for them (fewer: judged by the written targets).
    bool batch(QByteArrayView count)
    {
        bool ok = false;
        const qsizetype n = count.toLongLong(&ok);
        if (!ok || n < 0)
            return malformed();
        if (n > ShellCacheStore::maxListingRecords - m_records)
            return tooLarge();
        QVector<QByteArrayView> names;  // views: a batch is as long as xargs makes it
        for (qsizetype j = 0; j < n; ++j) {
            QByteArrayView name;
            if (!m_reader.take(1, &name))
                return malformed();
            names.append(name);
        }
        m_records += n;
        QVector<QByteArrayView> real;
        QByteArrayView next;
        while (real.size() < n && m_reader.peek(&next) && next.startsWith('/') && m_reader.take(1, &next))
            real.append(next);
        if (real.size() == n) {
            for (qsizetype j = 0; j < n; ++j)
                m_reals.insert(withoutDotSlash(names.at(j), m_prefix), real.at(j).toByteArray());
        }
        return true;
    }

    void closeFrom(qsizetype depth)
    {
        while (m_open.size() > depth) {
            OpenFolder o = std::move(m_open.last());
            m_open.removeLast();
            ListResult &l = m_tree.folders[o.rel];  // made by its F record; a U record since may have marked it unreadable
            if (!l.ok)
                continue;  // an unreadable folder holds nothing, and its links are not looked for
            const qsizetype base = l.entries.size();
            if (base == 0)
                l.entries = std::move(o.entries);
            else
                l.entries.append(o.entries);
            for (const auto &[linkRel, at] : std::as_const(o.links))
                m_indexOf.insert(linkRel, base + at);
        }
    }

    ListResult &ensureFolder(const QString &rel)
    {
        ListResult &l = m_tree.folders[rel];
        l.ok = true;
        return l;
    }

    bool malformed()
    {
        *m_error = ShellCacheStoreText::tr("the host's listing is not in the expected form (byte %1)").arg(m_reader.offset(m_out));
        return false;
    }

    bool leaves(const QString &rel)
    {
        *m_error = ShellCacheStoreText::tr("the listing holds a path that leaves the root: %1").arg(displayName(rel));
        return false;
    }

    const QByteArray &m_out;
    FieldReader m_reader;
    const QString &m_prefix;
    QString *m_error;
    ShellCacheStore::Tree m_tree;
    QByteArrayView m_f[8];
    QVector<OpenFolder> m_open;
    QHash<QString, qsizetype> m_indexOf;  // a link's root-relative path -> its index in its folder
    QHash<QString, QByteArray> m_written, m_stats, m_reals;  // by the link's root-relative path
    qint64 m_records = 0;
};
}  // namespace

bool ShellCacheStore::parseListing(const QByteArray &out, Tree *tree, QString *error, const QString &prefix)
{
    ListingParser parser(out, prefix, error);
    if (countRecords(out) > maxListingRecords)
        return parser.tooLarge();
    return parser.parse(tree);
}

// One small round trip: the root is there, readable, and which folder it is. The tree is listed by list(); what an
// earlier listing said is forgotten (a maintenance run looks at each entry anew).
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
    m_rootId = f.at(1);
    m_identity = QStringLiteral("shell:%1:%2").arg(m_where, QString::fromLatin1(m_rootId));
    m_listed = false;
    m_tree = Tree();
    return true;
}

QByteArray ShellCacheStore::expectedRootId() const
{
    QMutexLocker lock(&m_mutex);
    return m_rootId;
}

// Lists `rel` and everything below it on the host now ("" = the whole tree).
ListResult ShellCacheStore::listNow(const QString &rel, Tree *tree)
{
    ListResult r;
    const QString shown = displayName(fullPath(rel));
    const ShellResult run = m_shell->run(listScript, {rootBytes(), expectedRootId(), nameToBytes(rel)}, {},
                                         maxListingBytes, listTimeoutMs);
    if (!run.ran()) {
        r.error = ShellCacheStoreText::tr("Cannot list %1: %2").arg(shown, run.error);
        return r;
    }
    switch (run.exitCode) {
    case 0: break;
    case 3:
        r.vanished = true;
        r.error = rel.isEmpty() ? ShellCacheStoreText::tr("The cache folder %1 does not exist.").arg(shown)
                                : ShellCacheStoreText::tr("Cannot read %1: no such folder.").arg(shown);
        return r;
    case 5:
        r.vanished = true;  // a link where a folder was: there is no such folder to list
        r.error = ShellCacheStoreText::tr("Cannot read %1: not a folder (a link is never followed).").arg(shown);
        return r;
    case 13:
        r.error = ShellCacheStoreText::tr("%1 is no longer the folder that was opened (it was replaced, or a link on its "
                                          "path now points elsewhere).").arg(displayName(displayRoot()));
        return r;
    default:
        r.error = ShellCacheStoreText::tr("Cannot open the cache folder %1: %2")
                      .arg(shown, run.exitCode == 4 ? ShellCacheStoreText::tr("not a folder, or not readable.")
                                                    : displayText(QString::fromUtf8(run.err.trimmed().left(500))));
        return r;
    }
    QString error;
    if (!parseListing(run.out, tree, &error, rel)) {
        r.error = ShellCacheStoreText::tr("Cannot list %1: %2").arg(shown, error);
        return r;
    }
    return tree->folders.value(rel);
}

ListResult ShellCacheStore::list(const QString &rel)
{
    if (!rel.isEmpty() && !isSafeRelativePath(rel)) {
        ListResult r;
        r.error = ShellCacheStoreText::tr("Refused to list \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return r;
    }
    if (rel.isEmpty()) {
        // A new scan: the whole tree in one round trip; the folders below are answered from it.
        Tree tree;
        const ListResult r = listNow(QString(), &tree);
        if (!r.ok)
            return r;
        QMutexLocker lock(&m_mutex);
        m_tree = std::move(tree);
        m_identity = QStringLiteral("shell:%1:%2").arg(m_where, m_tree.identity);
        m_rootId = m_tree.identity.toLatin1();
        m_listed = true;
        return r;
    }
    {
        QMutexLocker lock(&m_mutex);
        if (m_listed) {
            const auto it = m_tree.folders.constFind(rel);
            if (it != m_tree.folders.cend())
                return *it;
            ListResult r;
            r.vanished = true;
            r.error = ShellCacheStoreText::tr("Cannot read %1: no such folder.").arg(displayName(fullPath(rel)));
            return r;
        }
    }
    // No listing since open() (the details pane, a maintenance re-check right before a removal): this folder as it
    // is on the host now.
    Tree tree;
    return listNow(rel, &tree);
}

bool ShellCacheStore::readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = ShellCacheStoreText::tr("Refused to read \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return false;
    }
    const ShellResult run = m_shell->run(readScript,
                                         {rootBytes(), nameToBytes(rel), QByteArray::number(std::max<qint64>(0, maxBytes)),
                                          fromEnd ? "1" : "0", expectedRootId()},
                                         {}, maxBytes, smallTimeoutMs);
    if (!run.ran() || run.exitCode != 0) {
        *error = ShellCacheStoreText::tr("Cannot read %1: %2")
                     .arg(displayName(fullPath(rel)),
                          !run.ran() ? run.error
                          : run.exitCode == 6 || run.exitCode == 5 ? ShellCacheStoreText::tr("a symbolic link")
                                                                   : ShellCacheStoreText::tr("no such file"));
        return false;
    }
    *out = run.out;
    return true;
}

QString ShellCacheStore::linkTarget(const QString &rel)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel))
        return {};
    const ShellResult run = m_shell->run(linkScript, {rootBytes(), nameToBytes(rel), expectedRootId()}, {}, 1 << 16, smallTimeoutMs);
    if (!run.ran() || run.exitCode != 0)
        return {};
    QByteArray t = run.out;
    if (t.endsWith('\n'))
        t.chop(1);
    return nameFromBytes(t);
}

namespace {
// The bytes freed that a removal script printed ("REMOVED <n>"), or -1 when it did not say it removed anything.
qint64 removedBytes(const ShellResult &run)
{
    if (!run.ran() || run.exitCode != 0 || !run.out.startsWith("REMOVED "))
        return -1;
    bool ok = false;
    const qint64 n = run.out.mid(8).trimmed().toLongLong(&ok);
    return ok && n >= 0 ? n : 0;
}
}  // namespace

// The identity the scripts compare the root with: open()'s, asked for now when the store was never opened.
bool ShellCacheStore::ensureOpen(QString *error)
{
    if (!expectedRootId().isEmpty())
        return true;
    return open(error);
}

bool ShellCacheStore::remove(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = ShellCacheStoreText::tr("Refused to remove \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return false;
    }
    if (!ensureOpen(error))
        return false;
    const ShellResult run = m_shell->run(removeFileScript, {rootBytes(), expectedRootId(), nameToBytes(rel)}, {}, 64,
                                         smallTimeoutMs);
    if (run.ran() && run.exitCode == 5) {
        // A folder (never a link to one: the script said 5 only for a real folder entered without a link).
        return removeFolder(rel, false, freed, error) == RemoveResult::Removed;
    }
    const qint64 bytes = removedBytes(run);
    if (bytes < 0) {
        *error = ShellCacheStoreText::tr("Cannot remove %1: %2").arg(displayName(fullPath(rel)),
                                                !run.ran() ? run.error
                                                : run.exitCode == 3 ? ShellCacheStoreText::tr("it no longer exists.")
                                                : run.exitCode == 13 ? ShellCacheStoreText::tr("the cache folder was replaced since it was opened.")
                                                                     : ShellCacheStoreText::tr("the host refused (permissions?)."));
        return false;
    }
    forgetListing();
    *freed += bytes;
    return true;
}

void ShellCacheStore::forgetListing()
{
    QMutexLocker lock(&m_mutex);
    m_listed = false;
}

CacheStore::RemoveResult ShellCacheStore::removeEntry(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = ShellCacheStoreText::tr("Refused to remove \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return RemoveResult::Failed;
    }
    if (!ensureOpen(error))
        return RemoveResult::Failed;
    return removeFolder(rel, true, freed, error);
}

CacheStore::RemoveResult ShellCacheStore::removeFolder(const QString &rel, bool refuseLocked, qint64 *freed,
                                                       QString *error)
{
    const QString shown = displayName(fullPath(rel));
    const ShellResult run = m_shell->run(removeFolderScript,
                                         {rootBytes(), expectedRootId(), nameToBytes(rel), refuseLocked ? "1" : "0"},
                                         {}, 64, listTimeoutMs);
    if (!run.ran()) {
        *error = ShellCacheStoreText::tr("Cannot remove %1: %2").arg(shown, run.error);
        return RemoveResult::Failed;
    }
    // Removed only when the script said so, after the folder was gone.
    if (const qint64 bytes = removedBytes(run); bytes >= 0) {
        forgetListing();
        *freed += bytes;
        return RemoveResult::Removed;
    }
    switch (run.exitCode) {
    case 10: *error = ShellCacheStoreText::tr("%1 is locked: a compile started on it. Left in place.").arg(shown); return RemoveResult::Locked;
    case 3: *error = ShellCacheStoreText::tr("Cannot remove %1: it no longer exists.").arg(shown); break;
    case 4:
    case 5: *error = ShellCacheStoreText::tr("Refused to remove %1: it or a folder on its path is not a folder (a link is never followed).").arg(shown); break;
    case 7: *error = ShellCacheStoreText::tr("Cannot remove %1: it could not be renamed aside.").arg(shown); break;
    case 11: *error = ShellCacheStoreText::tr("Cannot remove %1: not all of it can be removed (permissions or a mount); left whole.").arg(shown); break;
    case 13: *error = ShellCacheStoreText::tr("Refused to remove %1: the cache folder was replaced since it was opened (or a link on its path now points elsewhere).").arg(shown); break;
    case 0: *error = ShellCacheStoreText::tr("Cannot remove %1: the host did not confirm the removal.").arg(shown); break;
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
