#!/usr/bin/env bash
# One-step set-up for a fresh Debian/Ubuntu machine (see README):
#   bash setup.sh app    install what is needed, then open SSD Profiler
#   bash setup.sh test   install what is needed, then run the whole test suite (GUI under Xvfb)
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-app}"; shift || true

# fio and smartctl are external engines; Xvfb runs the GUI tests; the rest is what Qt needs.
SYSTEM_PACKAGES=(fio smartmontools xvfb xauth python3-venv libegl1 libgl1 libfontconfig1
  libdbus-1-3 libglib2.0-0 libxkbcommon0 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4
  libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0
  libxcb-xinerama0 libxcb-xkb1)
# `test` only: the packaging tests validate the .deb's desktop files and run lintian, and install
# the .deb: its Wayland libraries are here first, so that install downloads nothing.
TEST_PACKAGES=(desktop-file-utils appstream lintian libwayland-client0 libwayland-cursor0
  libwayland-egl1)

installed="the system packages it needs were already there"   # said in the last line
install_system_packages() {  # the packages given, those not installed yet
  command -v dpkg-query >/dev/null || { echo "not a Debian/Ubuntu system: install fio, smartmontools and Xvfb yourself" >&2; return; }
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # an earlier install cut short (a machine image, a killed apt) stops apt-get with "dpkg was
  # interrupted": finish it first, as apt-get itself asks
  if [ -n "$(dpkg --audit 2>/dev/null)" ]; then
    echo "finishing an interrupted package install: dpkg --configure -a" >&2
    $sudo dpkg --configure -a >/dev/null
  fi
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "installing system packages: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  installed="installed ${missing[*]}"
}

install_python_env() {
  local py; py="$(command -v python3.11 || command -v python3)"
  "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed" >&2; exit 1; }
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"
}

packages=("${SYSTEM_PACKAGES[@]}")
[ "$mode" = test ] && packages+=("${TEST_PACKAGES[@]}")
install_system_packages "${packages[@]}"
install_python_env
# one line that says set-up worked, what it did and how to start the app next time
echo "Set-up done: $installed; SSD Profiler and its Python packages are in $PWD/.venv." \
  "Start it with: $PWD/.venv/bin/ssd-profiler (or bash setup.sh app)." >&2
case "$mode" in
  app)  exec .venv/bin/ssd-profiler "$@" ;;
  # three workers on two cores, one test file each at a time: many tests wait on fio, a
  # throttle or a server (the CPUs were busy 87 % of the time with three, the suite 10.5 min
  # against 14 with two); the files in the order tests/conftest.py gives them (longest first)
  test) exec xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python -m pytest -n 3 --dist loadfile \
          --no-loadscope-reorder "$@" ;;
  *)    echo "usage: bash setup.sh app|test" >&2; exit 2 ;;
esac
