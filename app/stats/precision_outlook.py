"""Whether a precision target can still be reached, and what would reach it (docs/precision.md,
"Out of reach").

A workload's interval from R independent runs can never be narrower than what the spread of their
means allows: t with R - 1 degrees of freedom over that spread. Part of the spread is each run's
own noise (its batch-means error), which a longer run averages away; the rest is the drive's own
run-to-run variation (a cache, background work, a thermal state), which only more runs average.

The stop is *futility*: even an optimistic reading of the evidence misses the target at the
plan's maximum (its repetitions, each at its longest). Optimistic three ways, so a target within
reach is never given up: the spread is taken at the lower end of its 90 % confidence range
(few runs say little about it), everything a longer run could average away is taken away, and a
run whose noise is unknown and that could still run longer gives no verdict at all (its spread
may be noise that a longer run removes: an autocorrelated series is never judged this way).

The time a target would need uses the point estimates instead: the spread beyond noise and the
noise per second (the batch-means error squared times the run's seconds).

Pure functions over plain numbers; no processes, no I/O.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from app.stats.precision import t975

#: 90 % quantiles of chi-square by degrees of freedom (1..10); above that Wilson-Hilferty.
_CHI2_90 = (2.706, 4.605, 6.251, 7.779, 9.236, 10.645, 12.017, 13.362, 14.684, 15.987)
#: A run this close to its longest counts as full length (its noise cannot be averaged further).
FULL_LENGTH = 0.9
#: The most repetitions a projection considers ("more than this" is said as such).
MAX_PROJECTED_REPS = 100


def chi2_90(dof: int) -> float:
    """The 90 % quantile of chi-square with ``dof`` degrees of freedom."""
    if dof <= len(_CHI2_90):
        return _CHI2_90[dof - 1]
    k = 2 / (9 * dof)
    return dof * (1 - k + 1.281552 * math.sqrt(k)) ** 3


@dataclass(frozen=True)
class RunEvidence:
    """One repetition as the projection sees it: its mean, its batch-means standard error (None:
    its samples gave none) and the seconds it measured."""

    mean: float
    std_error: float | None
    seconds: float


@dataclass(frozen=True)
class Outlook:
    """What more time can buy a workload's mean."""

    reachable: bool              # False: out of reach by the plan's maximum, even optimistically
    needed_reps: int | None      # repetitions that would reach the target (None: over the cap)
    needed_rep_s: float | None   # each this long (s)
    drift: float | None          # run-to-run spread beyond the runs' own noise, relative (std)
    trend: float | None          # first to last run mean, relative, when they move one way (>= 3)

    @property
    def needed_s(self) -> float | None:
        """Measuring time the target would need (ramps not counted)."""
        if self.needed_reps is None or self.needed_rep_s is None:
            return None
        return self.needed_reps * self.needed_rep_s


def outlook(runs: Sequence[RunEvidence], target: float, max_reps: int, rep_s: float,
            min_rep_s: float, ramp_s: float = 1.0) -> Outlook | None:
    """The outlook of a workload's mean from its runs (two or more; None before, or when a mean
    is not positive). ``max_reps`` runs of at most ``rep_s`` each are the plan's maximum; a run
    is at least ``min_rep_s`` and costs ``ramp_s`` more."""
    if len(runs) < 2:
        return None
    means = [r.mean for r in runs]
    grand = statistics.fmean(means)
    if grand <= 0:
        return None
    dof = len(runs) - 1
    spread = statistics.variance(means)
    known = [r for r in runs if r.std_error is not None and r.seconds > 0]
    per_s = statistics.fmean([(r.std_error or 0.0) ** 2 * r.seconds for r in known]) if known else None
    noise = [per_s / r.seconds if per_s is not None and r.std_error is not None else None
             for r in runs]
    longest = max(rep_s, *(r.seconds for r in runs))
    # optimistic at the maximum: the spread's lower bound, less all noise a full-length run removes
    unknown_but_short = any(n is None and r.seconds < FULL_LENGTH * longest
                            for n, r in zip(noise, runs))
    removable = statistics.fmean([0.0 if n is None else max(0.0, n - (per_s or 0.0) / longest)
                                  for n in noise])
    low = max(0.0, spread * dof / chi2_90(dof) - removable)
    optimistic = t975(max_reps - 1) * math.sqrt(low / max_reps) / grand
    reachable = unknown_but_short or optimistic <= target
    # point estimates: the drive's own spread, and the noise per second
    seen_noise = statistics.fmean([n for n in noise if n is not None]) if known else 0.0
    between = max(0.0, spread - seen_noise)
    reps, each = _needed(grand * target, between, per_s,
                         statistics.fmean(r.seconds for r in runs), min_rep_s, ramp_s)
    trend = None
    if len(runs) >= 3:
        steps = [b - a for a, b in zip(means, means[1:])]
        if all(s > 0 for s in steps) or all(s < 0 for s in steps):
            trend = (means[-1] - means[0]) / grand
    return Outlook(reachable, reps, each, math.sqrt(between) / grand if known else None, trend)


def _needed(allowed: float, between: float, per_s: float | None, seen_s: float, min_rep_s: float,
            ramp_s: float) -> tuple[int | None, float | None]:
    """The fewest seconds (ramps counted) of R runs of d s each whose between-run interval
    t(R-1) * sqrt((between + per_s / d) / R) is within ``allowed``; without a noise per second
    the runs stay as long as those seen."""
    best: tuple[float, int, float] | None = None
    for reps in range(2, MAX_PROJECTED_REPS + 1):
        room = reps * (allowed / t975(reps - 1)) ** 2 - between
        if room <= 0:
            continue
        each = seen_s if per_s is None else max(min_rep_s, per_s / room)
        cost = reps * (each + ramp_s)
        if best is None or cost < best[0]:
            best = (cost, reps, each)
    return (None, None) if best is None else (best[1], best[2])
