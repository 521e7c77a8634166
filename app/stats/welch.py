"""Welch's t-test: is the difference of two means larger than their repetitions' own spread?

Used where two measured means are set side by side: the comparison of runs (app/compare/) and
an experiment's findings ("writes take 1.3× the time of reads" is said only when the test
separates the two; otherwise the finding says the difference is within the noise). Two-sided,
5 % (:data:`ALPHA`); it needs at least two repetitions on each side, and with fewer it gives no
answer rather than a guess. The t distribution's tail comes from the regularized incomplete beta
function (Numerical Recipes' continued fraction), so no SciPy is needed.
"""
from __future__ import annotations

import math

ALPHA = 0.05


def welch_p(mean_a: float, std_a: float, n_a: int, mean_b: float, std_b: float,
            n_b: int) -> float | None:
    """Two-sided p-value of Welch's t-test from each side's mean, sample std and n; None with
    fewer than two values on a side."""
    if n_a < 2 or n_b < 2:
        return None
    va, vb = std_a ** 2 / n_a, std_b ** 2 / n_b
    if va + vb == 0:
        return 0.0 if mean_a != mean_b else 1.0
    t = (mean_a - mean_b) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (n_a - 1) + vb ** 2 / (n_b - 1))
    return betainc(df / 2, 0.5, df / (df + t * t))


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-12:
            break
    return h
