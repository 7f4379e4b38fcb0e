#!/bin/bash
# The Debian package and the desktop integration, checked with Debian's own tools.
#   packaging.sh build   BUILD_DIR DEB_DIR   cpack -G DEB into DEB_DIR (the fixture of the tests below)
#   packaging.sh lint    DEB_DIR             lintian: no error and no warning
#   packaging.sh desktop SOURCE_DIR          desktop-file-validate on the desktop entry
#   packaging.sh appstream SOURCE_DIR        appstreamcli validate --no-net on the AppStream metainfo
#   packaging.sh install DEB_DIR VERSION     the package extracted into a scratch root: ingot-cli, ingot, the man
#                                            pages, the backend and ingot-askpass where the installed app finds them
# A check whose tool is not installed exits 77 (ctest: skipped) and says which package brings it
# (packaging/install-deps.sh --test installs them all).
set -euo pipefail

skip() { echo "SKIP: $1 is not installed (apt install $2, or packaging/install-deps.sh --test)"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1" "$2"; }

# The one package cpack made in DEB_DIR.
the_deb() {
    local debs=("$1"/ingot_*.deb)
    [[ -f ${debs[0]} && ${#debs[@]} -eq 1 ]] || fail "expected one ingot_*.deb in $1, found: ${debs[*]}"
    echo "${debs[0]}"
}

case "$1" in
build)
    build=$2 debs=$(realpath -m "$3")
    need dpkg-shlibdeps dpkg-dev
    rm -rf "$debs"
    mkdir -p "$debs"
    (cd "$build" && cpack -G DEB -B "$debs")
    deb=$(the_deb "$debs")
    dpkg-deb --info "$deb"
    ;;

lint)
    need lintian lintian
    need help2man help2man  # without it the build makes no man pages, and the package is not the one to check
    deb=$(the_deb "$2")
    # Only tags that cannot apply to a package built by cpack from the upstream tree, each with why:
    suppress=(
        # A first changelog entry of a Debian archive upload closes the ITP bug; this package is not uploaded to the
        # archive, so there is no ITP bug to close.
        initial-upload-closes-no-bugs
    )
    out=$(lintian --fail-on error,warning --suppress-tags "$(IFS=,; echo "${suppress[*]}")" --tag-display-limit 0 \
                  "$deb" 2>&1) && rc=0 || rc=$?
    [[ -n $out ]] && echo "$out"
    ((rc == 0)) || fail "lintian reports errors or warnings for $deb (exit $rc)"
    echo "lintian: no error or warning for $(basename "$deb")"
    ;;

desktop)
    need desktop-file-validate desktop-file-utils
    file=$2/packaging/io.github.ingot.Ingot.desktop
    out=$(desktop-file-validate "$file" 2>&1) && rc=0 || rc=$?
    # It prints hints too (exit 0): any line is something to fix.
    [[ $rc -eq 0 && -z $out ]] || fail "desktop-file-validate $file: $out"
    echo "desktop-file-validate: $file is valid"
    ;;

appstream)
    need appstreamcli appstream
    file=$2/packaging/io.github.ingot.Ingot.metainfo.xml
    appstreamcli validate --no-net "$file" || fail "appstreamcli validate --no-net $file"
    ;;

