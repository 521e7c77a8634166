"""Queue-depth sweep: throughput against latency, the knee and Little's Law.

4 KiB random read at iodepth 1..256 (or numjobs 1..32 at iodepth 1). One knee, by one rule
(app/stats/knee.py: where doubling the queue stops adding 10 % IOPS), with the peak and the first
level reaching 90 % of it named for what they are; Little's Law compares L = IOPS × latency with
the outstanding I/O requested. A tail-latency experiment later in the same run measures at the
knee and the saturation point found here (app/experiments/tail_latency.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from app.experiments.base import Experiment, Rows, Samples, Trials, block_param, rw_param
from app.experiments.common import stat_text
from app.experiments.knee_text import knee_markers, knee_words
from app.experiments.registry import register
from app.experiments.sweep_p99 import p99_notes, pooled_caption
from app.model.summary import Stat, WorkloadSummary
from app.model.workload import Workload
from app.params import param
from app.results.figure import (
    NEUTRAL,
    OTHER,
    Axis,
    Figure,
    Series,
    direction_color,
    fmt,
    lat_axis_label,
    lat_unit,
    latency_axis,
    mean,
    scaled,
    series_from,
    std,
)
from app.results.findings import Headline
from app.results.pooled import pooled_of, pooled_series
from app.results.table import Column, Table, latency_kind, sweep_table
from app.stats import analysis
from app.stats.derived import Knee, LittlesLawPoint
from app.stats.io_counts import p99_warnings
from app.units import KiB

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


@dataclass(frozen=True)
class QueueDepthFindings:
    """The knee of the sweep (None: no level with IOPS and latency) and Little's Law per level."""

    knee: Knee | None
    littles_law: tuple[LittlesLawPoint, ...]

    def to_json(self) -> dict[str, Any]:
        return {"knee": self.knee.to_json() if self.knee else None,
                "littles_law": [p.to_json() for p in self.littles_law]}


NOTHING = QueueDepthFindings(None, ())


