"""Paired ratios and their 95 % intervals, for deciding a small difference on a noisy machine.

Each round measures every way next to each other in time, so the ratio way/reference of one
round cancels the drift the rounds share (a shared VM's speed moves 10-20 % within minutes). The
ratios are judged on the log scale (a ratio of 1.02 and one of 1/1.02 are the same distance from
1): the interval is the t interval of the mean log-ratio (its geometric mean), and a percentile
bootstrap of the same mean beside it as a check that does not lean on normality. The verdict
asks the whole interval, not its middle, to lie inside the target: "within" when it does,
"outside" when it lies wholly beyond a bound, "undecided" otherwise, with the number of rounds
that would likely decide it at the spread seen.
"""
from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from app.stats.precision import t975


@dataclass(frozen=True)
class PairedRatio:
    n: int
    geometric_mean: float
    low: float             # 95 % t interval of the geometric mean ratio
    high: float
    boot_low: float        # 95 % percentile bootstrap of the same
    boot_high: float
    log_sd: float          # sample std of the log-ratios (the rounds' noise after pairing)

    def verdict(self, bound: float) -> str:
        """Within, outside or undecided against ``1 ± bound`` (e.g. 0.02 for 2 %)."""
        lo, hi = 1 - bound, 1 + bound
        if lo <= self.low and self.high <= hi:
            return "within"
        if self.high < lo or self.low > hi:
            return "outside"
        return "undecided"

    def rounds_to_decide(self, bound: float) -> int | None:
        """Rounds after which the interval would fit between the geometric mean and the nearer
        bound at this spread (None: the mean itself is outside the target)."""
        room = math.log1p(bound) - abs(math.log(self.geometric_mean))
        if room <= 0 or self.log_sd == 0:
            return None if room <= 0 else self.n
        return max(3, math.ceil((2.0 * self.log_sd / room) ** 2))

    def text(self, bound: float) -> str:
        need = self.rounds_to_decide(bound)
        verdict = self.verdict(bound)
        more = ("" if verdict != "undecided" else
                f"; about {need} rounds would decide it" if need else
                "; its geometric mean itself lies outside")
        return (f"{self.geometric_mean:.3f} [{self.low:.3f}, {self.high:.3f}] (bootstrap "
                f"{self.boot_low:.3f}..{self.boot_high:.3f}, n = {self.n}): {verdict} "
                f"±{100 * bound:g} %{more}")


def paired_ratio(ways: Sequence[float], references: Sequence[float], resamples: int = 5000,
                 seed: int = 1) -> PairedRatio | None:
    """The ratio ways[i]/references[i] over rounds i; None with fewer than 3 rounds."""
    logs = [math.log(w / r) for w, r in zip(ways, references) if w > 0 and r > 0]
    n = len(logs)
    if n < 3:
        return None
    mean, sd = statistics.fmean(logs), statistics.stdev(logs)
    half = t975(n - 1) * sd / math.sqrt(n)
    rng = random.Random(seed)
    boots = sorted(statistics.fmean(rng.choices(logs, k=n)) for _ in range(resamples))
    b_lo, b_hi = boots[int(0.025 * resamples)], boots[int(0.975 * resamples) - 1]
    return PairedRatio(n, math.exp(mean), math.exp(mean - half), math.exp(mean + half),
                       math.exp(b_lo), math.exp(b_hi), sd)
