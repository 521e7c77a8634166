"""The typed model reads every run-folder shape we hold and gives it back equal: parsed engine
outputs (every genuine fio and DiskSpd fixture) and a whole run.json made by an earlier main."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engines.diskspd import looks_like_diskspd, parse_diskspd_output
from app.engines.fio.result import parse_fio_text
from app.model.interval import SAMPLE_COLUMNS, Interval, Sample
from app.model.measurement import LatencyKind, Measurement
from app.model.run import Run
from app.model.status import RunStatus, TrialStatus
from app.model.summary import Stat, WorkloadSummary
from app.model.trial import TrialResult
from app.model.workload import Workload, outstanding
from tests.conftest import FIXTURES

ENGINE_FILES = sorted(p for p in (FIXTURES / "fio").rglob("*") if p.is_file()) + \
    sorted(p for p in (FIXTURES / "diskspd").rglob("*") if p.is_file())
RUN_FILES = sorted((FIXTURES / "runs").glob("*/run.json"))


def _measurements(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        return parse_diskspd_output(text, path.name) if looks_like_diskspd(text) else parse_fio_text(text, path.name)
    except ValueError:
        return []  # a fixture of a broken output: the parser tests cover its refusal


def test_there_are_fixtures_to_read():
    assert len(ENGINE_FILES) >= 10 and RUN_FILES
    assert sum(len(_measurements(p)) for p in ENGINE_FILES) >= 40


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_every_engine_measurement_round_trips(path):
    for m in _measurements(path):
        typed = Measurement.from_json(m)
        assert typed.to_json() == m
        assert json.loads(json.dumps(typed.to_json())) == json.loads(json.dumps(m))
        for _, side in typed.sides():
            assert side.lat_kind in (None, *LatencyKind)


@pytest.mark.parametrize("path", RUN_FILES, ids=lambda p: p.parent.name[:30])
def test_a_whole_run_json_round_trips(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    run = Run.from_json(data)
    assert run.to_json() == data
    assert run.status is RunStatus.DONE
    assert {t.status for t in run.trials} <= set(TrialStatus)
    assert run.measured() and all(t.measurement for t in run.measured())
    for exp in run.summary.values():
        for row in exp.workloads:
            assert row.outstanding == row.workload.outstanding == outstanding(row.workload_json) >= 1
            assert row.total_iops.n == row.n


def test_typed_values_are_the_units_they_say():
    data = json.loads(RUN_FILES[0].read_text(encoding="utf-8"))
    trial = TrialResult.from_json(data["trials"][0])
    side = trial.measurement.side(trial.measurement.sides()[0][0])
    # MB/s is 10^6 B/s: io_bytes over runtime agrees with the MBps the parser stored
    assert side.io_bytes / (side.runtime_ms / 1000) / 1e6 == pytest.approx(side.MBps, rel=0.01)
    assert side.lat("p50") <= side.lat("p99") <= side.lat("p99.99")
    assert trial.measurement.lat_kind is LatencyKind.TOTAL


def test_trial_status_is_an_enum_not_a_string_to_compare():
    data = json.loads(RUN_FILES[0].read_text(encoding="utf-8"))
    record = {**data["trials"][0], "status": "exploded"}
    with pytest.raises(ValueError):
        TrialResult.from_json(record)


@given(st.lists(st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False, width=32)),
                max_size=6))
def test_stat_round_trips(values):
    from app.stats.analysis import summarize
    stat = summarize(values)
    assert Stat.from_json(stat).to_json() == stat


def test_interval_and_sample_share_their_rates():
    rates = dict(read_MBps=1.5, read_iops=10.0, read_lat_us=None, write_MBps=0.0,
                 write_iops=0.0, write_lat_us=None)
    sample = Interval(end_epoch_s=100.0, duration_s=0.5, **rates).at(3, 1.25, 41.0)
    assert sample == Sample(trial=3, t_s=1.25, temperature_c=41.0, duration_s=0.5, **rates)
    assert tuple(sample.row()) == SAMPLE_COLUMNS


def test_workload_summary_keeps_unknown_keys():
    row = {"key": "read-4096-q1-t1", "label": "SEQ4K Q1T1 read",
           "workload": Workload("read", 4096).to_json(), "n": 1,
           "total_iops": {"mean": 1.0, "std": None, "n": 1},
           "total_MBps": {"mean": 0.004, "std": None, "n": 1},
           "read": None, "write": None, "future_field": [1, 2]}
    assert WorkloadSummary.from_json(row).to_json() == row
