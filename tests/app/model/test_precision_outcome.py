"""A workload's precision outcome in words (app/model/precision.py): the method of its ±, and
when the target was not reached, why and what would reach it."""
from app.model.precision import Precision


def test_an_out_of_reach_outcome_says_what_would_reach_it():
    got = Precision(0.02, 0.131, 0.131, False, 2, method="between runs, t with 1 df",
                    out_of_reach=True, needed_reps=12, needed_rep_s=30.0, drift=0.05)
    assert got.text(advice=False) == ("±13.1 % (between runs, t with 1 df), target ±2 %: "
                                      "not reached, out of reach by max_time")
    assert got.text().endswith("about 12 repetitions of 0:30 (6:00 of measuring: "
                               "repetitions=12, max_time=360s) would reach it")
    assert "±5.0 % beyond their own noise" in got.advice()
    assert Precision.from_json(got.to_json()) == got


def test_a_single_repetition_is_the_only_unknown():
    assert Precision(0.02, None, None, False, 1).text().startswith("± unknown (a single repetition)")


def test_a_drift_within_runs_and_too_few_samples_are_named():
    drifting = Precision(0.02, 0.0, 0.0, False, 3, method="between runs, t with 2 df",
                         within_drift=0.16, unbatched="correlated samples")
    assert "moved +16.0 % from its first third to its last" in drifting.advice()
    short = Precision(0.05, 0.08, 0.08, False, 2, unbatched="few samples")
    assert "too short for batch means" in short.advice()
    assert Precision(0.02, 0.01, 0.01, True, 2, method="x").text() == "±1.0 % (x)"


def test_more_than_a_hundred_repetitions_only_when_projected():
    """Runs without batch means get no projection: their outcome must not claim one."""
    unprojected = Precision(0.02, 3.7, 3.7, False, 2, out_of_reach=True, within_drift=-0.95,
                            unbatched="correlated samples")
    assert "100 repetitions" not in unprojected.advice()
    projected = Precision(0.02, 1.3, 1.3, False, 2, out_of_reach=True, drift=0.13, projected=True)
    assert "more than 100 repetitions would be needed" in projected.advice()
    assert Precision.from_json(projected.to_json()) == projected
