"""Tail latency: p50 .. p99.99 at a mid queue depth and at the knee: how far the slowest I/Os
reach beyond the median (the spread itself is computed in base.py, shared with the zero-queue
baselines).

Why the depths follow the queue-depth sweep: a lab report sets the tail at a mid depth (the first
depth reaching half the peak IOPS: the drive busy, the queue not yet full) beside the tail at the
knee (the most throughput before latency climbs), to show how the tail grows as the queue
fills; a preset QD8/QD32 matches neither on most drives. When queue-depth ran earlier in the same run,
with the same access pattern and block size, the runner asks :meth:`TailLatency.follow` for
the depths it measured (app/stats/knee.py); otherwise the presets run, and the findings say which.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from app.experiments.base import Experiment, Rows, Samples, Trials, block_param, rw_param
from app.experiments.common import (
    TailSpreads,
    noise_text,
    ratio_cells,
    separated,
    spread_findings,
    stat_text,
    tail_ratio_text,
    versus,
)
from app.experiments.exceedance import exceedance
from app.experiments.registry import register
from app.experiments.same_workloads import also_swept
from app.model.summary import WorkloadSummary
from app.model.workload import Workload
from app.params import param
from app.results.figure import (
    OTHER,
    Axis,
    Figure,
    Series,
    lat_axis_label,
    lat_unit,
    mean,
    scaled,
    series_from,
)
from app.results.findings import Headline
from app.results.pooled import per_repetition_notes, pooled_of, pooled_points, pooled_table
from app.results.table import Column, Table, lat_cells, latency_kind, rows_table
from app.stats.derived import Knee
from app.stats.io_counts import caption_counts, fewest_text, io_count_table, needs_runtime, thin_warnings
from app.units import KiB, ratio

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

PRESET_DEPTHS = (8, 32)
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

    queue_depths: tuple[int, ...] = param(PRESET_DEPTHS, kind="int_list", minimum=1, maximum=1024,
                                          help="queue depths when not taken from the knee "
                                               "(the presets: a mid one and a deep one)")
    depths_from: str = param("knee", kind="choice", choices=("knee", "preset"),
                             help="knee: a mid depth and the knee queue-depth measured "
                                  "earlier in the same run (same pattern and block size), when "
                                  "queue_depths is left at its presets; preset: queue_depths")
    bs: int = block_param(4 * KiB)
    rw: str = rw_param("randread", help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        return [Workload(self.rw, self.bs, qd) for qd in self.queue_depths]

    def follow(self, earlier: Sequence[ExperimentResults]) -> tuple[TailLatency, str] | None:
        """At the knee and the saturation point of a queue-depth sweep of the same pattern and
        block size that ran before (None: keep the depths as set)."""
        if self.depths_from != "knee" or self.queue_depths != PRESET_DEPTHS:
            return None
        for part in reversed(earlier):
            knee = getattr(part.findings, "knee", None)
            same = [r for r in part.workloads
                    if r.workload.rw == self.rw and r.workload.bs_bytes == self.bs]
            if isinstance(knee, Knee) and same and len(same) == len(part.workloads):
                return self._at(knee, part.id, {r.outstanding: r.total_iops.mean or 0.0
                                                for r in same})
        return None

    def follow_note(self, before: Sequence[Experiment]) -> str | None:
        sweeps = [e for e in before if e.id == "queue-depth" and getattr(e, "rw", None) == self.rw
                  and getattr(e, "bs", None) == self.bs]
        if self.depths_from != "knee" or self.queue_depths != PRESET_DEPTHS or not sweeps:
            return None
        return (f"{self.id}: the depths listed are its presets; the run replaces them by a mid "
                "depth and the knee the queue-depth sweep measures first.")

    def _at(self, knee: Knee, source: str,
            iops: dict[int, float] | None = None) -> tuple[TailLatency, str]:
        """A mid depth (the first level of the sweep reaching half its peak IOPS, below the
        knee) and the knee; a sweep without a knee gives the mid depth and its deepest level;
        a knee at the sweep's first level, the knee and two doublings past it."""
        at = knee.knee_level
        head = f"Depths from the {source} sweep of this run (its knee, by the rule its findings state): "
        below = sorted(q for q in (iops or {}) if q < at)
        half = [q for q in below if (iops or {}).get(q, 0.0) >= knee.peak_iops / 2]
        mid = half[0] if half else (below[-1] if below else None)
        how = ("the first depth reaching half the peak IOPS" if half else
               "the deepest level below it, as none below it reached half the peak IOPS")
        if mid is None and not iops:   # an older caller without the sweep's levels
            mid = knee.p90_level if knee.p90_level < at else (at // 4 or None)
            how = "the first depth reaching 90 % of the peak" if knee.p90_level < at else \
                "two doublings below it"
        if not knee.reached:
            depths = (mid, at) if mid else (at, min(at * 4, 1024))
            said = (f"no knee within it (IOPS still grew at its deepest level, QD{at}), so "
                    + (f"a mid depth, QD{mid} ({how}), and the deepest, QD{at}" if mid else
                       f"QD{depths[0]} and QD{depths[1]}"))
        elif mid:
            depths, said = (mid, at), f"a mid depth, QD{mid} ({how}), and the knee, QD{at}"
        else:
            deeper = min(at * 4, 1024) if at < 1024 else at // 4
            depths = (at, deeper)
            said = (f"the knee, QD{at}, and QD{deeper}, two doublings away, as the knee is the "
                    "sweep's first level")
        note = head + said + f"; not the presets QD{PRESET_DEPTHS[0]}/QD{PRESET_DEPTHS[1]}."
        return replace(self, queue_depths=tuple(sorted(depths))), note

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
                 *ratio_cells(spread, "p99", "p99_over_p50"),
                 *ratio_cells(spread, "p99.99", "p99_99_over_p50")]
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
        what = f"{w.rw} {w.bs_bytes // 1024} KiB"
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
        """Per queue depth: the median, the tail, how many times the median the tail is, and
        the I/Os it rests on; then how the tail grows with the queue."""
        spread = part.found(TailSpreads) or TailSpreads({})
        out = []
        for r in part.workloads:
            s = spread.of(r.label)
            amp = s.p99_9_over_p50 if s else None
            out.append(f"{r.label}: p50 {stat_text(r.lat('p50'), 'µs')}, p99 "
                       f"{stat_text(r.lat('p99'), 'µs')}, p99.9 {stat_text(r.lat('p99.9'), 'µs')}"
                       f"; tail amplification p99.9/p50 = {tail_ratio_text(part, r, 'p99.9', amp, ratio)}"
                       + (f" ({fewest_text(part, r)})." if fewest_text(part, r) else "."))
        rows = sorted(part.workloads, key=lambda r: r.outstanding)
        if len(rows) > 1:
            lo, hi = rows[0], rows[-1]
            a, b = mean(lo.lat("p99.9")), mean(hi.lat("p99.9"))
            c, d = mean(lo.lat("p50")), mean(hi.lat("p50"))
            why = [f"QD{r.outstanding} {w}" for r in (lo, hi) if (w := needs_runtime(part, r, "p99.9"))]
            if why:   # no growth from a p99.9 on too few I/Os: what would give it
                out.append(f"How the p99.9 grows from QD{lo.outstanding} to QD{hi.outstanding} is "
                           f"unknown: {'; '.join(why)}.")
            elif a and b and c and d:
                out.append(_growth(lo, hi, d / c, b / a))
        same = also_swept(part, run, latency_kind(part.workloads))
        return [*out, *([same] if same else []), depths_sentence(part, run),
                *thin_warnings(part, TAIL_STATS[1:])]

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        rows = sorted(part.workloads, key=lambda r: r.outstanding)
        if not rows:
            return None
        row = rows[-1]
        s = (part.found(TailSpreads) or TailSpreads({})).of(row.label)
        amp = f" ({ratio(s.p99_9_over_p50)} the p50)" if s and s.p99_9_over_p50 else ""
        needs = needs_runtime(part, row, "p99.9")   # a summary row says what would state it
        return Headline(f"p99.9 latency at QD{row.outstanding}",
                        f"unknown: {needs}" if needs else stat_text(row.lat("p99.9"), "µs") + amp,
                        row.n)


