"""fio's normal (human-readable, default) output -> measurements, for ``ssd-profiler import``.

Students keep what fio printed on their terminal; this reads it with the numbers fio printed.
Two layouts exist (fio's ``stat.c``), told apart by each direction's first line:

- fio 2.19 and later (all of 3.x): ``read: IOPS=36.7k, BW=143MiB/s (150MB/s)(287MiB/2001msec)``;
  the first rate is binary (or decimal with ``kb_base=1000``), the one in parentheses the other;
- fio before 2.19: ``read : io=287.00MB, bw=146764KB/s, iops=36691, runt=  2001msec``, where
  ``KB``/``MB`` are KiB/MiB (fio's default ``kb_base=1024``).

Each direction then has ``slat``/``clat``/``lat`` lines (``min``, ``max``, ``avg``, in the unit
in parentheses: nsec, usec or msec) and percentile blocks (``clat percentiles (usec):``, or
``lat percentiles`` with ``lat_percentiles=1``). As in JSON, latency is *total* when total
latency has percentiles, else *completion*, else total when only ``lat`` was printed.

Kept as printed: IOPS (3 to 4 significant digits in 3.x), MB/s from the decimal figure and MiB/s
from the binary one (both rounded by fio, so they need not agree in the last digit), io bytes
from the printed amount, latencies to fio's 2 decimals, percentiles as the integers fio shows.
The workload comes from the job line fio prints before it starts (``rw``, ``bs``, ``iodepth``)
and ``jobs=`` of the result line; a text copied without that line has no workload, never a
guessed one. Each result block (``name: (groupid=0, jobs=1): err= 0: ...``) is one measurement;
a block without the ``cpu`` line fio prints after every job's results is cut off and refused,
so a partial copy never passes for a whole result.
"""
from __future__ import annotations

import re
from typing import Any

from app.engines.fio.text_common import (
    TIME_TO_US,
    FioTextError,
    amount_bytes,
    count,
    direction,
    empty_workload,
    lat_us,
    latency_us,
    measurement,
)
from app.model.measurement import DirectionResult, LatencyKind, Measurement
from app.units import MB, MiB, UnitError, parse_size

_RESULT = re.compile(r"^(?P<name>.*?): \(groupid=(?P<group>\d+), jobs=(?P<jobs>\d+)\): "
                     r"err=\s*(?P<err>\d+)")
_JOB_LINE = re.compile(r"^(?P<name>.*?): \(g=\d+\): rw=(?P<rw>\w+), bs=(?P<bs>.*?), "
                       r"ioengine=\S+, iodepth=(?P<iodepth>\d+)")
_VERSION = re.compile(r"^(fio-\d[\w.\-]*)\s*$")
_NEW = re.compile(r"^\s*(?P<dir>read|write|trim|mixed)\s*: IOPS=(?P<iops>[\d.]+[kMGTP]?), "
                  r"BW=(?P<bw>[\d.]+[A-Za-z]+)/s \((?P<bw2>[\d.]+[A-Za-z]+)/s\)"
                  r"\((?P<io>[\d.]+[A-Za-z]*)/(?P<runt>\d+)msec\)")
_OLD = re.compile(r"^\s*(?P<dir>read|write|trim|mixed)\s*: io=(?P<io>[\d.]+[A-Za-z]*), "
                  r"bw=(?P<bw>[\d.]+[A-Za-z]*)/s, iops=\s*(?P<iops>[\d.]+[kKMGTP]?)\s*, "
                  r"runt=\s*(?P<runt>\d+)msec")
_STATS = re.compile(r"^\s*(?P<kind>slat|clat|lat)\s*\((?P<unit>[a-z]+)\)\s*:\s*"
                    r"min=\s*(?P<min>[\d.]+[kKMG]?),\s*max=\s*(?P<max>[\d.]+[kKMG]?),\s*"
                    r"avg=\s*(?P<avg>[\d.]+),")
_PCT_HEAD = re.compile(r"^\s*(?P<kind>clat|lat|slat)\s+percentiles\s*\((?P<unit>[a-z]+)\)\s*:")
_PCT = re.compile(r"(\d+(?:\.\d+)?)th=\[\s*(\d+)\]")
_CPU = re.compile(r"^\s+cpu\s+:")
_END = re.compile(r"^\S.*|^\s*(Run status group|Disk stats)")


def looks_like_normal(text: str) -> bool:
    """A result line of fio's normal output (``name: (groupid=0, jobs=1): err= 0``) or the job
    line fio prints as it starts (so a copy cut off before the results is named as such)."""
    return any(_RESULT.match(line) or _JOB_LINE.match(line) for line in text.splitlines())


