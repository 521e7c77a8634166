"""run.json's experiment entries and a trial's facts are typed where run.json is read, and go
back as they were read: an entry key for key and in order, a trial equal (docs/architecture.md,
"Run folders of earlier versions")."""
from __future__ import annotations

import json

import pytest

from app.model.experiment_entry import ExperimentEntry
from app.model.run import Run
from app.model.trial import TrialResult
from tests.conftest import FIXTURES

RUN_FILES = sorted((FIXTURES / "runs").glob("*/run.json"))


@pytest.mark.parametrize("path", RUN_FILES, ids=lambda p: p.parent.name[:30])
def test_experiment_entries_go_back_in_the_same_key_order(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    run = Run.from_json(data)
    back = run.to_json()
    assert json.dumps(back["experiments"]) == json.dumps(data["experiments"])
    assert back["trials"] == data["trials"]   # a trial's keys: TrialResult.to_json's order
    assert [e.id for e in run.experiments] == [e["id"] for e in data["experiments"]]
    assert all(e.title and e.workload_keys and e.params for e in run.experiments)


def test_an_entry_keeps_what_it_does_not_know_where_it_was():
    data = {"id": "tail-latency", "later": [1], "title": "Tail", "params": {"repetitions": 3},
            "followed": "from the knee", "precondition_result": {"mode": "steady",
            "steady_round": 7, "rounds_iops": [1.0, 2.0], "rounds_planned": 25}}
    entry = ExperimentEntry.of(data)
    assert (entry.id, entry.title, entry.followed, entry.workload_keys) == (
        "tail-latency", "Tail", "from the knee", ())
    assert entry.precondition_result and entry.precondition_result.steady_round == 7
    assert entry.params["repetitions"] == 3
    assert json.dumps(entry.to_json()) == json.dumps(data)
    with pytest.raises(ValueError, match="workload_keys"):
        ExperimentEntry.of({"id": "quick", "workload_keys": "read"})


def test_a_trials_facts_are_fields_and_its_record_is_unchanged():
    record = {"index": 3, "experiment": "quick", "workload": {"rw": "read"}, "label": "SEQ",
              "repetition": 1, "warmup": False, "runtime_s": 1.0, "status": "done",
              "error": None, "measurement": None, "argv": ["fio", "--rw=read"],
              "started_at": "2026-11-26T05:00:00", "interval_s": 1, "throttled": None,
              "throttle": {"throttled": None, "signals": []}}
    trial = TrialResult.from_json(record)
    assert trial.argv == ("fio", "--rw=read") and trial.job_argv is None
    assert (trial.started_at, trial.interval_s, trial.throttled, trial.precondition) == (
        "2026-11-26T05:00:00", 1, False, False)
    assert trial.throttle["signals"] == [] and trial.precision is None
    assert json.dumps(trial.to_json()) == json.dumps(record)
    with pytest.raises(ValueError, match="argv"):
        TrialResult.from_json({**record, "argv": "fio --rw=read"})
