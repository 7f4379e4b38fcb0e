// The POSIX sh scripts ShellJobRunner runs on a host, one per operation (what each prints and its exit codes
// beside it). Nothing is installed there: each is sent whole with its arguments.
#include "services/jobs/shelljobscripts.h"

namespace ingot::jobscripts {

// Every script starts with this: no globbing of unquoted words, byte-order sorting, and dec() to turn a printf %b
// argument back into its bytes (the X keeps trailing newlines).
const char *const kPrelude = "set -f\nexport LC_ALL=C\ndec() { printf '%bX' \"$1\"; }\n";

// Prints NUL-separated: home, data home, cache home, $SSH_CONNECTION, then for NEURON_CC_FLAGS and
// NEURON_COMPILE_CACHE_URL "set" (or "") and the value: what a job started through this shell inherits. Exit 3: no
// home.
const char *const openScript = R"SH(h=${HOME:-}
[ -n "$h" ] || h=$(cd ~ 2>/dev/null && pwd -P)
[ -n "$h" ] || exit 3
d=${XDG_DATA_HOME:-}; case $d in /*) ;; *) d=$h/.local/share;; esac
c=${XDG_CACHE_HOME:-}; case $c in /*) ;; *) c=$h/.cache;; esac
printf '%s\0%s\0%s\0%s\0' "$h" "$d" "$c" "${SSH_CONNECTION:-}"
printf '%s\0%s\0%s\0%s\0' "${NEURON_CC_FLAGS+set}" "${NEURON_CC_FLAGS-}" "${NEURON_COMPILE_CACHE_URL+set}" \
  "${NEURON_COMPILE_CACHE_URL-}"
)SH";

// $1 folder: created with its parents, private (umask 077, the folder itself 0700). A folder that is already there
// keeps its mode (a sticky /tmp, a multi-node job's shared output folder).
const char *const makeFolderScript = R"SH(f=$(dec "$1"); f=${f%X}
umask 077
[ -d "$f" ] && exit 0
mkdir -p -- "$f" 2>/dev/null
[ -d "$f" ] || exit 3
chmod 700 -- "$f" 2>/dev/null
exit 0
)SH";

// $1 path, $2 1: executable (0700, else 0600), $3 the byte count; the data on stdin. Written to a mktemp file
// beside it, its size checked (a dropped connection leaves a short file), then renamed over the path (a link there
// is replaced, never written through). Exit 8: the folder is itself a link (refused).
const char *const writeScript = R"SH(p=$(dec "$1"); p=${p%X}
case $p in /*/*) d=${p%/*} ;; /*) d=/ ;; *) exit 2 ;; esac
[ -L "$d" ] && exit 8
[ -d "$d" ] || exit 3
[ -d "$p" ] && [ ! -L "$p" ] && exit 6
t=$(mktemp "$d/.ingot-write-XXXXXX" 2>/dev/null) || exit 4
cat >"$t" 2>/dev/null || { rm -f -- "$t"; exit 4; }
s=$(wc -c <"$t")
[ "$((s))" -eq "$3" ] || { rm -f -- "$t"; exit 5; }
if [ "$2" = 1 ]; then chmod 700 -- "$t"; else chmod 600 -- "$t"; fi
mv -f -T -- "$t" "$p" 2>/dev/null || { rm -f -- "$t"; exit 7; }
exit 0
)SH";

// $1 script, $2 folder: `sh script` in a session of its own (setsid; nohup where there is none), stdin, stdout and
// stderr on /dev/null, so it outlives this shell and the connection. Not waited for.
const char *const startScript = R"SH(s=$(dec "$1"); s=${s%X}
f=$(dec "$2"); f=${f%X}
cd -- "$f" 2>/dev/null || exit 3
[ -f "$s" ] || exit 4
if command -v setsid >/dev/null 2>&1; then
  setsid sh "$s" </dev/null >/dev/null 2>&1 &
else
  nohup sh "$s" </dev/null >/dev/null 2>&1 &
fi
exit 0
)SH";

// $1 path, $2 offset, $3 most bytes. Prints the size, a space, the modification time (seconds since the epoch), a
// newline, then the bytes. Exit 3: missing, 6: a link (never read), 7: not a regular file, 8: not readable.
const char *const readScript = R"SH(p=$(dec "$1"); p=${p%X}
[ -L "$p" ] && exit 6
[ -e "$p" ] || exit 3
[ -f "$p" ] || exit 7
[ -r "$p" ] || exit 8
m=$(stat -c '%s %Y' -- "$p" 2>/dev/null) || exit 3
s=${m%% *}
printf '%s\n' "$m"
[ "$2" -lt "$s" ] && [ "$3" -gt 0 ] || exit 0
n=$((s - $2)); [ "$n" -gt "$3" ] && n=$3
tail -c +$(($2 + 1)) -- "$p" 2>/dev/null | head -c "$n"
exit 0
)SH";

// $1 folder (a link there is followed, as the local runner does), $2 find's -maxdepth. Files (not folders, not links,
// never descending into a link), relative, NUL-separated. Exit 3: not a folder.
const char *const listScript = R"SH(f=$(dec "$1"); f=${f%X}
cd -- "$f" 2>/dev/null || exit 3
find . -mindepth 1 -maxdepth "$2" ! -type d ! -type l -printf '%P\0' 2>/dev/null
exit 0
)SH";

// $1 root, $2 parent, $3 name. The parent's real path must be the root's or under it; the entry must be a folder
// (a link is refused, never followed); it is renamed aside in one step, then removed without crossing mounts.
// Exit 2 bad name, 3 gone, 5 not a folder (or a link), 7 not renamed, 8 outside the root, 12 removal failed part-way.
const char *const removeScript = R"SH(r=$(dec "$1"); r=${r%X}
p=$(dec "$2"); p=${p%X}
n=$(dec "$3"); n=${n%X}
case $n in ''|.|..|*/*) exit 2 ;; esac
rr=$(cd -P -- "$r" 2>/dev/null && pwd -P && printf X) || exit 3
rr=${rr%?X}
cd -P -- "$p" 2>/dev/null || exit 3
pp=$(pwd -P; printf X); pp=${pp%?X}
case $pp/ in "${rr%/}"/*) ;; *) exit 8 ;; esac
[ -e "$n" ] || [ -L "$n" ] || exit 3
[ -L "$n" ] && exit 5
[ -d "$n" ] || exit 5
a=".ingot-removing-$$-$(date +%s%N)"
mv -n -T -- "$n" "$a" 2>/dev/null
[ -d "$a" ] && [ ! -L "$a" ] && [ ! -e "$n" ] && [ ! -L "$n" ] || exit 7
rm -rf --one-file-system -- "$a" 2>/dev/null || exit 12
exit 0
)SH";

const char *const treeSizeScript = R"SH(f=$(dec "$1"); f=${f%X}
cd -- "$f" 2>/dev/null || { echo 0; exit 0; }
find . -type f -printf '%s\n' 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'
)SH";

// Letters for what is at $1: l link, e exists, d folder, f file, x executable file; then a dot.
const char *const pathInfoScript = R"SH(p=$(dec "$1"); p=${p%X}
r=
[ -L "$p" ] && r=${r}l
[ -e "$p" ] && r=${r}e
[ -d "$p" ] && r=${r}d
[ -f "$p" ] && r=${r}f
[ -f "$p" ] && [ -x "$p" ] && r=${r}x
printf '%s.' "$r"
)SH";

// $1 pid, $2 boot id at launch. Prints /proc/<pid>/stat. Exit 9: no /proc, 20: another boot, 21: no such process.
const char *const procScript = R"SH([ -r /proc/self/stat ] || exit 9
b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
[ -n "$2" ] && [ "$2" != "$b" ] && exit 20
read -r l </proc/"$1"/stat 2>/dev/null || exit 21
printf '%s\n' "$l"
)SH";

// $1 pid, $2 start time, $3 boot id, $4 signal number. Signals only when the process with that pid started at that
// time in this boot and is not a zombie. Exit 20: another boot, 21: gone or another process, 22: kill refused.
const char *const signalScript = R"SH(pid=$1 start=$2 boot=$3 sig=$4
[ -r /proc/self/stat ] || exit 9
b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
[ -n "$boot" ] && [ "$boot" != "$b" ] && exit 20
read -r l </proc/"$pid"/stat 2>/dev/null || exit 21
r=${l##*) }
set -- $r
[ "$#" -ge 20 ] || exit 21
eval "t=\${20}"
[ "$t" = "$start" ] || exit 21
case $1 in Z|X) exit 21 ;; esac
kill -"$sig" "$pid" 2>/dev/null || exit 22
exit 0
)SH";

// $1 process group, $2 job id, $3 signal. Signals the group's processes whose environment holds INGOT_JOB_ID=<id>
// (a reused group id is never the job's); prints how many.
const char *const groupScript = R"SH(pg=$1 id=$2 sig=$3 n=0
[ -r /proc/self/stat ] || exit 9
set +f
for d in /proc/[0-9]*; do
  read -r l <"$d/stat" 2>/dev/null || continue
  r=${l##*) }
  set -f; set -- $r; set +f
  [ "$#" -ge 20 ] && [ "$3" = "$pg" ] || continue
  case $1 in Z|X) continue ;; esac
  grep -qzx "INGOT_JOB_ID=$id" "$d/environ" 2>/dev/null || continue
  kill -"$sig" "${d#/proc/}" 2>/dev/null && n=$((n + 1))
done
echo "$n"
)SH";

// $1 parent pid, $2 its start time, $3 boot id, $4 job id, $5 signal. Signals the parent's children whose
// environment holds INGOT_JOB_ID=<id>, never the parent, only while the parent is that very process; prints how many.
// Exit 20: another boot, 21: the parent is gone or another process.
const char *const childrenScript = R"SH(pp=$1 start=$2 boot=$3 id=$4 sig=$5 n=0
[ -r /proc/self/stat ] || exit 9
b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
[ -n "$boot" ] && [ "$boot" != "$b" ] && exit 20
read -r l </proc/"$pp"/stat 2>/dev/null || exit 21
r=${l##*) }
set -f; set -- $r
[ "$#" -ge 20 ] || exit 21
eval "t=\${20}"
[ "$t" = "$start" ] || exit 21
set +f
for d in /proc/[0-9]*; do
  read -r l <"$d/stat" 2>/dev/null || continue
  r=${l##*) }
  set -f; set -- $r; set +f
  [ "$#" -ge 20 ] && [ "$2" = "$pp" ] || continue
  case $1 in Z|X) continue ;; esac
  grep -qzx "INGOT_JOB_ID=$id" "$d/environ" 2>/dev/null || continue
  kill -"$sig" "${d#/proc/}" 2>/dev/null && n=$((n + 1))
done
echo "$n"
)SH";

// The local addresses of every TCP socket (ADDR:PORT in hex).
const char *const portsScript = R"SH([ -r /proc/net/tcp ] || exit 9
awk 'FNR > 1 { print $2 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
exit 0
)SH";

const char *const bootScript = "cat /proc/sys/kernel/random/boot_id\n";

// $1 the probe (Python code). The candidates, each probed at once (in parallel, at most 60 s); prints
// path NUL json NUL for each, in the candidates' order.
const char *const pythonsScript = R"SH(probe=$(dec "$1"); probe=${probe%X}
c=
add() {
  [ -n "$1" ] && [ -f "$1" ] && [ -x "$1" ] || return 0
  case "
$c
" in *"
$1
"*) return 0 ;; esac
  c="$c
$1"
}
[ -n "${VIRTUAL_ENV:-}" ] && add "$VIRTUAL_ENV/bin/python3"
set +f
for v in /opt/aws_neuronx_venv_*; do
  [ -d "$v" ] || continue
  if [ -x "$v/bin/python3" ]; then add "$v/bin/python3"; else add "$v/bin/python"; fi
done
set -f
add "$(command -v python3 2>/dev/null)"
add /usr/bin/python3
add /opt/conda/bin/python3
t=$(mktemp -d 2>/dev/null) || exit 4
to=
command -v timeout >/dev/null 2>&1 && to="timeout 60"
printf '%s\n' "$c" | {
  i=0
  while IFS= read -r p; do
    [ -n "$p" ] || continue
    i=$((i + 1))
    printf '%s' "$p" >"$t/$i.path"
    $to "$p" -c "$probe" </dev/null >"$t/$i.out" 2>/dev/null &
  done
  wait
}
i=1
while [ -f "$t/$i.path" ]; do
  cat "$t/$i.path"; printf '\0'; head -c 65536 "$t/$i.out" 2>/dev/null; printf '\0'
  i=$((i + 1))
done
rm -rf -- "$t"
)SH";

// $1 the backend folder of this version (<cache>/backend/<hash>), $2 hash. Exit 0 when it is there, complete and
// unchanged (the digest of its files' sha256sum lines, byte code caches left out), 10 when not.
const char *const backendSumFunction = R"SH(sum() {
  ( cd -- "$1" 2>/dev/null && find . -type f ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 | sort -z |
    xargs -0 -r sha256sum | sha256sum | cut -d' ' -f1 )
}
)SH";

const char *const backendCheckScript = R"SH(d=$(dec "$1"); d=${d%X}
[ -d "$d" ] && [ ! -L "$d" ] && [ "$(sum "$d")" = "$2" ] && exit 0
exit 10
)SH";

// $1 the backend folder of this version, $2 hash; a tar of the backend on stdin. Unpacked into a mktemp staging
// folder beside it, checked, then renamed into place (an incomplete or changed copy is moved aside and removed
// first). Another upload that won the race is fine when its copy checks. Exit 3 no folder, 4 no staging folder,
// 5 tar failed, 6 the unpacked files differ, 7 not renamed.
const char *const backendDeployScript = R"SH(d=$(dec "$1"); d=${d%X}
dst=${d%/*}
umask 077
[ -d "$dst" ] || mkdir -p -- "$dst" 2>/dev/null
[ -d "$dst" ] || exit 3
if [ -d "$d" ] && [ ! -L "$d" ] && [ "$(sum "$d")" = "$2" ]; then cat >/dev/null; exit 0; fi
s=$(mktemp -d "$dst/.staging-XXXXXX" 2>/dev/null) || exit 4
tar -x -f - -C "$s" 2>/dev/null || { rm -rf -- "$s"; exit 5; }
[ "$(sum "$s")" = "$2" ] || { rm -rf -- "$s"; exit 6; }
chmod 700 -- "$s"
if [ -e "$d" ] || [ -L "$d" ]; then
  o="$dst/.old-$$-$(date +%s%N)"
  mv -T -- "$d" "$o" 2>/dev/null && rm -rf -- "$o"
fi
if ! mv -T -- "$s" "$d" 2>/dev/null; then
  rm -rf -- "$s"
  [ "$(sum "$d")" = "$2" ] && exit 0
  exit 7
fi
exit 0
)SH";

const char *const ingotCliScript = R"SH(p=$(command -v ingot-cli 2>/dev/null)
if [ -z "$p" ]; then
  for q in "${HOME:-/nonexistent}/.local/bin/ingot-cli" /usr/local/bin/ingot-cli /usr/bin/ingot-cli /opt/ingot/bin/ingot-cli; do
    [ -x "$q" ] && { p=$q; break; }
  done
fi
[ -n "$p" ] || exit 10
printf '%s' "$p"
)SH";

// Ingot's CLI run in the background, so that a stop here can end it there (ending ssh would leave it running): $1 a
// folder to make for it (private; it must not exist), $2 the program, then its arguments. A waiter started in a
// session of its own runs it with its output in out, writes its pid (pid), then its exit status (rc), each whole.
// Exit 3: the folder could not be made.
const char *const ingotCliStartScript = R"SH(d=$(dec "$1"); d=${d%X}; p=$(dec "$2"); p=${p%X}; shift 2
n=$#; i=0
while [ "$i" -lt "$n" ]; do v=$(dec "$1"); shift; set -- "$@" "${v%X}"; i=$((i + 1)); done
umask 077
mkdir -p -- "${d%/*}" && mkdir -- "$d" 2>/dev/null && cd -- "$d" || exit 3
w='"$0" "$@" </dev/null >out 2>&1 & c=$!; echo "$c" >pid.t && mv pid.t pid; wait "$c"; echo "$?" >rc.t && mv rc.t rc'
if command -v setsid >/dev/null 2>&1; then
  setsid sh -c "$w" "$p" "$@" </dev/null >/dev/null 2>&1 &
else
  nohup sh -c "$w" "$p" "$@" </dev/null >/dev/null 2>&1 &
fi
exit 0
)SH";

// $1 the folder of ingotCliStartScript. Prints its exit status once it ended; exit 5: still running, 3: no such folder.
const char *const ingotCliWaitScript = R"SH(d=$(dec "$1"); d=${d%X}
cd -- "$d" 2>/dev/null || exit 3
[ -f rc ] || exit 5
cat rc
)SH";

// $1 the folder of ingotCliStartScript: the CLI is asked to stop (SIGTERM: it removes what it was writing, as on
// Ctrl-C) and waited for up to a minute, then killed. Its pid is signalled only while the waiter has not written rc
// (it writes rc as soon as the CLI ended, so the pid is still the CLI's). Prints its exit status when it is known
// (0: it had ended by itself first).
const char *const ingotCliStopScript = R"SH(d=$(dec "$1"); d=${d%X}
cd -- "$d" 2>/dev/null || exit 0
i=0
while [ ! -f pid ] && [ ! -f rc ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -f pid ] && [ ! -f rc ] && kill -TERM "$(cat pid)" 2>/dev/null
i=0
while [ -f pid ] && [ ! -f rc ] && [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -f pid ] && [ ! -f rc ] && kill -KILL "$(cat pid)" 2>/dev/null
i=0
while [ -f pid ] && [ ! -f rc ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -f rc ] && cat rc
exit 0
)SH";

// $1 the folder of ingotCliStartScript, removed with what it holds.
const char *const ingotCliRemoveScript = R"SH(d=$(dec "$1"); d=${d%X}
rm -f -- "$d/out" "$d/pid" "$d/pid.t" "$d/rc" "$d/rc.t" && rmdir -- "$d" 2>/dev/null
exit 0
)SH";

}  // namespace ingot::jobscripts
