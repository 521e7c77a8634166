"""A precision target during a run: stop a trial once its workload is known to ±x %, skip the
workload's remaining repetitions once the target holds over two or more of them
(docs/precision.md).

Why here (the run layer): the rule needs the live per-interval samples while fio runs, and
stopping is the engine's graceful stop (its trigger file: fio ends the job and still prints its
final JSON, rc 0), so the numbers that count are fio's own over the time it ran, never the live
samples. The statistics are app/stats/precision.py; this object only keeps, per workload, the
series of its finished repetitions and fio's final means.

Each finished trial's record gets a ``precision`` block (its own interval, how it ended, and the
workload's interval so far); app/results/summary.py turns the last of them into the workload's
achieved ±.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app.experiments.plan import Trial
from app.model.interval import Interval
from app.model.trial import TrialResult
from app.stats.histogram import Histogram
from app.stats.precision import MeanInterval, combined, percentile_relative, series_interval, within
from jobs.engine.process import EngineProcess
from jobs.events import PrecisionUpdate

#: An interval shorter than this share of the sample interval (a job's first or last, cut by
#: its start or stop) is left out of the statistics: its few I/Os make it the noisiest sample.
PARTIAL = 0.75
#: fio reports intervals during its ramp_time too (then its counters restart): an interval that
#: ends within the ramp, give or take this share of the sample interval, is the ramp's.
RAMP_SLACK = 0.1
#: Added to the time fio needs to complete its in-flight I/Os when stopped on the target.
DRAIN_MARGIN_S = 1.5


@dataclass
class _Workload:
    """One workload's finished repetitions: their per-interval series and fio's final means."""

    iops: list[list[float]] = field(default_factory=list)
    MBps: list[list[float]] = field(default_factory=list)
    fio_iops: list[float] = field(default_factory=list)
    fio_MBps: list[float] = field(default_factory=list)
    hists: list[Histogram] = field(default_factory=list)
    reached: bool = False


def _rel(interval: MeanInterval | None) -> float | None:
    return None if interval is None or not math.isfinite(interval.relative) else interval.relative


class PrecisionWatch:
    """Per experiment. The runner calls :meth:`skip` before a trial, :meth:`begin` when it
    starts, :meth:`add` per live interval (True: stop it now) and :meth:`finish` with its record."""

    def __init__(self, tail_percentile: float | None = None):
        self.tail = tail_percentile
        self._by_key: dict[str, _Workload] = {}
        self._iops: list[float] = []
        self._MBps: list[float] = []
        self._elapsed = 0.0
        self._fio_s = 0.0  # fio's time so far in this trial, its ramp included
        self.stopped = False
        self.achieved: float | None = None  # the workload's ± after the last live interval

    def skip(self, trial: Trial) -> bool:
        """A repetition not needed: its workload reached the target over the earlier ones."""
        return trial.precision is not None and self._of(trial).reached

    def begin(self, trial: Trial) -> None:
        self._iops, self._MBps, self._elapsed, self.stopped = [], [], 0.0, False
        self._fio_s = 0.0
        self.achieved = None

    def after(self, trial: Trial, interval: Interval, proc: EngineProcess, exited: bool
              ) -> Iterator[PrecisionUpdate]:
        """After each live interval of a trial with a target: how precisely its workload is
        known now (the live view's ±), and fio's graceful stop once that is within the target."""
        if trial.precision is None or trial.warmup:
            return
        stop = self.add(trial, interval)
        yield PrecisionUpdate(trial.index, self.achieved, trial.precision)
        if stop and not exited:
            proc.stop("precision", self._drain_s(trial))

    def add(self, trial: Trial, interval: Interval) -> bool:
        """One live interval of ``trial``; True once the trial has run its minimum and the
        workload's interval, this repetition included, is within the target (first repetition:
        its own interval; a tail workload also needs the I/Os its percentile asks for)."""
        if trial.precision is None or trial.warmup:
            return False
        self._fio_s += interval.duration_s
        if self._fio_s <= trial.ramp_s + RAMP_SLACK * trial.interval_s:
            return False  # fio's ramp_time: its I/Os are not in fio's numbers (counters restart)
        if self.stopped or self._fio_s > trial.runtime_s + RAMP_SLACK * trial.interval_s:
            return False  # the drain: fio completes its queue, its documents' clock stands still
        self._elapsed += interval.duration_s
        if interval.duration_s >= PARTIAL * trial.interval_s:  # a cut interval: too few I/Os
            self._iops.append(interval.read_iops + interval.write_iops)
            self._MBps.append(interval.read_MBps + interval.write_MBps)
        done = self._of(trial)
        now = self._workload_interval(done, self._iops, self._MBps, self._running_means(done))
        rels = [_rel(i) for i in now]
        self.achieved = None if None in rels else max(r for r in rels if r is not None)
        if self._elapsed < (trial.min_s or 0.0):
            return False
        if not all(within(i, trial.precision) for i in now) or not self._tail_ios_met(trial, done):
            return False
        self.stopped = True
        return True

    def finish(self, trial: Trial, result: TrialResult) -> dict[str, Any] | None:
        """The ``precision`` block of a finished measured trial's record, and whether its
        workload is done; None for trials without a target."""
        if trial.precision is None or trial.warmup:
            return None
        m = result.measurement if result.measured else None
        done = self._of(trial)
        own = [series_interval(self._iops), series_interval(self._MBps)]
        if m is not None and m.total_iops is not None and m.total_MBps is not None:
            done.iops.append(self._iops)
            done.MBps.append(self._MBps)
            done.fio_iops.append(m.total_iops)
            done.fio_MBps.append(m.total_MBps)
            side = m.side("write" if m.side("read") is None else "read")
            if side is not None and side.hist is not None:
                done.hists.append(side.hist)
        iops, mbps = self._workload_interval(done, None, None, (done.fio_iops, done.fio_MBps))
        tail = self._tail_relative(done)
        reps = len(done.fio_iops)
        done.reached = (reps >= 2 and within(iops, trial.precision) and within(mbps, trial.precision)
                        and (self.tail is None or tail <= trial.precision))
        return {"target": trial.precision, "stopped": "target" if self.stopped else "time",
                "own_iops": _rel(own[0]), "own_MBps": _rel(own[1]), "repetitions": reps,
                "iops": _rel(iops), "MBps": _rel(mbps), "reached": done.reached,
                **({"tail": f"p{self.tail:g}",
                    "tail_rel": None if math.isinf(tail) else tail} if self.tail else {})}

    # -- helpers ---------------------------------------------------------------------------
    def _drain_s(self, trial: Trial) -> float:
        """How long fio may take to end gracefully: it completes the I/Os in flight first, a
        queue's worth at the rate just seen, twice over (QD 256 at 120 IOPS: 4.3 s, past the
        usual wait, after which a signal would fail the trial)."""
        rate = self._iops[-1] if self._iops else 0.0
        in_flight = trial.workload.iodepth * trial.workload.numjobs
        return DRAIN_MARGIN_S + 2.0 * in_flight / rate if rate > 0 else DRAIN_MARGIN_S

    def _running_means(self, done: _Workload) -> tuple[list[float], list[float]] | None:
        """The means the workload's interval will rest on once this repetition ends: fio's own
        for the finished repetitions (as :meth:`finish` takes them), the live series' for this
        one; None before its series has any."""
        if not self._iops or not self._MBps:
            return None
        return ([*done.fio_iops, statistics.fmean(self._iops)],
                [*done.fio_MBps, statistics.fmean(self._MBps)])

    def _of(self, trial: Trial) -> _Workload:
        return self._by_key.setdefault(trial.workload.key, _Workload())

    @staticmethod
    def _workload_interval(done: _Workload, iops: list[float] | None, mbps: list[float] | None,
                           means: tuple[list[float], list[float]] | None
                           ) -> list[MeanInterval | None]:
        """The workload's IOPS and MB/s intervals: finished repetitions (with fio's means when
        ``means``) and, live, the running one's series."""
        out = []
        for finished, running, fio in ((done.iops, iops, means[0] if means else None),
                                       (done.MBps, mbps, means[1] if means else None)):
            series = [*finished, *([running] if running is not None else [])]
            out.append(combined([series_interval(s) for s in series], fio))
        return out

    def _tail_relative(self, done: _Workload) -> float:
        if self.tail is None or not done.hists:
            return math.inf
        merged = Histogram.merged(done.hists)
        return percentile_relative(merged.ci95(self.tail), merged.percentile(self.tail))

    def _tail_ios_met(self, trial: Trial, done: _Workload) -> bool:
        """A tail workload stops early only once its I/Os, finished and running, reach what the
        finished repetitions' percentile interval says the target needs (the interval narrows
        as 1/sqrt(I/Os)); its first repetition runs its whole time."""
        if self.tail is None:
            return True
        rel = self._tail_relative(done)
        if math.isinf(rel):
            return False
        pooled = Histogram.merged(done.hists).ios
        running = sum(self._iops) * (self._elapsed / max(len(self._iops), 1))
        return pooled + running >= pooled * (rel / (trial.precision or rel)) ** 2
