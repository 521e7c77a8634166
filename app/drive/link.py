"""The negotiated link between the computer and the drive, and the most data it can carry.

Why: a result faster than the link cannot have crossed it, so a cache or RAM was measured.
The ceiling is only ever what the OS says the link negotiated, never a guess from the
bus name: a SATA drive whose port trained at 3 Gb/s has a 300 MB/s ceiling, not 600.

Sources, tightest wins when there are several (a SATA drive in a USB enclosure has both):

* PCIe (NVMe): ``/sys/class/nvme/<ctrl>/device/current_link_speed`` and ``current_link_width``,
  read through the namespace's controller (``/sys/block/nvme0n1/device``).
* SATA: smartctl's ``interface_speed.current`` (JSON) or "SATA Version is ... (current: 6.0 Gb/s)"
  from the run-start SMART snapshot; else the kernel's ``/sys/class/ata_link/link<N>/sata_spd``
  for the port ``ata<N>`` in the disk's device path (readable without root).
* USB: ``speed`` (Mb/s) of every USB device between the disk and its root hub, in ``/sys``.

A ceiling is the line rate after line encoding, before protocol overhead (command packets, FIS
and TLP headers), so real transfers stay some percent below it and a result at or just below
it is plausible; only a result beyond it is impossible. Encodings: PCIe 1.x/2.x and SATA 8b/10b,
PCIe 3.0-5.0 128b/130b, PCIe 6.0 counted without its FLIT overhead (an upper bound), USB 2.0
the raw 480 Mb/s (its bulk maximum, ~53 MB/s, is lower), USB 5 Gb/s 8b/10b, USB 10 and 20 Gb/s
128b/132b (a Gen 1x2 link at 8b/10b carries less, so this stays an upper bound). Behind a
Thunderbolt tunnel the drive's own PCIe link is all the OS shows: the ceiling may be loose
there, never too low. Virtual disks (an emulated NVMe reports a made-up link), RAID over several
disks (their links add up), network and RAM media get no ceiling, with the reason.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_PCIE_ENCODING = {2.5: 0.8, 5.0: 0.8}          # 8b/10b below 8 GT/s, then 128b/130b
_VIRTUAL_MODEL = re.compile(r"qemu|vbox|vmware|virtual|msft|xen", re.IGNORECASE)


def pcie_ceiling_mbps(gts: float, width: int) -> float:
    """MB/s (10^6 B/s) per direction of a PCIe link: GT/s x lanes x encoding / 8 bits."""
    encoding = _PCIE_ENCODING.get(gts, 1.0 if gts >= 64 else 128 / 130)
    return round(gts * 1000 * width * encoding / 8, 1)


def sata_ceiling_mbps(gbps: float) -> float:
    return round(gbps * 1000 * 0.8 / 8, 1)   # 8b/10b


def usb_ceiling_mbps(mbps: float) -> float:
    if mbps >= 10000:
        return round(mbps * 128 / 132 / 8, 1)
    if mbps >= 5000:
        return round(mbps * 0.8 / 8, 1)
    return round(mbps / 8, 1)


def _link(kind: str, gbps: float, ceiling: float, source: str, text: str, duplex: str) -> dict[str, Any]:
    return {"kind": kind, "gbps": round(gbps, 3), "ceiling_MBps": ceiling, "source": source,
            "text": text, "duplex": duplex}


def negotiated_link(drive: Mapping[str, Any], medium: Mapping[str, Any] | None = None,
                    sys_root: str | Path = "/sys") -> tuple[dict[str, Any] | None, str]:
    """(the tightest link known for ``drive`` (run.json's ``drive`` dict) with ``links``
    listing every one found, or None, and the reason there is none)."""
    kind = (medium or {}).get("kind")
    if kind == "virtual" or drive.get("bus") == "virtual" or _VIRTUAL_MODEL.search(
            str(drive.get("model") or "")):
        return None, "virtual disk: the link the guest sees is emulated and limits nothing"
    if kind not in (None, "drive", "unknown"):
        return None, f"the folder is on a {kind} medium, not directly on a drive"
    links = []
    smart_gbps = (drive.get("smart") or {}).get("sata_link_gbps")
    if smart_gbps:
        links.append(_link("SATA", smart_gbps, sata_ceiling_mbps(smart_gbps),
                           "smartctl interface_speed.current", f"SATA {smart_gbps:.1f} Gb/s", "half"))
    disk = drive.get("disk_name")
    if disk and (Path(sys_root) / "block" / disk).exists():  # Linux sysfs (or a test's tree)
        stack = drive.get("stack") or [disk]
        if _spans_disks(stack[0], sys_root):
            return None, "the folder spans several disks (RAID or a striped volume): their links add up"
        links += _sysfs_links(disk, Path(sys_root), have_sata=bool(smart_gbps))
    if not links:
        why = ("the OS did not say which link the drive negotiated" if disk else
               "no physical drive found for the folder")
        return None, why
    best = min(links, key=lambda link: link["ceiling_MBps"])
    return {**best, "links": links}, ""


def _spans_disks(top: str, sys_root: str | Path) -> bool:
    from app.drive.linux import whole_disk
    try:
        return len(whole_disk(top, sys_root)["disks"]) > 1
    except OSError:
        return False


def _sysfs_links(disk: str, root: Path, have_sata: bool) -> list[dict[str, Any]]:
    block = root / "block" / disk
    try:
        path = Path(os.path.realpath(block))
    except OSError:
        return []
    out = []
    if disk.startswith("nvme"):
        from app.drive.linux import sysfs_identity
        ident = sysfs_identity(disk, root)
        pcie, ctrl = ident.get("link"), ident.get("nvme_controller") or "nvme?"
        if pcie:
            gbps = pcie["speed_gts"] * pcie["width"]
            out.append(_link("PCIe", gbps, pcie_ceiling_mbps(pcie["speed_gts"], pcie["width"]),
                             f"{root}/class/nvme/{ctrl}/device/current_link_speed, current_link_width",
                             pcie["text"].split(" (")[0], "full"))
    port = next((p for p in path.parts if re.fullmatch(r"ata\d+", p)), None)
    if port and not have_sata:
        spd_file = root / "class" / "ata_link" / f"link{port[3:]}" / "sata_spd"
        match = re.match(r"\s*([\d.]+)\s*Gbps", _read(spd_file) or "")  # "<unknown>" when down
        if match:
            gbps = float(match.group(1))
            out.append(_link("SATA", gbps, sata_ceiling_mbps(gbps), str(spd_file),
                             f"SATA {gbps:.1f} Gb/s", "half"))
    usb = _usb_speed(path)
    if usb:
        mbps, where = usb
        out.append(_link("USB", mbps / 1000, usb_ceiling_mbps(mbps), where,
                         f"USB {mbps / 1000:g} Gb/s", "half" if mbps < 5000 else "full"))
    return out


def _usb_speed(path: Path) -> tuple[float, str] | None:
    """The slowest ``speed`` (Mb/s) of the USB devices and hubs above the disk."""
    found = []
    for parent in path.parents:
        speed = _read(parent / "speed")
        if speed and (parent / "idVendor").exists():
            try:
                found.append((float(speed), str(parent / "speed")))
            except ValueError:
                continue
    return min(found) if found else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").strip() or None
    except OSError:
        return None
