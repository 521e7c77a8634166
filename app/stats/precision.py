"""How precisely a mean is known: 95 % intervals of a workload's mean from per-interval samples
that are autocorrelated, and from independent repetitions (docs/precision.md).

Why batch means: an SSD's per-second IOPS are not independent (a garbage-collection burst, a
thermal step or an SLC cache lasts several intervals), so the textbook interval
``t · s / sqrt(n)`` over the raw samples is too narrow and would stop a measurement early.
The series is cut into consecutive batches; the batch size doubles until the batch means'
lag-1 autocorrelation is small, and the interval is the t-interval over those batch means. With
fewer than :data:`MIN_BATCHES` usable batches there is no interval at all (never a stop).

Why the repetitions' spread counts: each repetition is an independent fio run (its own start,
in randomized order), and two runs of the same workload can differ by more than the noise
inside either (a different place on the drive, background work). The workload's interval is
the wider of the within-run one (the runs' batch-means errors combined) and the between-run one
(t with R - 1 degrees of freedom over the R run means): honest with two runs, so two runs whose
means differ by more than their own noise do not claim a precision they lack. From two runs on
there is always an interval: the between-run one stands alone when no run's samples give batch
means (too short, too correlated), since independent runs' means need no batching.

Pure functions over plain numbers; no processes, no I/O.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: Fewest batch means an interval may rest on.
MIN_BATCHES = 5
#: Largest lag-1 autocorrelation (either sign) of the batch means taken as independent.
MAX_LAG1 = 0.2
#: 97.5 % quantiles of Student's t, by degrees of freedom (1..30); above 30 see :func:`t975`.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
Z975 = 1.959964


def t975(dof: float) -> float:
    """Two-sided 95 % quantile of Student's t with ``dof`` degrees of freedom (table to 30,
    then the Cornish-Fisher expansion, within 0.001 of the exact value)."""
    if dof < 1:
        return math.inf
    if dof <= 30:
        return _T975[int(dof) - 1]
    z = Z975
    return z + (z ** 3 + z) / (4 * dof) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * dof ** 2)


@dataclass(frozen=True)
class MeanInterval:
    """A mean and the half-width of its 95 % interval (same unit), with its degrees of freedom."""

    mean: float
    half_width: float
    dof: float
    #: what the half-width rests on: 'within' (batch means inside the runs) or 'between' (t
    #: over the runs' means)
    basis: str = "within"

    def method(self) -> str:
        """How the interval was found, for a reader: 'between runs, t with 1 df' or
        'batch means within runs, 38 df'."""
        dof = f"{self.dof:.0f} df"
        return f"between runs, t with {dof}" if self.basis == "between" else \
            f"batch means within runs, {dof}"

    @property
    def relative(self) -> float:
        """Half-width over the mean (0.02 = ±2 %); infinite for a mean that is not positive."""
        return self.half_width / self.mean if self.mean > 0 else math.inf

    @property
    def std_error(self) -> float:
        return self.half_width / t975(self.dof) if math.isfinite(self.half_width) else math.inf


def lag1(values: Sequence[float]) -> float:
    """Lag-1 autocorrelation; 0 for a constant series (nothing to correlate)."""
    m = statistics.fmean(values)
    dev = [v - m for v in values]
    den = sum(d * d for d in dev)
    if den == 0:
        return 0.0
    return sum(a * b for a, b in zip(dev, dev[1:])) / den


def batch_means(series: Sequence[float], min_batches: int = MIN_BATCHES) -> list[float] | None:
    """Means of consecutive equal batches, the batch size doubled until their lag-1
    autocorrelation is within ±:data:`MAX_LAG1`; None when that leaves fewer than
    ``min_batches``. A series that does not divide evenly drops its *first* values (the start
    of a run is the likeliest to differ).

    Positive correlation must be batched away (else the interval is too narrow). Negative
    correlation (a count that lands in one interval is missing from the next: a throttle's or a
    controller's time slices against the sample clock) makes the interval too wide, never too
    narrow: it is batched away when enough batches remain, else those batches are kept."""
    size, kept = 1, None
    while True:
        k = len(series) // size
        if k < min_batches:
            return kept
        tail = series[len(series) - k * size:]
        means = [statistics.fmean(tail[i * size:(i + 1) * size]) for i in range(k)]
        r = lag1(means)
        if -MAX_LAG1 <= r <= MAX_LAG1:
            return means
        kept = means if r < 0 else None  # positive: never fall back to these
        size *= 2


def series_interval(series: Sequence[float]) -> MeanInterval | None:
    """The 95 % interval of a run's mean from its per-interval samples (batch means); None when
    the series is too short or too correlated to say."""
    means = batch_means(series)
    if means is None:
        return None
    k = len(means)
    se = statistics.stdev(means) / math.sqrt(k)
    return MeanInterval(statistics.fmean(series), t975(k - 1) * se, k - 1)


def naive_interval(series: Sequence[float]) -> MeanInterval | None:
    """The textbook interval over raw samples as if independent: only to show what batch means
    protect against (tests, docs); never used to stop."""
    if len(series) < 2:
        return None
    se = statistics.stdev(series) / math.sqrt(len(series))
    return MeanInterval(statistics.fmean(series), t975(len(series) - 1) * se, len(series) - 1)


def combined(runs: Sequence[MeanInterval | None], means: Sequence[float] | None = None
             ) -> MeanInterval | None:
    """The interval of a workload's mean over independent runs: the wider of the within-run
    interval (the errors of the runs that have one combined) and the between-run one (t over the
    run means, R - 1 degrees of freedom; from two runs on). ``means`` replaces the runs' own means
    (fio's final numbers), the errors staying those of the samples. None only for a single run
    without an interval of its own (or none at all)."""
    if not runs or (means is not None and len(means) != len(runs)):
        return None
    n = len(runs)
    if means is None:
        if any(r is None for r in runs):
            return None
        values = [r.mean for r in runs if r is not None]
    else:
        values = list(means)
    grand = statistics.fmean(values)
    found = [r for r in runs if r is not None]
    best: MeanInterval | None = None
    if found:
        se_within = math.sqrt(sum(r.std_error ** 2 for r in found)) / len(found)
        dof_within = sum(r.dof for r in found)
        best = MeanInterval(grand, t975(dof_within) * se_within, dof_within)
    if n >= 2:
        between = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
        if best is None or between > best.half_width:
            best = MeanInterval(grand, between, n - 1, "between")
    return best


def within(interval: MeanInterval | None, target: float) -> bool:
    """True when the interval is known and its relative half-width is at most ``target``."""
    return interval is not None and interval.relative <= target


def percentile_relative(ci: tuple[float, float] | None, value: float | None) -> float:
    """Half the width of a percentile's 95 % interval over the percentile (infinite unknown)."""
    if ci is None or not value:
        return math.inf
    return (ci[1] - ci[0]) / 2 / value
