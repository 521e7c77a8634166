"""What fio's two text outputs (normal and terse) share: fio's printed units, and the typed
measurement both parsers build, the same shape as the JSON parser's (app/engines/fio/result.py).

fio prints numbers through its ``num2str``: a decimal prefix (``k``, ``M``, ``G``; fio 2.x's
old format writes ``K``) on counts and on latencies in a stated unit (``max=4079.4k`` nsec),
and on sizes and rates a binary (``KiB``, ``MiB``) or a decimal (``kB``, ``MB``) prefix, or,
from fio before 2.19, ``KB``/``MB``/``GB`` that are powers of 1024 (fio's default
``kb_base=1024``). ``bit`` instead of ``B`` (``unit_base=1``) counts bits. Every conversion
lives here so the parsers state only which convention a field follows.
"""
from __future__ import annotations

import os
import re
from typing import Any

from app.model.measurement import DirectionResult, LatencyKind, Measurement
from app.model.percentiles import PERCENTILES, percentile_key
from app.model.status import JobStatus
from app.units import bytes_per_s_to_MBps, bytes_per_s_to_MiBps, finite_or_none

_COUNT_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BINARY = {"": 1, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}
_DECIMAL = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}
_OLD_BINARY = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
_AMOUNT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*?)(B|bit)?\s*$")
_COUNT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKMGTP]?)\s*$")
TIME_TO_US = {"nsec": 1e-3, "usec": 1.0, "msec": 1e3, "sec": 1e6}


class FioTextError(ValueError):
    """A fio text output we cannot read; the message is one line, fit for a user."""


def count(text: str) -> float:
    """``36.7k`` -> 36700.0, ``4079.4k`` -> 4079400.0, ``5775`` -> 5775.0 (decimal prefixes)."""
    match = _COUNT.match(text)
    if not match:
        raise FioTextError(f"{text.strip()[:40]!r} is not a number as fio prints one")
    return float(match.group(1)) * _COUNT_PREFIX[match.group(2)]


def amount_bytes(text: str, old_units: bool = False) -> float:
    """Bytes in ``287MiB``, ``150MB``, ``2097kB``, ``1147Mibit``; with ``old_units`` (fio before
    2.19) ``KB``/``MB`` are powers of 1024. A trailing ``/s`` is the caller's to strip."""
    match = _AMOUNT.match(text)
    if not match:
        raise FioTextError(f"{text.strip()[:40]!r} is not a size as fio prints one")
    number, prefix, unit = float(match.group(1)), match.group(2), match.group(3) or "B"
    table = _OLD_BINARY if old_units else _BINARY if prefix.endswith("i") else _DECIMAL
    if prefix not in table:
        raise FioTextError(f"{text.strip()[:40]!r} has a unit fio does not print")
    value = number * table[prefix]
    return value / 8 if unit == "bit" else value


def latency_us(value: str, unit: str) -> float | None:
    """One latency figure in µs from fio's text (``4079.4k`` in ``nsec`` -> 4079.4)."""
    return finite_or_none(count(value) * TIME_TO_US[unit])


def lat_us(stats: tuple[float | None, float | None, float | None] | None,
           percentiles: dict[float, float] | None) -> dict[str, float | None]:
    """``lat_us`` in the JSON parser's key order from (min, mean, max) and {percentile: µs}."""
    low, mean, high = stats or (None, None, None)
    out: dict[str, float | None] = {"min": low, "mean": mean}
    for wanted in PERCENTILES:
        out[percentile_key(wanted)] = next(
            (v for p, v in (percentiles or {}).items() if abs(p - wanted) < 1e-6), None)
    out["max"] = high
    return out


def direction(io_bytes: float | None, iops: float | None, bytes_per_s: float | None,
              runtime_ms: float | None, kind: LatencyKind | None,
              latency: dict[str, float | None] | None, mbps: float | None = None,
              mibps: float | None = None) -> DirectionResult:
    """One direction; MB/s and MiB/s come from ``bytes_per_s`` unless fio printed each itself
    (``mbps``/``mibps``: the normal output's two rounded figures are kept as printed)."""
    rate = finite_or_none(bytes_per_s) if bytes_per_s is not None else None
    return DirectionResult(
        iops=finite_or_none(iops) if iops is not None else None,
        MBps=mbps if mbps is not None else None if rate is None else bytes_per_s_to_MBps(rate),
        io_bytes=None if io_bytes is None else int(round(io_bytes)),
        MiBps=mibps if mibps is not None else None if rate is None else bytes_per_s_to_MiBps(rate),
        runtime_ms=None if runtime_ms is None else int(runtime_ms),
        lat_kind=kind if latency is not None else None, lat_us=latency)


def measurement(version: str | None, source: str | None, job: str, error: int,
                workload: dict[str, Any], read: DirectionResult | None,
                write: DirectionResult | None, mixed: DirectionResult | None = None
                ) -> Measurement:
    """A job's measurement: failed (no directions) when fio reports an error, as in JSON; a
    ``mixed`` direction (``unified_rw_reporting``) is kept beside read/write, as in JSON."""
    if error:
        return Measurement(engine="fio", status=JobStatus.FAILED, read=None, write=None,
                           total_iops=None, total_MBps=None, workload=workload,
                           engine_version=version, source=source, job=job,
                           error=f"fio job error {error} ({os.strerror(error)})", has_total=False)
    parts = [d for d in ((mixed,) if mixed is not None else (read, write)) if d is not None]
    return Measurement(
        engine="fio", status=JobStatus.OK, read=read, write=write,
        total_iops=sum(d.iops or 0.0 for d in parts) if parts else None,
        total_MBps=sum(d.MBps or 0.0 for d in parts) if parts else None,
        workload=workload, engine_version=version, source=source, job=job, error=None,
        has_total=bool(parts), extra={"mixed": mixed.to_json()} if mixed is not None else {})


def empty_workload() -> dict[str, Any]:
    """Workload fields a text output does not state: None, never guessed."""
    return {"rw": None, "bs_bytes": None, "iodepth": None, "numjobs": None, "rwmixread": None,
            "runtime_s": None}
