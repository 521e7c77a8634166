"""The tail-latency exceedance plot: the fraction of I/Os slower than x against x, log-log.

From the merged histogram when every repetition has one (fio json+): one curve per queue depth
through every bucket edge, the pooled percentiles marked on it with their 95 % intervals as
horizontal bars, so a reader sees the whole tail and how sure each named percentile is. Without
bins (DiskSpd, runs from before json+) the curve can only be drawn through the reported
percentiles, means over the repetitions, and the caption says it is an interpolation.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from app.model.summary import WorkloadSummary
from app.results.figure import LATENCY_KINDS, OTHER, Axis, Figure, Series, lat_axis_label, mean, std
from app.results.pooled import merged_histogram, pooled_of, pooled_points
from app.stats.histogram import Histogram
from app.stats.io_counts import FEW, caption_counts

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults

TICKS = ((1.0, "100%"), (0.5, "50%"), (0.1, "10%"), (0.01, "1%"), (1e-3, "0.1%"), (1e-4, "0.01%"),
         (1e-5, "0.001%"), (1e-6, "0.0001%"))
Name = Callable[[WorkloadSummary], str]


def _fraction(key: str) -> float:
    return 1 - float(key[1:]) / 100


def exceedance(part: ExperimentResults, kind: str | None, what: str, n: str,
               keys: tuple[str, ...], unit: str, factor: float, name: Name) -> Figure:
    """``name(row)`` names a curve of one of the part's workloads."""
    rows = part.workloads
    hists = [merged_histogram(part, r, r.direction) for r in rows]
    if rows and all(hists):
        series, lowest = _from_histograms(rows, [h for h in hists if h], keys, factor, name)
        highest = 1.0
        how = ("Each curve is the merged latency histogram of all measured repetitions "
               f"(n = {n}); points are the pooled percentiles {', '.join(keys)} with their 95 % "
               "intervals as horizontal bars; a percentile with fewer than 10 I/Os beyond it is "
               "left out (too few I/Os). Curve points sit at the histogram's bucket "
               "edges (fio's buckets: within 1/64 of the value)." + _left_out(rows, keys, True))
    else:
        series, lowest = _from_percentiles(part, keys, factor, name), 1e-4
        highest = 0.5
        how = ("Drawn through the reported percentiles (fraction slower = 1 − p), not from a "
               "histogram (the engine gave none): between the points the line is an "
               f"interpolation. Each point is the mean over n = {n} repetitions, horizontal bars "
               f"± one sample std; a percentile with fewer than {FEW} I/Os beyond it in a "
               "repetition is left out (too few I/Os)." + _left_out(rows, keys, False))
    ticks = tuple(t for t in TICKS if lowest / 1.5 <= t[0] <= highest)
    return Figure(
        id="tail-latency-exceedance", experiment=part.id,
        title=f"Tail latency ({what}): fraction of I/Os slower than a latency",
        x_axis=Axis(lat_axis_label(kind, unit=unit) + ", log scale", include_zero=False, log=True),
        y_axis=Axis("Fraction of I/Os slower (log scale)", ticks, log=True),
        series=tuple(series),
        caption=f"{LATENCY_KINDS.get(kind or '', 'latency of unknown kind').capitalize()}. {how} "
                f"{caption_counts(part, rows)}")


def _from_histograms(rows: Sequence[WorkloadSummary], hists: Sequence[Histogram],
                     keys: tuple[str, ...], factor: float, name: Name) -> tuple[list[Series], float]:
    series, lowest = [], 1.0
    for i, (r, hist) in enumerate(zip(rows, hists)):
        color = OTHER[i % len(OTHER)]
        curve = [(ns / 1000 * factor, f) for ns, f in hist.exceedance()]
        if curve:
            lowest = min([lowest] + [f for _, f in curve if f > 0])  # the last is 0: the drop
            series.append(Series(f"{name(r)}, {hist.ios:,} I/Os", tuple(x for x, _ in curve),
                                 tuple(y for _, y in curve), color=color))
        # the points carry their 95 % interval; too-few ones are left out (pooled_points)
        pts = pooled_points(pooled_of(r), keys, factor)
        if not pts:
            continue
        series.append(Series(f"{name(r)} percentiles (95 % CI)", tuple(x for _, x, _ in pts),
                             tuple(_fraction(k) for k, _, _ in pts), kind="scatter", color=color,
                             xerr=tuple(e for _, _, e in pts),
                             point_labels=tuple(k for k, _, _ in pts)))
    return series, lowest


def _left_out(rows: Sequence[WorkloadSummary], keys: tuple[str, ...], pooled: bool) -> str:
    """' Left out: p99.99 of QD8 (too few I/Os (3)).': which percentiles the figure does not
    draw, with the one mark (pooled: the pooled I/Os beyond it; else the repetition with the
    fewest)."""
    said = []
    for r in rows:
        p = pooled_of(r) if pooled else None
        for k in keys:
            stat = None if pooled else r.lat(k)
            mark = p.mark(k) if p else stat.mark() if stat else None
            if mark:
                said.append(f"{k} of QD{r.outstanding} ({mark})")
    return f" Left out: {'; '.join(said)}." if said else ""


def _from_percentiles(part: ExperimentResults, keys: tuple[str, ...], factor: float,
                      name: Name) -> list[Series]:
    series = []
    for i, r in enumerate(part.workloads):
        pts = [(k, m, std(st)) for k in keys if (m := mean(st := r.lat(k))) is not None
               and m > 0]   # a percentile on too few I/Os has no mean to draw (Stat.known)
        if not pts:
            continue
        series.append(Series(name(r), tuple(m * factor for _, m, _ in pts),
                             tuple(_fraction(k) for k, _, _ in pts),
                             xerr=tuple(e * factor for _, _, e in pts),
                             color=OTHER[i % len(OTHER)]))
    return series
