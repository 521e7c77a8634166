"""Write saturation (SNIA PTS WSAT, on a test file): 4 KiB random writes for a chosen volume of
data, IOPS against GB written, so the fall from fresh to sustained performance is seen whole.

Why a volume and not a time: SNIA plots WSAT against the data written (the drive's state depends
on how much it has absorbed, not on the clock), so each trial writes ``volume`` times the test
file (fio --io_size) with ``runtime`` only as the upper bound. No pre-fill: the measured writes
are the experiment. The GB-written series is shared with slc-cache (write_series.py). DiskSpd has
no volume bound: its trials run for ``runtime`` and the figure still uses the data written.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from app.experiments.base import (
    PRECISION_PARAMS,
    RUNTIME,
    WARMUP,
    Experiment,
    Rows,
    Samples,
    Trials,
    block_param,
    depth_param,
)
from app.experiments.common import stat_text, values_text
from app.experiments.registry import register
from app.experiments.write_series import trial_series
from app.model.workload import Workload
from app.params import param
from app.results.figure import NEUTRAL, OTHER, WRITE, Axis, Figure, HLine, Series, fmt, size_text
from app.results.findings import Headline
from app.results.table import Column, Table
from app.units import KiB

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


@dataclass(frozen=True)
class TrialSaturation:
    """One trial: GB written, median write IOPS over its first 10 % and last 20 % of intervals."""

    trial: int
    repetition: int
    gb_written: float
    iops_first: float
    iops_last: float
    change: float | None

    def to_json(self) -> dict[str, Any]:
        return {"trial": self.trial, "repetition": self.repetition, "gb_written": self.gb_written,
                "iops_first": self.iops_first, "iops_last": self.iops_last, "change": self.change}


@dataclass(frozen=True)
class SaturationFindings:
    per_trial: tuple[TrialSaturation, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"saturation": [t.to_json() for t in self.per_trial]}


@register
@dataclass(frozen=True)
class WriteSaturation(Experiment):
    id: ClassVar[str] = "write-saturation"
    keeps_own: ClassVar[frozenset[str]] = frozenset({"runtime", "size", "repetitions", "warmup"}) | PRECISION_PARAMS
    title: ClassVar[str] = "Write saturation (SNIA WSAT, file-level)"
    summary: ClassVar[str] = "4 KiB random writes for N times the file: IOPS against GB written"
    needs_samples: ClassVar[bool] = True

    in_all: ClassVar[bool] = False   # half an hour of writing: run on purpose
    runtime: float = param(1800.0, kind="duration", minimum=1.0, maximum=24 * 3600.0, label=RUNTIME,
                           help="the longest a trial may take (it ends when the volume is written)")
    repetitions: int = param(1, kind="int", minimum=1, maximum=100, help="measured trials")
    warmup: bool = param(False, kind="bool", label=WARMUP,
                         help="a warm-up would write before the measurement: off")
    volume: int = param(4, kind="int", minimum=1, maximum=100,
                        help="data to write per trial, in multiples of the test file's size")
    bs: int = block_param(4 * KiB)
    iodepth: int = depth_param(32)

    def workloads(self) -> list[Workload]:
        return [Workload("randwrite", self.bs, self.iodepth)]

    def io_bytes(self) -> int | None:
        return self.volume * self.size

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> SaturationFindings:
        """Per trial: GB written, IOPS at the start (first 10 %) and at the end (last 20 %)."""
        out = []
        for t in trials:
            pts = trial_series(samples, t.index)
            if len(pts) < 3:
                continue
            iops = [p[4] for p in pts]
            head, tail = iops[:max(1, len(iops) // 10)], iops[-max(1, len(iops) // 5):]
            first, last = statistics.median(head), statistics.median(tail)
            out.append(TrialSaturation(t.index, t.repetition, pts[-1][1], first, last,
                                       (last / first - 1) if first else None))
        return SaturationFindings(tuple(out))

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        cols = (Column("Repetition", "repetition", 0), Column("Written (GB)", "gb_written", 2),
                Column("IOPS, first 10 %", "iops_first", 0), Column("IOPS, last 20 %", "iops_last", 0),
                Column("Change (%)", "change_percent", 1))
        rows = tuple((f.repetition, f.gb_written, f.iops_first, f.iops_last,
                      None if f.change is None else 100 * f.change) for f in _found(part))
        return [Table("write-saturation", "Write saturation per trial", cols, rows,
                      ("Medians of the per-interval write IOPS over the first 10 % and the last "
                       "20 % of the intervals; GB = 10^9 bytes, integrated from the per-interval "
                       "MB/s.",), cls.id)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        found = _found(part)
        series, hlines = [], []
        for i, f in enumerate(found):
            pts = trial_series(run.samples, f.trial)
            tag = f" (rep {f.repetition})" if len(found) > 1 else ""
            series.append(Series(f"write IOPS per interval{tag}", tuple(p[1] for p in pts),
                                 tuple(p[4] for p in pts), color=WRITE if i == 0 else OTHER[i % len(OTHER)]))
        if found:
            last = statistics.fmean(f.iops_last for f in found)
            hlines.append(HLine(last, f"sustained: {fmt(last)} IOPS (last 20 %)", color=NEUTRAL))
        if not series:
            return []
        w = part.workloads[0].workload
        return [Figure(
            id="write-saturation", experiment=cls.id,
            title=f"Write saturation ({size_text(w.bs_bytes)} random write, QD{w.iodepth}): "
                  "IOPS against data written",
            x_axis=Axis("Data written (GB)"), y_axis=Axis("Write IOPS per interval"),
            series=tuple(series), hlines=tuple(hlines),
            caption=" ".join(_sentence(f) for f in found)
            + " One point per live sample interval; GB = 10⁹ B.")]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """First against last IOPS over the repetitions, and the data written."""
        found = _found(part)
        if not found:
            row = part.workloads[0] if part.workloads else None
            return [f"No trial lasted the three live sample intervals needed to trace IOPS "
                    f"against data written (each wrote its volume sooner); over the whole trial "
                    f"the writes averaged {stat_text(row.total_iops)} IOPS."] if row else []
        return [f"Write IOPS went from {values_text([f.iops_first for f in found])} at first to "
                f"{values_text([f.iops_last for f in found])} at the end, after "
                f"{values_text([f.gb_written for f in found], 'GB', with_n=False)} written per "
                "repetition (medians of the first 10 % and the last 20 % of the intervals)."]

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        found = _found(part)
        if not found:
            return None
        return Headline("write IOPS at the end (last 20 % of the intervals)",
                        values_text([f.iops_last for f in found], with_n=False), len(found))


def _found(part: ExperimentResults) -> tuple[TrialSaturation, ...]:
    found = part.found(SaturationFindings)
    return found.per_trial if found else ()


def _sentence(f: TrialSaturation) -> str:
    change = f.change
    fall = "" if change is None else f" ({abs(100 * change):.0f} % {'lower' if change < 0 else 'higher'})"
    return (f"Rep {f.repetition}: {fmt(f.iops_first)} IOPS at first, {fmt(f.iops_last)} "
            f"IOPS after {f.gb_written:.2f} GB written{fall}.")
