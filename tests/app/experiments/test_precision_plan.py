"""A precision target in the plan: at least two repetitions, each between min_time / 2 and its
share of max_time, the time as a range; experiments whose meaning is their duration keep theirs."""
from app.experiments.plan import experiments_from_settings, kept_note, kept_own, plan_run
from app.model.precision import Precision


def test_the_plan_gives_a_range_and_bounds_each_trial():
    exps = experiments_from_settings(["zero-queue"], {"precision": "2%", "repetitions": "1"})
    plan = plan_run(exps, seed=1)
    measured = [t for t in plan.trials if not t.warmup]
    assert {t.repetition for t in measured} == {1, 2}  # at least two independent repetitions
    assert all(t.precision == 0.02 and t.min_s == 5.0 and t.runtime_s == 45.0 for t in measured)
    assert all(t.ramp_s == 1.0 for t in measured)  # the run's start left out of fio's numbers
    assert all(t.runtime_s == 5.0 and t.precision is None and t.ramp_s == 0.0
               for t in plan.trials if t.warmup)
    assert plan.least_s == 4 * 5.0 + 8 * 6.0 and plan.estimated_s == 4 * 5.0 + 8 * 46.0
    assert plan.time_text() == "between 1:08 and 6:28"


def test_fixed_time_plans_are_unchanged():
    plan = plan_run(experiments_from_settings(["zero-queue"], {}), seed=1)
    assert all(t.precision is None for t in plan.trials)
    assert plan.least_s == plan.estimated_s and plan.time_text().startswith("about")


def test_duration_experiments_keep_their_own_rules():
    settings = {"precision": "2%"}
    kept = kept_own(["zero-queue", "slc-cache"], settings)
    assert kept == {"slc-cache": ["precision"]}
    assert "slc-cache keeps its own precision" in kept_note(kept)
    alone = experiments_from_settings(["slc-cache"], settings)[0]
    assert alone.precision_target() is None  # even when set for it alone
    plan = plan_run(experiments_from_settings(["steady-state"], settings), seed=1)
    assert all(t.precision is None for t in plan.trials)


def test_the_outcome_says_not_reached():
    missed = Precision(0.02, 0.048, 0.047, False, 3)
    assert missed.text() == "±4.8 %, target ±2 %: not reached"
    assert Precision(0.02, 0.008, 0.009, True, 2).text() == "±0.9 %"
    tail = Precision(0.02, 0.008, 0.009, False, 3, "p99.9", 0.061)
    assert tail.text() == "±0.9 %; p99.9 ±6.1 %, target ±2 %: not reached"
    assert Precision.from_json(missed.to_json()) == missed


def test_max_time_below_min_time_names_the_value_typed():
    import pytest

    from app.params import ParamError
    with pytest.raises(ParamError, match=r"^max_time: 10 s is below min_time \(20 s\)"):
        experiments_from_settings(["zero-queue"], {"precision": "5%", "min_time": "20s",
                                                   "max_time": "10s"})
