"""The SNIA steady-state rule on series whose answer is known."""
from __future__ import annotations

import random

import pytest

from app.stats.steady_state import first_steady_round, window_at


def test_a_flat_series_is_steady_at_the_first_full_window():
    found = first_steady_round([1000.0] * 8)
    assert (found.first_round, found.last_round) == (1, 5) and found.steady


def test_a_drifting_series_never_settles():
    assert first_steady_round([1000 - 40 * i for i in range(25)]) is None  # 4 % of 1000 a round


def test_an_oscillating_series_never_settles():
    assert first_steady_round([1000, 1300] * 12) is None  # 26 % excursion every window


def test_a_series_converging_at_round_7():
    # a fresh drive: fast, then garbage collection sets in, flat from round 3 on
    series = [5000, 3500, 2000, 1990, 2010, 2005, 1995, 2000, 2002]
    found = first_steady_round(series)
    assert found.last_round == 7 and found.first_round == 3
    assert window_at(series, 6).steady is False  # rounds 2-6 still hold the drop from 3500
    assert "rounds 3-7: excursion" in found.describe()


def test_noise_within_the_limits_is_steady():
    rng = random.Random(3)
    series = [rng.uniform(950, 1050) for _ in range(10)]  # at most 10 % excursion
    assert first_steady_round(series).last_round == 5


def test_edge_cases():
    assert first_steady_round([1000.0] * 4) is None           # fewer than 5 rounds
    assert first_steady_round([0.0] * 6) is None               # zero mean: nothing to judge
    assert first_steady_round([None, 1000, 1000, 1000, 1000, 1000]).last_round == 5
    assert window_at([1.0] * 5, 5, window=1) is None
    w = window_at([100, 100, 100, 100, 120], 5)
    # 19.2 % excursion is within 20 %, but the slope (4 per round, x 4 rounds = 15.4 %) is not
    assert w.data_fraction == pytest.approx(20 / 104) and w.slope_fraction == pytest.approx(16 / 104)
    assert not w.steady


def test_the_live_line_says_where_the_rule_stands():
    from app.stats.steady_state import convergence_text
    assert convergence_text([100.0, 101.0], 25) == "round 3/≤25 (the rule needs 5)"
    text = convergence_text([100.0, 150.0, 100.0, 100.0, 100.0], 8)
    assert text.startswith("round 6/≤8: excursion 45% (≤20), slope")
