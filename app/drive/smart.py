"""smartctl, run safely: bounded, no shell, no console window; and the one-off snapshot that
merges our parse with pySMART's.

Why a timeout everywhere: smartctl can hang on a USB bridge or a sleeping disk, and the live
temperature poll must never stall a run (pySMART's Popen has none, so it gets ours). The parsing
is pure and lives in app/drive/smart_parse.py; its public names are re-exported here so callers
have one module to ask.
"""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from typing import Any

from app.drive.bounded import run_bounded
from app.drive.smart_parse import (  # noqa: F401 (re-exported: the module callers ask)
    EXIT_BITS,
    FIELDS,
    NVME_DATA_UNIT_BYTES,
    decode,
    empty,
    exit_bits,
    first_int,
    parse_json,
    parse_smartctl,
    parse_text,
)

TIMEOUT_S = 20.0
#: Where OSes put smartctl off a regular user's PATH (Debian: /usr/sbin, which only root's has).
SBIN_DIRS = ("/usr/sbin", "/sbin", "/usr/local/sbin", "/opt/homebrew/sbin")


def find_smartctl(smartctl: str = "smartctl") -> str | None:
    """smartctl on PATH, else in the sbin folders; an explicit path is taken as it is."""
    found = shutil.which(smartctl)
    if found or os.sep in smartctl:
        return found
    for folder in SBIN_DIRS:
        found = shutil.which(smartctl, path=folder)
        if found:
            return found
    return None


# -- running smartctl ---------------------------------------------------------------------------
def run_tool(argv: list[str], timeout: float,
             env: Mapping[str, str] | None = None) -> tuple[int | None, bytes, str]:
    """The one way app/ runs a short helper tool: argv list, no shell, bounded by ``timeout``
    and in what it prints (app/drive/bounded.py), no console window on Windows. Returns (rc or
    None when it did not run, stdout, message)."""
    rc, out, message = run_bounded(argv, timeout, env)
    if rc is None and message.startswith("no answer within"):
        message = f"{os.path.basename(argv[0])} timed out after {timeout:g} s"
    return rc, out, message


def no_data(rc: int | None) -> bool:
    """Bits 0-1 mean smartctl read nothing. Bit 2 (a SMART command failed) can be partial and
    bits 3-7 report drive status with the data still there, so those are judged by content."""
    return rc is None or rc < 0 or bool(rc & 0b011)


def read_smart(device: str, args: tuple[str, ...] = ("-j", "-A"), smartctl: str = "smartctl",
               device_type: str | None = None,
               timeout: float = TIMEOUT_S) -> tuple[dict[str, Any] | None, str]:
    """``smartctl ARGS [-d TYPE] DEVICE`` parsed: (normalized dict | None, reason). The reason is
    "" when data came back, else one line (not installed, not permitted, unsupported device type,
    USB bridge, timeout) built from the exit bits and smartctl's messages."""
    exe = find_smartctl(smartctl)
    if exe is None:
        return None, f"smartctl not found ({smartctl}): install smartmontools"
    argv = [exe, *args, *(["-d", device_type] if device_type else []), device]
    rc, raw, err = run_tool(argv, timeout)
    if rc is None:
        return None, err
    parsed = parse_smartctl(raw, rc)
    if not no_data(rc) and any(parsed[k] is not None for k in ("model", "temperature_c", "assessment")):
        return parsed, ""
    return None, explain(parsed, device, err)


def explain(parsed: Mapping[str, Any], device: str, stderr: str = "") -> str:
    """One line: why smartctl gave no data for ``device``."""
    text = " ".join([*parsed["messages"], stderr]).strip()
    low = text.lower()
    if "permission denied" in low or "operation not permitted" in low or "error=5" in low:
        if sys.platform == "win32":
            return (f"not permitted: SMART of {device} needs administrator rights (run the app as "
                    "administrator once); the drive's temperature may still come from the OS")
        return (f"not permitted: SMART of {device} needs root; `sudo smartctl -a {device}` reads it "
                "(the temperature still comes from hwmon where the kernel has a sensor)")
    if "usb bridge" in low:
        return f"USB bridge: SMART commands do not pass through to {device} ({text})"
    if "unable to detect device type" in low:
        return f"smartctl cannot detect the device type of {device} (virtual disk or unsupported controller)"
    return f"smartctl {device}: {text or ', '.join(parsed['exit_bits']) or 'no SMART data in the output'}"


