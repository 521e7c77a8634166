# Build the one-folder executable on Windows: dist\ssd-profiler\ssd-profiler.exe (console/CLI)
# and dist\ssd-profiler\SSD Profiler.exe (windowed). Optionally bundles DiskSpd (MIT) with its
# license when packaging\vendor\diskspd\diskspd.exe exists (the release workflow downloads it).
# Usage: powershell -ExecutionPolicy Bypass -File packaging\build.ps1 [-Smoke]
param([switch]$Smoke)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")
python -m pip install -q --disable-pip-version-check -e ".[build]" pillow
python -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build\pyinstaller packaging\ssd-profiler.spec
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
if ($Smoke) {
  $env:QT_QPA_PLATFORM = "offscreen"
  & dist\ssd-profiler\ssd-profiler.exe --version; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
  & dist\ssd-profiler\ssd-profiler.exe --self-test; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
}
