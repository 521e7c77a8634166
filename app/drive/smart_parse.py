"""smartctl's output (JSON or text) read into one normalized dict: pure text in, dict out.

Why our own parser beside pySMART: the live temperature poll needs ``smartctl -j -A`` (which
pySMART cannot ask for) and misses ``warning_temp_time``; saved outputs come as text from every
smartctl version and locale: CRLF line ends and thousands separators ``,`` ``.`` ``’`` NBSP
(Windows code page) or NARROW NBSP, e.g. ``500.107.862.016``. The JSON paths are
smartctl's own (``smartctl -j``). The normalized dict has every key of ``FIELDS`` (``None`` when
the output does not state it); temperatures are °C, times minutes, bytes bytes.
``warning_temp_c``/``critical_temp_c``: NVMe WCTEMP/CCTEMP, ATA SCT recommended/limit maximum,
SCSI trip temperature. ``host_writes_source`` says how ``host_writes_bytes`` was derived, because
ATA vendors count attribute 241 in LBAs, 32 MiB or GiB. Running smartctl is app/drive/smart.py.
"""
from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)

NVME_DATA_UNIT_BYTES = 512_000
EXIT_BITS = ("command line did not parse", "device open failed", "a SMART command failed",
             "SMART status: DISK FAILING", "prefail attribute at or below threshold",
             "attribute at or below threshold in the past", "error log has errors",
             "self-test log has errors")
FIELDS = ("model", "serial", "firmware", "capacity_bytes", "protocol", "device_type",
          "rotation_rpm", "temperature_c", "temperature_sensors_c", "warning_temp_c",
          "critical_temp_c", "warning_temp_time_min", "critical_temp_time_min", "critical_warning",
          "data_units_written", "host_writes_bytes", "host_writes_source", "host_reads_bytes",
          "power_on_hours", "power_cycles", "assessment", "media_errors", "percentage_used",
          "available_spare", "sata_link_gbps", "exit_status", "exit_bits", "messages", "format",
          "smartctl_version")
_SEP = ".,'\u2019\u00a0\u202f\ufffd "
_INT = re.compile(r"(?<![\d.,])(\d{1,3}(?:([" + _SEP + r"])\d{3})(?:\2\d{3})*|\d+)(?!\d)")
_ATTR = re.compile(r"^\s*(\d{1,3})\s+(\S+)\s+0x[0-9a-fA-F]{4}\s+\d+\s+\d+\s+\S+\s+\S+\s+\S+\s+\S+\s+(.+)$")
_DEVSTAT = re.compile(r"^\s*0x[0-9a-fA-F]{2}\s+0x[0-9a-fA-F]{3}\s+\d+\s+(\d+)\s+\S+\s+(.+?)\s*$")
_ATA_WRITE_UNITS = {"total_lbas_written": None, "host_writes_32mib": 32 << 20,
                    "host_writes_gib": 1 << 30, "total_writes_gib": 1 << 30,
                    "lifetime_writes_gib": 1 << 30, "host_writes_mib": 1 << 20}


def decode(raw: bytes) -> str:
    """Text from smartctl bytes: UTF-8, else the Windows ANSI code page (NBSP separators)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def exit_bits(rc: int | None) -> list[str]:
    """Names of the bits set in smartctl's exit status (a bitmask, smartctl(8) EXIT STATUS)."""
    return [] if rc is None or rc < 0 else [n for b, n in enumerate(EXIT_BITS) if rc & (1 << b)]


def empty() -> dict[str, Any]:
    return {key: None for key in FIELDS} | {"messages": [], "exit_bits": []}


def parse_smartctl(text: str | bytes, exit_status: int | None = None) -> dict[str, Any]:
    """Normalized dict from smartctl output, JSON (``-j``) or text, any version and locale."""
    text = decode(text) if isinstance(text, bytes) else text
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    out = None
    if text.lstrip().startswith("{"):
        try:
            out = parse_json(json.loads(text))
        except ValueError:
            log.debug("smartctl output starts like JSON but is not; reading it as text")
    out = out or parse_text(text)
    if exit_status is not None:
        out["exit_status"] = exit_status
    out["exit_bits"] = exit_bits(out["exit_status"])
    return out


