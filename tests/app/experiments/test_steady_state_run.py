"""The steady-state experiment end to end with the real fio: preconditioning passes, rounds in
order, and a run that stops at the round the SNIA rule holds (or runs them all and says so)."""
from __future__ import annotations

import json
from pathlib import Path

from app.experiments import CATALOG, all_ids
from app.params import describe

from conftest import needs_fio, run_cli


def test_the_catalog_lists_it_with_its_own_parameters_only():
    names = {p["name"] for p in describe(CATALOG["steady-state"])}
    assert {"round", "max_rounds", "rw", "bs", "iodepth", "precondition", "size"} <= names
    assert not names & {"runtime", "repetitions", "warmup", "randomize"}  # set from round
    assert "steady-state" not in all_ids()  # open-ended: never part of `run all`


@needs_fio
def test_rounds_until_steady_or_the_maximum(tmp_path):
    done = run_cli("run", "steady-state", "--target", str(tmp_path / "t"), "--set", "round=1s",
                   "--set", "max_rounds=9", "--set", "size=16MiB", "--set", "iodepth=4",
                   "--out", str(tmp_path / "runs"), "--json")
    assert done.returncode == 0, done.stderr
    run_dir = Path(json.loads(done.stdout)["run_dir"])
    record = json.loads((run_dir / "run.json").read_text())
    trials = record["trials"]
    assert [t["repetition"] for t in trials] == list(range(1, len(trials) + 1))  # in order
    assert not any(t["warmup"] for t in trials)
    findings = record["summary"]["steady-state"]["findings"]
    assert len(findings["rounds_iops"]) == len(trials)
    if findings["steady"]:
        assert findings["round"] == len(trials) >= 5  # stopped at the round it held
        assert findings["window"]["excursion"] <= 0.20 and findings["window"]["slope"] <= 0.10
    else:
        assert len(trials) == 9
    log = (run_dir / "commands.log").read_text()
    assert log.count("prepare steady-state") == 2  # precondition: the file written twice
    export = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr
    assert (tmp_path / "export" / "figures" / "steady-state-convergence.png").is_file()
    report = (tmp_path / "export" / "report.md").read_text()
    assert "Steady state reached in round" in report or "Steady state not reached" in report
    assert "planned trials ran" not in report   # stopping at steady state is not an anomaly
