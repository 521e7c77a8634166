# Download the DiskSpd release pinned in packaging\diskspd.txt, check its SHA-256 and unpack the
# amd64 build with its licence into -Destination (diskspd.exe, LICENSE).
# Usage: pwsh packaging\fetch_diskspd.ps1 -Destination packaging\vendor\diskspd
param([Parameter(Mandatory = $true)][string]$Destination)
$ErrorActionPreference = "Stop"
$pin = @{}
foreach ($line in Get-Content (Join-Path $PSScriptRoot "diskspd.txt")) {
  if ($line -match '^\s*([a-z_]+)=(.+)$') { $pin[$Matches[1]] = $Matches[2].Trim() }
}
$work = Join-Path ([System.IO.Path]::GetTempPath()) ("diskspd-" + [guid]::NewGuid())
New-Item -ItemType Directory -Force $work | Out-Null
$zip = Join-Path $work "DiskSpd.zip"
Invoke-WebRequest -Uri $pin.url -OutFile $zip
$actual = (Get-FileHash -Algorithm SHA256 $zip).Hash.ToLowerInvariant()
if ($actual -ne $pin.sha256.ToLowerInvariant()) {
  throw "DiskSpd $($pin.version): SHA-256 $actual, expected $($pin.sha256) (packaging/diskspd.txt)"
}
Write-Host "DiskSpd $($pin.version): SHA-256 $actual matches packaging/diskspd.txt"
Expand-Archive $zip -DestinationPath (Join-Path $work "unpacked")
$exe = Join-Path $work "unpacked\amd64\diskspd.exe"
if (-not (Test-Path $exe)) { throw "no amd64\diskspd.exe in DiskSpd $($pin.version)" }
New-Item -ItemType Directory -Force $Destination | Out-Null
Copy-Item $exe $Destination
Invoke-WebRequest -Uri $pin.license_url -OutFile (Join-Path $Destination "LICENSE")
