#include "services/transfer/hostcopyscripts.h"

namespace ingot::hostcopy {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// Defines hashfiles [-L]: the sha256 of every file below ".", as `sha256sum -z` prints them ("<hex>  ./name\0"; the
// parser takes openssl's "<hex> *./name" too). Where the host has OpenSSL, one `openssl dgst -sha256 -r` hashes the
// files whose names hold no newline or backslash (it escapes neither; they are turned into NUL-ended lines): coreutils'
// sha256sum takes 3 s a GiB where OpenSSL (SHA extensions, AVX2) takes 0.6 s, and a copy to a host waits for this
// pass after its last byte. Only when a file is over 1 MiB: below that, openssl's start costs more than it saves. An
// openssl that fails prints a line the parser refuses.
#define INGOT_HASHFILES_SH \
    "hashfiles() {\n" \
    "  if [ -n \"$(find $1 . -type f -size +1024k -print -quit)\" ] && command -v openssl >/dev/null 2>&1; then\n" \
    "    nl='\n" \
    "'\n" \
    "    find $1 . -type f ! -name \"*$nl*\" ! -name '*\\\\*' -print0 |\n" \
    "      { xargs -0 -r openssl dgst -sha256 -r || echo failed; } | tr '\\n' '\\0'\n" \
    "    find $1 . -type f \\( -name \"*$nl*\" -o -name '*\\\\*' \\) -print0 | xargs -0 -r sha256sum -z --\n" \
    "  else\n" \
    "    find $1 . -type f -print0 | xargs -0 -r sha256sum -z --\n" \
    "  fi\n" \
    "}\n"

}  // namespace

const char *const hashFilesFunction = INGOT_HASHFILES_SH;

// $1 root, $2 compiler-version folder, $3 module, $4 the archive's exact byte count (stdin: the archive, then the
// verdict line). Extracts into a fresh staging folder beside the entry, held with flock, prints every file's sha256
// (hashfiles: NUL-ended, names unescaped; the disk writes the files meanwhile) and "END", waits for "commit", then
// renames the staging onto the entry with mv -n -T: renameat2 RENAME_NOREPLACE where coreutils uses it (9.1 does);
// older ones check first, and the entry is checked right before too, which leaves only a window of microseconds. The
// staging still being there after mv means it was refused. Any failure or a dropped connection removes the staging. A
// staging a killed copy left behind is removed first, unless someone holds it (exit 12). A holder gets a few seconds to
// let go: the host's side of a copy stopped a moment ago ends (and removes its staging) only once its input closes,
// which a retry right after the stop can reach first.
const char *const receiveScript = INGOT_HASHFILES_SH R"SH(set -f
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
s=
trap '[ -n "$s" ] && rm -rf --one-file-system -- "$s"' EXIT
trap 'exit 1' HUP INT TERM PIPE
s=$(mktemp -d "$v/.ingot-incoming-$m.XXXXXX" 2>/dev/null) || exit 24
if [ -n "$lk" ]; then exec 8<"$s"; flock -n 8 || exit 12; fi
# The archive's bytes and no more (the verdict line follows them): GNU dd in 256 KiB reads where it is there, else
# head (8 KiB a read); tar reads 128 KiB records (the last one short: it takes that from a pipe).
if dd if=/dev/null count=0 iflag=count_bytes,fullblock status=none 2>/dev/null; then
  bound() { dd bs=256k count="$n" iflag=count_bytes,fullblock status=none; }
else
  bound() { head -c "$n"; }
fi
bound 8<&- | tar -x -b 256 -f - -C "$s" --no-same-owner --no-overwrite-dir >&2 8<&- || exit 23
[ -z "$(find "$s" -mindepth 1 ! -type f ! -type d -print -quit)" ] || exit 23
(cd -P -- "$s" && find . -type f -exec sync -- {} + 2>/dev/null) 8<&- &
sp=$!
(cd -P -- "$s" && hashfiles) 8<&- || exit 23
printf 'END\0'
read -r verdict || exit 22
[ "$verdict" = commit ] || exit 22
wait "$sp"
chmod "$(printf '%o' $((0777 & ~$(umask))))" "$s"
if [ -e "$e" ] || [ -L "$e" ]; then exit 20; fi
mv -n -T -- "$s" "$e" 2>/dev/null
[ -e "$s" ] && exit 20
sync -- "$v" 2>/dev/null
printf 'DONE\0'
)SH";

// $1 root, $2 compiler-version folder, $3 module. Prints a GNU tar of the entry (links followed, as a hub-blob link's
// content is what a cache needs; push's rules: only links that lead inside the cache root or to a Hugging Face hub
// blob, else exit 26 naming them, broken ones too; checked before and again after sending), waits for "go" (this side
// has every byte), then the sha256 of every file. The sums are computed while the archive is sent, into a temporary
// file, by a second reader of the same files (a host has cores to spare; after sending, the hash pass was a second the
// copy waited for). A file that changed from before tar to "go" (its size, times or inode, from find before and after)
// ends the copy with exit 27, so whatever is sent was read from one unchanging file. The archive is written in 64 KiB
// records (the last one padded with zeros, which this side skips): with -b 1 tar made a write of 512 bytes per block,
// and the host's tar was the busiest process of a copy.
const char *const sendScript = INGOT_HASHFILES_SH R"SH(set -f
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
snap() { find -L "$e" -type f -printf '%s %T@ %C@ %i %p\n'; }
s1=$(snap) || exit 23
hf=$(mktemp "${TMPDIR:-/tmp}/.ingot-sums.XXXXXX") || exit 23
hp=
trap '[ -n "$hp" ] && kill "$hp" 2>/dev/null; rm -f -- "$hf"' EXIT
(cd -- "$e" && hashfiles -L >"$hf") </dev/null &
hp=$!
tar -c -f - -b 128 -h --hard-dereference --format=gnu -C "$e" . || exit 23
read -r go || exit 22
[ "$go" = go ] || exit 22
links
wait "$hp" || exit 23
hp=
[ "$(snap)" = "$s1" ] || exit 27
cat -- "$hf" || exit 23
)SH";

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

}  // namespace ingot::hostcopy
