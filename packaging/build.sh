#!/usr/bin/env bash
# Build the one-folder executable on Linux or macOS from packaging/ssd-profiler.spec:
#   Linux: dist/ssd-profiler/ssd-profiler
#   macOS: the same folder, plus "dist/SSD Profiler.app" and, where hdiutil exists,
#          dist/SSD-Profiler.dmg (PyInstaller needs Pillow there to turn the PNG icon into .icns)
# Usage: bash packaging/build.sh [--smoke] [--locked]
#   --smoke   also runs --version and --self-test from the folder
#   --locked  installs exactly packaging/requirements-build.txt (versions and hashes; the release
#             workflow's way) instead of whatever satisfies pyproject.toml's ranges
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY="$(command -v python3)"
if [[ " $* " == *" --locked "* ]]; then
  # the app itself is not installed: the spec builds it from this tree (pathex). Wheels only,
  # except argparse-manpage (the .deb's man page), which is published as source alone
  "$PY" -m pip install -q --disable-pip-version-check --require-hashes --only-binary=:all: \
    --no-binary=argparse-manpage \
    -r packaging/requirements-build.txt
else
  "$PY" -m pip install -q --disable-pip-version-check -e ".[build]"
fi
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/ssd-profiler.spec
du -sh dist/ssd-profiler
if [ "$(uname -s)" = "Darwin" ] && [ -d "dist/SSD Profiler.app" ] && command -v hdiutil >/dev/null; then
  rm -f dist/SSD-Profiler.dmg
  hdiutil create -quiet -volname "SSD Profiler" -srcfolder "dist/SSD Profiler.app" -ov \
    -format UDZO dist/SSD-Profiler.dmg
  du -sh dist/SSD-Profiler.dmg
fi
if [[ " $* " == *" --smoke "* ]]; then
  QT_QPA_PLATFORM=offscreen dist/ssd-profiler/ssd-profiler --version
  QT_QPA_PLATFORM=offscreen dist/ssd-profiler/ssd-profiler --self-test
fi
