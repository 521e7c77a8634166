"""SNIA PTS steady state, on a series of rounds (SNIA SSS PTS 2.0.2 §3.4): the measurement window is the last ``window`` rounds (5); it is steady when

- the *data excursion*, max - min of the window, is at most 20 % of the window's average, and
- the *slope excursion*, |least-squares slope x (window - 1)|, is at most 10 % of the average.

:func:`first_steady_round` scans rounds in order and names the first round at which the window
ending there holds, which is when the steady-state experiment stops; its rounds are 1-based.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

WINDOW = 5
DATA_EXCURSION = 0.20
SLOPE_EXCURSION = 0.10
MAX_ROUNDS = 25                    # SNIA's limit: not steady after 25 rounds is a result too
# the workload-independent preconditioning of every experiment's "steady" option (SNIA PTS:
# 4 KiB random writes at a high queue depth until the drive settles)
PRECONDITION_RW, PRECONDITION_BS, PRECONDITION_QD = "randwrite", 4096, 32
PRECONDITIONS = ("none", "fill", "steady")


@dataclass(frozen=True)
class Window:
    first_round: int            # 1-based, inclusive
    last_round: int
    average: float
    data_excursion: float       # max - min, in the values' unit
    slope: float                # least-squares slope per round
    steady: bool

    @property
    def data_fraction(self) -> float:
        return self.data_excursion / self.average if self.average else math.inf

    @property
    def slope_fraction(self) -> float:
        span = abs(self.slope) * (self.last_round - self.first_round)
        return span / self.average if self.average else math.inf

    def describe(self) -> str:
        return (f"rounds {self.first_round}-{self.last_round}: excursion "
                f"{self.data_fraction:.1%} of the average (limit {DATA_EXCURSION:.0%}), slope "
                f"{self.slope_fraction:.1%} (limit {SLOPE_EXCURSION:.0%})")


def window_at(values: list[float], last_round: int, window: int = WINDOW) -> Window | None:
    """The window of ``window`` rounds ending at ``last_round`` (1-based); None when there are
    fewer rounds than that."""
    if window < 2 or last_round < window or last_round > len(values):
        return None
    ys = [float(v) for v in values[last_round - window:last_round]]
    avg = statistics.fmean(ys)
    xm = (window - 1) / 2
    slope = (sum((x - xm) * (y - avg) for x, y in enumerate(ys))
             / sum((x - xm) ** 2 for x in range(window)))
    data_ex = max(ys) - min(ys)
    steady = avg > 0 and data_ex <= DATA_EXCURSION * avg + 1e-9 \
        and abs(slope) * (window - 1) <= SLOPE_EXCURSION * avg + 1e-9
    return Window(last_round - window + 1, last_round, avg, data_ex, slope, steady)


def first_steady_round(values: list[float | None], window: int = WINDOW) -> Window | None:
    """The first window that holds, scanning rounds in order; None when none does (yet). A round
    without a value (a failed trial) ends no window: the series is judged as measured."""
    clean = [v for v in values if v is not None]
    for last in range(window, len(clean) + 1):
        found = window_at(clean, last, window)
        if found and found.steady:
            return found
    return None


def convergence_text(values: list[float | None], planned: int, window: int = WINDOW) -> str:
    """Where a series of rounds stands, short for a status line: 'round 6/≤25, excursion 12 %
    (≤20), slope 4 % (≤10)' over the last ``window`` finished rounds."""
    clean = [v for v in values if v is not None]
    head = f"round {len(values) + 1}/≤{planned}"
    last = window_at(clean, len(clean), window)
    if last is None:
        return f"{head} (the rule needs {window})"
    return (f"{head}: excursion {last.data_fraction:.0%} (≤{DATA_EXCURSION * 100:.0f}), "
            f"slope {last.slope_fraction:.0%} (≤{SLOPE_EXCURSION * 100:.0f})")
