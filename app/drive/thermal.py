"""Drive temperature: where it can be read, in order of preference, and why not when it can't.

Order: the drive's own hwmon directory in sysfs (Linux NVMe, or SATA
with ``drivetemp``; readable without root), then ``smartctl -j -A`` (root on Linux, usually not
on Windows NVMe or macOS), then psutil's sensors (Linux only, and only when the drive's group is
unambiguous, since psutil lumps all NVMe drives into one ``nvme`` list). A source is kept only
after one successful read; otherwise the reasons of every source tried are joined into one line
"temperature unavailable: ...". Reading is cheap but not free (an NVMe read fetches a SMART log
page), so the sampler polls at 1 Hz or slower.
"""
from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.drive import smart

log = logging.getLogger(__name__)

SMARTCTL_POLL_TIMEOUT_S = 5.0


class TemperatureUnavailable(RuntimeError):
    """A source cannot give a temperature now; the message says why in one line."""


class TemperatureSource:
    """Base: ``read()`` -> °C (raises TemperatureUnavailable); ``name`` and ``detail`` for people."""

    name = "none"
    detail = ""

    def read(self) -> float:
        raise NotImplementedError

    def thresholds(self) -> dict[str, float | None]:
        """``{"warning_c": …, "critical_c": …}`` where this source knows them (None otherwise)."""
        return {"warning_c": None, "critical_c": None}

    def describe(self) -> dict[str, str]:
        return {"source": self.name, "detail": self.detail}


def _read_milli(path: Path) -> float | None:
    try:
        value = int(path.read_text().strip())
    except (OSError, ValueError):
        return None
    return value / 1000.0


class HwmonSource(TemperatureSource):
    """The hwmon directory of one drive: NVMe controller (``nvme0/hwmonN``, no root needed) or a
    SATA disk with ``drivetemp`` (``device/hwmon/hwmonN``). ``disk`` is the kernel name of the
    whole disk (``nvme0n1``, ``sda``); ``sysfs_root`` lets tests use a fake tree."""

    name = "hwmon"

    def __init__(self, disk: str, sysfs_root: str | Path = "/sys"):
        self.disk, self.root = disk, Path(sysfs_root)
        self.path = self._find()
        self.detail = str(self.path) if self.path else ""

    def _candidates(self) -> list[Path]:
        device = self.root / "block" / self.disk / "device"
        dirs = [device, *sorted(device.glob("nvme[0-9]*"))]  # multipath: subsystem -> controllers
        match = re.match(r"nvme(\d+)n\d+", self.disk)
        if match:
            dirs.append(self.root / "class" / "nvme" / f"nvme{match.group(1)}")
        found = []
        for d in dirs:
            found += sorted(d.glob("hwmon[0-9]*")) + sorted(d.glob("hwmon/hwmon[0-9]*"))
        return found

    def _find(self) -> Path | None:
        for hwmon in self._candidates():
            try:
                kind = (hwmon / "name").read_text().strip()
            except OSError:
                continue
            if kind in ("nvme", "drivetemp") and (hwmon / "temp1_input").exists():
                return hwmon
        return None

    @property
    def reason(self) -> str:
        return "" if self.path else f"no NVMe or drivetemp hwmon sensor for {self.disk} in {self.root}"

    def read(self) -> float:
        if self.path is None:
            raise TemperatureUnavailable(self.reason)
        value = _read_milli(self.path / "temp1_input")
        if value is None:
            raise TemperatureUnavailable(f"cannot read {self.path / 'temp1_input'}")
        return value

    def thresholds(self) -> dict[str, float | None]:
        """NVMe hwmon: ``temp1_max`` is the over-temperature threshold feature (WCTEMP by
        default on most drives), ``temp1_crit`` is CCTEMP."""
        if self.path is None:
            return super().thresholds()
        return {"warning_c": _read_milli(self.path / "temp1_max"),
                "critical_c": _read_milli(self.path / "temp1_crit")}


