#!/bin/sh
# Makes a program's man page from its --help and --version with help2man, gzipped (gzip -9n: no name or time
# stamp inside).
#   makeman.sh HELP2MAN PROGRAM SUMMARY OUT.1.gz
# For ingot-cli the page gets a COMMANDS section: the help of every group and of every command, so that `man
# ingot-cli` tells what `ingot-cli GROUP COMMAND --help` would. The GUI's help needs no display (offscreen).
set -eu
help2man=$1 program=$2 summary=$3 out=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 LANGUAGE=
# The tool's own settings and data stay out of the user's home while it only prints help.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache"

# Text as it is printed, in a no-fill block: backslashes, dashes and lines starting with a control character
# escaped for roff.
verbatim() {
    printf '.nf\n'
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
    printf '.fi\n'
}

include=
if [ "$(basename "$program")" = ingot-cli ]; then
    include="$work/commands.h2m"
    printf '[COMMANDS]\n' > "$include"
    # The groups and commands of their own: the first word of each line under "Groups:" in the usage.
    "$program" --help | sed -n '/^Groups:/,/^$/p' | sed '1d;/^$/d' | awk '{print $1}' > "$work/groups"
    [ -s "$work/groups" ] || { echo "makeman.sh: no groups in \`$program --help\`" >&2; exit 1; }
    while read -r group; do
        printf '.SS "ingot\\-cli %s"\n' "$(printf '%s' "$group" | sed 's/-/\\-/g')" >> "$include"
        "$program" "$group" --help | verbatim >> "$include"
        # A group's commands: the first word of each line under "Commands:" in its usage.
        "$program" "$group" --help | sed -n '/^Commands:/,/^$/p' | sed '1d;/^$/d' | awk '{print $1}' |
        while read -r command; do
            printf '.TP\n.B ingot\\-cli %s %s\n' "$group" "$(printf '%s' "$command" | sed 's/-/\\-/g')" >> "$include"
            "$program" "$group" "$command" --help | verbatim >> "$include"
        done
    done < "$work/groups"
fi

"$help2man" --no-info --name="$summary" ${include:+--include="$include"} --output="$work/page.1" "$program"
gzip -9n -c "$work/page.1" > "$work/page.1.gz"
mkdir -p "$(dirname "$out")"
mv -f "$work/page.1.gz" "$out"
