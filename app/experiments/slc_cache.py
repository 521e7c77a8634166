"""Sustained sequential write: write until the drive's fast (SLC) cache runs out.

The finding comes from the live per-interval samples, not from the trial's final average (which
blends the fast and the slow phase): GB written before the drop, MB/s before and after.

No pre-fill: the test file is created by the measured writes themselves (a pre-fill or a
warm-up would fill the cache before it is measured), so the plan writes nothing before the trial
(:meth:`app.experiments.base.Experiment.fills_test_file`).

Time convention: a sample is stamped at the end of its interval, so a trial starts one interval
before its first sample; findings and figures both use it, so the marker sits on the curve.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from app.experiments.base import (
    PRECISION_PARAMS,
    RUNTIME,
    SIZE,
    SIZE_MAX,
    SIZE_MIN,
    WARMUP,
    Experiment,
    Rows,
    Samples,
    Trials,
    block_param,
    depth_param,
)
from app.experiments.common import values_text
from app.experiments.registry import register
from app.experiments.write_series import trial_series
from app.model.workload import Workload
from app.params import param
from app.results.figure import NEUTRAL, OTHER, WRITE, Axis, Figure, HLine, Marker, Series, fmt, size_text
from app.results.findings import Headline
from app.results.table import Column, Table, sweep_table
from app.stats import analysis
from app.stats.derived import CacheExhaustion
from app.stats.io_counts import p99_warnings
from app.units import GiB, KiB, MiB, sig

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


@dataclass(frozen=True)
class TrialExhaustion:
    """The cache exhaustion point of one measured trial (its index and repetition)."""

    trial: int
    repetition: int
    found: CacheExhaustion

    def to_json(self) -> dict[str, Any]:
        return {"trial": self.trial, "repetition": self.repetition, **self.found.to_json()}


@dataclass(frozen=True)
class CacheFindings:
    """Per measured trial with samples, where the cache ran out."""

    per_trial: tuple[TrialExhaustion, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"cache_exhaustion": [t.to_json() for t in self.per_trial]}


@register
@dataclass(frozen=True)
class SlcCache(Experiment):
    id: ClassVar[str] = "slc-cache"
    keeps_own: ClassVar[frozenset[str]] = frozenset({"runtime", "size", "repetitions", "warmup"}) | PRECISION_PARAMS
    title: ClassVar[str] = "Sustained sequential write (SLC cache)"
    summary: ClassVar[str] = "write until the fast cache runs out: GB before the drop, MB/s after"
    needs_samples: ClassVar[bool] = True

    runtime: float = param(120.0, kind="duration", minimum=1.0, maximum=24 * 3600.0, label=RUNTIME,
                           help="how long to keep writing (the time bound)")
    size: int = param(8 * GiB, kind="size", minimum=SIZE_MIN, maximum=SIZE_MAX, label=SIZE,
                      help="size of the test file: no pre-fill, the measured writes create it "
                           "and wrap around it until the runtime ends (bounded by free space)")
    repetitions: int = param(1, kind="int", minimum=1, maximum=100,
                             help="measured trials (each one fills the cache again)")
    warmup: bool = param(False, kind="bool", label=WARMUP,
                         help="a warm-up would fill the cache before the measurement: off")
    bs: int = block_param(MiB, minimum=4 * KiB)
    iodepth: int = depth_param(32)

    def workloads(self) -> list[Workload]:
        return [Workload("write", self.bs, self.iodepth)]

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> CacheFindings:
        """The cache exhaustion point of each measured trial with samples."""
        per_trial = []
        for t in trials:
            points = [(p[0], p[2]) for p in trial_series(samples, t.index)]
            if points:
                per_trial.append(TrialExhaustion(t.index, t.repetition, analysis.cache_exhaustion(
                    points, end_s=t.runtime_s)))
        return CacheFindings(tuple(per_trial))

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        whole = Column("Write MB/s (whole trial)", "write_MBps", 1, True)
        return [sweep_table(part, run, "slc-cache", "Sustained sequential write", part.workloads,
                            [(whole, lambda r: r.write.MBps if r.write else None)],
                            throughput=False, cls=cls),
                _cache_table(_found(part))]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """Per-interval MB/s against GB written and against time, exhaustion and levels marked,
        temperature on the right axis when it was recorded."""
        found = _found(part)
        several = len(found) > 1
        series: dict[str, list[Series]] = {"gb": [], "time": []}
        temps: dict[str, list[Series]] = {"gb": [], "time": []}
        markers: dict[str, list[Marker]] = {"gb": [], "time": []}
        for i, t in enumerate(found):
            f = t.found
            pts = trial_series(run.samples, t.trial)
            if not pts:
                continue
            tag = f" (rep {t.repetition})" if several else ""
            for key, xs, drop_x in (("gb", tuple(p[1] for p in pts), f.gb_before_drop),
                                    ("time", tuple(p[0] for p in pts), f.t_drop_s)):
                # write is vermillion in every figure; a second repetition dashed, more in others
                tint = WRITE if i < 2 else OTHER[(i - 2) % len(OTHER)]
                series[key].append(Series(f"write MB/s{tag}", xs, tuple(p[2] for p in pts),
                                          color=tint, dash=i == 1))
                temp = [(x, p[3]) for x, p in zip(xs, pts) if p[3] is not None]
                if temp:
                    temps[key].append(Series(f"temperature{tag}", tuple(a for a, _ in temp),
                                             tuple(b for _, b in temp), axis="right",
                                             color=NEUTRAL if i < 2 else tint, dash=True))
                if f.drop_observed and drop_x is not None:
                    where = (_at(drop_x, f.gb_resolution, "GB") if key == "gb"
                             else _at(drop_x, f.t_resolution_s, "s"))
                    who = f"rep {t.repetition}: " if several else ""
                    markers[key].append(Marker(drop_x, None, f"{who}cache exhausted at {where}"))
        w = part.workloads[0].workload
        what = f"{size_text(w.bs_bytes)} sequential write, QD{w.iodepth}"
        out = []
        for key, x_label, title in (("gb", "Data written (GB)", "against data written"),
                                    ("time", "Time since the trial started (s)", "against time")):
            if not series[key]:
                continue
            out.append(Figure(
                id=f"slc-cache-{key}", experiment=cls.id,
                title=f"Sustained write ({what}): MB/s {title}",
                x_axis=Axis(x_label), y_axis=Axis("Write bandwidth (MB/s per interval)"),
                y2_axis=Axis("Drive temperature (°C)", include_zero=False) if temps[key] else None,
                series=tuple(series[key] + temps[key]), markers=tuple(markers[key]),
                hlines=tuple(_levels(found)),
                caption="; ".join(f"rep {t.repetition}: {t.found.note}" for t in found)
                + ". One point per live sample interval; MB/s = 10⁶ B/s, GB = 10⁹ B."))
        return out

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """Where the cache ran out (GB written, seconds) and the speed after it, over the
        repetitions; or that no drop was seen, with how much was written."""
        found = [t.found for t in _found(part)]
        drops = [f for f in found if f.drop_observed]
        out = []
        if drops:
            out.append(f"The write speed dropped (the SLC cache ran out) in {len(drops)} of "
                       f"{len(found)} repetitions, after {values_text([f.gb_before_drop for f in drops], 'GB')}"
                       f" written, {values_text([f.t_drop_s for f in drops], 's')} into the "
                       f"write: from {values_text([f.MBps_before for f in drops], 'MB/s')} before "
                       f"to {values_text([f.MBps_after for f in drops], 'MB/s')} after (the "
                       f"post-cache speed). {_resolution_text(drops)}")
        calm = [f for f in found if not f.drop_observed]
        if calm:
            most = max(f.total_gb for f in calm)
            out.append(f"No drop in {len(calm)} of {len(found)} repetitions: the write held "
                       f"{values_text([f.MBps_before for f in calm], 'MB/s')} over up to "
                       f"{sig(most)} GB written, so any SLC cache (or the host's write cache in "
                       "front of the drive) holds more than that; a longer runtime finds its end.")
        return out + p99_warnings(part)

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        found = [t.found for t in _found(part)]
        drops = [f for f in found if f.drop_observed]
        if drops:
            return Headline("GB written before the write speed dropped",
                            values_text([f.gb_before_drop for f in drops], "GB", with_n=False),
                            len(drops))
        if not found:
            return None
        return Headline(f"no drop in {sig(max(f.total_gb for f in found))} GB; sustained write",
                        values_text([f.MBps_before for f in found], "MB/s", with_n=False),
                        len(found))


def _found(part: ExperimentResults) -> tuple[TrialExhaustion, ...]:
    found = part.found(CacheFindings)
    return found.per_trial if found else ()


def _mean_level(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _levels(found: Sequence[TrialExhaustion]) -> list[HLine]:
    """Before/after levels: per trial when there is one, else the mean over the trials (one
    pair of lines instead of one per repetition keeps the figure readable)."""
    drops = [t.found for t in found if t.found.drop_observed]
    tag = f" (mean of {len(drops)} reps)" if len(drops) > 1 else ""
    out = []
    for level, name, color in ((_mean_level([f.MBps_before for f in drops]), "before", 6),
                               (_mean_level([f.MBps_after for f in drops]), "after", 3)):
        if level is not None:
            out.append(HLine(level, f"{name} the drop: {fmt(level)} MB/s{tag}", color=color))
    if not drops:
        level = _mean_level([t.found.MBps_before for t in found])
        if level is not None:
            out.append(HLine(level, f"mean {fmt(level)} MB/s, no drop seen", color=6))
    return out


def _digits(resolution: float | None, unit: str) -> int:
    """The decimals that show a resolution: at least 2 for GB and 1 for s, at most 4."""
    digits = 2 if unit == "GB" else 1
    if resolution is not None and resolution > 0:
        digits = min(max(digits, -math.floor(math.log10(resolution))), 4)
    return digits


def _at(value: float | None, resolution: float | None, unit: str) -> str:
    """'2.01 ± 0.02 GB': a located point with its resolution, both to the decimals that show
    the ± (:func:`_digits`)."""
    digits = _digits(resolution, unit)
    pm = f" ± {resolution:.{digits}f}" if resolution is not None else ""
    return f"{value or 0:.{digits}f}{pm} {unit}"


def _resolution_text(drops: Sequence[CacheExhaustion]) -> str:
    """How the drop was located and to what resolution (the largest ± over the repetitions)."""
    known = [f for f in drops if f.gb_resolution is not None and f.t_resolution_s is not None]
    if not known:
        return ""
    gb = max(f.gb_resolution or 0.0 for f in known)
    ts = max(f.t_resolution_s or 0.0 for f in known)
    return (f"Each drop is located within its sample interval from that interval's mean and its "
            f"neighbours' rates, to ± {gb:.{_digits(gb, 'GB')}f} GB (± {ts:.{_digits(ts, 's')}f} s) "
            "at worst (as the figure's marker says it); the intervals it spread over count in "
            "neither rate.")


def _cache_table(found: Sequence[TrialExhaustion]) -> Table:
    cols = [Column("Repetition", "repetition", 0), Column("Written (GB)", "total_GB", 2),
            Column("Baseline MB/s", "baseline_MBps", 1), Column("Drop seen", "drop_observed"),
            Column("GB before drop", "gb_before_drop", 2), Column("± GB", "gb_resolution", 2),
            Column("Drop at (s)", "t_drop_s", 1), Column("± s", "t_resolution_s", 1),
            Column("MB/s before", "MBps_before", 1), Column("MB/s after", "MBps_after", 1),
            Column("Transitional intervals", "transitional_intervals", 0), Column("Note", "note")]
    rows = [(t.repetition, f.total_gb, f.baseline_MBps, f.drop_observed, f.gb_before_drop,
             f.gb_resolution, f.t_drop_s, f.t_resolution_s, f.MBps_before, f.MBps_after,
             f.transitional_intervals, f.note) for t in found if (f := t.found)]
    return Table("slc-cache-exhaustion", "Cache exhaustion per trial", tuple(cols), tuple(rows),
                 ("GB = 10^9 bytes. The drop is located within its sample interval from that "
                  "interval's mean and its neighbours' rates (± its resolution); MB/s before/after "
                  "are time-weighted means of the per-interval samples before and after the "
                  "transitional intervals the drop spread over, which count in neither.",), SlcCache.id)
