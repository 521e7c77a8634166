"""The tail-latency exceedance plot: the fraction of I/Os slower than x against x, log-log.

From the merged histogram when every repetition has one (fio json+): one curve per queue depth
through every bucket edge, the pooled percentiles marked on it with their 95 % intervals as
horizontal bars, so a reader sees the whole tail and how sure each named percentile is. Without
bins (DiskSpd, runs from before json+) the curve can only be drawn through the reported
percentiles, means over the repetitions, and the caption says it is an interpolation.
"""
from __future__ import annotations

from app.results.figure import LATENCY_KINDS, OTHER, Axis, Figure, Series, lat_axis_label, mean, std
from app.results.pooled import merged_histogram, pooled_of
from app.stats.io_counts import FEW, beyond, caption_counts, workload_ios

TICKS = ((1.0, "100%"), (0.5, "50%"), (0.1, "10%"), (0.01, "1%"), (1e-3, "0.1%"), (1e-4, "0.01%"),
         (1e-5, "0.001%"), (1e-6, "0.0001%"))


def _fraction(key: str) -> float:
    return 1 - float(key[1:]) / 100


def exceedance(eid: str, rows: list[dict], kind: str | None, record: dict, what: str, n: str,
               keys: tuple[str, ...], unit: str, factor: float, name, lat_stat) -> Figure:
    """``name(row)`` names a curve, ``lat_stat(row, key)`` gives a per-repetition summary."""
    hists = [merged_histogram(record, eid, r, _direction(r)) for r in rows]
    if rows and all(hists):
        series, lowest = _from_histograms(rows, hists, keys, factor, name)
        highest = 1.0
        how = ("Each curve is the merged latency histogram of all measured repetitions "
               f"(n = {n}); points are the pooled percentiles {', '.join(keys)} with their 95 % "
               "intervals as horizontal bars; a percentile with fewer than 10 I/Os beyond it is "
               "labelled 'too few I/Os' instead. Curve points sit at the histogram's bucket "
               "edges (fio's buckets: within 1/64 of the value).")
    else:
        series, lowest = _from_percentiles(eid, rows, record, keys, factor, name, lat_stat), 1e-4
        highest = 0.5
        how = ("Drawn through the reported percentiles (fraction slower = 1 − p), not from a "
               "histogram (the engine gave none): between the points the line is an "
               f"interpolation. Each point is the mean over n = {n} repetitions, horizontal bars "
               f"± one sample std. A point with fewer than {FEW} I/Os beyond it is labelled: "
               "treat it as indicative.")
    ticks = tuple(t for t in TICKS if lowest / 1.5 <= t[0] <= highest)
    return Figure(
        id="tail-latency-exceedance", experiment=eid,
        title=f"Tail latency ({what}): fraction of I/Os slower than a latency",
        x_axis=Axis(lat_axis_label(kind, unit=unit) + ", log scale", include_zero=False, log=True),
        y_axis=Axis("Fraction of I/Os slower (log scale)", ticks, log=True),
        series=tuple(series),
        caption=f"{LATENCY_KINDS.get(kind, 'latency of unknown kind').capitalize()}. {how} "
                f"{caption_counts(record, eid, rows)}")


def _direction(row: dict) -> str:
    return "read" if row.get("read") else "write"


def _from_histograms(rows, hists, keys, factor, name) -> tuple[list[Series], float]:
    series, lowest = [], 1.0
    for i, (r, hist) in enumerate(zip(rows, hists)):
        color = OTHER[i % len(OTHER)]
        curve = [(ns / 1000 * factor, f) for ns, f in hist.exceedance()]
        if curve:
            lowest = min(lowest, curve[-1][1])
            series.append(Series(f"{name(r)}, {hist.ios:,} I/Os", tuple(x for x, _ in curve),
                                 tuple(y for _, y in curve), color=color))
        pooled = pooled_of(r, _direction(r)) or {}
        marks = [(k, pooled.get(k)) for k in keys if pooled.get(k)]
        if not marks:
            continue
        thin = set(pooled.get("too_few") or ())
        xs = tuple(v * factor for _, v in marks)
        bars = []
        for (k, _), x in zip(marks, xs):
            ci = (pooled.get("ci95") or {}).get(k)
            bars.append((x - ci[0] * factor, ci[1] * factor - x) if ci and k not in thin else 0.0)
        labels = tuple(f"{k}: too few I/Os" if k in thin else k for k, _ in marks)
        series.append(Series(f"{name(r)} percentiles (95 % CI)", xs,
                             tuple(_fraction(k) for k, _ in marks), kind="scatter", color=color,
                             xerr=tuple(bars), point_labels=labels))
    return series, lowest


def _from_percentiles(eid, rows, record, keys, factor, name, lat_stat) -> list[Series]:
    series = []
    for i, r in enumerate(rows):
        pts = [(k, lat_stat(r, k)) for k in keys]
        pts = [(k, st) for k, st in pts if mean(st) is not None and mean(st) > 0]
        if not pts:
            continue
        ios = workload_ios(record, eid, r)
        fewest = min(ios) if ios else None
        notes = tuple(f"{k}: {beyond(k, fewest):.0f} I/Os beyond" if fewest is not None
                      and beyond(k, fewest) < FEW else "" for k, _ in pts)
        series.append(Series(name(r), tuple(mean(st) * factor for _, st in pts),
                             tuple(_fraction(k) for k, _ in pts),
                             xerr=tuple(std(st) * factor for _, st in pts),
                             color=OTHER[i % len(OTHER)],
                             point_labels=notes if any(notes) else None))
    return series
