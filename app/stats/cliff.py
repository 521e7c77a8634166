"""Where inside the sample intervals a sustained write stepped down (the SLC cliff), and how well
that is known. Pure Python; never imports Qt.

A live sample is the mean rate of its interval, so a cliff inside an interval shows as one
sample between the two levels. If the interval averaged ``r`` with rate ``a`` before and ``b``
after, it spent the fraction ``(r - b) / (a - b)`` of its time at ``a``: that places the step
inside the interval, in time and in bytes. A drop that takes several intervals (a gradual
decline, or noise around the step) is placed the same way over all of them: the one step from
``a`` to ``b`` that writes the same bytes in the same time (the equivalent step). Those
transitional intervals belong to neither level, so the rates before and after leave them out.

``a`` and ``b`` are the medians of up to :data:`NEIGHBOURS` intervals on each side of the
transitional ones (the neighbours' rates, robust to a stray sample; the trial's first interval,
fio's start-up, only when nothing else is there; the level after stops where the run's end does,
see :func:`locate`). An interval is transitional when its rate is more than ``tol`` from both
levels: 3 x the plateaus' noise, but at least 5 % and at most 10 % of ``a - b`` (a wider band
would read a real part of the step as plateau: a bias, where a plateau interval read as
transitional only adds its noise). Levels and window are refined until they agree.

The resolution (±) covers the plateaus' noise in the transitional intervals' rates (2 sd, summed
in quadrature over them) and what ``tol`` may hide at the window's edge (a transition of up to
``tol / (a - b)`` of an interval read as plateau): in seconds, then in GB at the rate before
(bytes accrue at ``a`` up to the step). Noise: the sd of one interval's rate, from the
neighbours' successive differences (robust, and blind to a slope), pooled over both sides.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

NEIGHBOURS = 10
"""Intervals on each side of the transition whose median is that side's level."""
NOISE_TOL = 3.0
"""An interval within this many noise sd of a level is at that level."""
LEVEL_TOL = (0.05, 0.10)
"""... bounded to these fractions of the drop (a - b)."""
COVERAGE = 2.0
"""The stated ± is this many sd of the noise term (about 95 %)."""


@dataclass(frozen=True)
class Cliff:
    """The located step: ``t_s`` (since the trial's start) and ``gb`` (10^9 B written before it)
    with their ± (``t_resolution_s``, ``gb_resolution``); the transitional intervals
    ``[first, end)`` (``first == end``: the step sits on a sample boundary) and the levels
    ``level_before``/``level_after`` (MB/s, the neighbours' medians)."""

    t_s: float
    gb: float
    t_resolution_s: float
    gb_resolution: float
    first: int
    end: int
    level_before: float
    level_after: float

    @property
    def transitional(self) -> int:
        return self.end - self.first


def locate(ends: Sequence[float], durations: Sequence[float], rates: Sequence[float],
           seed: int, stop: int | None = None) -> Cliff | None:
    """The step near interval ``seed`` (the first interval of the drop as a threshold found it:
    the step lies in it, in the one before or on the boundary between them) of a series of
    intervals ending at ``ends`` (s), lasting ``durations`` (s), at ``rates`` (MB/s); the level
    after it is read before ``stop`` (the end of the drop: a later recovery is not its level).
    None when there is no level on one side to place it against, or the levels do not fall."""
    n = len(rates)
    stop = n if stop is None else min(stop, n)
    if not 0 < seed < stop or len(durations) != n or len(ends) != n:
        return None
    first, end = seed, seed
    before = _before(rates, seed - 1)     # the interval before the seed may hold the step
    after = list(rates[seed + 1:min(seed + 1 + NEIGHBOURS, stop)])
    seen: set[tuple[int, int]] = set()
    while (first, end) not in seen:
        if not before or not after:
            return None
        a, b = statistics.median(before), statistics.median(after)
        if a <= b:
            return None
        noise = _pooled_noise(before, after)
        tol = min(max(NOISE_TOL * noise, LEVEL_TOL[0] * (a - b)), LEVEL_TOL[1] * (a - b))
        seen.add((first, end))
        first, end = _window(rates, seed, a - tol, b + tol)
        before, after = _before(rates, first), list(rates[end:min(end + NEIGHBOURS, stop)])
    at_a = sum((rates[k] - b) / (a - b) * durations[k] for k in range(first, end))
    span = sum(durations[first:end])
    at_a = min(max(at_a, 0.0), span)
    start = ends[first] - durations[first]
    gb_start = sum(r * d for r, d in zip(rates[:first], durations[:first])) / 1000.0
    step = statistics.median(durations)
    spread = COVERAGE * noise * step * math.sqrt(max(end - first, 1)) + tol * step
    t_res = spread / (a - b)
    return Cliff(t_s=start + at_a, gb=gb_start + a * at_a / 1000.0, t_resolution_s=t_res,
                 gb_resolution=a * t_res / 1000.0, first=first, end=end,
                 level_before=a, level_after=b)


