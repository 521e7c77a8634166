"""Volumes, the physical drive each lives on, and what the app can learn about that drive.

``list_volumes`` / ``volume_for`` (psutil partitions + the OS's own mapping: lsblk and sysfs on
Linux, PowerShell on Windows, diskutil on macOS) are cheap and start no SMART read.
``drives_report`` adds the temperature source per drive (one probe read each) for
``ssd-profiler drives``; ``describe_drive`` adds the SMART snapshot for run.json. Serial numbers
identify a person's hardware, so every function here masks them unless ``show_serial=True``
(the SMART snapshot's serial too). All results are JSON-ready dicts. psutil is imported by the
functions that use it: the window's set-up column imports this module, and its first paint
should not wait for psutil (the calls themselves run in the background, after it).
"""
from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from app.paths.medium import Medium, classify

if TYPE_CHECKING:
    from app.drive.thermal import TemperatureSource

log = logging.getLogger(__name__)

_PSEUDO_FS = {"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "securityfs", "pstore",
              "debugfs", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs", "bpf", "autofs",
              "binfmt_misc", "nsfs", "squashfs", "efivarfs", "rpc_pipefs", "tmpfs", "overlay"}
IDENTITY_KEYS = ("disk_name", "disk", "smart_device", "smart_type", "bus", "model", "serial",
                 "firmware", "capacity_bytes", "rotational", "removable", "encrypted", "stack",
                 "link", "identity_note")


def mask_serial(serial: str | None) -> str | None:
    """``S4EVNX0NA32843N`` -> ``S4***********3N``: enough to tell two drives apart on screen,
    not enough to identify the unit in a shared report."""
    if not serial:
        return serial
    return "*" * len(serial) if len(serial) <= 6 else serial[:2] + "*" * (len(serial) - 4) + serial[-2:]


class _Partition(Protocol):
    """What is read of one ``psutil.disk_partitions()`` entry."""

    @property
    def device(self) -> str: ...

    @property
    def mountpoint(self) -> str: ...


def _platform_identities(partitions: Sequence[_Partition]) -> dict[str, dict[str, Any]]:
    """Identity per mount point from the OS's own tools; {} entries where it has none."""
    out: dict[str, dict[str, Any]] = {}
    if sys.platform.startswith("linux"):
        from app.drive import linux as devices_linux
        doc, why = devices_linux.run_lsblk()
        if doc is None:
            log.info("lsblk unavailable (%s); using sysfs only", why)
        index = devices_linux.parse_lsblk(doc) if doc else {}
        for part in partitions:
            try:
                st_dev = os.stat(part.mountpoint).st_dev
            except OSError:
                st_dev = None
            out[part.mountpoint] = devices_linux.identify(part.device, st_dev, index)
    elif sys.platform == "win32":
        from app.drive import windows as devices_windows
        letters, why = devices_windows.identify_all()
        for part in partitions:
            letter = part.mountpoint[:1].upper()
            out[part.mountpoint] = letters.get(letter) or {"identity_note": why or f"no disk for {letter}:"}
    elif sys.platform == "darwin":
        from app.drive import macos as devices_macos
        for part in partitions:
            out[part.mountpoint] = devices_macos.identify(part.device or part.mountpoint)
    return out


def list_volumes(show_serial: bool = False) -> list[dict[str, Any]]:
    """Mounted volumes a user could test on: mount point, device, file system, size, free, and
    the physical drive (``IDENTITY_KEYS``: bus NVMe/SATA/USB/virtual/..., model, serial, firmware,
    capacity, rotational (None = unknown, e.g. virtual disks), PCIe link on Linux)."""
    import psutil
    chosen, seen = [], set()
    for part in psutil.disk_partitions(all=True):
        if part.mountpoint in seen:
            continue
        if part.fstype in _PSEUDO_FS and part.mountpoint != "/":
            continue
        try:
            usage = psutil.disk_usage(part.mountpoint)
        except (OSError, PermissionError):
            continue
        if usage.total == 0:
            continue
        seen.add(part.mountpoint)
        chosen.append((part, usage))
    try:
        identities = _platform_identities([p for p, _ in chosen])
    except Exception:  # identity is a bonus; the volume list must still come back
        log.warning("drive identification failed", exc_info=True)
        identities = {}
    volumes = []
    for part, usage in chosen:
        ident: dict[str, Any] = {k: None for k in IDENTITY_KEYS} | {"stack": [], "identity_note": ""}
        ident.update({k: v for k, v in identities.get(part.mountpoint, {}).items() if k in IDENTITY_KEYS})
        if not show_serial:
            ident["serial"] = mask_serial(ident["serial"])
        volumes.append({"mountpoint": part.mountpoint, "device": part.device,
                        "fstype": part.fstype, "total_bytes": usage.total,
                        "free_bytes": usage.free, **ident})
    return sorted(volumes, key=lambda v: v["mountpoint"])


