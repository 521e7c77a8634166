"""Linux: which physical drive a volume lives on, and what that drive is (lsblk JSON + sysfs).

lsblk (``-J -b``: JSON, sizes in bytes) gives the tree and udev's model/serial/transport; sysfs
gives what lsblk does not: the whole disk behind a partition or a dm/LVM/LUKS/md stack, the NVMe
controller (firmware, hwmon, PCIe link) and the rotational flag.
Every reader takes ``sysfs_root`` so tests can point it at a fake tree; parsers are pure.
Virtual disks report ``rotational=1`` whatever they are, so their flag is ``None`` (unknown).
"""
from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.drive.smart import run_tool

log = logging.getLogger(__name__)

LSBLK_COLUMNS = "NAME,KNAME,PKNAME,TYPE,SIZE,ROTA,TRAN,MODEL,SERIAL,VENDOR,LOG-SEC,PHY-SEC"
_VIRTUAL_NAMES = ("loop", "zram", "ram", "nbd", "vd", "xvd")
_VIRTUAL_MODEL = re.compile(r"qemu|vbox|vmware|virtual|msft|xen", re.IGNORECASE)
_TRAN = {"nvme": "NVMe", "sata": "SATA", "ata": "SATA", "usb": "USB", "sas": "SAS", "mmc": "MMC",
         "iscsi": "iSCSI", "fc": "FC", "virtio": "virtual"}
_GEN = {2.5: "1.0", 5.0: "2.0", 8.0: "3.0", 16.0: "4.0", 32.0: "5.0", 64.0: "6.0"}


# -- lsblk --------------------------------------------------------------------------------------
def run_lsblk(timeout: float = 10.0) -> tuple[dict[str, Any] | None, str]:
    """lsblk's JSON tree. ``MOUNTPOINTS`` (array) is new; older lsblk knows only ``MOUNTPOINT``,
    so a failure is retried with the old column."""
    why = ""
    for column in ("MOUNTPOINTS", "MOUNTPOINT"):
        rc, out, err = run_tool(["lsblk", "-J", "-b", "-o", f"{LSBLK_COLUMNS},{column}"], timeout)
        if rc == 0:
            try:
                return json.loads(out.decode("utf-8", "replace")), ""
            except ValueError as exc:
                why = f"lsblk printed no JSON ({exc})"
        else:
            why = err or f"lsblk exited with {rc}"
    return None, why


def _bool(value: object) -> bool | None:
    if isinstance(value, str):
        return {"1": True, "0": False, "true": True, "false": False}.get(value.strip().lower())
    return value if isinstance(value, bool) else None


