#!/usr/bin/env bash
# Build the one-folder executable on Linux or macOS from packaging/ssd-profiler.spec:
#   Linux: dist/ssd-profiler/ssd-profiler
#   macOS: the same folder, plus "dist/SSD Profiler.app" and, where hdiutil exists,
#          dist/SSD-Profiler.dmg (PyInstaller needs Pillow there to turn the PNG icon into .icns)
# Usage: bash packaging/build.sh [--smoke]   (--smoke also runs --version and --self-test from it)
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY="$(command -v python3)"
"$PY" -m pip install -q --disable-pip-version-check -e ".[build]"
if [ "$(uname -s)" = "Darwin" ]; then
  "$PY" -m pip install -q --disable-pip-version-check "pillow>=10"
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
if [ "${1:-}" = "--smoke" ]; then
  QT_QPA_PLATFORM=offscreen dist/ssd-profiler/ssd-profiler --version
  QT_QPA_PLATFORM=offscreen dist/ssd-profiler/ssd-profiler --self-test
fi
