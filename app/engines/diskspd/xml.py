"""DiskSpd ``-Rxml`` output -> normalized measurements.

Where things are (DiskSpd's XmlResultParser.cpp; the same paths Microsoft's Process-DiskSpd.ps1
reads):

- ``Results/System/Tool/Version``: the engine version ("2.0.21a", "2.2");
- ``Results/Profile/TimeSpans/TimeSpan/Targets/Target``: what was *asked* (BlockSize,
  RequestCount = -o, ThreadsPerFile = -t, WriteRatio = -w, ``<Random>`` for -r,
  ``<StrideSize>`` for -s, Duration = -d). This is input, not results;
- ``Results/TimeSpan``: what *happened*: TestTimeSeconds, one ``Thread/Target`` per thread and
  target with byte and I/O counts (and with -L the per-thread-target mean latencies), the
  ``Latency`` percentile table (-L) and the ``Iops`` per-interval series (-D).

Units are converted once, here: latency milliseconds -> µs, MB/s = bytes / TestTimeSeconds / 10^6,
MiB/s = ... / 2^20, IOPS = I/O count / TestTimeSeconds (DiskSpd prints bytes and counts, not
rates). The measurement of a target is the sum over the threads that worked on it.

DiskSpd prints the percentile table once per time span, over *all* targets together (it merges
every target's histogram). So percentiles belong to a target only when the time span had one
target; with several targets they are ``None`` (not stated per target, never guessed). The mean
latency of each target is the I/O-weighted mean of its threads' means.

Text before ``<Results>`` (``-v`` lines, the Ctrl+C note) and after ``</Results>`` is ignored.
A run interrupted before measuring prints ``<Error>`` instead of results: a parse error here.

The helpers that turn counts into a measurement (:func:`direction`, :func:`measurement`) are
shared with the text parser (:mod:`app.engines.diskspd.text`) so both give the same shape.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from app.model.interval import Interval
from app.model.status import JobStatus
from app.units import MB, bytes_per_s_to_MBps, bytes_per_s_to_MiBps, finite_or_none

#: Percentiles a measurement reports: key in ``lat_us`` -> DiskSpd XML ``<Percentile>`` value
#: (0 is DiskSpd's minimum, 100 its maximum).
XML_PERCENTILES = (("min", 0.0), ("p50", 50.0), ("p95", 95.0), ("p99", 99.0), ("p99.9", 99.9),
                   ("p99.99", 99.99), ("max", 100.0))
LAT_KEYS = ("min", "mean", "p50", "p95", "p99", "p99.9", "p99.99", "max")


class DiskSpdParseError(ValueError):
    """The text holds no DiskSpd result we can read (message is one line, fit for a user)."""


# -- shared by the XML and the text parser -------------------------------------------------------
def ms_to_us(value: float | None) -> float | None:
    """DiskSpd prints milliseconds with 3 decimals: µs rounded to ns, so 1.003 ms is 1003.0 µs."""
    return None if value is None else finite_or_none(round(value * 1000.0, 3))


def direction(io_bytes: int, ios: int, seconds: float | None, mean_ms: float | None,
              pct_ms: dict[str, float | None] | None) -> dict[str, Any] | None:
    """One direction of a measurement, or ``None`` when it did no I/O.

    ``pct_ms`` maps ``LAT_KEYS`` names (min, p50 ... max) to milliseconds. ``lat_kind`` is
    ``total`` (DiskSpd times an I/O from issue to completion) whenever there is any latency;
    without ``-L`` there is none, and like the fio parser both ``lat_kind`` and ``lat_us`` are
    then ``None`` rather than a latency object full of nulls.
    """
    if not io_bytes and not ios:
        return None
    rate = io_bytes / seconds if seconds else None
    has_lat = mean_ms is not None or any(v is not None for v in (pct_ms or {}).values())
    lat_us = None
    if has_lat:
        lat_us = {key: ms_to_us((pct_ms or {}).get(key)) for key in LAT_KEYS}
        lat_us["mean"] = ms_to_us(mean_ms)
    return {
        "io_bytes": int(io_bytes),
        "iops": finite_or_none(ios / seconds) if seconds else None,
        "MBps": finite_or_none(bytes_per_s_to_MBps(rate)) if rate is not None else None,
        "MiBps": finite_or_none(bytes_per_s_to_MiBps(rate)) if rate is not None else None,
        "runtime_ms": round(seconds * 1000) if seconds else None,
        "lat_kind": "total" if has_lat else None,
        "lat_us": lat_us,
    }


def measurement(version: str | None, source: str | None, job: str, workload: dict[str, Any],
                read: dict[str, Any] | None, write: dict[str, Any] | None) -> dict[str, Any]:
    """The measurement object, keys in the same order as the fio parser's."""
    parts = [d for d in (read, write) if d is not None]
    total = None
    if parts and all(d["iops"] is not None and d["MBps"] is not None for d in parts):
        total = {"iops": sum(d["iops"] for d in parts), "MBps": sum(d["MBps"] for d in parts)}
    return {"engine": "diskspd", "engine_version": version, "source": source, "job": job,
            "status": JobStatus.OK, "error": None, "workload": workload,
            "read": read, "write": write, "total": total}


