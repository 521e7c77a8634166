"""Units in one place: parsing what users type, converting what engines print.

Conventions (see DESIGN §3.2 and reference/engines.md):
- MB/s is 10^6 B/s (what vendors quote); MiB/s is 2^20 B/s.
- fio's ``bw`` is KiB/s; ``bw_bytes`` is B/s; ``*_ns`` are nanoseconds; fio 2.x latencies are µs.
- Sizes typed by users: ``4k``, ``4K``, ``4KiB`` are 4096 bytes (binary, as fio reads them);
  ``4kB``/``4KB`` with an explicit ``B`` after an SI prefix are decimal (4000 bytes).
"""
from __future__ import annotations

import math
import re

KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4
MB = 1000**2
GB = 1000**3

_BINARY = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": TiB}
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?)([bB]?)\s*$")
_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$", re.IGNORECASE)
_DURATION_FACTOR = {None: 1.0, "ms": 0.001, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


class UnitError(ValueError):
    """A value a user typed that is not a size or a duration."""


def parse_size(text: str | int) -> int:
    """Bytes from ``256MiB``, ``1GiB``, ``4k``, ``4096``; ``kB``/``MB``/``GB`` are decimal."""
    if isinstance(text, bool):
        raise UnitError(f"not a size: {text!r}")
    if isinstance(text, int):
        return text
    match = _SIZE_RE.match(str(text))
    if not match:
        raise UnitError(f"not a size: {text!r} (use e.g. 4k, 128KiB, 64MiB, 1GiB)")
    number, prefix, binary_i, byte_b = match.groups()
    prefix = prefix.lower()
    decimal = bool(prefix) and not binary_i and bool(byte_b)
    factor = 1000 ** "_kmgt".index(prefix) if decimal else _BINARY[prefix]
    value = float(number) * factor
    if value != int(value):
        raise UnitError(f"not a whole number of bytes: {text!r}")
    return int(value)


def parse_duration(text: str | float | int) -> float:
    """Seconds from ``30``, ``30s``, ``2m``, ``500ms``, ``1h``."""
    if isinstance(text, bool):
        raise UnitError(f"not a duration: {text!r}")
    if isinstance(text, (int, float)):
        return float(text)
    match = _DURATION_RE.match(str(text))
    if not match:
        raise UnitError(f"not a duration: {text!r} (use e.g. 30, 30s, 2m, 500ms)")
    number, unit = match.groups()
    return float(number) * _DURATION_FACTOR[unit.lower() if unit else None]


def format_size(n_bytes: int) -> str:
    """Shortest exact binary form: 4096 -> '4KiB', 1048576 -> '1MiB', 1000 -> '1000B'."""
    for suffix, factor in (("TiB", TiB), ("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor}{suffix}"
    return f"{n_bytes}B"


def format_duration(seconds: float) -> str:
    """'30s', '2m', '1h30m', '1.5s': for labels and CLI defaults."""
    if seconds != int(seconds):
        return f"{seconds:g}s"
    s = int(seconds)
    if s and s % 3600 == 0:
        return f"{s // 3600}h"
    if s >= 3600:
        return f"{s // 3600}h{(s % 3600) // 60}m" if s % 60 == 0 else f"{s}s"
    if s and s % 60 == 0:
        return f"{s // 60}m"
    return f"{s}s"


def block_label(n_bytes: int) -> str:
    """CrystalDiskMark-style block size: 4096 -> '4K', 1048576 -> '1M', 512 -> '512'."""
    for suffix, factor in (("G", GiB), ("M", MiB), ("K", KiB)):
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor}{suffix}"
    return str(n_bytes)


def human_bytes(n_bytes: float) -> str:
    """Readable binary size for messages: '1.5 GiB', '64 MiB'."""
    value = float(n_bytes)
    for suffix in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(value) < 1024 or suffix == "TiB":
            return f"{value:.0f} {suffix}" if suffix == "B" else f"{value:.3g} {suffix}"
        value /= 1024
    return f"{value:.3g} TiB"  # pragma: no cover


def bytes_per_s_to_MBps(value: float) -> float:
    """B/s -> MB/s (10^6 B/s)."""
    return value / MB


def bytes_per_s_to_MiBps(value: float) -> float:
    """B/s -> MiB/s (2^20 B/s)."""
    return value / MiB


def kib_per_s_to_bytes_per_s(value: float) -> float:
    """fio ``bw`` (KiB/s) -> B/s."""
    return value * KiB


def ns_to_us(value: float) -> float:
    return value / 1000.0


def finite_or_none(value: float | None) -> float | None:
    """JSON has no NaN: map NaN and infinities to null."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)
