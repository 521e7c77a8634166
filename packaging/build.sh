#!/usr/bin/env bash
# Build the one-folder executable on Linux or macOS: dist/ssd-profiler/ssd-profiler
# Usage: bash packaging/build.sh [--smoke]   (--smoke also runs --version and --self-test from it)
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY="$(command -v python3)"
"$PY" -m pip install -q --disable-pip-version-check -e ".[build]"
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/ssd-profiler.spec
du -sh dist/ssd-profiler
if [ "${1:-}" = "--smoke" ]; then
  QT_QPA_PLATFORM=offscreen dist/ssd-profiler/ssd-profiler --version
  QT_QPA_PLATFORM=offscreen dist/ssd-profiler/ssd-profiler --self-test
fi