def first_int(text: object) -> int | None:
    """The first integer in ``text``, thousands separators of any locale removed."""
    match = _INT.search(str(text)) if text is not None else None
    return int(re.sub(r"\D", "", match.group(1))) if match else None


def _float(text: object) -> float | None:
    """``806.827`` or ``11472,811`` (decimal comma): smartctl prints SCSI gigabytes like this."""
    if isinstance(text, (int, float)):
        return float(text)
    match = re.search(r"\d+(?:[.,]\d+)?", str(text or ""))
    return float(match.group(0).replace(",", ".")) if match else None


def _num(value: object) -> int | float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _nvme_units(out: dict[str, Any], written: float | None, read: float | None) -> None:
    out["data_units_written"] = written
    if written is not None:
        out["host_writes_bytes"] = written * NVME_DATA_UNIT_BYTES
        out["host_writes_source"] = "NVMe data units written x 512000"
    if read is not None:
        out["host_reads_bytes"] = read * NVME_DATA_UNIT_BYTES


def _ata_statistic(out: dict[str, Any], name: str, value: float | None, sector: float) -> None:
    """ATA device statistics (ACS standard units, preferred over vendor attributes)."""
    name = name.lower()
    if value is None:
        return
    if name == "logical sectors written":
        out["host_writes_bytes"], out["host_writes_source"] = value * sector, f"ATA device statistics: logical sectors written x {sector}"
    elif name == "logical sectors read":
        out["host_reads_bytes"] = value * sector
    elif name == "percentage used endurance indicator":
        out["percentage_used"] = value
    elif name == "specified maximum operating temperature" and out["warning_temp_c"] is None:
        out["warning_temp_c"] = value


def _ata_attribute(out: dict[str, Any], attr_id: object, name: str, raw: float | None,
                   sector: float) -> None:
    key = name.lower()
    if raw is None:
        return
    if attr_id in (194, 190) and out["temperature_c"] is None and 0 < raw < 150:
        out["temperature_c"] = raw
    elif attr_id == 9 and out["power_on_hours"] is None:
        out["power_on_hours"] = raw // 60 if "minutes" in key and "half" not in key else (
            raw // 120 if "half_minutes" in key else raw)
    elif attr_id == 12 and out["power_cycles"] is None:
        out["power_cycles"] = raw
    elif key in _ATA_WRITE_UNITS and out["host_writes_bytes"] is None:
        unit = _ATA_WRITE_UNITS[key] or sector
        out["host_writes_bytes"] = raw * unit
        out["host_writes_source"] = f"ATA attribute {attr_id} {name} x {unit} (vendor units may differ)"