def _growth(lo: WorkloadSummary, hi: WorkloadSummary, median: float, tail: float) -> str:
    """How the median and the p99.9 change from the shallowest to the deepest queue, each
    claimed only beyond the repetitions' noise."""
    where = f"From QD{lo.outstanding} to QD{hi.outstanding}"
    a, b = lo.lat("p50"), hi.lat("p50")
    if a and b and separated(a, b) is False and separated(lo.lat("p99.9"), hi.lat("p99.9")) is False:
        return f"{where} the median and the p99.9 both change within the noise {noise_text(a, b)}."
    median_said = versus(lo.lat("p50"), hi.lat("p50"), f"the median {_change(median)}", "median")
    tail_said = versus(lo.lat("p99.9"), hi.lat("p99.9"), f"the p99.9 {_change(tail)}", "p99.9")
    return f"{where}: {median_said}; {tail_said}."


def _change(factor: float) -> str:
    """'grows 1.12×' or 'falls to 0.775× its value': a ratio below 1 is not growth."""
    return f"grows {ratio(factor)}" if factor >= 1 else f"falls to {ratio(factor)} its value"


def depths_sentence(part: ExperimentResults, run: RunResults) -> str:
    """Where the queue depths came from: the knee of this run's sweep, or the presets."""
    followed = part.entry.followed
    if followed:  # runs before the rule was said once carry it here too: said in its section
        return re.sub(r"\(the knee is [^()]*\)", "(its knee, by the rule its findings state)",
                      followed)
    depths = "/".join(f"QD{d}" for d in sorted({r.outstanding for r in part.workloads}))
    if any(p.id == "queue-depth" for p in run.parts):
        return (f"Depths {depths} were set in advance (presets or as given), not taken from "
                "the knee of this run's queue-depth sweep.")
    return (f"Depths {depths} are set in advance (presets or as given), not measured knee or "
            "saturation points: run queue-depth before tail-latency in the same run to measure "
            "at its knee.")


def _percentiles_caption(rows: tuple[WorkloadSummary, ...], n: str) -> str:
    """What the lines are: pooled (with 95 % intervals) and/or per repetition (± std)."""
    per_rep = (f"means over n = {n} repetitions, error bars ± one sample std; a percentile "
               "with fewer than 10 I/Os beyond it in a repetition is left out (too few I/Os). ")
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
    pts = pooled_points(pooled, [k for k in TAIL_STATS if pooled and pooled.known(k)], factor)
    if not pooled or not pts:
        return None
    return Series(f"{_name(row)} pooled, {pooled.ios:,} I/Os", tuple(_nines(k) for k, _, _ in pts),
                  tuple(y for _, y, _ in pts), tuple(e for _, _, e in pts), color=color)


def _nines(key: str) -> float:
    """p50 -> 0.3, p99 -> 2, p99.99 -> 4: how many nines a percentile has (-log10(1 - p))."""
    return round(-math.log10(1 - float(key[1:]) / 100), 3)


def _name(row: WorkloadSummary) -> str:
    return f"QD{row.outstanding} ({row.label})"
