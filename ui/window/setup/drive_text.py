"""What the drive panel says about the target's drive, as plain lines of text. No Qt.

Why a separate, Qt-free module: ``describe_drive`` runs smartctl and can take seconds, so it runs
in a pool thread, and turning its dict into the lines shown happens there too. The GUI thread
then receives one frozen :class:`DriveSummary` of strings, never the dict. The same functions are
easy to test on hand-made dicts.

:class:`TemperaturePoller` re-reads only the temperature every few seconds while the window is
idle (during a run the run's own sampler feeds the temperature chart instead).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from app.units import human_bytes
from app.vendor.record import DriveKey

if TYPE_CHECKING:
    from app.drive.thermal import TemperatureSource

BUS_NAMES = {"NVMe": "NVMe", "SATA": "SATA", "SAS": "SAS", "USB": "USB", "MMC": "SD/MMC card",
             "virtual": "virtual disk", "unknown": "unknown bus"}
_GEN = {2.5: "1.0", 5.0: "2.0", 8.0: "3.0", 16.0: "4.0", 32.0: "5.0", 64.0: "6.0"}
PROBE_KEYS = ("disk_name", "smart_device", "smart_type", "bus", "device")


@dataclass(frozen=True)
class DriveSummary:
    """The drive of one target folder, ready to show (every field is display text)."""

    path: str
    mountpoint: str | None
    device: str | None
    identity: str            # model, capacity, firmware, masked serial
    interface: str           # "NVMe, SSD, PCIe 4.0 x4" / "virtual disk"
    health: str              # "SMART PASS · 3 % used · ..." or "unknown: REASON"
    health_state: str        # pass | fail | unknown
    temperature: str         # "35 °C, read by smartctl" or "temperature unavailable: REASON"
    temperature_tip: str     # where it was read, thresholds, sources skipped
    temperature_source: str | None
    warning_c: float | None  # the drive's warning temperature, where known
    probe: tuple[tuple[str, Any], ...]   # what find_temperature_source needs (PROBE_KEYS)
    model: str | None = None  # the model string as the drive reports it (vendor spec lookup)
    model_note: str = ""      # why there is none (virtual disk, no identity)
    medium: str = ""          # "ext4 on LVM vg-root on nvme0n1p3 on nvme0n1" (app/paths/medium.py)
    medium_note: str = ""     # what the medium means for the numbers ("" on a plain drive)
    medium_kind: str = ""     # drive | virtual | loop | overlay | network | fuse | ram | zram
    serial: str | None = None  # masked, as run.json records it: a vendor spec attaches to it

    @property
    def vendor_key(self) -> DriveKey:
        """The drive as a vendor spec sees it (a spec entered for it attaches to it)."""
        return DriveKey(self.model, self.serial, self.device or self.mountpoint)


@dataclass(frozen=True)
class TemperatureReading:
    celsius: float | None
    source: str | None
    detail: str               # the reading's source detail, or why there is none


def _gen(speed) -> str:
    return _GEN.get(speed) or (f"{speed:g} GT/s" if isinstance(speed, (int, float)) else "?")


def link_text(link) -> str | None:
    """``{"speed_gts": 16.0, "width": 4, ...}`` -> "PCIe 4.0 x4" (plus what it could do when the
    link trained lower, a common cause of slow NVMe results)."""
    if not isinstance(link, Mapping):
        return str(link) if link else None
    speed, width = link.get("speed_gts"), link.get("width")
    if speed is None or width is None:
        return link.get("text") or None
    text = f"PCIe {_gen(speed)} x{width}"
    top, top_width = link.get("max_speed_gts"), link.get("max_width")
    if top and top_width and (top, top_width) != (speed, width):
        text += f" (capable of {_gen(top)} x{top_width})"
    return text


def interface_text(drive: Mapping) -> str:
    bus = drive.get("bus")
    parts = [BUS_NAMES.get(bus, bus) if bus else "bus unknown"]
    rotational = drive.get("rotational")
    if rotational is not None and bus != "virtual":
        parts.append("HDD" if rotational else "SSD")
    link = link_text(drive.get("link"))
    if link:
        parts.append(link)
    return ", ".join(parts)


def identity_text(drive: Mapping) -> str:
    device = f" ({drive['device']})" if drive.get("device") else ""
    parts = [drive.get("model") or f"unknown model{device}"]
    capacity = drive.get("capacity_bytes")
    if capacity:
        parts.append(f"{capacity / 1e9:,.0f} GB")
    if drive.get("firmware"):
        parts.append(f"firmware {drive['firmware']}")
    if drive.get("serial"):
        parts.append(f"serial {drive['serial']}")
    return " · ".join(parts)


def smart_reason_text(reason: str | None) -> str:
    """smartctl's refusal in words a student can act on."""
    reason = (reason or "").strip()
    low = reason.lower()
    if "smartctl not found" in low:
        return "smartctl is not installed (install smartmontools to see the drive's health)"
    if low.startswith("not permitted"):
        return reason.replace("not permitted: ", "") + " (health is not needed to measure)"
    return reason or "no SMART data"