def workload_fields(random: bool | None, write_ratio: int | None, bs: int | None,
                    outstanding: int | None, threads: int | None, runtime_s: float | None) -> dict[str, Any]:
    """fio-named workload fields from DiskSpd's profile (mapping in app/engines/diskspd/argv.py).

    ``rwmixread`` = 100 - WriteRatio: DiskSpd always states its write ratio, so the read share
    is stated too (100 for a read test, 0 for a write test)."""
    rw = None
    if random is not None and write_ratio is not None:
        base = "read" if write_ratio == 0 else "write" if write_ratio == 100 else "rw"
        rw = ("rand" + base) if random else base
    return {"rw": rw, "bs_bytes": bs, "iodepth": outstanding, "numjobs": threads,
            "rwmixread": None if write_ratio is None else 100 - write_ratio,
            "runtime_s": runtime_s}


def weighted_mean(pairs: list[tuple[float | None, int]]) -> float | None:
    """I/O-weighted mean of per-thread means; threads without a mean or without I/O are left out."""
    usable = [(m, n) for m, n in pairs if m is not None and n > 0]
    count = sum(n for _, n in usable)
    return sum(m * n for m, n in usable) / count if count else None


# -- XML ---------------------------------------------------------------------------------------
def results_root(text: str, source: str | None = None) -> ET.Element:
    """The ``<Results>`` element, ignoring any text printed around it."""
    where = f" in {source}" if source else ""
    start = text.find("<Results")
    end = text.rfind("</Results>")
    if start < 0 or end < start:
        raise DiskSpdParseError(f"no DiskSpd XML result found{where} (was DiskSpd run with -Rxml?)")
    try:
        return ET.fromstring(text[start:end + len("</Results>")])
    except ET.ParseError as exc:
        raise DiskSpdParseError(f"DiskSpd XML{where} is not well-formed: {exc}") from None


def _float(el: ET.Element | None, path: str) -> float | None:
    node = el.find(path) if el is not None else None
    if node is None or node.text is None:
        return None
    try:
        return float(node.text.strip())
    except ValueError:
        return None


def _int(el: ET.Element | None, path: str) -> int | None:
    value = _float(el, path)
    return None if value is None else int(value)


def _text(el: ET.Element | None, path: str) -> str | None:
    node = el.find(path) if el is not None else None
    return node.text.strip() if node is not None and node.text else None


def _profile_workload(target: ET.Element | None, span: ET.Element | None) -> dict[str, Any]:
    """Workload fields of one profile target. ``<Random>`` (the -r alignment) marks random I/O,
    ``<StrideSize>`` sequential; neither stated, or a ``<RandomRatio>`` below 100, gives
    ``rw: None``. With ``-F`` (a fixed thread
    pool shared by all targets, profile ThreadCount > 0) -o/-t have another meaning, so
    iodepth and numjobs stay ``None``."""
    if target is None:
        return workload_fields(None, None, None, None, None, _float(span, "Duration"))
    random = True if target.find("Random") is not None else (
        False if target.find("StrideSize") is not None else None)
    if random and (_int(target, "RandomRatio") or 100) < 100:
        random = None  # -rs: a random/sequential blend has no fio rw name
    pool = (_int(span, "ThreadCount") or 0) > 0
    return workload_fields(random, _int(target, "WriteRatio"), _int(target, "BlockSize"),
                           None if pool else _int(target, "RequestCount"),
                           None if pool else _int(target, "ThreadsPerFile"),
                           _float(span, "Duration"))


def _percentiles(latency: ET.Element | None, tag: str) -> dict[str, float | None]:
    """{min, p50, ..., max} in ms from ``Latency/Bucket`` for ``Read``/``Write``Milliseconds."""
    found: dict[float, float | None] = {}
    for bucket in (latency.findall("Bucket") if latency is not None else []):
        p = _float(bucket, "Percentile")
        if p is not None:
            found[p] = _float(bucket, f"{tag}Milliseconds")
    return {key: next((v for p, v in found.items() if abs(p - want) < 1e-9), None)
            for key, want in XML_PERCENTILES}


