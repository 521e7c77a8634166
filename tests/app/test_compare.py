"""Comparing runs (app/compare.py, app/runs.py): the significance call, mismatched conditions,
and the DataFrames a notebook gets."""
from __future__ import annotations

import random

import pytest

from app.compare import compare, mismatches, welch
from app.runs import load_runs

from conftest import FIXTURES

RUN = sorted((FIXTURES / "runs").glob("2026*"))[0]


def test_welch_matches_the_textbook_value():
    # scipy.stats.ttest_ind([1, 2, 3, 4], [2, 4, 6, 8, 10], equal_var=False).pvalue
    assert welch([1, 2, 3, 4], [2, 4, 6, 8, 10]) == pytest.approx(0.0691336, abs=1e-6)
    assert welch([1.0], [2.0, 3.0]) is None  # one repetition: no call


def test_the_call_finds_a_real_difference_and_not_a_made_up_one():
    rng = random.Random(17)
    same = [welch([rng.gauss(100, 5) for _ in range(5)], [rng.gauss(100, 5) for _ in range(5)])
            for _ in range(400)]
    differ = [welch([rng.gauss(100, 5) for _ in range(5)], [rng.gauss(120, 5) for _ in range(5)])
              for _ in range(400)]
    assert 0.02 <= sum(p < 0.05 for p in same) / 400 <= 0.09   # ~5 % false alarms
    assert sum(p < 0.05 for p in differ) / 400 >= 0.95          # a 4-sigma shift is found


def test_load_runs_gives_the_documented_tables():
    tables = load_runs([RUN])
    assert list(tables.runs["run"]) == [RUN.name]
    for column in ("run", "experiment", "trial", "workload", "direction", "iops", "MBps",
                   "lat_kind", "lat_p99_us", "warmup", "status", "outstanding"):
        assert column in tables.trials.columns
    for column in ("n", "iops_mean", "iops_std", "MBps_mean", "lat_p99.99_us_mean", "lat_kind"):
        assert column in tables.workloads.columns
    assert {"run", "trial", "t_s", "read_MBps"} <= set(tables.samples.columns)
    assert (tables.workloads["n"] == 2).all() and len(tables.workloads) == 16  # one per workload and direction


def test_a_run_compared_with_itself_is_all_within_the_spread():
    table = compare(load_runs([RUN, RUN]))
    assert len(table) > 0 and (table["ratio"] == 1.0).all()
    assert set(table["call"]) == {"within the spread"}


def test_mismatched_conditions_are_listed():
    a = {"engine": {"name": "fio", "version": "fio-3.33"}, "drive": {"model": "X"},
         "experiments": [{"id": "zero-queue", "params": {"size": 1, "direct": True}}]}
    b = {"engine": {"name": "diskspd", "version": "2.2"}, "drive": {"model": "X"},
         "experiments": [{"id": "zero-queue", "params": {"size": 2, "direct": True}}],
         "max_temperature_c": 70}
    notes = mismatches([a, b])
    assert "engine differs: fio fio-3.33 vs diskspd 2.2" in notes
    assert "zero-queue size differs: 1 vs 2" in notes
    assert not any("direct" in n or "drive" in n for n in notes)
