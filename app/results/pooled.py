"""Pooled percentiles in tables and text: every I/O of a workload's repetitions at once.

Why beside the per-repetition columns and not instead of them: the pooled p99 is the p99 of the
I/Os measured (from the merged fio json+ histogram, with a 95 % interval and the number of I/Os it
rests on), while mean ± std of each repetition's own p99 shows how much one run differs from the
next. A student needs both: the first to state the tail, the second to see whether it is stable.
A percentile with fewer than 10 I/Os beyond it is printed as "too few I/Os (n)" (n: the pooled I/Os
beyond it; app/model/percentiles.py), never as a number; the CSV keeps it beside a too-few flag.
DiskSpd reports percentiles without bins: its runs keep the per-repetition values and say why.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.model.percentiles import POOLED_PERCENTILES, percentile_key
from app.model.summary import Pooled, WorkloadSummary
from app.results.figure import Series
from app.results.table import LABEL, W_COLS, Column, N, Table, workload_cells, workload_table
from app.stats.histogram import Histogram

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

POOLED_KEYS = tuple(percentile_key(p) for p in POOLED_PERCENTILES)


def directions(row: WorkloadSummary) -> list[str]:
    return [d for d in ("read", "write") if row.side(d)]


def pooled_of(row: WorkloadSummary, direction: str | None = None) -> Pooled | None:
    """The pooled percentiles of ``direction`` (default: the main one); None without a
    histogram (e.g. DiskSpd)."""
    side = row.side(direction) if direction else row.main
    return side.pooled if side else None


def merged_histogram(part: ExperimentResults, row: WorkloadSummary,
                     direction: str) -> Histogram | None:
    """The merged histogram of a workload's measured repetitions (None unless every one has bins)."""
    hists = []
    for t in part.trials:
        if t.workload_key != row.key:
            continue
        side = t.measurement.side(direction) if t.measurement else None
        if side is None or not side.hist:
            return None
        hists.append(side.hist)
    merged = Histogram.merged(hists)  # one pass over all of them (a run's 10,000 trials)
    return merged if hists and merged.ios else None


def pooled_text(pooled: Pooled | Mapping[str, Any], key: str, digits: int = 1) -> str:
    """'412.7 [398.3, 430.1]' (µs, 95 % interval) or 'too few I/Os (3)' (I/Os beyond it)."""
    got = pooled if isinstance(pooled, Pooled) else Pooled.from_json(pooled)
    value = got.values.get(key)
    if value is None:
        return "–"
    mark = got.mark(key)
    if mark:
        return mark
    ci = got.ci95.get(key)
    text = f"{value:,.{digits}f}"
    return text + (f" [{ci[0]:,.{digits}f}, {ci[1]:,.{digits}f}]" if ci else "")


def pooled_table(cls: type, part: ExperimentResults, run: RunResults, tid: str, title: str,
                 keys: tuple[str, ...] = POOLED_KEYS, kind: str = "unknown kind") -> Table | None:
    """One row per workload and direction: I/Os pooled, then each percentile with its 95 %
    interval (Markdown: one cell; CSV: value, low and high columns). None without histograms."""
    sides = [(row, d, p) for row in part.workloads for d in directions(row)
             if (p := pooled_of(row, d))]
    # a too-few flag column (CSV) beside a percentile only where one is too few: the CSV keeps
    # that value only beside its flag, and tables without one keep their bytes
    flagged = {k for _, _, p in sides for k in keys if k in p.too_few}
    cols = [*W_COLS, LABEL, Column("Direction", "direction"), Column("I/Os pooled", "ios", 0)]
    for k in keys:
        cols += [Column(f"{k} (µs, 95 % CI)", f"{k}_text", where="md"),
                 Column(k, f"{k}_us", where="csv"), Column(k, f"{k}_ci95_low_us", where="csv"),
                 Column(k, f"{k}_ci95_high_us", where="csv"),
                 *([Column(k, f"{k}_too_few", where="csv")] if k in flagged else [])]
    cols.append(N)
    data = []
    for row, d, pooled in sides:
        cells: list[Any] = []
        for k in keys:
            ci = pooled.ci95.get(k) or (None, None)
            cells += [pooled_text(pooled, k), pooled.values.get(k), ci[0], ci[1],
                      *([k in pooled.too_few] if k in flagged else [])]
        data.append((*workload_cells(row), d, pooled.ios, *cells, row.n))
    if not data:
        return None
    notes = (f"Pooled: the percentile of every I/O of the n measured repetitions together, read "
             f"from fio's merged latency histogram ({kind} latency, µs); in brackets its 95 % "
             "confidence interval (distribution-free, from the binomial order statistics, to the "
             "histogram's bucket edges). 'too few I/Os (n)': only n (fewer than 10) of the pooled "
             "I/Os lie beyond that percentile, so it is not stated. The per-repetition mean ± std "
             "is in the table above.",)
    return workload_table(part, run, tid, title, cols, data, extra_notes=notes, cls=cls)


def per_repetition_notes(rows: Sequence[WorkloadSummary], run: RunResults) -> tuple[str, ...]:
    """What the percentile cells of a main table are: with histograms, where the pooled ones
    are; with DiskSpd, why there are none. Runs from before json+ get no note, so the tables of
    an old run folder export byte for byte as they did (tests/fixtures/runs)."""
    if any(pooled_of(r, d) for r in rows for d in directions(r)):
        return ("Percentile cells: mean ± std of each repetition's own percentile; the pooled "
                "percentiles of all I/Os, with 95 % intervals, are in the 'pooled' table.",)
    engine = run.run.info.engine
    if engine is not None and engine.name == "diskspd":
        return ("Percentile cells: mean ± std of each repetition's own percentile; DiskSpd "
                "reports percentiles without histogram bins, so no pooled percentiles of all "
                "I/Os are given.",)
    return ()


def pooled_points(pooled: Pooled | None, keys: Sequence[str],
                  factor: float) -> list[tuple[str, float, float | tuple[float, float]]]:
    """(key, value × factor, error bar of its 95 % interval) of each key with a value and
    enough I/Os beyond it."""
    if pooled is None:
        return []
    out: list[tuple[str, float, float | tuple[float, float]]] = []
    for k in keys:
        value, ci = pooled.known(k), pooled.ci95.get(k)
        if value is None:
            continue
        y = value * factor
        out.append((k, y, (y - ci[0] * factor, ci[1] * factor - y) if ci else 0.0))
    return out


def pooled_series(name: str, xs: Sequence[float], rows: Sequence[WorkloadSummary], key: str,
                  factor: float = 1.0, **kw: Any) -> Series | None:
    """The pooled ``key`` (e.g. p99) of each row's main direction at ``xs``, error bars its 95 %
    interval; rows without a histogram or with too few I/Os beyond ``key`` are left out."""
    pts = [(x, y, err) for x, row in zip(xs, rows)
           for _, y, err in pooled_points(pooled_of(row), (key,), factor)]
    if not pts:
        return None
    return Series(name, tuple(p[0] for p in pts), tuple(p[1] for p in pts),
                  tuple(p[2] for p in pts), **kw)
