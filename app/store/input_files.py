"""Reading a file the user named (``import FILE``, a run folder's run.json) without trusting it.

Why: a path on the command line can name anything. A FIFO or a terminal blocks ``open()`` or
``read()`` forever, a device node or ``/dev/zero`` never ends, a folder or a socket raises an
error no parser expects, and a multi-GiB file exhausts memory before a parser sees it. So the
file must be a regular file by ``os.stat`` *before* it is opened (a symlink to a regular file is
fine: the user named it), it is opened with ``O_NONBLOCK`` (a FIFO swapped in between the
check and the open cannot hang us) and checked again with ``fstat``, and at most
``MAX_INPUT_BYTES`` + 1 bytes are read, so a file that grows while read is refused as well.

The content rules: engine outputs are UTF-8 text (a BOM is tolerated). An empty file, NUL bytes
(binary data) and UTF-16/32 (what Windows PowerShell's ``>`` writes) are refused with a reason
that says what to do, rather than decoded into garbage that fails later with a confusing error.

Parsers may produce numbers no drive can give (NaN, infinity, negative counts, an hour of
latency): :func:`check_measurement` refuses them with one line, so nothing absurd is printed,
saved into a run folder, or reaches ``json.dumps(allow_nan=False)``.
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Iterator
from typing import Any

from app.units import MiB, human_bytes

MAX_INPUT_BYTES = 64 * MiB     # a fio or DiskSpd output of a very long run is a few MiB
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_BINARY", 0))
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
         (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))

#: Plausible ranges of measurement numbers, by key (inclusive). Anything outside is a damaged
#: or forged file, never a drive: 10^9 IOPS, 10 TB/s, 1 EiB moved, one hour for one I/O.
LIMITS = {"iops": (0.0, 1e9), "MBps": (0.0, 1e7), "MiBps": (0.0, 1e7), "io_bytes": (0, 2**60),
          "runtime_ms": (0, 366 * 86400 * 1000), "bs_bytes": (1, 2**34), "iodepth": (1, 2**16),
          "numjobs": (1, 2**20), "rwmixread": (0, 100), "runtime_s": (0.0, 366 * 86400.0)}
LATENCY_LIMIT_US = 3600e6      # one hour, for every key of ``lat_us``


class InputRefused(ValueError):
    """The file is not something we read; the message is one line, fit for a user."""


def file_kind(mode: int) -> str | None:
    """Why a file of this mode is refused, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    return "is not a regular file"


def _too_big(size: int, limit: int) -> str:
    return (f"is {human_bytes(size)} ({size:,} bytes), over the {human_bytes(limit)} limit for "
            "an input file (engine outputs are far smaller); not read")


