"""fio JSON output -> normalized measurements.

fio's stdout is not one JSON document: notes (``note: ...``), signal messages
(``fio: terminating on signal 2``), client banners and ETA lines can come before or between the
documents, and ``--status-interval`` prints one cumulative document per interval. So we decode
documents one after another, skip the text, and treat the *last* document as the final result.

Units differ by fio version, and the rules for them live here and nowhere else:
``io_bytes`` is KiB before fio 2.21 (recognised by the missing ``io_kbytes``), ``bw`` is KiB/s,
``bw_bytes`` B/s, ``*_ns`` nanoseconds and fio 2.x ``clat``/``lat`` microseconds. Conversions
themselves come from :mod:`app.units`.

A measurement never reports zeros as a result: a direction without I/O is ``None``, and a failed
job (non-zero ``error``) has no directions at all. Workload fields the file does not state stay
``None``; nothing is guessed.
"""
from __future__ import annotations

import json
import os
import re
from typing import Any

from app.engines.fio.completed import disagreeing_counts
from app.engines.fio.last_document import last_document
from app.model.percentiles import PERCENTILES, percentile_key
from app.model.status import JobStatus
from app.stats.histogram import Histogram
from app.units import (
    KiB,
    UnitError,
    bytes_per_s_to_MBps,
    bytes_per_s_to_MiBps,
    finite_or_none,
    kib_per_s_to_bytes_per_s,
    ns_to_us,
    parse_duration,
    parse_size,
)

#: The aggregate entry fio adds to ``client_stats`` when more than one client ran.
ALL_CLIENTS = "All clients"

_DOC_MARKERS = ("jobs", "client_stats", "fio version")


class FioParseError(ValueError):
    """The text holds no fio result we can read (message is one line, fit for a user)."""


def split_documents(text: str) -> list[dict[str, Any]]:
    """Every complete fio JSON document in ``text``, in order, skipping the text around them.

    Decoding starts at each ``{``. A ``{`` that does not start a decodable document (a brace in a
    text line, or a document cut off when fio was killed) is skipped one character at a time, so
    the scan goes on; decoded objects that are not fio results (e.g. an inner object of a
    truncated document) are dropped because they carry none of ``jobs``, ``client_stats`` or
    ``fio version``.
    """
    decoder = json.JSONDecoder(strict=False)  # fio copies a newline in a path raw
    docs: list[dict[str, Any]] = []
    pos = 0
    while (start := text.find("{", pos)) >= 0:
        try:
            doc, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            pos = start + 1
            continue
        if isinstance(doc, dict) and any(key in doc for key in _DOC_MARKERS):
            docs.append(doc)
        pos = end
    return docs