def volume_for(path: str | os.PathLike[str], show_serial: bool = False) -> dict[str, Any] | None:
    """The volume holding ``path``, with its ``medium`` (app/paths/medium.py). The mount is the
    kernel's answer (device number), so a folder on a tmpfs, overlay or network mount is never
    attributed to the disk of a mount above it; such a mount, which the volume list leaves out,
    comes back as a volume without a drive identity. Elsewhere: the longest mount point."""
    here = Path(os.path.abspath(path))
    while not here.exists() and here != here.parent:
        here = here.parent
    real = os.path.realpath(here)
    medium = classify(real)
    volumes = list_volumes(show_serial)
    if medium.mount_point is not None:
        best = next((v for v in volumes if v["mountpoint"] == medium.mount_point), None)
        if best is None or medium.kind in ("ram", "network", "fuse", "overlay"):
            best = _bare_volume(medium, medium.mount_point)
        return {**best, "medium": medium.to_json()}
    best = None
    for volume in volumes:
        mount = volume["mountpoint"]
        inside = real == mount or real.startswith(mount.rstrip(os.sep) + os.sep)
        if inside and (best is None or len(mount) > len(best["mountpoint"])):
            best = volume
    return {**best, "medium": medium.to_json()} if best else None


def _bare_volume(medium: Medium, mount_point: str) -> dict[str, Any]:
    """A mount (``mount_point``, the medium's) that is not a drive the app can identify (RAM,
    network, FUSE, overlay)."""
    import psutil
    total: int | None
    free: int | None
    try:
        usage = psutil.disk_usage(mount_point)
        total, free = usage.total, usage.free
    except OSError:
        total = free = None
    return {"mountpoint": mount_point, "device": medium.source, "fstype": medium.fs_type,
            "total_bytes": total, "free_bytes": free, **{k: None for k in IDENTITY_KEYS},
            "stack": list(medium.stack), "identity_note": f"not a drive: the folder {medium.note}"}


def temperature_source(volume: Mapping[str, Any], smartctl: str = "smartctl",
                       sysfs_root: str = "/sys") -> tuple[TemperatureSource | None, str]:
    """(TemperatureSource | None, reason) for a volume dict; see ``app.drive.thermal``."""
    from app.drive.thermal import find_temperature_source
    return find_temperature_source(volume, sysfs_root=sysfs_root, smartctl=smartctl)


def _temperature_fields(volume: Mapping[str, Any], smartctl: str, sysfs_root: str) -> dict[str, Any]:
    source, reason = temperature_source(volume, smartctl, sysfs_root)
    current = None
    if source is not None:
        try:
            current = source.read()
        except Exception as exc:  # it read once during the probe; a second failure is news
            reason = f"temperature read failed: {exc}"
    limits = source.thresholds() if source is not None else {"warning_c": None, "critical_c": None}
    return {"temperature_source": source.name if source else None,
            "temperature_detail": source.detail if source else None, "temperature_c": current,
            "temperature_reason": "" if source else reason,
            "temperature_notes": reason if source else "",
            "warning_temp_c": limits["warning_c"], "critical_temp_c": limits["critical_c"]}


def drives_report(show_serial: bool = False, smartctl: str = "smartctl",
                  sysfs_root: str = "/sys") -> list[dict[str, Any]]:
    """What ``ssd-profiler drives [--json]`` prints: one dict per volume, ``list_volumes`` keys
    plus temperature_source (hwmon|smartctl|psutil|None), temperature_detail (path or command),
    temperature_c, temperature_reason ("temperature unavailable: ..." when there is no source,
    else ""), temperature_notes (why earlier sources were skipped), warning_temp_c and
    critical_temp_c where the source knows them. One probe per physical drive."""
    by_disk: dict[str, dict[str, Any]] = {}
    report = []
    for volume in list_volumes(show_serial):
        key = volume.get("disk") or volume["device"]
        if key not in by_disk:
            by_disk[key] = _temperature_fields(volume, smartctl, sysfs_root)
        report.append({**volume, **by_disk[key], "medium": classify(volume["mountpoint"]).to_json()})
    return report


def describe_drive(path: str | os.PathLike[str], show_serial: bool = False, smartctl: str = "smartctl",
                   sysfs_root: str = "/sys", with_smart: bool = True) -> dict[str, Any]:
    """Everything known about the drive holding ``path``, for run.json's ``drive``: the volume
    and identity (``list_volumes`` keys), the temperature fields of ``drives_report``, and
    ``smart`` (a snapshot from ``app.drive.smart.snapshot``, or None) with ``smart_reason``. Where the
    OS gives no model/firmware/capacity (e.g. some USB bridges), SMART's fill them in."""
    from app.drive import smart
    volume = volume_for(path, show_serial=True) or {
        "mountpoint": None, "device": None, "fstype": None, "total_bytes": None, "free_bytes": None,
        **{k: None for k in IDENTITY_KEYS}, "stack": [], "identity_note": f"no mounted volume holds {path}"}
    out = {**volume, **_temperature_fields(volume, smartctl, sysfs_root),
           "smart": None, "smart_reason": "SMART snapshot not requested"}
    device = volume.get("smart_device")
    if with_smart and device:
        snap, why = smart.snapshot(device, smartctl, volume.get("smart_type"))
        out["smart"], out["smart_reason"] = snap, why
        for key in ("model", "serial", "firmware", "capacity_bytes"):
            if snap and out.get(key) is None:
                out[key] = snap.get(key)
        for key in ("warning_temp_c", "critical_temp_c"):
            if snap and snap.get(key) is not None:
                out[key] = snap[key]  # Identify Controller values beat hwmon's settable temp1_max
    elif with_smart:
        out["smart_reason"] = "no device to ask smartctl about"
    if not show_serial:
        out["serial"] = mask_serial(out.get("serial"))
        if out["smart"]:
            out["smart"] = {**out["smart"], "serial": mask_serial(out["smart"].get("serial"))}
    return out