def _before(rates: Sequence[float], upto: int) -> list[float]:
    """Up to NEIGHBOURS rates before index ``upto``, without the trial's first interval (fio's
    start-up) unless it is the only one."""
    lo = max(1, upto - NEIGHBOURS)
    return list(rates[lo:upto]) if upto > 1 else list(rates[:max(upto, 0)])


def _window(rates: Sequence[float], seed: int, high: float, low: float) -> tuple[int, int]:
    """[first, end): from after the last interval at the level before (rate >= ``high``) before
    ``seed``, to the first interval at the level after (rate <= ``low``) from ``seed`` on."""
    first = seed
    while first > 0 and rates[first - 1] < high:
        first -= 1
    end = seed
    while end < len(rates) and rates[end] > low:
        end += 1
    return first, end


def _pooled_noise(before: Sequence[float], after: Sequence[float]) -> float:
    """Robust sd of one interval's rate, pooled over both sides: from the differences of
    successive rates (1.4826 x their median absolute deviation / sqrt 2), so a slope (the
    neighbours of a gradual decline) is not taken for noise."""
    def diff_sd(xs: Sequence[float]) -> float:
        d = [y - x for x, y in zip(xs, xs[1:])]
        if not d:
            return 0.0
        mid = statistics.median(d)
        return 1.4826 * statistics.median(abs(x - mid) for x in d) / math.sqrt(2)
    return math.sqrt((diff_sd(before) ** 2 + diff_sd(after) ** 2) / 2)


def where(cliff: Cliff, ends: Sequence[float], durations: Sequence[float]) -> str:
    """The located step in words, e.g. 'the step from 302 to 60 MB/s lies 61 % into the interval
    6.14-7.12 s: at 6.74 ± 0.05 s, 1.81 ± 0.02 GB written'."""
    levels = f"the step from {cliff.level_before:.0f} to {cliff.level_after:.0f} MB/s"
    at = (f"at {cliff.t_s:.2f} ± {cliff.t_resolution_s:.2f} s, "
          f"{cliff.gb:.3g} ± {cliff.gb_resolution:.2g} GB written")
    k = cliff.first
    if cliff.transitional == 0:
        return f"{levels} lies on the sample boundary at {ends[k] - durations[k]:.2f} s: {at}"
    lo, hi = ends[k] - durations[k], ends[cliff.end - 1]
    if cliff.transitional == 1:
        share = (cliff.t_s - lo) / durations[k] if durations[k] > 0 else 0.0
        return f"{levels} lies {share:.0%} into the interval {lo:.2f}-{hi:.2f} s: {at}"
    return (f"{levels} spread over {cliff.transitional} intervals ({lo:.2f}-{hi:.2f} s), left out "
            f"of both rates; the one step writing the same bytes lies {at}")
