#!/usr/bin/env bash
# Installs what Ingot needs to build, run and test on Debian 12, skipping what is already there.
#   packaging/install-deps.sh          build + run dependencies
#   packaging/install-deps.sh --test   also what the test suite uses (xvfb, torch, sshd, Slurm, node, a CJK font, dunst; the
#                                      Debian package's checks: lintian, desktop-file-validate, appstreamcli,
#                                      help2man, man) and a Debian 13 root with PyTorch 2 for the tests
set -euo pipefail

pkgs=(build-essential cmake ninja-build pkg-config
      qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools
      qt6-l10n-tools qt6-translations-l10n libgl-dev
      libqt6svg6 qt6-svg-dev  # charts saved as SVG (QSvgGenerator)
      qtkeychain-qt6-dev libcurl4-openssl-dev libssl-dev nlohmann-json3-dev libzip-dev
      libprotobuf-dev protobuf-compiler  # the HLO of cache entries (services/cache/hlo_subset.proto)
      procps xdg-utils)
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(xvfb xauth python3 python3-torch openssh-server unzip clang-14 libclang-rt-14-dev
         lintian desktop-file-utils appstream help2man man-db file dpkg-dev
         fonts-noto-cjk  # the zh_CN screenshots (tests/tools/zh-screenshots.sh)
         gnome-keyring dbus libsecret-1-0 libsecret-tools  # a real Secret Service for tests/hub/tst_keychain
         dunst  # a real notification server (under Xvfb, on a private bus) for tests/ui/tst_notifications
         slurmctld slurmd slurm-client  # a private Slurm cluster on 127.0.0.1 (tests/support/testslurm.h)
         fd-find  # the cold-disk baseline of tests/benchmarks/run-cold.sh
         systemd  # systemd-analyze verify and the user manager's --test parse of the schedule's units (tests/fleet/tst_gcschedule)
         python3-boto3  # the AWS SDK for Python: checks Ingot's SigV4 and the test S3 server (tests/s3)
         awscli  # a host's own AWS CLI, which reads a host's S3 cache with the host's keys (tests/s3/tst_hosts3)
         debootstrap bubblewrap)  # the PyTorch 2 root of the native engine's and DCP tests (below)
  # Node may come from another source (nodesource bundles npm): only ask apt when there is none.
  command -v npm >/dev/null 2>&1 || pkgs+=(nodejs npm)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: everything is installed"
fi

# PyTorch 2 for the tests of the native engine and of DCP checkpoints: Debian 12's python3-torch is 1.13, Debian 13's
# is 2.6. A minimal Debian 13 root with it, made once (about 3 minutes, 1.5 GB) in a cache folder and run through
# tests/support/torch2/python3 (bubblewrap). A test-time tool only: users run the native engine with their own Python.
if [[ "${1:-}" == "--test" ]]; then
  root=${INGOT_TORCH2_ROOT:-/var/cache/ingot-tests/torch2-root}
  if [[ -e "$root/.ingot-torch2-ready" ]]; then
    echo "install-deps: the PyTorch 2 root is at $root"
  else
    SUDO=""
    [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    # The mirror this machine's apt uses (deb822 or one-line sources), else Debian's own.
    mirror=$(grep -hoE '^URIs: *[^ ]+/debian/?$|^deb +[^ ]+/debian/? ' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
             | head -n1 | sed -E 's/^URIs: *//; s/^deb +//; s/ *$//' || true)
    mirror=${mirror:-http://deb.debian.org/debian}
    echo "install-deps: making the PyTorch 2 root at $root from $mirror (trixie: python3-torch, python3-safetensors)"
    $SUDO rm -rf "$root.partial"
    $SUDO mkdir -p "$(dirname "$root")"
    $SUDO debootstrap --variant=minbase --include=python3-torch,python3-safetensors trixie "$root.partial" "$mirror" >/dev/null
    $SUDO touch "$root.partial/.ingot-torch2-ready"
    $SUDO rm -rf "$root"
    $SUDO mv "$root.partial" "$root"
  fi
fi
