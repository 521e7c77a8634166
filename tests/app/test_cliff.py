"""The SLC cliff located inside its sample interval (app/stats/cliff.py through
analysis.cache_exhaustion), on known series: a step 60 % into an interval, one on a sample
boundary, no step, a gradual and a noisy one; the rates before and after leave the transitional
intervals out, and the finding states its resolution."""
from __future__ import annotations

import itertools
import json
import random

import pytest

from app.stats import analysis as an
from app.stats.cliff import locate


def _j(x):
    return json.loads(json.dumps(x.to_json(), allow_nan=False))


def _series(durations, rates):
    """(end of interval since the trial's start, MB/s): what slc-cache hands the analysis."""
    return list(zip(itertools.accumulate(durations), rates))


def _emulated(durations, before, after, cliff_gb):
    """Per-interval MB/s of a drive writing at before[k] until cliff_gb are written, then at
    after[k]: each interval's mean as an engine reports it (bytes over its duration)."""
    rates, written = [], 0.0
    for d, a, b in zip(durations, before, after):
        at_a = min(max((cliff_gb - written) * 1000 / a, 0.0), d)
        mb = a * at_a + b * (d - at_a)
        written += mb / 1000
        rates.append(mb / d)
    return rates


def test_a_cliff_60_percent_into_an_interval_is_placed_there():
    # the run the issue reported: 302 MB/s until the interval 6.14-7.12 s, which averaged
    # 209.7 MB/s (under 70 % of 302), then 60 MB/s; the first interval is short (0.8 s)
    durations = [0.8] + [1.0] * 6 + [0.98] + [1.0] * 17
    k = 7  # the interval 6.80-7.78 s here: 0.98 s long
    rates = [302.0] * k + [209.7] + [60.0] * (len(durations) - k - 1)
    r = _j(an.cache_exhaustion(_series(durations, rates)))
    share = (209.7 - 60) / (302 - 60)                      # 0.619 of the interval at 302 MB/s
    assert r["drop_observed"] and r["transitional_intervals"] == 1
    assert r["t_drop_s"] == pytest.approx(6.80 + share * 0.98)
    assert r["gb_before_drop"] == pytest.approx((6.80 + share * 0.98) * 0.302)
    assert r["MBps_before"] == pytest.approx(302.0) and r["MBps_after"] == pytest.approx(60.0)
    # noise-free: the resolution is what the 5 % tolerance could hide, 0.05 of the drop's interval
    assert r["t_resolution_s"] == pytest.approx(0.05 * 1.0)
    assert r["gb_resolution"] == pytest.approx(302 * 0.05 / 1000)
    assert "62% into the interval 6.80-7.78 s" in r["note"]
    assert "at 7.41 ± 0.05 s, 2.24 ± 0.015 GB written" in r["note"]


def test_a_cliff_at_75_percent_above_the_threshold_is_found_in_the_interval_before():
    # 240 MB/s stays above 70 % of 300: the threshold first fires one interval later, the
    # located step does not move
    rates = [300.0] * 6 + [240.0] + [60.0] * 18
    r = _j(an.cache_exhaustion(_series([1.0] * 25, rates)))
    assert r["t_drop_s"] == pytest.approx(6.75) and r["gb_before_drop"] == pytest.approx(2.025)
    assert r["transitional_intervals"] == 1


def test_a_cliff_on_a_sample_boundary_has_no_transitional_interval():
    rates = [300.0] * 7 + [60.0] * 18
    r = _j(an.cache_exhaustion(_series([1.0] * 25, rates)))
    assert r["t_drop_s"] == pytest.approx(7.0) and r["gb_before_drop"] == pytest.approx(2.1)
    assert r["transitional_intervals"] == 0
    assert r["MBps_before"] == pytest.approx(300.0) and r["MBps_after"] == pytest.approx(60.0)
    assert "on the sample boundary at 7.00 s" in r["note"]


