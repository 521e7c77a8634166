"""Findings derived from measurements (docs/architecture.md). Pure Python; never imports Qt.

Every function takes plain numbers, lists and dicts and returns a frozen dataclass (or a list of
them) whose ``to_json`` gives numbers, strings, booleans or None, never NaN, so results go
straight into ``run.json`` (an experiment's findings, docs/architecture.md). Units follow the field names: ``*_us`` microseconds, ``*_s`` seconds,
``*_bytes`` bytes, ``MBps`` 10^6 B/s, GB 10^9 bytes. Non-numeric, missing or non-finite inputs
are treated as absent.
"""
from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from app.stats.cliff import locate, where
from app.stats.derived import CacheExhaustion, Crossover, Knee, LittlesLawPoint, TailSpread
from app.stats.knee import knee
from app.units import finite_number as _num

__all__ = ["CacheExhaustion", "Crossover", "Knee", "LittlesLawPoint", "TailSpread", "cache_exhaustion",
           "crossover", "knee", "littles_law", "relative_spread", "summarize", "tail_spread"]

_EPS = 1e-9


def summarize(values: Iterable[object]) -> dict[str, Any]:
    """Aggregate one metric across repetitions: {"mean", "std", "n"}.

    ``mean`` is the arithmetic mean and ``std`` the *sample* standard deviation (ddof=1,
    ``statistics.stdev``), because repetitions are a sample of the drive's behaviour. None
    values are ignored; ``n`` counts the values used; mean is None when n == 0 and std is None
    when n < 2.
    """
    xs = [v for v in map(_num, values) if v is not None]
    n = len(xs)
    return {"mean": statistics.fmean(xs) if n else None,
            "std": statistics.stdev(xs) if n >= 2 else None, "n": n}


def relative_spread(stat: Mapping[str, object]) -> float | None:
    """Coefficient of variation std / |mean| of a ``summarize`` result, or None.

    A scale-free measure of repeatability (0.02 = 2 %); None when std or mean is missing or the
    mean is zero.
    """
    mean, std = _num(stat.get("mean")), _num(stat.get("std"))
    if mean is None or std is None or mean == 0:
        return None
    return std / abs(mean)


def littles_law(points: Iterable[Mapping[str, Any]]) -> list[LittlesLawPoint]:
    """Little's Law check per point of a queue-depth sweep, in input order.

    L = IOPS x mean latency (µs) / 10^6 is the mean number of I/Os in the system implied by
    the measured throughput and latency (a point's "L", the mean of its repetitions' own L, is
    used when given: the product of mean IOPS and mean latency overstates L when both vary
    between repetitions). ``outstanding`` is the point's explicit
    "outstanding" (e.g. numjobs x iodepth) or else its "level". ratio = L / outstanding: near
    1 the queue the host asked for is kept full; well below 1 time is lost outside the device
    (submission/completion overhead, a host-side bottleneck). L and ratio are None when an
    input is missing (ratio also when outstanding is zero).
    """
    out = []
    for p in points:
        level = p.get("level")
        outstanding = p["outstanding"] if "outstanding" in p else level
        iops, lat, q = _num(p.get("iops")), _num(p.get("lat_us")), _num(outstanding)
        big_l = _num(p.get("L"))  # the mean of each repetition's L, when the caller has them
        if big_l is None and iops is not None and lat is not None:
            big_l = iops * lat / 1e6
        ratio = big_l / q if big_l is not None and q else None
        out.append(LittlesLawPoint(level, outstanding, iops, lat, big_l, ratio))
    return out


