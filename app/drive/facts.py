"""The drive facts a reader shows, typed once from ``describe_drive``'s record (run.json's
``drive`` block): identity, bus and link, SMART health, temperature, the medium under the folder.

Why: the record is free-form JSON (what the OS and smartctl happened to say, older versions'
keys, ``None`` for unknown), so it is read here, once, into frozen values whose ``None`` means
"not known"; the window's drive panel then reads attributes, not keys.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.paths.medium import Medium

#: What a temperature source is found from again (app/drive/identity.temperature_source).
PROBE_KEYS = ("disk_name", "smart_device", "smart_type", "bus", "device")


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None


@dataclass(frozen=True)
class PcieLink:
    """The negotiated PCIe link (and what it could do), or only its words (``text``)."""

    speed_gts: float | None = None
    width: int | None = None
    max_speed_gts: float | None = None
    max_width: int | None = None
    text: str | None = None

    @classmethod
    def from_json(cls, value: Any) -> PcieLink | None:
        if not isinstance(value, Mapping):
            return cls(text=str(value)) if value else None
        return cls(_number(value.get("speed_gts")), _whole(value.get("width")),
                   _number(value.get("max_speed_gts")), _whole(value.get("max_width")),
                   _text(value.get("text")))


@dataclass(frozen=True)
class SmartHealth:
    """What a SMART snapshot says about the drive's health (None: not reported)."""

    assessment: str | None = None
    percentage_used: int | None = None
    power_on_hours: int | None = None
    host_writes_bytes: int | None = None
    media_errors: int | None = None
    critical_warning: int | None = None

    @classmethod
    def from_json(cls, value: Any) -> SmartHealth | None:
        if not isinstance(value, Mapping) or not value:
            return None
        return cls(_text(value.get("assessment")), *(_whole(value.get(key)) for key in (
            "percentage_used", "power_on_hours", "host_writes_bytes", "media_errors",
            "critical_warning")))


@dataclass(frozen=True)
class DriveFacts:
    """One drive as ``describe_drive`` found it; every field may be unknown (None)."""

    mountpoint: str | None = None
    device: str | None = None
    fstype: str | None = None
    total_bytes: int | None = None
    free_bytes: int | None = None
    bus: str | None = None
    rotational: bool | None = None
    link: PcieLink | None = None
    model: str | None = None
    capacity_bytes: int | None = None
    firmware: str | None = None
    serial: str | None = None
    identity_note: str | None = None
    smart: SmartHealth | None = None
    smart_reason: str | None = None
    temperature_c: float | None = None
    temperature_source: str | None = None
    temperature_detail: str | None = None
    temperature_notes: str | None = None
    temperature_reason: str | None = None
    warning_temp_c: float | None = None
    critical_temp_c: float | None = None
    medium: Medium | None = None
    probe: tuple[tuple[str, Any], ...] = ()   # PROBE_KEYS and their values

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> DriveFacts:
        def text(key: str) -> str | None:
            return _text(record.get(key))

        rotational = record.get("rotational")
        return cls(
            mountpoint=text("mountpoint"), device=text("device"), fstype=text("fstype"),
            total_bytes=_whole(record.get("total_bytes")),
            free_bytes=_whole(record.get("free_bytes")), bus=text("bus"),
            rotational=bool(rotational) if rotational is not None else None,
            link=PcieLink.from_json(record.get("link")), model=text("model"),
            capacity_bytes=_whole(record.get("capacity_bytes")), firmware=text("firmware"),
            serial=text("serial"), identity_note=text("identity_note"),
            smart=SmartHealth.from_json(record.get("smart")), smart_reason=text("smart_reason"),
            temperature_c=_number(record.get("temperature_c")),
            temperature_source=text("temperature_source"),
            temperature_detail=text("temperature_detail"),
            temperature_notes=text("temperature_notes"),
            temperature_reason=text("temperature_reason"),
            warning_temp_c=_number(record.get("warning_temp_c")),
            critical_temp_c=_number(record.get("critical_temp_c")),
            medium=Medium.from_json(record.get("medium")),
            probe=tuple((key, record.get(key)) for key in PROBE_KEYS))