def parse_normal_output(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """The measurements of a normal-output file, as run.json keeps them (the JSON parser's shape)."""
    return [m.to_json() for m in read_normal_output(text, source)]


def read_normal_output(text: str, source: str | None = None) -> list[Measurement]:
    """One measurement per result block, in file order (same-named jobs are kept apart)."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    where = f" in {source}" if source else ""
    version = next((m.group(1) for line in lines if (m := _VERSION.match(line))), None)
    jobs = _job_lines(lines)
    starts = [i for i, line in enumerate(lines) if _RESULT.match(line)]
    if not starts:
        raise FioTextError(f"no fio result block found{where} (a line like "
                           "'name: (groupid=0, jobs=1): err= 0: ...')")
    out = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        head = _RESULT.match(lines[start])
        assert head is not None  # `starts` holds only the lines _RESULT matches
        block = lines[start + 1:end]
        error = int(head.group("err"))
        sides = {} if error else _directions(block)
        if not error and not sides:
            raise FioTextError(f"fio result of job {head.group('name')[:60]!r}{where} has no "
                               "read or write line (is the file cut off?)")
        if not error and not any(_CPU.match(line) for line in block):
            raise FioTextError(f"fio result of job {head.group('name')[:60]!r}{where} is cut off "
                               "(no 'cpu' line after its read/write results)")
        workload = dict(jobs.get(head.group("name"), empty_workload()))
        workload["numjobs"] = int(head.group("jobs"))
        out.append(measurement(version, source, head.group("name"), error, workload,
                               sides.get("read"), sides.get("write"), sides.get("mixed")))
    return out


def _job_lines(lines: list[str]) -> dict[str, dict[str, Any]]:
    """Workload per job name from fio's start-up lines (the first line of each name counts)."""
    out: dict[str, dict[str, Any]] = {}
    for line in lines:
        match = _JOB_LINE.match(line)
        if match and match.group("name") not in out:
            workload = empty_workload()
            workload.update(rw=match.group("rw"), bs_bytes=_first_size(match.group("bs")),
                            iodepth=int(match.group("iodepth")))
            out[match.group("name")] = workload
    return out


def _first_size(text: str) -> int | None:
    """The first size of ``(R) 4096B-4096B, (W) ...`` (3.x) or ``4K-4K/4K-4K/4K-4K`` (2.x)."""
    match = re.search(r"(\d+(?:\.\d+)?[KMGTkmgt]?i?B?)(?=-)", text)
    try:
        return parse_size(match.group(1)) if match else None
    except UnitError:
        return None


def _directions(block: list[str]) -> dict[str, DirectionResult]:
    """{"read"|"write"|"mixed": result} from one result block; trim is left out, as in JSON."""
    sections: list[tuple[re.Match[str], list[str]]] = []
    for line in block:
        if _END.match(line):
            break
        head = _NEW.match(line) or _OLD.match(line)
        if head:
            sections.append((head, []))
        elif sections:
            sections[-1][1].append(line)
    return {head.group("dir"): _direction(head, body) for head, body in sections
            if head.group("dir") != "trim"}


def _direction(head: re.Match[str], body: list[str]) -> DirectionResult:
    old = head.re is _OLD
    iops, runtime_ms = count(head.group("iops")), int(head.group("runt"))
    io_bytes = amount_bytes(head.group("io"), old_units=old)
    if old:  # one rate, KiB/s-style binary units
        rate = amount_bytes(head.group("bw"), old_units=True)
        mbps, mibps = rate / MB, rate / MiB
    else:
        first, second = amount_bytes(head.group("bw")), amount_bytes(head.group("bw2"))
        binary_first = "i" in head.group("bw")
        mibps = (first if binary_first else second) / MiB
        mbps = (second if binary_first else first) / MB
    kind, latency = _latency(body)
    return direction(io_bytes, iops, None, runtime_ms, kind, latency, mbps=mbps, mibps=mibps)


def _latency(body: list[str]) -> tuple[LatencyKind | None, dict[str, Any] | None]:
    """(kind, lat_us) by the JSON parser's rule, from the stats and percentile lines."""
    stats: dict[str, tuple[float | None, float | None, float | None]] = {}
    pcts: dict[str, dict[float, float]] = {}
    factors: dict[str, float] = {}  # each percentile table's unit, in µs
    current: dict[float, float] | None = None
    current_factor = 1.0
    for line in body:
        if m := _STATS.match(line):
            unit = m.group("unit")
            if unit not in TIME_TO_US:
                raise FioTextError(f"latency unit {unit!r} is not one fio prints")
            stats[m.group("kind")] = (latency_us(m.group("min"), unit),
                                      latency_us(m.group("avg"), unit),
                                      latency_us(m.group("max"), unit))
            current = None
        elif m := _PCT_HEAD.match(line):
            factor = TIME_TO_US.get(m.group("unit"))
            if factor is None:
                raise FioTextError(f"percentile unit {m.group('unit')!r} is not one fio prints")
            current = pcts.setdefault(m.group("kind"), {})
            current_factor = factors.setdefault(m.group("kind"), factor)
        elif current is not None and line.lstrip().startswith("|"):
            for p, v in _PCT.findall(line):
                current[float(p)] = int(v) * current_factor
        else:
            current = None
    if pcts.get("lat"):
        return LatencyKind.TOTAL, lat_us(stats.get("lat"), pcts["lat"])
    if "clat" in stats:
        return LatencyKind.COMPLETION, lat_us(stats["clat"], pcts.get("clat"))
    if "lat" in stats:
        return LatencyKind.TOTAL, lat_us(stats["lat"], None)
    return None, None