def crossover(points: Iterable[Mapping[str, Any]]) -> Crossover | None:
    """Block size where a pattern turns from IOPS-limited to bandwidth-limited.

    points: dicts {"bs_bytes", "iops", "MBps"} for one access pattern. Definition: normalise
    IOPS and MB/s each by its own maximum over the series, giving i(b) and m(b) in [0, 1];
    d(b) = i(b) - m(b) is positive at small blocks. The crossover is where the falling
    i curve meets the rising m curve: the first measured size with d <= 0; if d == 0 there
    (within 1e-9) it is that size, otherwise it is interpolated linearly in log2(block size)
    between that size and the one before. With consistent data (MB/s = IOPS x size) the two
    curves always touch somewhere in the range, so a touch at the largest size while IOPS is
    still at its peak means "not crossed yet" (at or above the largest size), and a touch at
    the smallest size while MB/s is already at its peak means "at or below the smallest
    size"; both give crossover_bs_bytes None and a ``note``. ``bw_saturation_bs_bytes`` is the
    smallest size whose MB/s reaches 90 % of the peak MB/s. None when no usable point.
    """
    rows = []
    for p in points:
        bs, iops, mbps = _num(p.get("bs_bytes")), _num(p.get("iops")), _num(p.get("MBps"))
        if bs is not None and bs > 0 and iops is not None and mbps is not None:
            rows.append((p["bs_bytes"], iops, mbps))
    if not rows:
        return None
    rows.sort(key=lambda r: r[0])
    peak_iops, peak_mb = max(r[1] for r in rows), max(r[2] for r in rows)
    out = Crossover(None, None, None, next(r[0] for r in rows if r[2] >= 0.9 * peak_mb - _EPS),
                    peak_mb, peak_iops)
    if len(rows) < 2 or peak_iops <= 0 or peak_mb <= 0:
        return replace(out, note="need at least two block sizes with non-zero IOPS and MB/s")
    d = [r[1] / peak_iops - r[2] / peak_mb for r in rows]
    d = [0.0 if abs(x) <= _EPS else x for x in d]
    i = next((k for k, x in enumerate(d) if x <= 0), None)
    last = len(rows) - 1
    if i is None or (i == last and d[i] == 0 and rows[i][1] >= peak_iops):
        return replace(out, note="the curves do not cross inside the measured range: the crossover lies "
                       "at or above the largest block size measured (IOPS had not yet fallen)")
    if i == 0 and (d[0] < 0 or rows[0][2] >= peak_mb):
        return replace(out, note="the curves do not cross inside the measured range: the crossover lies "
                       "at or below the smallest block size measured (MB/s already at its peak)")
    if d[i] == 0:
        return replace(out, crossover_bs_bytes=float(rows[i][0]), below_bs_bytes=rows[i][0],
                       above_bs_bytes=rows[i][0])
    (b0, d0), (b1, d1) = (rows[i - 1][0], d[i - 1]), (rows[i][0], d[i])
    x0, x1 = math.log2(b0), math.log2(b1)
    return replace(out, crossover_bs_bytes=2.0 ** (x0 + (x1 - x0) * d0 / (d0 - d1)),
                   below_bs_bytes=b0, above_bs_bytes=b1)