# -- one-off snapshot (pySMART first) -----------------------------------------------------------
def snapshot(device: str, smartctl: str = "smartctl", device_type: str | None = None,
             use_pysmart: bool = True,
             timeout: float = TIMEOUT_S) -> tuple[dict[str, Any] | None, str]:
    """Identity and health before/after a run: (normalized dict | None, reason).

    Both readers run: our ``smartctl -j -x`` parse and pySMART (model, firmware, assessment, data
    units written, power-on hours, temperature times). Ours wins where both have a value, because
    pySMART mis-reads some text (e.g. the Apacer fixture's ``Add. Product Id`` as the model) and
    misses the NVMe warning-temperature time; pySMART fills what ours lacks, and serves alone with
    a smartctl too old for ``-j``. When pySMART returns None everywhere (no root, virtual disk)
    ours is used and ``note`` says why. ``source`` names what was used. Serials are NOT masked."""
    own, own_reason = read_smart(device, ("-j", "-x"), smartctl, device_type, timeout)
    py, py_reason = (None, "pySMART not used") if not use_pysmart else _pysmart(
        device, smartctl, device_type or (own or {}).get("device_type"), timeout)
    if own is None and py is None:
        return None, own_reason or py_reason
    merged = dict(own or empty())
    merged.update({k: v for k, v in (py or {}).items() if v is not None and merged.get(k) is None})
    merged["source"] = " + ".join(s for s, d in (("smartctl -j -x", own), ("pySMART", py)) if d)
    merged["note"] = py_reason if py is None else own_reason
    return merged, merged["note"]


def _pysmart(device: str, smartctl: str, device_type: str | None,
             timeout: float) -> tuple[dict[str, Any] | None, str]:
    """pySMART, imported lazily: its import sets LANG=C for the whole process, so LANG is put
    back at once; its child processes get the C locale through our bounded ``_exec`` instead."""
    exe = find_smartctl(smartctl)
    if exe is None:
        return None, "pySMART not used: smartctl not found"
    saved = os.environ.get("LANG")
    try:
        from pySMART import Device
        from pySMART.smartctl import Smartctl
    except ImportError as exc:
        return None, f"pySMART not available ({exc})"
    finally:
        if saved is None:
            os.environ.pop("LANG", None)
        else:
            os.environ["LANG"] = saved

    # pySMART ships no py.typed, so its class is Any to mypy (subclassing Any: [misc] under strict)
    class Bounded(Smartctl):  # type: ignore[misc]
        """pySMART's documented query, ``generic_call(params, pass_options)``, run through our
        bounded ``run_tool``: its own Popen has no timeout, may flash a console window and
        decodes with chardet. Same argv as pySMART builds (never sudo: the app asks for none)."""

        def generic_call(self, params: list[str], pass_options: bool = False) -> tuple[list[str], int]:
            cmd = [self.smartctl_path, *(self.options if pass_options else []), *params]
            rc, raw, _ = run_tool(cmd, timeout, env={**os.environ, "LANG": "C", "LC_ALL": "C"})
            return (decode(raw).splitlines(), rc) if rc is not None else ([], 1)

    try:
        dev = Device(device, interface=device_type, smartctl=Bounded(smartctl_path=exe))
    except Exception as exc:  # pySMART raises many kinds on odd output; never fatal here
        return None, f"pySMART failed: {type(exc).__name__}: {exc}"
    attrs = dev.if_attributes
    nvme = type(attrs).__name__ == "NvmeAttributes"
    got = {"model": dev.model, "serial": dev.serial, "firmware": dev.firmware,
           "assessment": dev.assessment, "temperature_c": dev.temperature,
           "data_units_written": getattr(attrs, "dataUnitsWritten", None) if nvme else None,
           "host_writes_bytes": getattr(attrs, "bytesWritten", None) if nvme else None,
           "power_on_hours": getattr(attrs, "powerOnHours", None) if nvme else None,
           "warning_temp_time_min": getattr(attrs, "warningTemperatureTime", None) if nvme else None,
           "critical_temp_time_min": getattr(attrs, "criticalTemperatureTime", None) if nvme else None,
           "percentage_used": getattr(attrs, "percentageUsed", None) if nvme else None,
           "media_errors": getattr(attrs, "integrityErrors", None) if nvme else None}
    if all(v is None for v in got.values()):
        return None, "pySMART returned no data (no root, virtual disk or unsupported device)"
    return got, ""
