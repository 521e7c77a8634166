"""fio's terse output (``--output-format=terse``/``--minimal``) -> measurements, for import.

One semicolon-separated line per job (fio's HOWTO, "Terse output"; ``stat.c``
``show_thread_status_terse_all``), the same layout in fio 2.x and 3.x:

``version;fio-x.y;jobname;groupid;error`` then per direction (read, write, and trim in versions
4 and 5) ``io KiB; bw KiB/s; IOPS; runtime ms``, slat/clat ``min;max;mean;stdev`` in µs, 20
``percentile%=µs`` fields (``0%=0`` where unused), total latency ``min;max;mean;stdev``, bandwidth
``min;max;agg%;mean;stdev`` (version 5 adds the sample count and five IOPS fields), then CPU,
I/O depths, latency buckets and per-disk utilisation. Versions 3, 4 and 5 are read; version 2
(no fio version, other fields) is refused by name.

Numbers are fio's own: io is whole KiB, bandwidth whole KiB/s, IOPS whole, min/max latencies
whole µs (fio 3.x divides nanoseconds by 1000 and drops the rest), means to 6 decimals.

Latency kind: the percentile fields hold completion latency (fio's default) unless fio ran with
``lat_percentiles=1``, when they hold total latency; the line does not say which. So the kind is
*completion* (clat min/mean/max with the percentiles) unless the percentiles themselves show
otherwise: a percentile above the largest completion latency can only be a total latency (then
*total*, with lat min/mean/max). A total-latency list that stays within the completion range
cannot be told apart and is reported as completion.

The line carries no workload (rw, block size, depth): those fields stay ``None``.
"""
from __future__ import annotations

import re
from typing import Any

from app.engines.fio.text_common import FioTextError, direction, empty_workload, lat_us, measurement
from app.model.measurement import DirectionResult, LatencyKind, Measurement
from app.units import KiB

_LINE = re.compile(r"^([2-9]);(fio-[^;]*);")
_PER_DIR = {3: 41, 4: 41, 5: 47}      # io..bw fields of one direction
_TAIL = 5 + 7 + 10 + 12               # cpu, io depths, µs and ms latency buckets
_HISTOGRAM_SLACK = 1.0 / 64           # fio's latency histogram buckets are at most this wide


def looks_like_terse(text: str) -> bool:
    """A line that starts like terse output: ``3;fio-3.33;`` (versions 3 to 5)."""
    return any(_LINE.match(line) for line in text.lstrip("\ufeff").splitlines())


def parse_terse_output(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """The measurements of a terse-output file, as run.json keeps them (the JSON parser's shape)."""
    return [m.to_json() for m in read_terse_output(text, source)]


def read_terse_output(text: str, source: str | None = None) -> list[Measurement]:
    """One measurement per terse job line, in file order; other lines (fio's start-up lines,
    the separate disk line of client/server mode) are skipped."""
    where = f" in {source}" if source else ""
    lines = [line for line in text.lstrip("\ufeff").splitlines() if _LINE.match(line)]
    if not lines:
        raise FioTextError(f"no fio terse line found{where} (a line like '3;fio-3.33;job;0;0;...')")
    return [_job(line, n + 1, where, source) for n, line in enumerate(lines)]


def _job(line: str, number: int, where: str, source: str | None) -> Measurement:
    fields = line.rstrip("\r").split(";")
    version = int(fields[0])
    if version not in _PER_DIR:
        raise FioTextError(f"terse line {number}{where} is terse version {version}; versions 3, "
                           "4 and 5 are read (run fio with --terse-version=3)")
    dirs = 3 if version >= 4 else 2
    needed = 5 + dirs * _PER_DIR[version] + _TAIL
    if len(fields) < needed:
        raise FioTextError(f"terse line {number}{where} has {len(fields)} fields, fewer than the "
                           f"{needed} of terse version {version} (is the file cut off?)")
    try:
        error = int(fields[4])
        sides = [_direction(fields[5 + i * _PER_DIR[version]:5 + (i + 1) * _PER_DIR[version]])
                 for i in range(2)]
    except ValueError:
        raise FioTextError(f"terse line {number}{where} has a field that is not a number where "
                           f"terse version {version} has one (a ';' in the job name?)") from None
    return measurement(fields[1], source, fields[2], error, empty_workload(), sides[0], sides[1])


def _direction(f: list[str]) -> DirectionResult | None:
    """One direction's fields, or None when it did no I/O (all counters zero)."""
    io_kib, bw_kib, iops, runtime = (int(v) for v in f[0:4])
    if io_kib == 0 and iops == 0:
        return None
    clat, lat = _stats(f[8:12]), _stats(f[32:36])
    pcts = _percentiles(f[12:32])
    kind, stats = LatencyKind.COMPLETION, clat
    top = max(pcts.values(), default=None)
    if clat and lat and top is not None and top > clat[2] * (1 + _HISTOGRAM_SLACK) + 1:
        kind, stats = LatencyKind.TOTAL, lat
    if stats is None:
        kind, stats, pcts = LatencyKind.TOTAL, lat, {}
    latency = lat_us(stats, pcts) if stats is not None else None
    return direction(io_kib * KiB, float(iops), bw_kib * KiB, runtime, kind, latency)


def _stats(f: list[str]) -> tuple[float, float, float] | None:
    """(min, mean, max) µs from ``min;max;mean;stdev``; None for fio's all-zero "no samples"."""
    low, high, mean = int(f[0]), int(f[1]), float(f[2])
    if low == 0 and high == 0 and mean == 0.0:
        return None
    return float(low), mean, float(high)


def _percentiles(f: list[str]) -> dict[float, float]:
    """{percentile: µs} from ``99.000000%=501``; the ``0%=0`` padding is dropped."""
    out: dict[float, float] = {}
    for item in f:
        name, _, value = item.partition("%=")
        if not _ or float(name) == 0.0:
            continue
        out[float(name)] = float(int(value))
    return out
