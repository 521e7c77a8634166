"""A precision target during a run: stop a trial once its workload is known to ±x %, or once the
target is out of reach by max_time; skip the workload's remaining repetitions once either holds
over two or more of them (docs/precision.md).

Why here (the run layer): the rule needs the live per-interval samples while fio runs, and
stopping is the engine's graceful stop (its trigger file: fio ends the job and still prints its
final JSON, rc 0), so the numbers that count are fio's own over the time it ran, never the live
samples. The statistics are app/stats/precision.py and app/stats/precision_outlook.py; each
workload's finished repetitions are kept by jobs/run/precision_evidence.py.

Each finished trial's record gets a ``precision`` block (its own interval, how it ended, and the
workload's interval so far with its method and outlook); app/results/summary.py turns the last of
them into the workload's achieved ±.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from app.experiments.plan import Trial
from app.model.interval import Interval
from app.model.trial import TrialResult
from app.stats.histogram import Histogram
from app.stats.precision import percentile_relative, series_interval, within
from jobs.engine.process import EngineProcess
from jobs.events import PrecisionUpdate
from jobs.run.precision_evidence import Bounds, Running, WorkloadEvidence, rel

#: An interval shorter than this share of the sample interval (a job's first or last, cut by
#: its start or stop) is left out of the statistics: its few I/Os make it the noisiest sample.
PARTIAL = 0.75
#: fio reports intervals during its ramp_time too (then its counters restart): an interval that
#: ends within the ramp, give or take this share of the sample interval, is the ramp's.
RAMP_SLACK = 0.1
#: Added to the time fio needs to complete its in-flight I/Os when stopped on the target.
DRAIN_MARGIN_S = 1.5


class PrecisionWatch:
    """Per experiment. The runner calls :meth:`skip` before a trial, :meth:`begin` when it
    starts, :meth:`add` per live interval (True: stop it now) and :meth:`finish` with its record.
    ``repetitions`` is the most a workload may run (the plan's; the outlook's maximum)."""

    def __init__(self, tail_percentile: float | None = None, repetitions: int = 3):
        self.tail = tail_percentile
        self.repetitions = max(2, repetitions)
        self._by_key: dict[str, WorkloadEvidence] = {}
        self._iops: list[float] = []
        self._MBps: list[float] = []
        self._elapsed = 0.0
        self._fio_s = 0.0  # fio's time so far in this trial, its ramp included
        self.stopped: str | None = None   # 'target' or 'out of reach' once asked to stop
        self.achieved: float | None = None  # the workload's ± after the last live interval

    @classmethod
    def for_trials(cls, tail_percentile: float | None, trials: list[Trial]) -> PrecisionWatch:
        """The watch of an experiment's planned trials: its most repetitions are theirs."""
        return cls(tail_percentile, max((t.repetition for t in trials if t.precision is not None),
                                        default=2))

    def skip(self, trial: Trial) -> bool:
        """A repetition not needed: its workload reached the target over the earlier ones, or
        the target is out of reach by max_time."""
        return trial.precision is not None and self._of(trial).done

    def begin(self, trial: Trial) -> None:
        self._iops, self._MBps, self._elapsed, self.stopped = [], [], 0.0, None
        self._fio_s = 0.0
        self.achieved = None

    def after(self, trial: Trial, interval: Interval, proc: EngineProcess, exited: bool
              ) -> Iterator[PrecisionUpdate]:
        """After each live interval of a trial with a target: how precisely its workload is
        known now (the live view's ±), and fio's graceful stop once that is within the target
        or the target is out of reach."""
        if trial.precision is None or trial.warmup:
            return
        stop = self.add(trial, interval)
        yield PrecisionUpdate(trial.index, self.achieved, trial.precision,
                              self.stopped == "out of reach")
        if stop and not exited:
            proc.stop("precision", self._drain_s(trial))

    def add(self, trial: Trial, interval: Interval) -> bool:
        """One live interval of ``trial``; True once the trial has run its minimum and either
        the workload's interval, this repetition included, is within the target (first
        repetition: its own interval; a tail workload also needs the I/Os its percentile asks
        for), or the outlook over this and the earlier repetitions says the target is out of
        reach by max_time (:meth:`_out_of_reach`)."""
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
        running = Running(self._iops, self._MBps, self._elapsed)
        now = done.intervals(running)
        rels = [rel(i) for i in now]
        self.achieved = None if None in rels else max(r for r in rels if r is not None)
        if self._elapsed < (trial.min_s or 0.0):
            return False
        if (done.batched(running) and all(within(i, trial.precision) for i in now)
                and self._tail_ios_met(trial, done)):
            self.stopped = "target"
        elif self._out_of_reach(trial, done, running):
            self.stopped = "out of reach"
        return self.stopped is not None

    def finish(self, trial: Trial, result: TrialResult) -> dict[str, Any] | None:
        """The ``precision`` block of a finished measured trial's record, and whether its
        workload is done; None for trials without a target."""
        if trial.precision is None or trial.warmup:
            return None
        m = result.measurement if result.measured else None
        done = self._of(trial)
        own = [series_interval(self._iops), series_interval(self._MBps)]
        if m is not None and m.total_iops is not None and m.total_MBps is not None:
            side = m.side("write" if m.side("read") is None else "read")
            done.add(self._iops, self._MBps, m.total_iops, m.total_MBps, self._elapsed,
                     side.hist if side is not None else None)
        tail = self._tail_relative(done)
        block = done.block(trial.precision, self._bounds(trial),
                           self.tail is None or tail <= trial.precision, self.tail is not None)
        return {"target": trial.precision, "stopped": self.stopped or "time",
                "own_iops": rel(own[0]), "own_MBps": rel(own[1]),
                "repetitions": len(done.fio_iops), **block,
                **({"tail": f"p{self.tail:g}",
                    "tail_rel": None if math.isinf(tail) else tail} if self.tail else {})}

    # -- helpers ---------------------------------------------------------------------------
    def _out_of_reach(self, trial: Trial, done: WorkloadEvidence, running: Running) -> bool:
        """With one or more finished repetitions, the outlook over them and this one: the target
        cannot be reached by max_time even read optimistically (app/stats/precision_outlook.py;
        a running repetition without batch means of its own and short of its longest gives no
        verdict). Not for a tail workload: its percentile has its own rule."""
        if self.tail is not None or not done.fio_iops or trial.precision is None:
            return False
        looks = done.outlooks(trial.precision, self._bounds(trial), running)
        return any(o is not None and not o.reachable for o in looks)

    def _bounds(self, trial: Trial) -> Bounds:
        return Bounds(self.repetitions, trial.min_s or 0.0, trial.runtime_s, trial.ramp_s)

    def _drain_s(self, trial: Trial) -> float:
        """How long fio may take to end gracefully: it completes the I/Os in flight first, a
        queue's worth at the rate just seen, twice over (QD 256 at 120 IOPS: 4.3 s, past the
        usual wait, after which a signal would fail the trial)."""
        rate = self._iops[-1] if self._iops else 0.0
        in_flight = trial.workload.iodepth * trial.workload.numjobs
        return DRAIN_MARGIN_S + 2.0 * in_flight / rate if rate > 0 else DRAIN_MARGIN_S

    def _of(self, trial: Trial) -> WorkloadEvidence:
        return self._by_key.setdefault(trial.workload.key, WorkloadEvidence())

    def _tail_relative(self, done: WorkloadEvidence) -> float:
        if self.tail is None or not done.hists:
            return math.inf
        merged = Histogram.merged(done.hists)
        return percentile_relative(merged.ci95(self.tail), merged.percentile(self.tail))

    def _tail_ios_met(self, trial: Trial, done: WorkloadEvidence) -> bool:
        """A tail workload stops early only once its I/Os, finished and running, reach what the
        finished repetitions' percentile interval says the target needs (the interval narrows
        as 1/sqrt(I/Os)); its first repetition runs its whole time."""
        if self.tail is None:
            return True
        rel_now = self._tail_relative(done)
        if math.isinf(rel_now):
            return False
        pooled = Histogram.merged(done.hists).ios
        running = sum(self._iops) * (self._elapsed / max(len(self._iops), 1))
        return pooled + running >= pooled * (rel_now / (trial.precision or rel_now)) ** 2