def parse_fio_text(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """Measurements from fio's stdout (or a saved ``--output-format=json`` file).

    Only the last document counts: earlier ones are interim ``--status-interval`` dumps, which
    are cumulative, so the last one already contains everything.
    """
    doc = last_document(text, _DOC_MARKERS) or next(reversed(split_documents(text)), None)
    if doc is None:
        where = f" in {source}" if source else ""
        raise FioParseError(f"no fio JSON result found{where} (was fio run with --output-format=json?)")
    return parse_fio_document(doc, source)


def parse_fio_document(doc: dict[str, Any], source: str | None = None) -> list[dict[str, Any]]:
    """One measurement per entry of ``jobs[]`` (or ``client_stats[]`` in client/server mode).

    Entries are kept in file order and never merged by name: without ``group_reporting``,
    ``numjobs=8`` gives eight entries with the same ``jobname``, so callers key
    by index. In client mode every entry is kept, including the "All clients" aggregate, and each
    gets a ``host``.
    """
    client_mode = isinstance(doc.get("client_stats"), list)
    entries = doc.get("client_stats") if client_mode else doc.get("jobs")
    if not isinstance(entries, list) or not entries:
        where = f" in {source}" if source else ""
        raise FioParseError(f"fio JSON document{where} has no job results")
    version = doc.get("fio version")
    global_options = doc.get("global options")
    out = []
    for job in entries:
        measurement = measurement_from_job(job, version, global_options, source)
        if client_mode:
            measurement = _with_host(measurement, job)
        out.append(measurement)
    return out


def measurement_from_job(
    job: dict[str, Any], version: str | None, global_options: dict[str, Any] | None, source: str | None
) -> dict[str, Any]:
    """The measurement for one ``jobs[]``/``client_stats[]`` entry.

    A failed job (``error`` != 0; fio still prints JSON for it, rc = number of failed jobs) gets
    ``status: "failed"`` and null results, because its counters are zeros, not a measurement.
    A ``mixed`` key appears only when fio printed a ``mixed`` object instead of read/write
    (``unified_rw_reporting=mixed``); with ``=both`` the separate directions are used. ``trim``
    is ignored: SSD Profiler never trims.
    """
    errno = _int_or_none(job.get("error")) or 0
    failed = errno != 0
    measurement: dict[str, Any] = {
        "engine": "fio",
        "engine_version": version if isinstance(version, str) else None,
        "source": source,
        "job": job.get("jobname"),
        "status": JobStatus.FAILED if failed else JobStatus.OK,
        "error": f"fio job error {errno} ({os.strerror(errno)})" if failed else None,
        "workload": _workload({**(global_options or {}), **(job.get("job options") or {})}),
        "read": None,
        "write": None,
        "total": None,
    }
    if failed:
        return measurement
    read, write = _direction(job.get("read")), _direction(job.get("write"))
    measurement["read"], measurement["write"] = read, write
    parts = [d for d in (read, write) if d is not None]
    if "read" not in job and "write" not in job and isinstance(job.get("mixed"), dict):
        mixed = _direction(job["mixed"])
        measurement = _insert_before(measurement, "total", "mixed", mixed)
        parts = [mixed] if mixed is not None else []
    if parts:
        measurement["total"] = {
            "iops": sum(d["iops"] for d in parts),
            "MBps": sum(d["MBps"] for d in parts),
        }
    return measurement


def _with_host(measurement: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    """Add ``host`` after ``job``. The aggregate gets ``None``: it spans several hosts, and the
    ``hostname`` fio writes into it is just one of the clients (perf84 in the 3.7 fixture)."""
    host = None if job.get("jobname") == ALL_CLIENTS else job.get("hostname")
    return _insert_before(measurement, "status", "host", host)


def _insert_before(mapping: dict[str, Any], before: str, key: str, value: Any) -> dict[str, Any]:
    """Copy of ``mapping`` with ``key`` placed before ``before``, so JSON output reads in order."""
    out: dict[str, Any] = {}
    for k, v in mapping.items():
        if k == before:
            out[key] = value
        out[k] = v
    return out


def _workload(options: dict[str, Any]) -> dict[str, Any]:
    """Workload fields from merged ``global options`` + ``job options`` (values are strings).

    Unparseable values become ``None`` rather than an error: an import should still show the
    results. ``bs`` may list per-direction sizes (``4k,64k``) or a range (``4k-8k``): the first
    size is taken. ``rwmixread`` is also read from ``rwmixwrite`` (fio defines one as 100 minus
    the other), which is stated, not guessed. Runtime without a suffix is seconds, as in fio.
    """
    opts = {str(k): str(v) for k, v in options.items()}
    rwmixread = _int_or_none(opts.get("rwmixread"))
    if rwmixread is None and (rwmixwrite := _int_or_none(opts.get("rwmixwrite"))) is not None:
        rwmixread = 100 - rwmixwrite
    runtime = opts.get("runtime", opts.get("timeout"))
    try:
        runtime_s = parse_duration(runtime) if runtime is not None else None
    except UnitError:
        runtime_s = None
    return {
        "rw": opts.get("rw", opts.get("readwrite")),
        "bs_bytes": _first_size(opts.get("bs", opts.get("blocksize"))),
        "iodepth": _int_or_none(opts.get("iodepth")),
        "numjobs": _int_or_none(opts.get("numjobs")),
        "rwmixread": rwmixread,
        "runtime_s": runtime_s,
    }


def _first_size(text: str | None) -> int | None:
    """First non-empty size in ``4k``, ``4k,64k``, ``,64k``, ``4k-8k``, ``4k:8k``."""
    if text is None:
        return None
    for part in re.split(r"[,:\-]", text):
        if part.strip():
            try:
                return parse_size(part)
            except UnitError:
                return None
    return None


def _int_or_none(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _direction(d: Any) -> dict[str, Any] | None:
    """One direction (``read``/``write``/``mixed``), or ``None`` when it did no I/O (both
    counters zero or absent: ``total_ios`` is missing before fio 2.2)."""
    if not isinstance(d, dict):
        return None
    issued = _int_or_none(d.get("total_ios"))   # None before fio 2.2
    raw_io = int(d.get("io_bytes") or 0)
    if not issued and raw_io == 0:
        return None
    io_bytes = raw_io if "io_kbytes" in d else raw_io * KiB
    if "bw_bytes" in d:
        bytes_per_s = float(d["bw_bytes"])
    else:
        bytes_per_s = kib_per_s_to_bytes_per_s(float(d.get("bw") or 0))
    lat_kind, lat_us, bins = _latency(d)
    out: dict[str, Any] = {
        "io_bytes": io_bytes, "iops": float(d.get("iops") or 0.0),   # fio's, as printed
        "MBps": bytes_per_s_to_MBps(bytes_per_s), "MiBps": bytes_per_s_to_MiBps(bytes_per_s),
        "runtime_ms": int(d.get("runtime") or 0), "lat_kind": lat_kind, "lat_us": lat_us,
    }
    if bins:  # json+ output: the histogram behind those percentiles (app.stats.histogram)
        out["hist_ns"] = Histogram.from_bins(bins).to_bins()
    if (counts := disagreeing_counts(d, issued)) is not None:   # said, never "corrected"
        out["issued_completed"] = list(counts)
    return out


def _latency(d: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None, dict[str, Any] | None]:
    """(``lat_kind``, ``lat_us``, json+ ``bins``) from one latency object, so mean, percentiles
    and histogram agree.

    Total latency (``lat``) is used when it carries percentiles (``lat_percentiles=1``), else
    completion latency (``clat``, fio's default percentile carrier); a file with only ``lat``
    gives total. ``*_ns`` (fio >= 3.0) is preferred over the µs objects of fio 2.x. An object
    with ``N == 0`` has no samples (e.g. still in ``ramp_time``): its zeros are not latencies,
    so ``lat_us`` is ``None``. No latency object at all gives ``(None, None)``.
    """
    ns = "clat_ns" in d or "lat_ns" in d
    lat, clat = (d.get("lat_ns"), d.get("clat_ns")) if ns else (d.get("lat"), d.get("clat"))
    if isinstance(lat, dict) and lat.get("percentile"):
        kind, obj = "total", lat
    elif isinstance(clat, dict):
        kind, obj = "completion", clat
    elif isinstance(lat, dict):
        kind, obj = "total", lat
    else:
        return None, None, None
    if obj.get("N") == 0:
        return kind, None, None

    def us(value: Any) -> float | None:
        if value is None or isinstance(value, (bool, str, dict, list)):
            return None
        return finite_or_none(ns_to_us(float(value)) if ns else float(value))

    pct = _percentiles(obj.get("percentile"))
    lat_us = {"min": us(obj.get("min")), "mean": us(obj.get("mean"))}
    for wanted in PERCENTILES:
        lat_us[percentile_key(wanted)] = us(next((v for p, v in pct if abs(p - wanted) < 1e-6), None))
    lat_us["max"] = us(obj.get("max"))
    bins = obj.get("bins") if ns and isinstance(obj.get("bins"), dict) else None
    return kind, lat_us, bins


def _percentiles(obj: Any) -> list[tuple[float, Any]]:
    """``[(percentile, value)]`` from fio's ``{"99.900000": v}``; keys are matched numerically
    because their text is ``%f``. The ``"0.00"`` padding keys of fio < 3.4 are dropped."""
    if not isinstance(obj, dict):
        return []
    out = []
    for key, value in obj.items():
        if key.strip() == "0.00":
            continue
        try:
            out.append((float(key), value))
        except ValueError:
            continue
    return out