def cache_exhaustion(samples: Iterable[tuple[object, object]], *, drop_fraction: float = 0.3,
                     min_duration_s: float | None = None, end_s: float | None = None) -> CacheExhaustion:
    """Write-cache (e.g. SLC) exhaustion point of one sustained sequential write.

    samples: (t_s, MBps) per interval, t_s the end of the interval. Interval durations are the
    differences of t_s; the first interval lasts t_s[0] unless that is odd (<= 0, or more than
    twice the median of the other intervals, e.g. absolute time stamps), then the median
    interval. GB written (10^9 B) accumulate as MB/s x s / 1000.

    Baseline = median of the early plateau, the first max(3, ceil(10 %)) samples (the median
    shrugs off a ramp-up first sample). Throughput is smoothed by a centred rolling median of 5
    samples (removes isolated one- and two-sample dips without shifting a clean step). The
    drop is the first run of consecutive smoothed samples below (1 - drop_fraction) x baseline
    whose total duration is at least ``min_duration_s`` (default max(3 median intervals, 5 % of
    the run)). That run's first interval only brackets the step: it lies in it, in the one
    before or on the boundary between them, up to an interval's worth of data. The step is
    located within its interval from the interval's mean and its neighbours' rates
    (app/stats/cliff.py): ``t_drop_s`` and ``gb_before_drop`` are where it is,
    ``t_resolution_s``/``gb_resolution`` their ±, ``transitional_intervals`` how many intervals
    it spread over. ``MBps_before``/``MBps_after`` are time-weighted means of the raw samples
    before and after those intervals (= GB / time), which belong to neither level. Without
    neighbours to place it against, the step is put at the run's first interval, ± that
    interval. The levels are read from intervals ending by ``end_s`` (the trial's planned
    runtime, on the samples' clock), or all but the last when it is not given: the run's final
    intervals hold the engine's drain of its queue, not the drive's own pace (they still count
    in ``MBps_after``, which is GB / time). Without a drop MBps_before is the mean of all
    samples. Fewer than 6 samples: no verdict ("too few samples to judge").
    """
    pts = sorted((t, v) for t, v in ((_num(a), _num(b)) for a, b in samples)
                 if t is not None and v is not None)
    n = len(pts)
    t, v = [p[0] for p in pts], [p[1] for p in pts]
    gaps = [max(b - a, 0.0) for a, b in zip(t, t[1:])]
    med = statistics.median(gaps) if gaps else None
    first = t[0] if n else 0.0
    if med is not None and (first <= 0 or first > 2 * med):
        first = med
    dt = [max(first, 0.0)] + gaps
    gb = list(itertools.accumulate(vi * di / 1000 for vi, di in zip(v, dt)))

    def mean_between(lo: int, hi: int) -> float | None:
        if hi <= lo:
            return None
        span = sum(dt[lo:hi])
        if span <= 0:
            return statistics.fmean(v[lo:hi])
        return sum(vi * di for vi, di in zip(v[lo:hi], dt[lo:hi])) / span

    baseline = statistics.median(v[:max(3, math.ceil(0.1 * n))]) if n else None
    out = CacheExhaustion(drop_observed=False, t_drop_s=None, gb_before_drop=None,
                          MBps_before=mean_between(0, n), MBps_after=None, baseline_MBps=baseline,
                          total_gb=gb[-1] if n else 0.0, threshold_MBps=None,
                          min_duration_s=None, note="no drop observed")
    if n < 6:
        return replace(out, note="too few samples to judge")
    if baseline is None or baseline <= 0:
        return replace(out, note="no throughput in the early samples")
    threshold = (1.0 - drop_fraction) * baseline
    assert med is not None  # six or more samples have gaps between them
    end = _num(end_s)
    settled = n - 1 if end is None else sum(1 for x in t if x <= end + 0.1 * med)
    if min_duration_s is None:
        min_duration_s = max(3 * med, 0.05 * sum(dt))
    out = replace(out, threshold_MBps=threshold, min_duration_s=float(min_duration_s))
    smooth = [statistics.median(v[max(0, k - 2):k + 3]) for k in range(n)]
    i = 0
    while i < n:
        if smooth[i] >= threshold:
            i += 1
            continue
        j = i
        while j < n and smooth[j] < threshold:
            j += 1
        if sum(dt[i:j]) >= min_duration_s - _EPS:
            fell = (f"throughput fell below {threshold:.0f} MB/s ({1 - drop_fraction:.0%} of the "
                    f"{baseline:.0f} MB/s baseline) and stayed below for {sum(dt[i:j]):g} s")
            step = locate(t, dt, v, i, min(j, settled))
            if step is None:
                return replace(out, drop_observed=True, t_drop_s=t[i] - dt[i],
                               gb_before_drop=gb[i - 1] if i else 0.0, t_resolution_s=dt[i],
                               gb_resolution=max(v[k] * dt[k] for k in range(max(i - 1, 0), i + 1)) / 1000,
                               MBps_before=mean_between(0, i), MBps_after=mean_between(i, n),
                               transitional_intervals=None,
                               note=f"{fell}; the step lies in the interval ending at {t[i]:g} s or the "
                                    "one before (no level on one side to place it more closely)")
            return replace(out, drop_observed=True, t_drop_s=step.t_s, gb_before_drop=step.gb,
                           t_resolution_s=step.t_resolution_s, gb_resolution=step.gb_resolution,
                           MBps_before=mean_between(0, step.first), MBps_after=mean_between(step.end, n),
                           transitional_intervals=step.transitional, note=f"{fell}; {where(step, t, dt)}")
        if j == n:
            out = replace(out, note="no drop confirmed: throughput fell below the threshold only "
                                    "near the end of the run, too briefly to judge")
        i = j
    return out


def tail_spread(lat_us: Mapping[str, object]) -> TailSpread:
    """How far the latency tail reaches beyond the median: percentile / p50 ratios.

    From a latency dict with keys "p50", "p95", "p99", "p99.9", "p99.99" (µs), returns
    p95_over_p50, p99_over_p50, p99.9_over_p50 and p99.99_over_p50; each is None when that
    percentile or p50 is missing, or p50 is not positive.
    """
    p50 = _num(lat_us.get("p50"))
    out = []
    for key in ("p95", "p99", "p99.9", "p99.99"):
        p = _num(lat_us.get(key))
        out.append(p / p50 if p is not None and p50 is not None and p50 > 0 else None)
    return TailSpread(*out)
