"""Tail latency: p50 .. p99.99 at a mid queue depth and at the knee: how far the
slowest I/Os reach beyond the median (the spread itself is computed in base.py, shared with
the zero-queue baselines)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from app.experiments.base import Experiment, Rows, Samples, TailSpreads, Trials, ratio_text, spread_findings
from app.experiments.exceedance import exceedance
from app.experiments.registry import register
from app.model.summary import WorkloadSummary
from app.model.workload import Workload
from app.params import param
from app.results.figure import (
    OTHER,
    Axis,
    Figure,
    Series,
    fmt,
    lat_axis_label,
    lat_unit,
    mean,
    scaled,
    series_from,
)
from app.results.pooled import per_repetition_notes, pooled_of, pooled_points, pooled_table
from app.results.table import Column, Table, lat_cells, latency_kind, rows_table
from app.stats.io_counts import caption_counts, fewest_text, io_count_table, thin_warnings
from app.units import KiB, MiB

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

TAIL_STATS = ("p50", "p95", "p99", "p99.9", "p99.99")
TABLE_STATS = ("mean", *TAIL_STATS)


@register
@dataclass(frozen=True)
class TailLatency(Experiment):
    id: ClassVar[str] = "tail-latency"
    title: ClassVar[str] = "Tail latency"
    summary: ClassVar[str] = "p50 .. p99.99 at a mid queue depth and at the knee"
    tail_claim: ClassVar[str] = "p99.99"
    precision_tail: ClassVar[float | None] = 99.9

    queue_depths: tuple[int, ...] = param((8, 32), kind="int_list", minimum=1, maximum=1024,
                                          help="queue depths (a mid one and the knee)")
    bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                    help="block size")
    rw: str = param("randread", kind="choice", choices=("randread", "randwrite", "read", "write"),
                    help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        return [Workload(self.rw, self.bs, qd) for qd in self.queue_depths]

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> TailSpreads:
        return spread_findings(workloads)

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        rows = part.workloads
        kind = latency_kind(rows)
        spread = part.found(TailSpreads) or TailSpreads({})
        cells = [(Column("Outstanding I/O", "outstanding", 0), lambda r: r.outstanding),
                 *lat_cells(kind, TABLE_STATS),
                 (Column("p99/p50", "p99_over_p50", 2),
                  lambda r: (x := spread.of(r.label)) and x.p99_over_p50),
                 (Column("p99.99/p50", "p99.99_over_p50", 2),
                  lambda r: (x := spread.of(r.label)) and x.p99_99_over_p50)]
        pooled = pooled_table(cls, part, run, "tail-latency-pooled", "Tail latency, pooled over all "
                              f"I/Os of the repetitions, {kind} latency", kind=kind)
        return [rows_table(part, run, "tail-latency", f"Tail latency, {kind} latency", rows, cells,
                           per_repetition_notes(rows, run), cls),
                *([pooled] if pooled else []),
                io_count_table(cls, part, run, "tail-latency-io-counts", "Tail latency: the I/Os "
                               "each percentile rests on", TAIL_STATS[1:])]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """Latency against percentile on a log latency axis, and the exceedance plot."""
        rows = part.workloads
        unit, factor = lat_unit([r.lat(k) for r in rows for k in TAIL_STATS])
        w = rows[0].workload
        what = f"{w['rw']} {w['bs_bytes'] // 1024} KiB"
        n = "/".join(str(k) for k in sorted({r.n for r in rows}))
        lines = []
        for i, r in enumerate(rows):
            pooled = _pooled_series(r, factor, OTHER[i % len(OTHER)])
            # one repetition: its own percentiles are the pooled ones (one histogram), drawn once
            s = None if pooled and r.n < 2 else series_from(
                _name(r) + (" per repetition, mean ± std" if pooled else ""),
                [(_nines(k), scaled(r.lat(k), factor)) for k in TAIL_STATS],
                color=OTHER[i % len(OTHER)], dash=bool(pooled))
            lines += [x for x in (pooled, s) if x]
        kind = run.lat_kind
        percentiles = Figure(
            id="tail-latency-percentiles", experiment=cls.id,
            title=f"Tail latency ({what}): latency at each percentile",
            x_axis=Axis("Percentile (one step per added nine)",
                        tuple((_nines(k), k) for k in TAIL_STATS), include_zero=False),
            y_axis=Axis(lat_axis_label(kind, unit=unit) + ", log scale", log=True),
            series=tuple(lines),
            caption=_percentiles_caption(rows, n) + f"Latency on a log axis so p50 and p99.99 "
                                                     f"both read. {caption_counts(part, rows)}")
        return [percentiles, exceedance(part, kind, what, n, TAIL_STATS, unit, factor, _name)]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        spread = part.found(TailSpreads) or TailSpreads({})
        out = []
        for r in part.workloads:
            s = spread.of(r.label)
            ios = fewest_text(part, r)
            out.append(f"{r.label}: p50 {fmt(mean(r.lat('p50')), 1)} µs, p99.99 "
                       f"{fmt(mean(r.lat('p99.99')), 1)} µs; p99/p50 = "
                       f"{ratio_text(s.p99_over_p50 if s else None)}, p99.9/p50 = "
                       f"{ratio_text(s.p99_9_over_p50 if s else None)}, p99.99/p50 = "
                       f"{ratio_text(s.p99_99_over_p50 if s else None)}" + (f" ({ios})." if ios else "."))
        return out + thin_warnings(part, TAIL_STATS[1:])


def _percentiles_caption(rows: tuple[WorkloadSummary, ...], n: str) -> str:
    """What the lines are: pooled (with 95 % intervals) and/or per repetition (± std)."""
    per_rep = f"means over n = {n} repetitions, error bars ± one sample std. "
    if not any(_pooled_series(r, 1.0, 0) for r in rows):
        return per_rep[0].upper() + per_rep[1:]
    pooled = ("percentiles of all I/Os of the repetitions (merged histogram), error bars their "
              "95 % intervals; a percentile with too few I/Os beyond it is left out. ")
    if all(r.n < 2 for r in rows):
        return "One repetition: " + pooled
    return "Solid: pooled " + pooled + "Dashed: per repetition, " + per_rep


def _pooled_series(row: WorkloadSummary, factor: float, color: int) -> Series | None:
    """Pooled percentiles of the row's main direction (solid), thin ones left out."""
    pooled = pooled_of(row)
    pts = pooled_points(pooled, [k for k in TAIL_STATS if pooled and pooled.values.get(k)], factor)
    if not pooled or not pts:
        return None
    return Series(f"{_name(row)} pooled, {pooled.ios:,} I/Os", tuple(_nines(k) for k, _, _ in pts),
                  tuple(y for _, y, _ in pts), tuple(e for _, _, e in pts), color=color)


def _nines(key: str) -> float:
    """p50 -> 0.3, p99 -> 2, p99.99 -> 4: how many nines a percentile has (-log10(1 - p))."""
    return round(-math.log10(1 - float(key[1:]) / 100), 3)


def _name(row: WorkloadSummary) -> str:
    return f"QD{row.outstanding} ({row.label})"