class SmartctlSource(TemperatureSource):
    """``smartctl -j -A [-d TYPE] DEVICE`` per read, bounded by a timeout. Keeps the last parse
    (``last``) so the warning-temperature-time counter can be watched too."""

    name = "smartctl"

    def __init__(self, device: str, smartctl: str = "smartctl", device_type: str | None = None,
                 timeout_s: float = SMARTCTL_POLL_TIMEOUT_S):
        self.device, self.smartctl, self.device_type = device, smartctl, device_type
        self.timeout_s = timeout_s
        self.detail = f"smartctl -j -A {device}"
        self.last: dict[str, Any] | None = None

    def read(self) -> float:
        parsed, reason = smart.read_smart(self.device, ("-j", "-A"), self.smartctl,
                                          self.device_type, self.timeout_s)
        if parsed is None:
            raise TemperatureUnavailable(reason)
        if parsed["temperature_c"] is None:
            raise TemperatureUnavailable(f"smartctl reports no temperature for {self.device}")
        self.last = parsed
        return float(parsed["temperature_c"])

    def thresholds(self) -> dict[str, float | None]:
        last = self.last or {}
        return {"warning_c": last.get("warning_temp_c"), "critical_c": last.get("critical_temp_c")}


class PsutilSource(TemperatureSource):
    """One entry of ``psutil.sensors_temperatures()[group]`` (``Composite`` first)."""

    name = "psutil"

    def __init__(self, group: str, index: int = 0):
        self.group, self.index = group, index
        self.detail = f"psutil.sensors_temperatures()['{group}'][{index}]"

    def read(self) -> float:
        import psutil
        sensors = getattr(psutil, "sensors_temperatures", None)  # absent on Windows and macOS
        entries = ((sensors() if sensors else None) or {}).get(self.group) or []
        if len(entries) <= self.index:
            raise TemperatureUnavailable(f"psutil has no '{self.group}' sensor")
        return float(entries[self.index].current)


def _psutil_candidate(bus: str | None) -> tuple[PsutilSource | None, str]:
    """A psutil group that can only be this drive: exactly one NVMe controller (or SATA disk)."""
    import psutil
    if not hasattr(psutil, "sensors_temperatures"):
        return None, "psutil has no sensors on this OS"
    try:
        groups = psutil.sensors_temperatures() or {}
    except (OSError, RuntimeError) as exc:
        return None, f"psutil sensors failed: {exc}"
    group = {"NVMe": "nvme", "SATA": "drivetemp"}.get(bus or "")
    if not group or group not in groups:
        return None, "psutil has no sensor for this kind of drive"
    labels = [e.label for e in groups[group]]
    composite = [i for i, label in enumerate(labels) if label in ("Composite", "")]
    if len(composite) != 1:
        return None, f"psutil lists {len(composite)} '{group}' drives and cannot tell which is this one"
    return PsutilSource(group, composite[0]), ""


def find_temperature_source(volume: Mapping[str, Any], sysfs_root: str | Path = "/sys", smartctl: str = "smartctl",
                            use_psutil: bool = True) -> tuple[TemperatureSource | None, str]:
    """The first source that reads a temperature for the drive behind ``volume`` (a dict from
    ``app.drive.identity``: ``disk_name``, ``smart_device``, ``smart_type``, ``bus``; the old ``device``
    key alone also works). Returns (source, notes on sources skipped before it, "" if none) or
    (None, "temperature unavailable: REASON")."""
    notes = []
    source: TemperatureSource | None
    linux = sys.platform.startswith("linux")
    disk = volume.get("disk_name")
    bus = volume.get("bus")
    if linux and disk:
        source = HwmonSource(disk, sysfs_root)
        ok, why = _probe(source)
        if ok:
            return source, ""
        notes.append(_note("hwmon", why))
    device = volume.get("smart_device") or volume.get("device")
    if device:
        source = SmartctlSource(device, smartctl, volume.get("smart_type"))
        ok, why = _probe(source)
        if ok:
            return source, "; ".join(notes)
        notes.append(_note("smartctl", why))
    else:
        notes.append("smartctl: no device to ask")
    if linux and use_psutil:
        candidate, why = _psutil_candidate(bus)
        if candidate is not None:
            source = candidate
            ok, why = _probe(source)
            if ok:
                return source, "; ".join(notes)
        notes.append(_note("psutil", why))
    prefix = {"virtual": "virtual disk, no sensor to read", "USB": "USB drive"}.get(bus or "")
    return None, "temperature unavailable: " + "; ".join(([prefix] if prefix else []) + notes)


def _note(tool: str, why: str) -> str:
    return why if why.lower().startswith(tool) else f"{tool}: {why}"


def _probe(source: TemperatureSource) -> tuple[bool, str]:
    try:
        source.read()
    except TemperatureUnavailable as exc:
        return False, str(exc)
    except Exception as exc:  # a broken sensor must not break drive listing
        log.debug("temperature probe failed", exc_info=True)
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""