def parse_xml_text(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """One measurement per target of every result time span, in first-seen thread order."""
    root = results_root(text, source)
    version = _text(root, "System/Tool/Version")
    profile_spans = root.findall("Profile/TimeSpans/TimeSpan")
    result_spans = root.findall("TimeSpan")
    if not result_spans:
        raise DiskSpdParseError(f"DiskSpd XML{' in ' + source if source else ''} has no results")
    out: list[dict[str, Any]] = []
    for index, span in enumerate(result_spans):
        error = _text(span, "Error")
        if error:
            raise DiskSpdParseError(f"DiskSpd reported: {error}")
        prof = profile_spans[index] if index < len(profile_spans) else None
        out += _span_measurements(span, prof, version, source,
                                  f" (timespan {index + 1})" if len(result_spans) > 1 else "")
    return out


def _span_measurements(span: ET.Element, prof: ET.Element | None, version: str | None,
                       source: str | None, suffix: str) -> list[dict[str, Any]]:
    seconds = _float(span, "TestTimeSeconds")
    targets: dict[str, list[ET.Element]] = {}
    for thread in span.findall("Thread"):
        for target in thread.findall("Target"):
            targets.setdefault(_text(target, "Path") or "", []).append(target)
    if not targets:
        raise DiskSpdParseError("DiskSpd XML time span has no thread results")
    profile_targets = {(_text(t, "Path") or ""): t for t in
                       (prof.findall("Targets/Target") if prof is not None else [])}
    latency = span.find("Latency")
    single = len(targets) == 1
    out = []
    for path, parts in targets.items():
        sides = {}
        for tag, mean_tag, span_mean in (("Read", "AverageReadLatencyMilliseconds", "AverageReadMilliseconds"),
                                         ("Write", "AverageWriteLatencyMilliseconds", "AverageWriteMilliseconds")):
            io_bytes = sum(_int(t, f"{tag}Bytes") or 0 for t in parts)
            ios = sum(_int(t, f"{tag}Count") or 0 for t in parts)
            if single and latency is not None:
                mean, pct = _float(latency, span_mean), _percentiles(latency, tag)
            else:
                mean = weighted_mean([(_float(t, mean_tag), _int(t, f"{tag}Count") or 0) for t in parts])
                pct = None
            sides[tag] = direction(io_bytes, ios, seconds, mean, pct)
        workload = _profile_workload(profile_targets.get(path), prof)
        out.append(measurement(version, source, path + suffix, workload, sides["Read"], sides["Write"]))
    return out


# -- the per-interval series (-D) ----------------------------------------------------------------
def xml_intervals(text: str, end_epoch_s: float) -> list[Interval] | None:
    """DiskSpd's own per-interval series (``-D``), as live-chart intervals; None without it.

    IOPS come from the time span's ``Iops/Bucket`` (all targets merged). MB/s = Σ over
    thread-targets of bucket IOPS x that target's block size (the profile's BlockSize), because
    the series has counts, not bytes. Latency is the bucket's Read/WriteAvgLatencyMilliseconds
    (only with -L; None for an empty bucket). The XML has no clock time, so buckets are placed
    backwards from ``end_epoch_s`` (when the process ended: DiskSpd prints right after measuring,
    cool-down is 0).
    """
    try:
        root = results_root(text)
    except DiskSpdParseError:
        return None
    span = root.find("TimeSpan")
    if span is None:
        return None
    buckets = span.findall("Iops/Bucket")
    if not buckets:
        return None
    bs = {(_text(t, "Path") or ""): _int(t, "BlockSize") or 0
          for t in root.findall("Profile/TimeSpans/TimeSpan/Targets/Target")}
    read_bytes = [0.0] * len(buckets)
    write_bytes = [0.0] * len(buckets)
    for target in span.findall("Thread/Target"):
        size = bs.get(_text(target, "Path") or "", 0)
        for i, bucket in enumerate(target.findall("Iops/Bucket")[:len(buckets)]):
            read_bytes[i] += _attr(bucket, "Read") * size
            write_bytes[i] += _attr(bucket, "Write") * size
    step_ms = [_attr(b, "SampleMillisecond") for b in buckets]
    out = []
    for i, bucket in enumerate(buckets):
        dt = (step_ms[i] - (step_ms[i - 1] if i else 0.0)) / 1000.0 or 1.0
        r_iops, w_iops = _attr(bucket, "Read"), _attr(bucket, "Write")
        out.append(Interval(
            end_epoch_s=end_epoch_s - (step_ms[-1] - step_ms[i]) / 1000.0, duration_s=dt,
            read_MBps=read_bytes[i] / MB, read_iops=r_iops, read_lat_us=_lat(bucket, "Read", r_iops),
            write_MBps=write_bytes[i] / MB, write_iops=w_iops,
            write_lat_us=_lat(bucket, "Write", w_iops)))
    return out


def _attr(el: ET.Element, name: str) -> float:
    try:
        return float(el.get(name, "0"))
    except ValueError:
        return 0.0


def _lat(bucket: ET.Element, tag: str, iops: float) -> float | None:
    value = bucket.get(f"{tag}AvgLatencyMilliseconds")
    if value is None or iops <= 0:
        return None
    try:
        return ms_to_us(float(value))
    except ValueError:
        return None