def parse_json(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Normalized dict from a smartctl JSON document (6.7 pre-release JSON up to 7.5)."""
    out = empty() | {"format": "json"}
    meta = doc.get("smartctl") or {}
    out["smartctl_version"] = ".".join(str(v) for v in meta.get("version") or []) or None
    out["exit_status"] = _num(meta.get("exit_status"))
    out["messages"] = [m.get("string", "") for m in meta.get("messages") or [] if isinstance(m, dict)]
    device = doc.get("device") or {}
    out["protocol"], out["device_type"] = device.get("protocol"), device.get("type")
    out["model"] = doc.get("model_name") or " ".join(
        x for x in (doc.get("vendor"), doc.get("product")) if x) or None
    out["serial"] = doc.get("serial_number")
    out["firmware"] = doc.get("firmware_version") or doc.get("revision")
    out["capacity_bytes"] = (_num((doc.get("user_capacity") or {}).get("bytes"))
                             or _num(doc.get("nvme_total_capacity")))
    out["rotation_rpm"] = _num(doc.get("rotation_rate"))
    temp = doc.get("temperature") or {}
    nvme = doc.get("nvme_smart_health_information_log") or {}
    limits = doc.get("nvme_composite_temperature_threshold") or {}
    out["temperature_c"] = _num(temp.get("current")) if "current" in temp else _num(nvme.get("temperature"))
    out["temperature_sensors_c"] = [t for t in nvme.get("temperature_sensors") or [] if _num(t)] or None
    out["warning_temp_c"] = _num(limits.get("warning")) or _num(temp.get("op_limit_max"))
    out["critical_temp_c"] = (_num(limits.get("critical")) or _num(temp.get("critical_limit_max"))
                              or _num(temp.get("limit_max")) or _num(temp.get("drive_trip")))
    passed = (doc.get("smart_status") or {}).get("passed")
    out["assessment"] = {True: "PASS", False: "FAIL"}.get(passed) if isinstance(passed, bool) else None
    out["power_on_hours"] = _num((doc.get("power_on_time") or {}).get("hours"))
    out["power_cycles"] = _num(doc.get("power_cycle_count"))
    speed = (doc.get("interface_speed") or {}).get("current") or {}  # the negotiated SATA link
    if _num(speed.get("units_per_second")) and _num(speed.get("bits_per_unit")):
        out["sata_link_gbps"] = speed["units_per_second"] * speed["bits_per_unit"] / 1e9
    if nvme:
        out["protocol"] = out["protocol"] or "NVMe"
        for key, src in (("critical_warning", "critical_warning"), ("warning_temp_time_min", "warning_temp_time"),
                         ("critical_temp_time_min", "critical_comp_time"), ("percentage_used", "percentage_used"),
                         ("available_spare", "available_spare"), ("media_errors", "media_errors"),
                         ("power_on_hours", "power_on_hours"), ("power_cycles", "power_cycles")):
            out[key] = _num(nvme.get(src)) if src in nvme else out[key]
        _nvme_units(out, _num(nvme.get("data_units_written")), _num(nvme.get("data_units_read")))
        return out
    sector = _num(doc.get("logical_block_size")) or 512
    for page in (doc.get("ata_device_statistics") or {}).get("pages") or []:
        for row in page.get("table") or []:
            _ata_statistic(out, row.get("name") or "", _num(row.get("value")), sector)
    for attr in (doc.get("ata_smart_attributes") or {}).get("table") or []:
        raw = attr.get("raw") or {}
        value = first_int(raw.get("string"))
        _ata_attribute(out, attr.get("id"), attr.get("name") or "",
                       value if value is not None else _num(raw.get("value")), sector)
    gigabytes = _float(((doc.get("scsi_error_counter_log") or {}).get("write") or {}).get("gigabytes_processed"))
    if gigabytes is not None:
        out["host_writes_bytes"] = int(round(gigabytes * 1e9))
        out["host_writes_source"] = "SCSI error counter log: gigabytes processed (write) x 10^9"
    out["percentage_used"] = _num(doc.get("scsi_percentage_used_endurance_indicator", out["percentage_used"]))
    return out


def _text_fields(text: str) -> dict[str, str]:
    """``Key:   value`` lines, keys lower-cased with runs of spaces collapsed (first one wins)."""
    fields: dict[str, str] = {}
    for line in text.split("\n"):
        match = re.match(r"^([A-Za-z][^:=]{0,60}?)\s*[:=]\s+(\S.*?)\s*$", line)
        if match:
            fields.setdefault(re.sub(r"\s+", " ", match.group(1)).lower(), match.group(2))
    return fields


_ERROR_LINE = re.compile(r"(permission denied|operation not permitted|unable to detect|open device|"
                         r"usb bridge|failed:|no such device)", re.IGNORECASE)


def parse_text(text: str) -> dict[str, Any]:
    """Normalized dict from ``smartctl -a``/``-x``/``-A`` text (ATA, NVMe, SCSI layouts)."""
    out = empty() | {"format": "text"}
    f = _text_fields(text)

    def get(*keys: str) -> str | None:
        return next((f[k] for k in keys if k in f), None)

    version = re.search(r"^smartctl (\d+\.\d+)", text, re.MULTILINE)
    out["smartctl_version"] = version.group(1) if version else None
    out["messages"] = [ln.strip() for ln in text.split("\n")[2:] if _ERROR_LINE.search(ln)]
    nvme = "model number" in f or "NVMe Log 0x02" in text
    scsi = "product" in f and not nvme
    out["protocol"] = "NVMe" if nvme else "SCSI" if scsi else "ATA" if ("device model" in f or _ATTR.search(text)) else None
    out["model"] = get("device model", "model number") or (
        " ".join(x for x in (get("vendor"), get("product")) if x) if scsi else None)
    out["serial"], out["firmware"] = get("serial number"), get("firmware version", "revision")
    out["capacity_bytes"] = first_int(get("user capacity", "total nvm capacity", "namespace 1 size/capacity"))
    rotation = get("rotation rate")
    out["rotation_rpm"] = 0 if rotation and "solid state" in rotation.lower() else first_int(rotation)
    health = get("smart overall-health self-assessment test result", "smart health status")
    if health:
        out["assessment"] = "PASS" if health.upper().startswith(("PASSED", "OK")) else "FAIL"
    out["temperature_c"] = first_int(get("temperature", "current drive temperature", "current temperature"))
    out["warning_temp_c"] = first_int(get("warning comp. temp. threshold"))
    out["critical_temp_c"] = first_int(get("critical comp. temp. threshold", "drive trip temperature"))
    sensors = [first_int(v) for k, v in f.items() if re.fullmatch(r"temperature sensor \d+", k)]
    out["temperature_sensors_c"] = [s for s in sensors if s] or None
    out["warning_temp_time_min"] = first_int(get("warning comp. temperature time"))
    out["critical_temp_time_min"] = first_int(get("critical comp. temperature time"))
    warning = get("critical warning")
    out["critical_warning"] = int(warning, 16) if warning and re.fullmatch(r"0x[0-9a-fA-F]+", warning) else None
    out["media_errors"] = first_int(get("media and data integrity errors"))
    out["percentage_used"] = first_int(get("percentage used", "percentage used endurance indicator"))
    out["available_spare"] = first_int(get("available spare"))
    out["power_on_hours"] = first_int(get("power on hours"))
    out["power_cycles"] = first_int(get("power cycles"))
    link = re.search(r"current: ([\d.]+) Gb/s", get("sata version is") or "")
    out["sata_link_gbps"] = float(link.group(1)) if link else None
    if nvme:
        _nvme_units(out, first_int(get("data units written")), first_int(get("data units read")))
    hours = re.search(r"power on time, hours:minutes\s+(\d+):", text)
    if hours and out["power_on_hours"] is None:
        out["power_on_hours"] = int(hours.group(1))
    sizes = re.search(r"(\d+) bytes logical", get("sector size", "sector sizes") or "")
    sector = int(sizes.group(1)) if sizes else 512
    for line in text.split("\n"):
        stat, attr = _DEVSTAT.match(line), _ATTR.match(line)
        if stat:
            _ata_statistic(out, stat.group(2).rstrip(" -"), int(stat.group(1)), sector)
        elif attr and not nvme:
            _ata_attribute(out, int(attr.group(1)), attr.group(2), first_int(attr.group(3)), sector)
        elif scsi and re.match(r"^write:\s", line) and len(line.split()) >= 8:
            gigabytes = _float(line.split()[6])
            if gigabytes is None:
                continue
            out["host_writes_bytes"] = int(round(gigabytes * 1e9))
            out["host_writes_source"] = "SCSI error counter log: gigabytes processed (write) x 10^9"
    return out