install)
    need help2man help2man
    deb=$(the_deb "$2") version=$3
    root=$(mktemp -d)
    trap 'rm -rf "$root"' EXIT
    dpkg-deb -x "$deb" "$root"
    usr=$root/usr
    for f in bin/ingot bin/ingot-cli libexec/ingot/ingot-askpass; do
        [[ -x $usr/$f ]] || fail "usr/$f is not in the package, or not executable"
    done
    for f in share/man/man1/ingot.1.gz share/man/man1/ingot-cli.1.gz share/doc/ingot/copyright \
             share/doc/ingot/changelog.Debian.gz share/applications/io.github.ingot.Ingot.desktop \
             share/metainfo/io.github.ingot.Ingot.metainfo.xml share/icons/hicolor/scalable/apps/ingot.svg \
             share/ingot/backend/ingot_train/__init__.py; do
        [[ -f $usr/$f ]] || fail "usr/$f is not in the package"
    done

    # The installed programs run from the scratch root, with their own home.
    export HOME=$root/home XDG_CONFIG_HOME=$root/home/.config XDG_DATA_HOME=$root/home/.local/share \
           XDG_CACHE_HOME=$root/home/.cache XDG_RUNTIME_DIR=$root/run LC_ALL=C.UTF-8
    unset INGOT_BACKEND_DIR INGOT_ASKPASS
    mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
    chmod 700 "$XDG_RUNTIME_DIR"
    got=$("$usr/bin/ingot-cli" --version)
    [[ $got == "ingot-cli $version" ]] || fail "ingot-cli --version printed \"$got\", not \"ingot-cli $version\""
    echo "ingot-cli --version: $got"

    # The installed ingot-cli finds the backend installed beside it (<bin>/../share/ingot/backend).
    backend=$("$usr/bin/ingot-cli" job backend) || fail "the installed ingot-cli does not find its backend: $backend"
    [[ $(realpath "$backend") == $(realpath "$usr/share/ingot/backend") ]] ||
        fail "the installed ingot-cli uses the backend in $backend, not the installed $usr/share/ingot/backend"
    echo "backend: $backend"
    # ingot-askpass is where askPassProgram() looks for it beside an installed binary, and it runs.
    out=$("$usr/libexec/ingot/ingot-askpass" 2>&1) && rc=0 || rc=$?
    [[ $rc -eq 2 && $out == *"run by Ingot only"* ]] || fail "usr/libexec/ingot/ingot-askpass: exit $rc: $out"

    # The GUI starts offscreen and keeps running for 3 s with nothing on stderr.
    QT_QPA_PLATFORM=offscreen "$usr/bin/ingot" >"$root/ingot.out" 2>"$root/ingot.err" &
    pid=$!
    sleep 3
    kill -0 "$pid" 2>/dev/null || { wait "$pid" && rc=0 || rc=$?; fail "ingot ended within 3 s (exit $rc): $(cat "$root/ingot.err")"; }
    kill "$pid"
    wait "$pid" || true
    # Less the one line Qt's offscreen platform plugin itself prints when a window is shown.
    errors=$(grep -vxF 'This plugin does not support propagateSizeHints()' "$root/ingot.err" || true)
    [[ -z $errors ]] || fail "ingot wrote to stderr: $errors"
    echo "ingot: ran 3 s offscreen, nothing on stderr"

    # The man pages are there, gzip -9n, and render without a warning where man is installed.
    for page in ingot ingot-cli; do
        gz=$usr/share/man/man1/$page.1.gz
        gzip -t "$gz" || fail "$gz is not a valid gzip file"
        if command -v man >/dev/null 2>&1; then
            text=$(MANWIDTH=80 man -l "$gz" 2>"$root/man.err") || fail "man -l $gz failed: $(cat "$root/man.err")"
            [[ ! -s $root/man.err ]] || fail "man -l $gz warns: $(cat "$root/man.err")"
            [[ $text == *"$page"* ]] || fail "man -l $gz does not name $page"
        else
            echo "man is not installed: the pages are not rendered"
        fi
    done
    if command -v man >/dev/null 2>&1; then
        text=$(MANWIDTH=120 man -l "$usr/share/man/man1/ingot-cli.1.gz" 2>/dev/null)
        for cmd in "ingot-cli cache prune" "ingot-cli job backend" "ingot-cli remote hosts"; do
            [[ $text == *"$cmd"* ]] || fail "the ingot-cli man page does not describe \"$cmd\""
        done
        echo "man pages: render, ingot-cli's describes every group"
    fi

    # The desktop entry and the metainfo agree as installed (the launchable names the desktop file).
    if command -v appstreamcli >/dev/null 2>&1; then
        appstreamcli validate-tree --no-net "$root" || fail "appstreamcli validate-tree on the installed package"
    fi
    echo "installed package: OK"
    ;;

*)
    fail "unknown check: $1"
    ;;
esac