def read_input_bytes(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises InputRefused (a ValueError) for anything else, OSError when the system says no
    (missing file, no permission): callers word that one with :func:`os_reason`."""
    why = file_kind(os.stat(path).st_mode)
    if why:
        raise InputRefused(why)
    fd = os.open(path, _OPEN_FLAGS)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        why = file_kind(info.st_mode)
        if why:
            raise InputRefused(why + " (it changed while being opened)")
        if info.st_size > limit:
            raise InputRefused(_too_big(info.st_size, limit))
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputRefused(_too_big(len(data), limit) + " (it grew while being read)")
    return data


def decode_text(data: bytes) -> str:
    """UTF-8 text (BOM tolerated; a stray invalid byte becomes U+FFFD, as in a terminal)."""
    if not data.strip():
        raise InputRefused("is empty" if not data else "holds only white space")
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise InputRefused(f"is {name} text; save it as UTF-8 (in PowerShell: "
                               "Out-File -Encoding utf8) and import that")
    if b"\x00" in data:
        odd = data[1::2].count(0) > len(data) // 4 or data[0::2].count(0) > len(data) // 4
        raise InputRefused("looks like UTF-16 text without a BOM; save it as UTF-8 and import "
                           "that" if odd else "is binary data, not a text output of fio or DiskSpd")
    return data.decode("utf-8-sig", errors="replace")


def read_input_text(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> str:
    return decode_text(read_input_bytes(path, limit))


def os_reason(exc: OSError) -> str:
    """One line for an OSError, without repeating the path (the caller prints it first)."""
    text = (exc.strerror or str(exc) or type(exc).__name__).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# -- fio documents, found in linear time ----------------------------------------------------------
_FIO_MARKERS = ("jobs", "client_stats", "fio version")
_DOC_START = re.compile(r"^\{", re.MULTILINE)
SMALL_TEXT = 64 * 1024   # below this the tolerant any-"{" scan is also fast (about 1 s at worst)


def fio_documents(text: str) -> list[dict[str, Any]]:
    """fio result documents that start at the beginning of a line, in order.

    Why not ``app.engines.fio.result.split_documents`` on any text: it tries a decode at every
    ``{``, and each failure costs time in proportion to its offset (the decoder counts lines up
    to it for the error message), so a 60 MiB line of ``{`` takes hours. fio prints every
    document from column 0 (nested objects are indented), so decoding only there, each within
    its own slice up to the next such ``{``, finds the same documents in linear time. A
    RecursionError (``[[[[...``) is left to the caller, which refuses the file.
    """
    starts = [m.start() for m in _DOC_START.finditer(text)]
    decoder, docs = json.JSONDecoder(), []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        try:
            doc, _ = decoder.raw_decode(text[start:end])
        except json.JSONDecodeError:
            continue
        if isinstance(doc, dict) and any(key in doc for key in _FIO_MARKERS):
            docs.append(doc)
    return docs


# -- plausibility of parsed measurements -------------------------------------------------------
def number_problem(where: str, key: str, value: Any, lat: bool) -> str | None:
    """Why a number at ``where`` (its key ``key``, a latency with ``lat``) is no measurement
    (not finite, or outside :data:`LIMITS`), or None; anything not a number is None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value):
        return f"{where} is {value} (not a finite number)"
    limits = (0.0, LATENCY_LIMIT_US) if lat else LIMITS.get(key)
    if limits is None:
        return None
    low, high = limits
    if not low <= value <= high:
        unit = " µs" if lat else ""
        return f"{where} is {value:g}{unit}, outside the plausible {low:g}..{high:g}{unit}"
    return None


def _walk(value: Any, where: str, key: str, lat: bool) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, f"{where}.{k}" if where else str(k), str(k), lat or k == "lat_us")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _walk(v, f"{where}[{i}]", key, lat)
    else:
        problem = number_problem(where, key, value, lat)
        if problem:
            yield problem


TEXT_KEYS = ("engine", "engine_version", "job", "host", "status", "error")


def check_measurement(measurement: dict[str, Any]) -> None:
    """Raise InputRefused (one line, naming the job and the field) for a number that is NaN,
    infinite, or outside :data:`LIMITS`, or a name that is not text (a parser passes fio's
    ``jobname`` through, and a forged file can put a nested list there). Measurements nest two
    levels below that, so the walk is short."""
    job = measurement.get("job")
    where = f"job {job[:80]!r}: " if isinstance(job, str) else ""
    texts = [(k, measurement.get(k)) for k in TEXT_KEYS]
    texts.append(("workload.rw", (measurement.get("workload") or {}).get("rw")))
    for key, value in texts:
        if value is not None and not isinstance(value, str):
            raise InputRefused(f"{where}{key} is a {type(value).__name__}, not text; "
                               "the file is damaged or not a real result")
    for problem in _walk(measurement, "", "", False):
        raise InputRefused(f"{where}{problem}; the file is damaged or not a real result")
    for direction in ("read", "write"):
        hist_problem = _histogram_problem(direction, measurement.get(direction))
        if hist_problem:
            raise InputRefused(f"{where}{hist_problem}; the file is damaged or not a real result")


def _histogram_problem(direction: str, side: Any) -> str | None:
    """Why a json+ histogram (``hist_ns``, [[midpoint ns, count], ...]) cannot be the job's own,
    or None. Its pooled percentiles are printed as the job's, so a forged bin must not move
    them: a negative latency, more I/Os than the job's IOPS x runtime made (fio's bins count
    exactly the I/Os measured; a little slack for a status document read while fio counts),
    or a bucket starting above the job's exact maximum latency."""
    if not isinstance(side, dict) or not isinstance(side.get("hist_ns"), list):
        return None
    bins = side["hist_ns"]
    if any(not isinstance(b, (list, tuple)) or len(b) != 2 or b[0] < 0 or b[1] < 0 for b in bins):
        return f"{direction}.hist_ns has a negative latency or count"
    ios = sum(b[1] for b in bins)
    iops, runtime_ms = side.get("iops"), side.get("runtime_ms")
    if isinstance(iops, (int, float)) and isinstance(runtime_ms, (int, float)) and runtime_ms > 0:
        made = iops * runtime_ms / 1000
        counts = side.get("issued_completed")   # fio's iops counts issued I/Os, its bins completed
        if isinstance(counts, list) and len(counts) == 2 and isinstance(counts[1], int):
            made = max(made, counts[1])
        if ios > 1.05 * made + 100:
            return (f"{direction}.hist_ns counts {ios:g} I/Os, but {iops:g} IOPS for "
                    f"{runtime_ms:g} ms make about {made:.0f}")
    top = ((side.get("lat_us") or {}) if isinstance(side.get("lat_us"), dict) else {}).get("max")
    if bins and isinstance(top, (int, float)):
        from app.stats.histogram import bucket_bounds, val_to_idx
        low_ns = bucket_bounds(val_to_idx(int(max(b[0] for b in bins))))[0]
        if low_ns > 1.01 * top * 1000 + 1:
            return (f"{direction}.hist_ns has I/Os at {low_ns / 1000:g} µs or more, above the "
                    f"job's maximum latency of {top:g} µs")
    return None
