"""Report numbers: 3 significant digits for a mean, its ± to the same decimal place, whole I/O
counts (app/units.py)."""
import math

import pytest

from app.units import count, mean_pm, ratio, sig


@pytest.mark.parametrize("value, text", [
    (71.66, "71.7"), (13827.0, "13,800"), (0.012345, "0.0123"), (99.96, "100"),
    (999.6, "1,000"), (2281.5, "2,280"), (5.0, "5.00"), (0.0, "0"), (-42.42, "-42.4"),
    (None, "–"), (math.nan, "–"), (math.inf, "–")])
def test_sig_keeps_three_significant_digits(value, text):
    assert sig(value) == text


@pytest.mark.parametrize("mean, std, text", [
    (15510.2, 16764.5, "15,500 ± 16,800"),   # the example
    (71.7, 3.6, "71.7 ± 3.6"),
    (13827, 734, "13,800 ± 700"),
    (181.1, 0.3, "181 ± <1"),                # a spread that rounds away is not written as 0
    (0.5, 0.01, "0.500 ± 0.010"),
    (181.1, 0.0, "181 ± 0"),
    (44.2, None, "44.2"),
    (None, 3.0, "–")])
def test_mean_pm_writes_the_spread_to_the_means_decimal_place(mean, std, text):
    assert mean_pm(mean, std) == text


def test_io_counts_are_whole_numbers():
    assert count(27.7) == "28"
    assert count(13321) == "13,321"
    assert count(None) == "–"


def test_ratio():
    assert ratio(31.72) == "31.7×"
    assert ratio(2.04) == "2.04×"
    assert ratio(None) == "–"
