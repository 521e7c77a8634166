# Build the one-folder executable on Windows: dist\ssd-profiler\ssd-profiler.exe (console/CLI)
# and dist\ssd-profiler\SSD Profiler.exe (windowed). Optionally bundles DiskSpd (MIT) with its
# license when packaging\vendor\diskspd\diskspd.exe exists (the release workflow downloads it).
# Usage: powershell -ExecutionPolicy Bypass -File packaging\build.ps1 [-Smoke] [-Locked]
# -Locked installs exactly packaging\requirements-build.txt (versions and hashes), as build.sh --locked.
param([switch]$Smoke, [switch]$Locked)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")
if ($Locked) {
  python -m pip install -q --disable-pip-version-check --require-hashes --only-binary=:all: --no-binary=argparse-manpage -r packaging\requirements-build.txt
} else {
  python -m pip install -q --disable-pip-version-check -e ".[build]"
}
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
python -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build\pyinstaller packaging\ssd-profiler.spec
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
if ($Smoke) {
  $env:QT_QPA_PLATFORM = "offscreen"
  & dist\ssd-profiler\ssd-profiler.exe --version; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
  & dist\ssd-profiler\ssd-profiler.exe --self-test; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
}