@register
@dataclass(frozen=True)
class QueueDepth(Experiment):
    id: ClassVar[str] = "queue-depth"
    title: ClassVar[str] = "Queue-depth sweep"
    summary: ClassVar[str] = "throughput vs latency, the knee and Little's Law"

    queue_depths: tuple[int, ...] = param((1, 2, 4, 8, 16, 32, 64, 128, 256), kind="int_list",
                                          minimum=1, maximum=1024,
                                          help="outstanding I/O levels to sweep")
    sweep: str = param("iodepth", kind="choice", choices=("iodepth", "numjobs"), label="Sweep by",
                       choice_words={"iodepth": "deeper queue, one job",
                                     "numjobs": "more jobs, QD1 each"},
                       help="raise iodepth (one job) or numjobs (iodepth 1)")
    bs: int = block_param(4 * KiB)
    rw: str = rw_param("randread", help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        if self.sweep == "numjobs":
            return [Workload(self.rw, self.bs, 1, level) for level in self.queue_depths]
        return [Workload(self.rw, self.bs, level) for level in self.queue_depths]

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> QueueDepthFindings:
        points = [{"level": r.outstanding, "iops": r.total_iops.mean, "lat_us": mean(r.lat("mean")),
                   "L": _repetition_l(r, trials)} for r in workloads]
        return QueueDepthFindings(analysis.knee(points), tuple(analysis.littles_law(points)))

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        rows = sorted(part.workloads, key=lambda r: r.outstanding)
        level = Column("Outstanding I/O", "outstanding", 0)
        return [sweep_table(part, run, "queue-depth", "Queue-depth sweep", rows,
                            [(level, lambda r: r.outstanding)], cls=cls,
                            notes=p99_notes(part, rows, latency_kind(part.workloads))),
                _littles_law_table(part.found(QueueDepthFindings) or NOTHING,
                                   latency_kind(part.workloads))]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """Throughput against latency (points labelled by QD, knee and 90 %-of-peak marked),
        then IOPS and latency against queue depth."""
        rows = sorted(part.workloads, key=lambda r: r.outstanding)
        kind = run.lat_kind
        found = (part.found(QueueDepthFindings) or NOTHING).knee
        levels = [r.outstanding for r in rows]
        p99s: list[Stat | None] = [_p99(r) for r in rows]
        unit, factor = lat_unit([r.lat("mean") for r in rows] + p99s)
        lats = [scaled(r.lat("mean"), factor) for r in rows]
        knee = replace(found, knee_lat_us=found.knee_lat_us * factor) if found else None
        pts = [(lt, io, f"QD{q}") for q, s, r in zip(levels, lats, rows)
               if (lt := mean(s)) is not None and (io := r.total_iops.mean) is not None]
        spread = [(std(s), std(r.total_iops)) for s, r in zip(lats, rows)
                  if mean(s) is not None and r.total_iops.mean is not None]  # ± along x, y
        w = rows[0].workload
        what = f"{w.rw} {w.bs_bytes // 1024} KiB"
        tint = direction_color(rows[0].direction)
        sweep = "numjobs" if any(r.workload.numjobs > 1 for r in rows) else "iodepth"
        line = (Series("IOPS at each queue depth", tuple(p[0] for p in pts),
                       tuple(p[1] for p in pts), tuple(e[1] for e in spread), kind="line",
                       point_labels=tuple(p[2] for p in pts), color=tint,
                       xerr=tuple(e[0] for e in spread)),) if pts else ()
        x_axis = latency_axis(lat_axis_label(kind, "Mean latency", unit), line, "x",
                              include_zero=False)
        trade = Figure(
            id="queue-depth-tradeoff", experiment=cls.id,
            title=f"Queue-depth sweep ({what}, {sweep}): throughput against latency",
            x_axis=x_axis, y_axis=Axis("Throughput (IOPS)"), series=line,
            markers=tuple(knee_markers(knee, pts)),
            caption=(f"Peak {fmt(knee.peak_iops)} IOPS at QD{knee.peak_level}. " if knee else "")
            + "Means over the repetitions, error bars ± one sample std of IOPS (vertical) and "
              "of mean latency (horizontal).")
        ticks = tuple((float(q), str(q)) for q in levels)
        sweep_series = [s for s in (
            series_from("IOPS", list(zip(levels, (r.total_iops for r in rows))), color=tint),
            series_from("mean latency", list(zip(levels, lats)), axis="right", color=NEUTRAL,
                        dash=True),
            pooled_series("p99 latency, pooled (95 % CI)", levels, rows, "p99", factor,
                          axis="right", color=OTHER[2], dash=True),
            pooled_series("p99.9 latency, pooled (95 % CI)", levels, rows, "p99.9", factor,
                          axis="right", color=OTHER[1], dot=True))
            if s]
        pooled = any(s.name.startswith("p99") for s in sweep_series)
        lat_axis = latency_axis(lat_axis_label(kind, "Latency" if pooled else "Mean latency", unit),
                                [s for s in sweep_series if s.axis == "right"])
        use_log = len(levels) > 1 and all(q > 0 and math.log2(q).is_integer() for q in levels)
        vs = Figure(
            id="queue-depth-sweep", experiment=cls.id,
            title=f"Queue-depth sweep ({what}): IOPS and latency against queue depth",
            x_axis=Axis(f"Outstanding I/O (iodepth × numjobs{', log2 scale' if use_log else ''})",
                        ticks, include_zero=False),
            y_axis=Axis("Throughput (IOPS)"),
            y2_axis=lat_axis, series=tuple(sweep_series), log2_x=use_log,
            caption="Means over the repetitions, error bars ± one sample std." + (
                pooled_caption(rows, latency_kind(part.workloads)) if pooled else ""))
        return [trade, vs]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """The trade-off across the sweep, the knee with its rule and evidence, Little's Law."""
        f = part.found(QueueDepthFindings) or NOTHING
        rows = sorted(part.workloads, key=lambda r: r.outstanding)
        out = []
        if len(rows) > 1:
            lo, hi = rows[0], rows[-1]
            out.append(f"From QD{lo.outstanding} to QD{hi.outstanding}, IOPS go from "
                       f"{stat_text(lo.total_iops)} to {stat_text(hi.total_iops)} while mean "
                       f"latency goes from {stat_text(lo.lat('mean'), 'µs')} to "
                       f"{stat_text(hi.lat('mean'), 'µs')}.")
        knee = f.knee
        at = {r.outstanding: r for r in rows}
        if knee:
            out.append(knee_words(knee, at.get(knee.knee_level), at.get(knee.peak_level)))
        law = [p for p in f.littles_law if p.ratio is not None]
        if law:
            items = ", ".join(f"QD{p.level} {p.ratio:.2f}" for p in law)
            lo_r = min(p.ratio for p in law if p.ratio is not None)
            verdict = ("the device keeps the requested queue full" if lo_r >= 0.9 else
                       "at the lower ratios part of the time is spent outside the device "
                       "(host-side overhead)")
            out.append(f"Little's Law check (L = IOPS × mean latency of each repetition, averaged, "
                       f"over the outstanding I/O asked for; 1.00 means the queue was kept full): "
                       f"{items}; {verdict}.")
        return out + p99_warnings(part)

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        knee = (part.found(QueueDepthFindings) or NOTHING).knee
        row = next((r for r in part.workloads if knee and r.outstanding == knee.knee_level), None)
        if knee is None or row is None:
            return None
        what = f"knee at QD{knee.knee_level}" if knee.reached else f"no knee up to QD{knee.knee_level}"
        return Headline(f"{what}: IOPS", stat_text(row.total_iops), row.n)


def _p99(row: WorkloadSummary) -> Stat | None:
    """The pooled p99 of the row's main direction as a mean-only statistic (for the unit)."""
    pooled = pooled_of(row)
    return Stat(pooled.known("p99") if pooled else None, None, 1)


def _repetition_l(row: WorkloadSummary, trials: Trials) -> float | None:
    """Little's L of a workload: the mean over its measured repetitions of IOPS x mean latency.
    The product of the means is not it when throughput and latency vary together between
    repetitions: on a noisy drive it gave L = 1.2 at QD1, more I/Os in flight than asked for."""
    values = []
    for t in trials:
        side = t.measurement.side(row.direction) if t.measured and t.measurement else None
        lat = side.lat("mean") if side and t.label == row.label else None
        if side and side.iops and lat:
            values.append(side.iops * lat / 1e6)
    return sum(values) / len(values) if values else None


def _littles_law_table(found: QueueDepthFindings, kind: str) -> Table:
    cols = [Column("Outstanding I/O", "outstanding", 0), Column("IOPS", "iops", 0),
            Column(f"Mean lat. (µs, {kind})", "lat_mean_us", 1),
            Column("L = IOPS × latency", "L", 2), Column("L / outstanding", "ratio", 3)]
    rows = [(p.outstanding, p.iops, p.lat_us, p.L, p.ratio)
            for p in sorted(found.littles_law, key=lambda p: p.outstanding or 0)]
    return Table("queue-depth-littles-law", "Little's Law check (L = λ·W)", tuple(cols),
                 tuple(rows), ("IOPS and latency are means over repetitions; L is the mean of each "
                               "repetition's IOPS × latency (latency in seconds: µs / 10^6), not "
                               "the product of the two means. A ratio near 1 means the requested queue is "
                               "kept full; well below 1, time is lost outside the device.",),
                 QueueDepth.id)
