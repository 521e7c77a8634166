"""precondition=none|fill|steady for every experiment: planned rounds before the
measured trials, skipped once the SNIA rule holds, recorded in run.json and stated beside every
table, figure and finding; an ETA that says "up to" when the end depends on convergence."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.experiments import CATALOG
from app.experiments.plan import experiments_from_settings, plan_run, trial_kind
from app.model.experiment_entry import ExperimentEntry
from app.params import ParamError, describe
from app.report.precondition_note import precondition_sentence

from conftest import needs_fio, run_cli

QUICK = {"runtime": "1s", "repetitions": "1", "warmup": "false"}


def _plan(settings: dict, names=("zero-queue",)):
    return plan_run(experiments_from_settings(list(names), {**QUICK, **settings}), seed=3)


def test_every_experiment_but_steady_state_offers_the_three_states():
    for eid, cls in CATALOG.items():
        choices = next(p["choices"] for p in describe(cls) if p["name"] == "precondition")
        assert choices == (["none", "fill"] if eid == "steady-state" else ["none", "fill", "steady"])
    with pytest.raises(ParamError):
        experiments_from_settings(["steady-state"], {"precondition": "steady"})


def test_steady_plans_rounds_first_in_order_and_fill_writes_the_file_twice():
    plan = _plan({"precondition": "steady", "precondition_rounds": "6", "randomize": "true"})
    rounds = [t for t in plan.trials if t.precondition]
    assert [t.index for t in rounds] == list(range(6)) and [t.repetition for t in rounds] == list(range(1, 7))
    assert all(t.warmup and t.workload.key == "randwrite-4096-q32-t1" for t in rounds)
    assert plan.open_ended and not _plan({}).open_ended
    assert plan.experiments[0].prefill_passes() == 2 == _plan({"precondition": "fill"}).experiments[0].prefill_passes()
    assert _plan({}).experiments[0].prefill_passes() == 1
    assert trial_kind(True, 3, True) == "precondition round 3" and trial_kind(True, 0) == "warm-up"


def test_the_sentence_says_the_state_and_old_runs_get_none():
    def sentence(entry: dict) -> str:
        return precondition_sentence(ExperimentEntry.of({"id": "quick", **entry}))
    assert sentence({"params": {}}) == ""                                   # before the option
    assert "none" in sentence({"params": {"precondition": "none"}})
    steady = {"params": {"precondition": "steady"},
              "precondition_result": {"steady_round": 7, "rounds_planned": 25, "rounds_run": 7}}
    assert "steady state reached in round 7 of at most 25" in sentence(steady)
    steady["precondition_result"] = {"steady_round": None, "rounds_planned": 25, "rounds_run": 25}
    assert "NOT reached in 25 rounds" in sentence(steady)


@needs_fio
def test_a_preconditioned_run_measures_after_the_rounds_and_says_so(tmp_path):
    (tmp_path / "t").mkdir()
    done = run_cli("run", "tail-latency", "--target", str(tmp_path / "t"), "--out", str(tmp_path / "runs"),
                   "--set", "runtime=1s", "--set", "size=32MiB", "--set", "repetitions=1",
                   "--set", "warmup=false", "--set", "queue_depths=4", "--set", "precondition=steady",
                   "--set", "precondition_rounds=5", "--json")
    assert done.returncode == 0, done.stderr
    assert "(precondition round 1)" in done.stderr and "up to" in done.stderr
    run_dir = Path(json.loads(done.stdout)["run_dir"])
    record = json.loads((run_dir / "run.json").read_text())
    rounds = [t for t in record["trials"] if t.get("precondition")]
    measured = [t for t in record["trials"] if not t.get("precondition")]
    result = record["experiments"][0]["precondition_result"]
    assert 1 <= len(rounds) == result["rounds_run"] <= 5 and len(measured) == 1
    assert result["steady_round"] in (None, len(rounds))
    assert record["summary"]["tail-latency"]["workloads"][0]["n"] == 1       # rounds not counted
    assert (run_dir / "commands.log").read_text().count("prepare tail-latency") == 2
    out = tmp_path / "export"
    assert run_cli("export", str(run_dir), "--out", str(out)).returncode == 0
    assert "Preconditioning: steady state" in (out / "report.md").read_text()
    assert "planned trials ran" not in (out / "report.md").read_text()
    assert "Preconditioning: steady state" in (out / "tables" / "tail-latency.md").read_text()