def test_no_cliff_states_no_point_and_no_resolution():
    rng = random.Random(7)
    rates = [300.0 * (1 + rng.gauss(0, 0.03)) for _ in range(25)]
    r = _j(an.cache_exhaustion(_series([1.0] * 25, rates)))
    assert r["drop_observed"] is False and r["note"] == "no drop observed"
    assert r["t_resolution_s"] is None and r["gb_resolution"] is None
    assert r["transitional_intervals"] is None


@pytest.mark.parametrize("seed", range(20))
def test_a_noisy_drive_is_located_within_its_stated_resolution(seed):
    # each interval's own rate varies 3 % (sd) about 300 and 60 MB/s, the interval lengths 2 %;
    # the cliff at 2.01 GB falls anywhere in its interval
    rng = random.Random(seed)
    durations = [0.75] + [1.0 + rng.gauss(0, 0.02) for _ in range(24)]
    before = [300 * (1 + rng.gauss(0, 0.03)) for _ in durations]
    after = [60 * (1 + rng.gauss(0, 0.03)) for _ in durations]
    cliff_gb = 2.01 + rng.uniform(-0.15, 0.15)
    r = _j(an.cache_exhaustion(_series(durations, _emulated(durations, before, after, cliff_gb))))
    assert r["drop_observed"]
    assert abs(r["gb_before_drop"] - cliff_gb) <= r["gb_resolution"]
    assert r["gb_resolution"] < 0.1                       # a third of an interval's data
    assert r["MBps_after"] == pytest.approx(60, rel=0.03)  # the transitional interval left out
    assert r["MBps_before"] == pytest.approx(300, rel=0.03)


def test_the_boundary_placement_was_off_by_most_of_an_interval():
    # what the sample-boundary rule said for the series: the interval's start, 0.6 s
    # and 0.19 GB early; the located step is exact
    rates = [302.0] * 6 + [209.7] + [60.0] * 18
    r = _j(an.cache_exhaustion(_series([1.0] * 25, rates)))
    assert r["gb_before_drop"] - 6 * 0.302 == pytest.approx(0.302 * (209.7 - 60) / (302 - 60))
    assert r["gb_before_drop"] - 6 * 0.302 > 0.18


def test_locate_needs_a_level_on_both_sides():
    assert locate([1.0, 2.0], [1.0, 1.0], [300.0, 60.0], 0) is None     # nothing before
    assert locate([1.0, 2.0, 3.0], [1.0] * 3, [300.0, 300.0, 60.0], 2) is None  # nothing after
    rising = locate([float(k) for k in range(1, 9)], [1.0] * 8, [60.0] * 4 + [300.0] * 4, 4)
    assert rising is None                                                  # no fall


def test_without_a_level_after_it_the_cliff_is_bracketed_by_its_interval():
    # the run's planned end (end_s) leaves no interval after the step to read the level from:
    # the step is put at the first interval under the threshold, ± that interval's data
    rates = [300.0] * 6 + [204.0] + [60.0] * 18
    r = _j(an.cache_exhaustion(_series([1.0] * 25, rates), end_s=7.0))
    assert r["drop_observed"] and r["transitional_intervals"] is None
    assert r["t_drop_s"] == pytest.approx(6.0) and r["t_resolution_s"] == pytest.approx(1.0)
    assert r["gb_resolution"] == pytest.approx(0.3)
    assert "or the one before" in r["note"]


def test_the_runs_final_intervals_do_not_set_the_level_after():
    # fio's drain at the end: the queue reaped at once in the last two intervals (7 and 36 MB/s);
    # they count in the rate after (bytes over time) but not in the level the step is placed with
    rates = [100.0] * 4 + [40.0] + [20.0] * 5 + [7.3, 36.0]
    durations = [0.75] + [1.0] * 10 + [0.9]
    r = _j(an.cache_exhaustion(_series(durations, rates), end_s=10.0))
    assert r["t_drop_s"] == pytest.approx(3.75 + 0.25) and r["transitional_intervals"] == 1
    assert r["gb_before_drop"] == pytest.approx(0.4)
    assert r["gb_resolution"] == pytest.approx(100 * 0.05 / 1000)
    assert r["MBps_after"] == pytest.approx((5 * 20 + 7.3 + 36 * 0.9) / 6.9)