def health_text(smart: Mapping | None, reason: str | None) -> tuple[str, str]:
    """(text, state): assessment, wear, power-on hours, data written, media errors."""
    if not smart:
        return f"unknown: {smart_reason_text(reason)}", "unknown"
    assessment = smart.get("assessment")
    state = {"PASS": "pass", "FAIL": "fail"}.get(str(assessment).upper(), "unknown")
    parts = [f"SMART {assessment}" if assessment else "SMART assessment not reported"]
    if smart.get("percentage_used") is not None:
        parts.append(f"{smart['percentage_used']} % of rated wear used")
    if smart.get("power_on_hours") is not None:
        parts.append(f"{smart['power_on_hours']:,} h powered on")
    if smart.get("host_writes_bytes"):
        parts.append(f"{smart['host_writes_bytes'] / 1e12:,.1f} TB written")
    if smart.get("media_errors"):
        parts.append(f"{smart['media_errors']:,} media errors")
    if smart.get("critical_warning"):
        parts.append(f"critical warning 0x{smart['critical_warning']:02x}")
        if smart["critical_warning"] & 0x1D:  # spare, reliability, read-only, backup: not heat
            state = "fail"
    return " · ".join(parts), state


def temperature_line(celsius: float | None, source: str | None, reason: str = "",
                     warning_c: float | None = None) -> str:
    if celsius is None:
        reason = reason or "temperature unavailable: no sensor reading"
        reason = reason if reason.startswith("temperature unavailable") else \
            f"temperature unavailable: {reason}"
        # the first reason only; every source tried is in the tooltip
        return reason.split(";")[0] + (" (hover for details)" if ";" in reason else "")
    text = f"{celsius:.0f} °C now, read by {source}"
    return text + (f" (drive warns at {warning_c:.0f} °C)" if warning_c else "")


def medium_text(medium) -> tuple[str, str, str]:
    """(stack line, 'the folder is a virtual disk (vda): the host's storage ... numbers', kind)
    of run.json's ``medium`` record: shown before Run, so the user knows what will be measured."""
    if not isinstance(medium, Mapping):
        return "", "", ""
    note = medium.get("note") or ""
    line = medium.get("line") or " on ".join(medium.get("stack") or ()) or medium.get("fs_type") or ""
    return line, (f"the folder {note}" if note else ""), medium.get("kind") or ""


def summarize(path: str, drive: Mapping) -> DriveSummary:
    """The lines shown for ``describe_drive(path)``'s dict."""
    health, state = health_text(drive.get("smart"), drive.get("smart_reason"))
    tip = [f"Source: {drive['temperature_detail']}" if drive.get("temperature_detail") else "",
           f"Sources skipped first: {drive['temperature_notes']}" if drive.get("temperature_notes") else "",
           f"Warning {drive['warning_temp_c']:.0f} °C" if drive.get("warning_temp_c") else "",
           f"Critical {drive['critical_temp_c']:.0f} °C" if drive.get("critical_temp_c") else ""]
    if drive.get("temperature_reason"):
        tip.append(drive["temperature_reason"])
    volume = f"volume {drive['mountpoint']} ({drive.get('device')}, {drive.get('fstype')}" \
        + (f", {human_bytes(drive['total_bytes'])}" if drive.get("total_bytes") else "") + ")" \
        if drive.get("mountpoint") else drive.get("identity_note") or ""
    medium, medium_note, medium_kind = medium_text(drive.get("medium"))
    return DriveSummary(
        medium=medium, medium_note=medium_note, medium_kind=medium_kind, path=path, mountpoint=drive.get("mountpoint"), device=drive.get("device"),
        identity=identity_text(drive) + (f"\n{volume}" if volume else ""),
        interface=interface_text(drive), health=health, health_state=state,
        temperature=temperature_line(drive.get("temperature_c"), drive.get("temperature_source"),
                                     drive.get("temperature_reason") or "", drive.get("warning_temp_c")),
        temperature_tip="\n".join(t for t in tip if t),
        temperature_source=drive.get("temperature_source"), warning_c=drive.get("warning_temp_c"),
        probe=tuple((k, drive.get(k)) for k in PROBE_KEYS), model=drive.get("model") or None,
        serial=drive.get("serial") or None,
        model_note=str(drive.get("identity_note") or
                       ("virtual disk" if drive.get("bus") == "virtual" else "")))


def describe_target(path: str, known: DriveSummary | None = None) -> DriveSummary:
    """Runs in a pool thread. The drive is described (smartctl and all) only when ``path`` is on
    another volume than ``known``: typing a path inside the same volume costs one cheap lookup."""
    from app.drive.identity import describe_drive, volume_for
    if known is not None and known.mountpoint:
        volume = volume_for(path)
        if volume and (volume["mountpoint"], volume["device"]) == (known.mountpoint, known.device):
            return replace(known, path=path)
    return summarize(path, describe_drive(os.path.abspath(os.path.expanduser(path))))


class TemperaturePoller:
    """Reads the current temperature of one drive. ``poll`` runs only in pool threads and the
    panel keeps at most one call in flight, so the source object found here never leaves the
    pool side; the GUI thread receives only :class:`TemperatureReading` values."""

    def __init__(self, probe: tuple[tuple[str, Any], ...]):
        self._volume = dict(probe)
        self._source: TemperatureSource | None = None

    def poll(self) -> TemperatureReading:
        from app.drive.identity import temperature_source
        if self._source is None:
            source, reason = temperature_source(self._volume)
            if source is None:
                return TemperatureReading(None, None, reason)
            self._source = source
        source = self._source
        try:
            value = source.read()
        except Exception as exc:  # noqa: BLE001 - a failed read is shown, and probed again next time
            self._source = None
            return TemperatureReading(None, source.name, f"temperature unavailable: {source.name}: {exc}")
        return TemperatureReading(float(value), source.name, source.detail)
