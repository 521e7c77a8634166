"""Units in one place: parsing what users type, converting what engines print.

Conventions (fio's and DiskSpd's documented units):
- MB/s is 10^6 B/s (what vendors quote); MiB/s is 2^20 B/s.
- fio's ``bw`` is KiB/s; ``bw_bytes`` is B/s; ``*_ns`` are nanoseconds; fio 2.x latencies are µs.
- Sizes typed by users: ``4k``, ``4K``, ``4KiB`` are 4096 bytes (binary, as fio reads them);
  ``4kB``/``4KB`` with an explicit ``B`` after an SI prefix are decimal (4000 bytes).
- What users type is parsed exactly (``Fraction``, ASCII digits only, at most ``MAX_UNIT_TEXT``
  characters), so no input can overflow, become NaN or be read from look-alike digits; every
  refusal is a UnitError whose message is one short line (see :func:`quote_input`).
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4
MB = 1000**2
GB = 1000**3

_BINARY = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": TiB}
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?)([bB]?)\s*$", re.ASCII)
_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$", re.IGNORECASE | re.ASCII)
_DURATION_FACTOR: dict[str | None, int | Fraction] = {None: 1, "ms": Fraction(1, 1000), "s": 1, "m": 60,
                                                       "min": 60, "h": 3600}
MAX_UNIT_TEXT = 64   # no real size or duration is longer; longer text is refused, not parsed


class UnitError(ValueError):
    """A value a user typed that is not a size or a duration."""


def quote_input(value: object, limit: int = 40) -> str:
    """A user's text for a one-line message: quoted and escaped (``repr``: newlines, NUL and
    invisible characters become visible escapes) and shortened, so no input can split or flood
    a message line."""
    text = repr(value) if isinstance(value, str) else repr(str(value))
    return text if len(text) <= limit else text[:limit - 4] + "..." + text[0]


def _number_text(text: object, what: str, example: str) -> tuple[str, ...]:
    if isinstance(text, bool):
        raise UnitError(f"not a {what}: {quote_input(text)}")
    text = str(text)
    if len(text) > MAX_UNIT_TEXT:
        raise UnitError(f"not a {what}: {quote_input(text)} is too long "
                        f"({len(text)} characters; at most {MAX_UNIT_TEXT})")
    match = (_SIZE_RE if what == "size" else _DURATION_RE).match(text)
    if not match:
        raise UnitError(f"not a {what}: {quote_input(text)} (use e.g. {example})")
    return match.groups()


def parse_size(text: str | int) -> int:
    """Bytes from ``256MiB``, ``1GiB``, ``4k``, ``4096``; ``kB``/``MB``/``GB`` are decimal."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, float) and not math.isfinite(text):
        raise UnitError(f"not a size: {quote_input(text)}")
    number, prefix, binary_i, byte_b = _number_text(text, "size", "4k, 128KiB, 64MiB, 1GiB")
    prefix = prefix.lower()
    decimal = bool(prefix) and not binary_i and bool(byte_b)
    factor = 1000 ** "_kmgt".index(prefix) if decimal else _BINARY[prefix]
    value = Fraction(number) * factor
    if value.denominator != 1:
        raise UnitError(f"not a whole number of bytes: {quote_input(text)}")
    return int(value)


