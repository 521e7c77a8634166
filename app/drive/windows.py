"""Windows: volumes to physical disks with one PowerShell call (Storage module cmdlets as JSON).

One ``powershell -NoProfile -NonInteractive -Command`` run prints one JSON object with
``PhysicalDisk``, ``Disk``, ``Partition`` and ``Volume`` lists; the join is Partition.DiskNumber
= Disk.Number = PhysicalDisk.DeviceId (non-pooled disks). Read-only cmdlets normally work
unelevated [U]. ``ConvertTo-Json`` emits enum numbers (BusType 17 = NVMe) but may emit names,
and a one-element list as a bare object; both forms are read.
smartctl addresses the disk as ``/dev/pdN`` (= ``\\\\.\\PhysicalDriveN``).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from app.drive.smart import run_tool

log = logging.getLogger(__name__)

SCRIPT = (
    "$ErrorActionPreference='SilentlyContinue';"
    "[pscustomobject]@{"
    "PhysicalDisk=@(Get-PhysicalDisk | Select-Object DeviceId,FriendlyName,SerialNumber,MediaType,"
    "BusType,Size,FirmwareVersion,SpindleSpeed);"
    "Disk=@(Get-Disk | Select-Object Number,FriendlyName,SerialNumber,BusType,Size,FirmwareVersion,"
    "IsBoot,IsSystem);"
    "Partition=@(Get-Partition | Select-Object DiskNumber,PartitionNumber,DriveLetter,Size,AccessPaths);"
    "Volume=@(Get-Volume | Select-Object DriveLetter,FileSystemLabel,FileSystem,Size,SizeRemaining)"
    "} | ConvertTo-Json -Depth 4 -Compress"
)
BUS_TYPES = {0: "unknown", 1: "SCSI", 2: "ATAPI", 3: "ATA", 4: "1394", 5: "SSA", 6: "Fibre Channel",
             7: "USB", 8: "RAID", 9: "iSCSI", 10: "SAS", 11: "SATA", 12: "SD", 13: "MMC",
             15: "virtual", 16: "Storage Spaces", 17: "NVMe"}
_BUS_NAMES = {"nvme": "NVMe", "sata": "SATA", "ata": "SATA", "usb": "USB", "sas": "SAS", "scsi": "SCSI",
              "raid": "RAID", "sd": "SD", "mmc": "MMC", "file backed virtual": "virtual",
              "filebackedvirtual": "virtual", "spaces": "Storage Spaces", "iscsi": "iSCSI"}
MEDIA_TYPES = {0: None, 3: "HDD", 4: "SSD", 5: "SCM"}


def run_inventory(timeout: float = 30.0) -> tuple[dict[str, Any] | None, str]:
    """The inventory JSON from PowerShell, or (None, why)."""
    rc, out, err = run_tool(["powershell", "-NoProfile", "-NonInteractive", "-Command", SCRIPT], timeout)
    if rc != 0:
        return None, err or f"powershell exited with {rc}"
    try:
        return json.loads(out.decode("utf-8-sig", "replace")), ""
    except ValueError as exc:
        return None, f"PowerShell printed no JSON ({exc})"


def _list(value: object) -> list[Any]:
    """ConvertTo-Json writes a one-element array as the bare element, and null for none."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _int(value: object) -> int | None:
    if not isinstance(value, (str, int, float)):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def bus_name(value: object) -> str | None:
    if value is None:
        return None
    text = str(value)
    if isinstance(value, int) or text.isdigit():
        return BUS_TYPES.get(int(value if isinstance(value, int) else text), "unknown")
    return _BUS_NAMES.get(text.strip().lower(), text)


def media_name(value: object) -> str | None:
    if isinstance(value, int) or str(value).isdigit():
        return MEDIA_TYPES.get(int(value if isinstance(value, int) else str(value)))
    return None if value in (None, "", "Unspecified") else str(value)


def _letter(value: str | int | None) -> str | None:
    """DriveLetter comes as "C", as a char code (67) or as "\\u0000" for no letter."""
    if isinstance(value, int):
        value = chr(value) if value else None
    value = (value or "").strip("\0 :\\")
    return value.upper() if len(value) == 1 and value.isalpha() else None


def parse_inventory(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Identity per drive letter (``"C"``): disk_name, disk, smart_device, bus, model, serial
    (unmasked), firmware, capacity_bytes, rotational, media, fstype, label, total/free bytes."""
    physical = {_int(p.get("DeviceId")): p for p in _list(doc.get("PhysicalDisk"))}
    disks = {_int(d.get("Number")): d for d in _list(doc.get("Disk"))}
    volumes = {_letter(v.get("DriveLetter")): v for v in _list(doc.get("Volume"))}
    out: dict[str, dict[str, Any]] = {}
    for part in _list(doc.get("Partition")):
        letter, number = _letter(part.get("DriveLetter")), _int(part.get("DiskNumber"))
        if letter is None or number is None:
            continue
        pd, disk, vol = physical.get(number, {}), disks.get(number, {}), volumes.get(letter, {})
        media = media_name(pd.get("MediaType"))
        spindle = _int(pd.get("SpindleSpeed"))
        bus = bus_name(pd.get("BusType", disk.get("BusType")))
        rotational = None if bus == "virtual" else (
            True if media == "HDD" or (spindle and spindle > 0) else False if media in ("SSD", "SCM") else None)
        out[letter] = {
            "disk_name": f"PhysicalDrive{number}", "disk": f"\\\\.\\PhysicalDrive{number}",
            "smart_device": f"/dev/pd{number}", "smart_type": None, "bus": bus,
            "model": (pd.get("FriendlyName") or disk.get("FriendlyName") or "").strip() or None,
            "serial": (pd.get("SerialNumber") or disk.get("SerialNumber") or "").strip() or None,
            "firmware": (pd.get("FirmwareVersion") or disk.get("FirmwareVersion") or "").strip() or None,
            "capacity_bytes": _int(pd.get("Size")) or _int(disk.get("Size")),
            "rotational": rotational, "media": media, "removable": None, "encrypted": None,
            "stack": [f"{letter}:", f"PhysicalDrive{number}"], "link": None, "identity_note": "",
            "fstype": vol.get("FileSystem"), "label": vol.get("FileSystemLabel") or None,
            "total_bytes": _int(vol.get("Size")), "free_bytes": _int(vol.get("SizeRemaining")),
        }
    return out


def identify_all(timeout: float = 30.0) -> tuple[dict[str, dict[str, Any]], str]:
    doc, why = run_inventory(timeout)
    return (parse_inventory(doc), "") if doc is not None else ({}, why)
