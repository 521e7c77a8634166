"""What the drive panel says about the target's drive, as plain lines of text. No Qt.

Why a separate, Qt-free module: ``describe_drive`` runs smartctl and can take seconds, so it runs
in a pool thread, and turning its dict into the lines shown happens there too. The GUI thread
then receives one frozen :class:`DriveSummary` of strings. The dict is read once, into
:class:`app.drive.facts.DriveFacts`; the functions here read its attributes.

:class:`TemperaturePoller` re-reads only the temperature every few seconds while the window is
idle (during a run the run's own sampler feeds the temperature chart instead).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from app.drive.facts import DriveFacts, PcieLink, SmartHealth
from app.specs.record import DriveKey
from app.units import human_bytes

if TYPE_CHECKING:
    from app.drive.thermal import TemperatureSource
    from app.paths.medium import Medium

BUS_NAMES = {"NVMe": "NVMe", "SATA": "SATA", "SAS": "SAS", "USB": "USB", "MMC": "SD/MMC card",
             "virtual": "virtual disk", "unknown": "unknown bus"}
_GEN = {2.5: "1.0", 5.0: "2.0", 8.0: "3.0", 16.0: "4.0", 32.0: "5.0", 64.0: "6.0"}


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
    probe: tuple[tuple[str, Any], ...]   # what find_temperature_source needs (facts.PROBE_KEYS)
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


def _gen(speed: float) -> str:
    return _GEN.get(speed) or f"{speed:g} GT/s"


def link_text(link: PcieLink | None) -> str | None:
    """16 GT/s x4 -> "PCIe 4.0 x4" (plus what it could do when the link trained lower, a common
    cause of slow NVMe results)."""
    if link is None:
        return None
    speed, width = link.speed_gts, link.width
    if speed is None or width is None:
        return link.text
    text = f"PCIe {_gen(speed)} x{width}"
    top, top_width = link.max_speed_gts, link.max_width
    if top and top_width and (top, top_width) != (speed, width):
        text += f" (capable of {_gen(top)} x{top_width})"
    return text


def interface_text(drive: DriveFacts) -> str:
    bus = drive.bus
    parts = [BUS_NAMES.get(bus, bus) if bus else "bus unknown"]
    if drive.rotational is not None and bus != "virtual":
        parts.append("HDD" if drive.rotational else "SSD")
    link = link_text(drive.link)
    if link:
        parts.append(link)
    return ", ".join(parts)


def identity_text(drive: DriveFacts) -> str:
    device = f" ({drive.device})" if drive.device else ""
    parts = [drive.model or f"unknown model{device}"]
    if drive.capacity_bytes:
        parts.append(f"{drive.capacity_bytes / 1e9:,.0f} GB")
    if drive.firmware:
        parts.append(f"firmware {drive.firmware}")
    if drive.serial:
        parts.append(f"serial {drive.serial}")
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


def health_text(smart: SmartHealth | None, reason: str | None) -> tuple[str, str]:
    """(text, state): assessment, wear, power-on hours, data written, media errors."""
    if smart is None:
        return f"unknown: {smart_reason_text(reason)}", "unknown"
    assessment = smart.assessment
    state = {"PASS": "pass", "FAIL": "fail"}.get(str(assessment).upper(), "unknown")
    parts = [f"SMART {assessment}" if assessment else "SMART assessment not reported"]
    if smart.percentage_used is not None:
        parts.append(f"{smart.percentage_used} % of rated wear used")
    if smart.power_on_hours is not None:
        parts.append(f"{smart.power_on_hours:,} h powered on")
    if smart.host_writes_bytes:
        parts.append(f"{smart.host_writes_bytes / 1e12:,.1f} TB written")
    if smart.media_errors:
        parts.append(f"{smart.media_errors:,} media errors")
    if smart.critical_warning:
        parts.append(f"critical warning 0x{smart.critical_warning:02x}")
        if smart.critical_warning & 0x1D:  # spare, reliability, read-only, backup: not heat
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


def medium_text(medium: Medium | None) -> tuple[str, str, str]:
    """(stack line, 'the folder is a virtual disk (vda): the host's storage ... numbers', kind)
    of run.json's ``medium`` record: shown before Run, so the user knows what will be measured."""
    if medium is None:
        return "", "", ""
    line = " on ".join(medium.stack) or medium.fs_type or ""
    return line, (f"the folder {medium.note}" if medium.note else ""), medium.kind


def _temperature_tip(d: DriveFacts) -> str:
    tip = [f"Source: {d.temperature_detail}" if d.temperature_detail else "",
           f"Sources skipped first: {d.temperature_notes}" if d.temperature_notes else "",
           f"Warning {d.warning_temp_c:.0f} °C" if d.warning_temp_c else "",
           f"Critical {d.critical_temp_c:.0f} °C" if d.critical_temp_c else "",
           d.temperature_reason or ""]
    return "\n".join(t for t in tip if t)


def summarize(path: str, d: DriveFacts) -> DriveSummary:
    """The lines shown for the drive ``describe_drive(path)`` found."""
    health, state = health_text(d.smart, d.smart_reason)
    volume = f"volume {d.mountpoint} ({d.device}, {d.fstype}" \
        + (f", {human_bytes(d.total_bytes)}" if d.total_bytes else "") + ")" \
        if d.mountpoint else d.identity_note or ""
    medium, medium_note, medium_kind = medium_text(d.medium)
    return DriveSummary(
        medium=medium, medium_note=medium_note, medium_kind=medium_kind, path=path,
        mountpoint=d.mountpoint, device=d.device,
        identity=identity_text(d) + (f"\n{volume}" if volume else ""),
        interface=interface_text(d), health=health, health_state=state,
        temperature=temperature_line(d.temperature_c, d.temperature_source,
                                     d.temperature_reason or "", d.warning_temp_c),
        temperature_tip=_temperature_tip(d),
        temperature_source=d.temperature_source, warning_c=d.warning_temp_c,
        probe=d.probe, model=d.model, serial=d.serial,
        model_note=d.identity_note or ("virtual disk" if d.bus == "virtual" else ""))


def describe_target(path: str, known: DriveSummary | None = None) -> DriveSummary:
    """Runs in a pool thread. The drive is described (smartctl and all) only when ``path`` is on
    another volume than ``known``: typing a path inside the same volume costs one cheap lookup."""
    from app.drive.identity import describe_drive, volume_for
    if known is not None and known.mountpoint:
        volume = volume_for(path)
        if volume and (volume["mountpoint"], volume["device"]) == (known.mountpoint, known.device):
            return replace(known, path=path)
    record = describe_drive(os.path.abspath(os.path.expanduser(path)))
    return summarize(path, DriveFacts.from_json(record))


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
