"""One workload's evidence under a precision target: its finished repetitions (their live series,
fio's final means, their measured seconds, their histograms) and what follows from them: the
workload's intervals, whether the target holds, whether it is still within reach, and the block
each finished trial's record gets (docs/precision.md).

Kept apart from the live stopping rule (jobs/run/precision_stop.py) so the rule reads as a rule; the
statistics themselves are app/stats/precision.py and app/stats/precision_outlook.py.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from app.stats.histogram import Histogram
from app.stats.precision import MIN_BATCHES, MeanInterval, combined, series_interval
from app.stats.precision_outlook import Outlook, RunEvidence, outlook


@dataclass(frozen=True)
class Running:
    """The repetition under way: its live series so far and the seconds they cover."""

    iops: list[float]
    MBps: list[float]
    seconds: float


@dataclass(frozen=True)
class Bounds:
    """What the plan allows a workload: its repetitions, each between min_s and max_s (s)."""

    repetitions: int
    min_s: float
    max_s: float
    ramp_s: float


def rel(interval: MeanInterval | None) -> float | None:
    """The relative half-width, None when unknown or infinite."""
    return None if interval is None or not math.isfinite(interval.relative) else interval.relative


@dataclass
class WorkloadEvidence:
    """One workload's finished repetitions, in run order."""

    iops: list[list[float]] = field(default_factory=list)
    MBps: list[list[float]] = field(default_factory=list)
    fio_iops: list[float] = field(default_factory=list)
    fio_MBps: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    hists: list[Histogram] = field(default_factory=list)
    reached: bool = False
    out_of_reach: bool = False

    @property
    def done(self) -> bool:
        """No further repetition can help: the target holds, or it is out of reach."""
        return self.reached or self.out_of_reach

    def add(self, iops: list[float], mbps: list[float], fio_iops: float, fio_mbps: float,
            seconds: float, hist: Histogram | None) -> None:
        self.iops.append(iops)
        self.MBps.append(mbps)
        self.fio_iops.append(fio_iops)
        self.fio_MBps.append(fio_mbps)
        self.seconds.append(seconds)
        if hist is not None:
            self.hists.append(hist)

    def batched(self, running: Running | None = None) -> bool:
        """Every repetition's own samples (the running one's too, when given) give batch means:
        only then may the target count as reached. Without them a repetition's samples are too
        few or too correlated to say whether its mean is its steady rate (a drift within each
        run repeats from run to run, and identical means would claim ±0 %)."""
        series = [*self.iops, *self.MBps, *([running.iops, running.MBps] if running else [])]
        return all(series_interval(s) is not None for s in series)

    def within_drift(self) -> float | None:
        """Within the repetitions whose samples, enough of them, give no batch means (too
        correlated): the rate's change from the first third of a run to its last, relative,
        averaged over them (None: none such)."""
        moves = []
        for s in self.iops:
            if len(s) >= MIN_BATCHES and series_interval(s) is None and statistics.fmean(s) > 0:
                third = len(s) // 3
                moves.append((statistics.fmean(s[-third:]) - statistics.fmean(s[:third]))
                             / statistics.fmean(s))
        return statistics.fmean(moves) if moves else None

    def intervals(self, running: Running | None = None) -> list[MeanInterval | None]:
        """The workload's IOPS and MB/s intervals over the finished repetitions (fio's means) and
        the running one (its live series' mean), when given."""
        out = []
        for k, (series, fio) in enumerate(((self.iops, self.fio_iops), (self.MBps, self.fio_MBps))):
            runs, means = list(series), list(fio)
            if running is not None:
                now = (running.iops, running.MBps)[k]
                if not now:
                    return [None, None]
                runs.append(now)
                means.append(statistics.fmean(now))
            out.append(combined([series_interval(s) for s in runs], means))
        return out

    def outlooks(self, target: float, bounds: Bounds, running: Running | None = None
                 ) -> list[Outlook | None]:
        """The IOPS and MB/s outlooks over the finished repetitions and the running one."""
        out = []
        for k, (series, fio) in enumerate(((self.iops, self.fio_iops), (self.MBps, self.fio_MBps))):
            runs = [RunEvidence(m, _std_error(s), t) for s, m, t in zip(series, fio, self.seconds)]
            if running is not None:
                now = (running.iops, running.MBps)[k]
                if not now:
                    return [None, None]
                runs.append(RunEvidence(statistics.fmean(now), _std_error(now), running.seconds))
            out.append(outlook(runs, target, bounds.repetitions, bounds.max_s, bounds.min_s,
                               bounds.ramp_s))
        return out

    def block(self, target: float, bounds: Bounds, tail_ok: bool, tail_wanted: bool) -> dict[str, Any]:
        """After a finished repetition: the workload's achieved ± (and its method), whether it
        is reached or out of reach (both end the workload) and what would reach it."""
        iops, mbps = self.intervals()
        reps, batched = len(self.fio_iops), self.batched()
        self.reached = (reps >= 2 and batched and tail_ok
                        and all(i is not None and i.relative <= target for i in (iops, mbps)))
        wider = max((i for i in (iops, mbps) if i is not None), key=lambda i: i.relative,
                    default=None)
        method = None if wider is None or reps < 2 else wider.method()
        out: dict[str, Any] = {"iops": rel(iops), "MBps": rel(mbps), "reached": self.reached,
                     "method": method}
        if self.reached:
            return out
        if not batched:   # what a repetition's samples lack; no projection without them
            few = any(len(x) < MIN_BATCHES for x in self.iops)
            out.update(unbatched="few samples" if few else "correlated samples",
                       within_drift=self.within_drift())
        looks = [o for o in self.outlooks(target, bounds) if o is not None]
        if looks and not tail_wanted:
            self.out_of_reach = self.out_of_reach or not all(o.reachable for o in looks)
        if looks and batched:
            most = max(looks, key=lambda o: math.inf if o.needed_s is None else o.needed_s)
            out.update(needed_reps=most.needed_reps, needed_rep_s=most.needed_rep_s,
                       drift=most.drift, trend=most.trend, projected=True)
        out["out_of_reach"] = self.out_of_reach
        return out


def _std_error(series: list[float]) -> float | None:
    got = series_interval(series)
    return None if got is None or not math.isfinite(got.std_error) else got.std_error
