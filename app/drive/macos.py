"""macOS: a volume to its physical disk with ``diskutil info -plist`` (parsed by plistlib).

APFS volumes live in a synthesized container disk (``disk3``); the drive is the container's
physical store's parent: volume ``disk3s1`` -> ``APFSPhysicalStores[0]`` ``disk0s2`` ->
``ParentWholeDisk`` ``disk0``. Identity, SMART and I/O counters belong to ``disk0``, never to the
container. From Apple's documentation and users' reports, not run here.
``resolve`` is pure (it takes a lookup function) so tests feed it canned plists.
"""
from __future__ import annotations

import logging
import plistlib
from collections.abc import Callable, Mapping
from typing import Any

from app.drive.smart import run_tool

log = logging.getLogger(__name__)

_BUS = {"pci-express": "NVMe", "pci": "NVMe", "apple fabric": "NVMe", "sata": "SATA", "usb": "USB",
        "thunderbolt": "Thunderbolt", "disk image": "virtual", "virtual interface": "virtual",
        "sas": "SAS", "secure digital": "SD"}


def parse_plist(raw: bytes) -> dict[str, Any]:
    """A diskutil plist (XML or binary) as a dict; {} when it is not one."""
    try:
        doc = plistlib.loads(raw)
    except (plistlib.InvalidFileException, ValueError, TypeError):
        return {}
    return doc if isinstance(doc, dict) else {}


def diskutil_info(ident: str, timeout: float = 15.0) -> dict[str, Any]:
    """``diskutil info -plist IDENT`` (a disk identifier, /dev node or mount point); {} on failure."""
    rc, out, err = run_tool(["diskutil", "info", "-plist", ident], timeout)
    if rc != 0:
        log.debug("diskutil info %s failed: %s", ident, err)
        return {}
    return parse_plist(out)


def bus_name(protocol: str | None, solid_state: bool | None) -> str | None:
    """BusProtocol "PCI-Express"/"Apple Fabric" is NVMe for SSDs (a PCIe HDD is unheard of)."""
    if not protocol:
        return None
    name = _BUS.get(protocol.strip().lower(), protocol)
    return "PCIe" if name == "NVMe" and solid_state is False else name


def resolve(volume_info: Mapping[str, Any],
            lookup: Callable[[str], Mapping[str, Any]]) -> tuple[Mapping[str, Any], list[str]]:
    """The physical whole disk's info for a volume's info, and the chain of identifiers walked:
    follow ``APFSPhysicalStores`` (volume or container -> partition), else ``ParentWholeDisk``
    (partition or container -> disk), until a disk is its own parent."""
    info, chain = volume_info, [volume_info.get("DeviceIdentifier") or "?"]
    for _ in range(6):
        stores = info.get("APFSPhysicalStores") or []
        nxt = stores[0].get("APFSPhysicalStore") if stores and isinstance(stores[0], dict) else None
        if not nxt:
            parent = info.get("ParentWholeDisk")
            if not parent or parent == info.get("DeviceIdentifier"):
                break
            nxt = parent
        found = lookup(nxt)
        if not found:
            break
        info = found
        chain.append(nxt)
    return info, chain


def identity_from_info(whole: Mapping[str, Any], chain: list[str]) -> dict[str, Any]:
    """The app's identity dict from the physical disk's diskutil info."""
    ident = whole.get("DeviceIdentifier")
    solid = whole.get("SolidState")
    bus = bus_name(whole.get("BusProtocol"), solid)
    if whole.get("VirtualOrPhysical") == "Virtual" and bus not in ("NVMe",):
        bus = "virtual"
    return {"disk_name": ident, "disk": f"/dev/{ident}" if ident else None,
            "smart_device": f"/dev/{ident}" if ident else None, "smart_type": None, "bus": bus,
            "model": (whole.get("MediaName") or "").strip() or None, "serial": None, "firmware": None,
            "capacity_bytes": whole.get("TotalSize") or whole.get("Size"),
            "rotational": None if solid is None else not solid,
            "removable": whole.get("Removable") or whole.get("Ejectable"), "encrypted": None,
            "internal": whole.get("Internal"), "stack": chain, "link": None,
            "identity_note": "" if ident else "diskutil gave no physical disk for this volume"}


def identify(device_or_mount: str,
             lookup: Callable[[str], Mapping[str, Any]] = diskutil_info) -> dict[str, Any]:
    """Identity of the physical drive behind ``/dev/diskNsM`` or a mount point."""
    info = lookup(device_or_mount)
    if not info:
        return identity_from_info({}, [device_or_mount]) | {
            "identity_note": f"diskutil has no information on {device_or_mount}"}
    whole, chain = resolve(info, lookup)
    return identity_from_info(whole, chain)
