"""The drive under test: identity (identity.py), SMART (smart.py runs smartctl, smart_parse.py
reads its output), temperature (thermal.py), throttling signals (throttle.py) and the per-OS
device lookups that map a folder to its disk (linux.py: lsblk + sysfs, macos.py: diskutil,
windows.py: PowerShell storage cmdlets).

Unlike app/engines these modules may run short helper tools (smartctl, lsblk, diskutil,
PowerShell), always through ``app.drive.smart.run_tool``: bounded, argv lists, no shell.
"""
