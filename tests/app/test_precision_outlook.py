"""Whether a precision target is still within reach (app/stats/precision_outlook.py), on known
runs: repetitions that disagree put it out of reach and say what would reach it; runs that
agree, the throttle's over-wide within-run noise, or a short run whose noise is unknown never
give it up."""
import math

from app.stats.precision import MeanInterval, combined
from app.stats.precision_outlook import RunEvidence, chi2_90, outlook


def test_chi_square_quantiles_join_the_table():
    assert chi2_90(1) == 2.706 and chi2_90(10) == 15.987
    assert abs(chi2_90(11) - 17.275) < 0.02 and abs(chi2_90(30) - 40.256) < 0.05


def test_full_length_runs_that_disagree_are_out_of_reach():
    """Two 30-s runs 10 % apart, each known to ±0.3 %: at three repetitions even the spread's
    optimistic end gives far more than ±2 %; about 45 runs would do it, the drift is ~7 %."""
    runs = [RunEvidence(1000.0, 1.5, 30.0), RunEvidence(1100.0, 1.5, 30.0)]
    got = outlook(runs, 0.02, 3, 30.0, 5.0)
    assert got is not None and not got.reachable
    assert got.needed_reps is not None and 30 < got.needed_reps < 60
    assert got.drift is not None and 0.06 < got.drift < 0.07


def test_runs_that_agree_stay_within_reach():
    """The throttle's worst pair of 5-s runs (120.24 and 120.67 IOPS), their within-run error
    overstated by the time slices: a third run may well reach ±2 %."""
    runs = [RunEvidence(120.24, 1.2, 5.0), RunEvidence(120.67, 1.2, 5.0)]
    got = outlook(runs, 0.02, 3, 30.0, 5.0)
    assert got is not None and got.reachable and got.needed_s is not None


def test_a_short_run_whose_noise_is_unknown_gives_no_verdict():
    """No batch means in the running repetition (too correlated) and time left: its distance
    from the first run may be noise a longer run removes."""
    runs = [RunEvidence(1000.0, 1.5, 30.0), RunEvidence(1100.0, None, 5.0)]
    got = outlook(runs, 0.02, 3, 30.0, 5.0)
    assert got is not None and got.reachable
    full = [RunEvidence(1000.0, None, 30.0), RunEvidence(1100.0, None, 29.0)]
    assert not outlook(full, 0.02, 3, 30.0, 5.0).reachable   # at full length: it is the spread


def test_noise_that_longer_runs_remove_keeps_the_target_within_reach():
    """Two 5-s runs 3 % apart, each as noisy as that: 30-s runs would average it away."""
    runs = [RunEvidence(1000.0, 20.0, 5.0), RunEvidence(1030.0, 20.0, 5.0)]
    assert outlook(runs, 0.02, 3, 30.0, 5.0).reachable


def test_a_trend_across_three_runs_is_named():
    runs = [RunEvidence(m, 1.0, 30.0) for m in (1000.0, 950.0, 900.0)]
    got = outlook(runs, 0.02, 3, 30.0, 5.0)
    assert got is not None and got.trend is not None and math.isclose(got.trend, -0.1053, abs_tol=1e-3)
    assert outlook(runs[:1], 0.02, 3, 30.0, 5.0) is None   # one run: no spread yet


def test_two_runs_without_batch_means_still_bound_the_mean():
    """The review's case: every repetition too short for batch means, the run means' spread
    alone bounds the mean (t with 1 df), and says so; one run alone stays unknown."""
    got = combined([None, None], [1000.0, 1010.0])
    assert got is not None and got.basis == "between" and got.method() == "between runs, t with 1 df"
    assert math.isclose(got.relative, 12.706 * 5 / 1005, rel_tol=1e-6)
    assert combined([None], [1000.0]) is None
    mixed = combined([MeanInterval(1000.0, 50.0, 9), None], [1000.0, 1001.0])
    assert mixed is not None and mixed.basis == "within" and mixed.method() == "batch means within runs, 9 df"
