"""The report reads an experiment's parameters from the experiment itself, typed
(app.experiments.registry.experiment_of), not key by key from run.json: the genuine run of every
experiment (tests/fixtures/runs/full-lab-20261126) reads as its record says, a changed record
reads as changed; parameters that do not build (a run folder from someone else, another
version's) give no typed experiment, and the report then says what it says of a value not
recorded, without a traceback."""
from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

from app.experiments.registry import CATALOG, experiment_of
from app.params import values_json
from app.report.closing import method_limits
from app.report.experiment_section import setup_text
from app.report.export import export_run
from app.report.interpretation.method import method_text
from app.report.methodology import methodology_section
from app.report.precondition_note import precondition_sentence
from app.results.load import load_results

from conftest import FIXTURES

FULL = FIXTURES / "runs" / "full-lab-20261126" / "run"
#: Values a shared run.json may hold that no experiment of this version builds from.
HOSTILE = [{"runtime": "soon"}, {"runtime": -5.0}, {"repetitions": True}, {"randomize": "maybe"},
           {"precondition": ["fill"]}, {"precondition": "bogus"}, {"size": {"a": 1}},
           {"no_such_parameter": 1}, {"random_bs": 1000}, {"random_bs": 2 ** 40}]
#: Those the loader lets through (it refuses a run whose numbers no run records, a negative runtime).
LOADED = [h for h in HOSTILE if h != {"runtime": -5.0}]


@pytest.fixture(scope="module")
def results():
    return load_results(FULL).results


def _with_params(results, eid: str, params: dict):
    """``results`` whose experiment ``eid`` records ``params`` instead."""
    part = results.part(eid)
    new = replace(part, entry=replace(part.entry, params=params))
    run = replace(results.run, experiments=tuple(new.entry if e.id == eid else e
                                                 for e in results.run.experiments))
    return replace(results, run=run, parts=tuple(new if p.id == eid else p for p in results.parts))


def _text(section) -> str:
    return " ".join(str(getattr(b, "text", "")) + " ".join(getattr(b, "items", ()))
                    for b in section.blocks)


def test_every_experiment_of_the_genuine_run_is_its_own_class_with_the_recorded_values(results):
    for part in results.parts:
        exp = experiment_of(part.entry)
        assert type(exp) is CATALOG[part.id], part.id
        recorded = dict(part.entry.params)
        assert {k: v for k, v in values_json(exp).items() if k in recorded} == recorded, part.id


def test_the_report_says_the_typed_values_of_the_run(results):
    part = results.part("zero-queue")
    assert method_text(part).startswith("One I/O in flight (iodepth 1, one job) for 4 KiB random "
                                        "and 128 KiB sequential reads and writes")
    assert "each ran 2 measured repetitions of 1 s, shuffled within each round" in method_text(part)
    assert any("Trials as short as 1 s" in line for line in method_limits(results))
    assert "Trial order: randomized within each repetition round" in _text(methodology_section(results, "2"))
    assert precondition_sentence(part.entry).startswith("Preconditioning: none")

    changed = _with_params(results, "zero-queue",
                           {**part.entry.params, "runtime": 12.0, "randomize": False, "random_bs": 8192})
    part = changed.part("zero-queue")
    assert "for 8 KiB random and 128 KiB sequential" in method_text(part)
    assert "measured repetitions of 12 s, in plan order." in method_text(part)
    assert "Trials as short as 1 s" in " ".join(method_limits(changed))   # the others' 1 s trials


def test_a_parameter_the_run_predates_takes_its_default_but_precondition_says_nothing(results):
    part = results.part("rw-mix")
    old = {k: v for k, v in part.entry.params.items() if k not in ("precondition", "precondition_rounds")}
    entry = replace(part.entry, params=old)
    assert experiment_of(entry).precondition == "none"
    assert precondition_sentence(entry) == ""   # runs made before the option: no sentence, as ever


@pytest.mark.parametrize("hostile", HOSTILE, ids=[next(iter(h)) + "-" + str(i) for i, h in enumerate(HOSTILE)])
def test_parameters_that_do_not_build_give_the_texts_of_a_value_not_recorded(results, hostile):
    part = results.part("zero-queue")
    broken = _with_params(results, "zero-queue", {**part.entry.params, **hostile})
    part = broken.part("zero-queue")
    assert experiment_of(part.entry) is None
    assert method_text(part) is None
    assert precondition_sentence(part.entry) == ""
    setup = " ".join(setup_text(part, ""))
    assert setup.startswith("**Setup.** Parameters: runtime ")   # as recorded, still shown
    assert "Measured repetitions per workload: n = 2." in setup   # nothing planned to compare with
    method_limits(broken)
    methodology_section(broken, "2")


def test_a_report_of_a_run_whose_every_parameter_is_hostile_is_written(tmp_path):
    run = shutil.copytree(FULL, tmp_path / "shared-run")
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    for i, entry in enumerate(record["experiments"]):
        entry["params"].update(LOADED[i % len(LOADED)])
    (run / "run.json").write_text(json.dumps(record), encoding="utf-8")
    out = export_run(run, tmp_path / "out")
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "Trial order: not recorded." in report
    assert "**Method.**" not in report and "Trials as short as" not in report
    assert "Preconditioning:" not in report
    assert "Measured repetitions per workload: n = 2." in report