def parse_duration(text: str | float | int) -> float:
    """Seconds from ``30``, ``30s``, ``2m``, ``500ms``, ``1h``, to the millisecond: the engines
    take milliseconds, and :func:`format_duration` can then write every value back exactly."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        if not math.isfinite(text):
            raise UnitError(f"not a duration: {quote_input(text)}")
        return round(float(text), 3)
    number, unit = _number_text(text, "duration", "30, 30s, 2m, 500ms")
    return round(float(Fraction(number) * _DURATION_FACTOR[unit.lower() if unit else None]), 3)


def format_size(n_bytes: int) -> str:
    """Shortest exact binary form: 4096 -> '4KiB', 1048576 -> '1MiB', 1000 -> '1000B'."""
    for suffix, factor in (("TiB", TiB), ("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor}{suffix}"
    return f"{n_bytes}B"


def format_duration(seconds: float) -> str:
    """'30s', '2m', '90m', '1h', '1.5s', '10000.01s': for labels, forms and CLI defaults; exact
    to the millisecond and in units parse_duration reads, so a form's text reads back as the
    same value."""
    if seconds != int(seconds):
        return f"{seconds:.3f}".rstrip("0").rstrip(".") + "s"
    s = int(seconds)
    if s and s % 3600 == 0:
        return f"{s // 3600}h"
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


def finite_number(x: object) -> float | None:
    """``float(x)`` if x is a finite number (bools excluded), else None: what a statistic reads
    from a value that may be missing, text or infinite."""
    if x is None or isinstance(x, bool):
        return None
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def finite_or_none(value: float | None) -> float | None:
    """JSON has no NaN: map NaN and infinities to null."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def duration_text(seconds: float | None) -> str:
    """'0:42', '12:05', '3:04:10' for progress and ETA ('-' when unknown)."""
    if seconds is None:
        return "-"
    s = max(0, int(round(seconds)))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# -- numbers in a report: sensible precision in one place (docs/report.md) -----------------------
# A mean carries 3 significant digits and its ± is written to the same decimal place, so no
# number claims more precision than its spread allows ("15,500 ± 16,800 µs", not
# "15,510.2 ± 16,764.5 µs"); a count of I/Os is a whole number.

SIGNIFICANT = 3


def _decimals(value: float, significant: int = SIGNIFICANT) -> int:
    """Decimal places that show ``value`` to ``significant`` digits (negative: round to tens...)."""
    if value == 0 or not math.isfinite(value):
        return 0
    return significant - 1 - math.floor(math.log10(abs(value)))


def _at(value: float, decimals: int) -> str:
    """``value`` rounded to ``decimals`` places (negative: to tens, hundreds), with separators."""
    rounded = round(value, decimals)
    if decimals <= 0:
        return f"{int(rounded):,}"
    return f"{rounded:,.{decimals}f}"


def sig(value: float | None, significant: int = SIGNIFICANT) -> str:
    """A measured value to 3 significant digits: 71.66 -> '71.7', 13827 -> '13,800',
    0.01234 -> '0.0123'; '–' when unknown."""
    if value is None or not math.isfinite(value):
        return "–"
    decimals = _decimals(value, significant)
    # rounding can add a digit (99.96 -> 100.0): decide the places on the rounded value
    decimals = _decimals(round(value, decimals), significant) if value else 0
    return _at(value, decimals)


def mean_pm(mean: float | None, std: float | None) -> str:
    """'71.7 ± 3.6', '13,800 ± 700', '15,500 ± 16,800': the mean to 3 significant digits, the
    sample std to the same decimal place ('± <0.1' when it rounds to nothing but is not 0)."""
    if mean is None or not math.isfinite(mean):
        return "–"
    text = sig(mean)
    if std is None or not math.isfinite(std):
        return text
    decimals = _decimals(round(mean, _decimals(mean)))
    spread = _at(abs(std), decimals)
    if std and round(abs(std), decimals) == 0:
        spread = "<" + ("1" if decimals <= 0 else f"{10 ** -decimals:.{decimals}f}")
    return f"{text} ± {spread}"


def count(value: float | None) -> str:
    """A number of I/Os (or rounds, trials) as a whole number: 27.7 -> '28', 13321 -> '13,321'."""
    if value is None or not math.isfinite(value):
        return "–"
    return f"{round(value):,}"


def ratio(value: float | None) -> str:
    """A ratio to 3 significant digits: 31.72 -> '31.7×', 2.04 -> '2.04×'."""
    return "–" if value is None or not math.isfinite(value) else f"{sig(value)}×"