def _int(value: object) -> int | None:
    """A number of lsblk's JSON (old lsblk prints it as a string) or of a sysfs file."""
    if not isinstance(value, (str, int, float)):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _clean(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def parse_lsblk(doc: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Flat index of lsblk's tree by kernel name; each entry names its whole ``disk`` (the top
    of its tree). Old lsblk prints numbers and flags as strings; both forms are read."""
    index: dict[str, dict[str, Any]] = {}

    def walk(node: Mapping[str, Any], disk: str | None) -> None:
        kname = node.get("kname") or node.get("name")
        if not kname:  # lsblk names every device; a node without one cannot be indexed
            return
        points = node.get("mountpoints", [node.get("mountpoint")])
        entry = {"kname": kname, "type": node.get("type"), "size_bytes": _int(node.get("size")),
                 "rotational": _bool(node.get("rota")), "tran": _clean(node.get("tran")),
                 "model": _clean(node.get("model")), "serial": _clean(node.get("serial")),
                 "vendor": _clean(node.get("vendor")), "logical_sector_bytes": _int(node.get("log-sec")),
                 "physical_sector_bytes": _int(node.get("phy-sec")),
                 "mountpoints": [p for p in points or [] if p], "disk": disk or kname}
        index.setdefault(kname, entry)
        for child in node.get("children") or []:
            walk(child, disk or kname)

    for node in (doc or {}).get("blockdevices") or []:
        walk(node, None)
    return index


# -- sysfs --------------------------------------------------------------------------------------
def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").strip() or None
    except OSError:
        return None


def block_name(device: str | None, sysfs_root: str | Path = "/sys", st_dev: int | None = None) -> str | None:
    """Kernel block name for ``/dev/...`` (symlinks like /dev/mapper/* resolved) or a st_dev."""
    root = Path(sysfs_root)
    if device and device.startswith("/dev/"):
        name = os.path.basename(os.path.realpath(device))
        if (root / "class" / "block" / name).exists():
            return name
    if st_dev is not None:
        link = root / "dev" / "block" / f"{os.major(st_dev)}:{os.minor(st_dev)}"
        if link.exists():
            return os.path.basename(os.path.realpath(link))
    return None


def whole_disk(name: str, sysfs_root: str | Path = "/sys") -> dict[str, Any]:
    """The physical disk under a partition or a dm/LVM/LUKS/md stack: ``disk``, the ``stack``
    walked (top first), ``encrypted`` (a dm-crypt layer) and ``disks`` (all members, md RAID)."""
    root = Path(sysfs_root) / "class" / "block"
    stack, encrypted, leaves = [], False, []

    def walk(current: str) -> None:
        nonlocal encrypted
        stack.append(current)
        node = root / current
        if (node / "partition").exists():
            walk(os.path.basename(os.path.dirname(os.path.realpath(node))))
            return
        if (_read(node / "dm" / "uuid") or "").startswith("CRYPT-"):
            encrypted = True
        slaves = sorted(p.name for p in (node / "slaves").glob("*")) if (node / "slaves").is_dir() else []
        if not slaves:
            leaves.append(current)
        for slave in slaves:
            walk(slave)

    walk(name)
    return {"disk": leaves[0] if leaves else name, "stack": stack, "encrypted": encrypted,
            "disks": leaves}


def _gts(text: str | None) -> float | None:
    match = re.match(r"\s*([\d.]+)\s*GT/s", text or "")
    return float(match.group(1)) if match else None


def pcie_link(pci_dir: str | Path) -> dict[str, Any] | None:
    """PCIe link of a PCI function from sysfs: current and maximum speed (GT/s) and width."""
    pci = Path(pci_dir)
    speed, width = _gts(_read(pci / "current_link_speed")), _int(_read(pci / "current_link_width"))
    if speed is None or width is None:
        return None
    max_speed, max_width = _gts(_read(pci / "max_link_speed")), _int(_read(pci / "max_link_width"))
    text = f"PCIe {_GEN.get(speed, f'{speed:g} GT/s')} x{width}"
    if (max_speed, max_width) != (speed, width) and max_speed and max_width:
        text += f" (capable of {_GEN.get(max_speed, f'{max_speed:g} GT/s')} x{max_width})"
    return {"speed_gts": speed, "width": width, "max_speed_gts": max_speed, "max_width": max_width,
            "generation": _GEN.get(speed), "text": text}


def _nvme_controller(device_dir: Path) -> Path | None:
    if (device_dir / "model").exists() and (device_dir / "firmware_rev").exists():
        return device_dir
    for ctrl in sorted(device_dir.glob("nvme[0-9]*")):  # native multipath: subsystem -> controllers
        if (ctrl / "model").exists():
            return ctrl
    return device_dir if (device_dir / "model").exists() else None


def sysfs_identity(disk: str, sysfs_root: str | Path = "/sys") -> dict[str, Any]:
    """What sysfs says about a whole disk: model, serial, firmware, size, flags, bus hints, the
    NVMe controller and its PCIe link."""
    block = Path(sysfs_root) / "block" / disk
    device = block / "device"
    out: dict[str, Any] = {"model": None, "serial": _read(block / "serial"), "firmware": None,
           "rotational": _bool(_read(block / "queue" / "rotational")),
           "removable": _bool(_read(block / "removable")), "link": None, "nvme_controller": None,
           "driver": None, "path": os.path.realpath(block)}
    sectors = _int(_read(block / "size"))
    out["size_bytes"] = sectors * 512 if sectors is not None else None
    uevent = _read(device / "uevent") or ""
    driver = re.search(r"^DRIVER=(.+)$", uevent, re.MULTILINE)
    out["driver"] = driver.group(1) if driver else None
    ctrl = _nvme_controller(device) if disk.startswith("nvme") else None
    if ctrl is not None:
        name = os.path.basename(os.path.realpath(ctrl))
        out["nvme_controller"] = name if re.fullmatch(r"nvme\d+", name) else None
        out.update(model=_read(ctrl / "model"), serial=_read(ctrl / "serial") or out["serial"],
                   firmware=_read(ctrl / "firmware_rev"), link=pcie_link(ctrl / "device"))
    else:
        vendor, model = _read(device / "vendor"), _read(device / "model")
        shown = vendor if vendor and vendor != "ATA" and not vendor.startswith("0x") else None
        out["model"] = " ".join(x for x in (shown, model) if x) or None  # "ATA" = SAT placeholder
        out["firmware"] = _read(device / "rev")
    return out


def classify_bus(disk: str, tran: str | None, path: str, driver: str | None, model: str | None) -> str:
    """NVMe | SATA | SAS | USB | MMC | virtual | ... | unknown, from the best evidence first."""
    if disk.startswith(_VIRTUAL_NAMES[:4]):
        return "virtual"
    if tran and tran.lower() in _TRAN:
        return _TRAN[tran.lower()]
    if "/usb" in path:
        return "USB"
    if "/virtio" in path or (driver or "").startswith(("virtio", "xen")) or disk.startswith(_VIRTUAL_NAMES[4:]):
        return "virtual"
    if disk.startswith("nvme"):
        return "NVMe"
    if disk.startswith("mmcblk"):
        return "MMC"
    if model and _VIRTUAL_MODEL.search(model):
        return "virtual"
    return "SATA" if "/ata" in path else "unknown"


def identify(device: str | None, st_dev: int | None = None,
             lsblk: Mapping[str, Mapping[str, Any]] | None = None,
             sysfs_root: str | Path = "/sys") -> dict[str, Any]:
    """The physical drive behind a mounted device (``/dev/...``) or a ``st_dev``: a dict with
    disk_name, disk, smart_device, smart_type, bus, model, serial (unmasked), firmware,
    capacity_bytes, rotational, removable, encrypted, stack, link, identity_note."""
    out: dict[str, Any] = {"disk_name": None, "disk": None, "smart_device": None, "smart_type": None,
           "bus": None, "model": None, "serial": None, "firmware": None, "capacity_bytes": None,
           "rotational": None, "removable": None, "encrypted": False, "stack": [], "link": None,
           "identity_note": ""}
    name = block_name(device, sysfs_root, st_dev)
    if name is None:
        out["identity_note"] = f"{device or 'this volume'} is not a block device (network, overlay or pseudo file system)"
        return out
    walked = whole_disk(name, sysfs_root)
    disk = walked["disk"]
    sysfs = sysfs_identity(disk, sysfs_root)
    lsb = (lsblk or {}).get(disk, {})
    out.update(disk_name=disk, disk=f"/dev/{disk}", encrypted=walked["encrypted"], stack=walked["stack"],
               model=lsb.get("model") or sysfs["model"], serial=lsb.get("serial") or sysfs["serial"],
               firmware=sysfs["firmware"], capacity_bytes=lsb.get("size_bytes") or sysfs["size_bytes"],
               removable=sysfs["removable"], link=sysfs["link"])
    out["bus"] = classify_bus(disk, lsb.get("tran"), sysfs["path"], sysfs["driver"], out["model"])
    rotational = lsb.get("rotational") if lsb.get("rotational") is not None else sysfs["rotational"]
    out["rotational"] = None if out["bus"] == "virtual" else rotational
    ctrl = sysfs["nvme_controller"]
    out["smart_device"] = f"/dev/{ctrl}" if ctrl and out["bus"] == "NVMe" else out["disk"]
    if len(walked["disks"]) > 1:
        out["identity_note"] = f"spans {len(walked['disks'])} disks ({', '.join(walked['disks'])}); showing {disk}"
    return out
