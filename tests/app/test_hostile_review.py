"""A hostile review of run.json's numbers: an experiment's parameters (shown in the report's
Setup lines) are range-checked like the descriptive blocks. A runtime of 1e308 s or a size of
2^200 bytes was printed as a 309-digit number and "1461501637330902918203684832716283019655932542976
TiB" for a run whose trials ran one second; a negative runtime passed too. The run is a copy of a
genuine run folder (tests/fixtures/runs) in tmp_path."""
import json
import shutil

import pytest
from spec_support import RUN

from app.store import run_checks
from app.store.read_run import load_run


@pytest.mark.parametrize("params, says", [
    ({"runtime": 1e308}, "experiments[0].params.runtime is 1e+308"),
    ({"size": 2 ** 200}, "experiments[0].params.size is 1.60694e+60"),
    ({"runtime": -5.0}, "experiments[0].params.runtime is -5"),
    ({"repetitions": -2}, "experiments[0].params.repetitions is -2"),
])
def test_an_impossible_experiment_parameter_refuses_the_run_in_one_line(tmp_path, params, says):
    folder = shutil.copytree(RUN, tmp_path / "run")
    record = json.loads((folder / "run.json").read_text())
    record["experiments"][0]["params"].update(params)
    (folder / "run.json").write_text(json.dumps(record))
    with pytest.raises(ValueError) as refused:
        load_run(folder)
    message = str(refused.value)
    assert says in message and "not a real result" in message and "\n" not in message


def test_the_genuine_runs_parameters_pass(tmp_path):
    assert load_run(shutil.copytree(RUN, tmp_path / "run"))["experiments"]


def test_a_run_json_padded_with_millions_of_short_values_is_checked_at_c_speed(tmp_path, monkeypatch):
    """A 143 MiB run.json of 25 million two-letter strings (or 9 million keys in ``host``) took
    export 153 s and 4.3 GB: the descriptive blocks' numbers were checked one Python call per
    value, twice per export. A block of texts or plausible numbers is now one C-speed pass; the
    calls are counted, not timed, so a loaded machine cannot make the test flaky."""
    folder = shutil.copytree(RUN, tmp_path / "run")
    record = json.loads((folder / "run.json").read_text())
    record["junk"] = ["ab"] * 1_000_000
    record["host"].update({f"k{i}": "x" for i in range(200_000)})
    record["junk_numbers"] = list(range(200_000))
    (folder / "run.json").write_text(json.dumps(record))
    calls = []
    walk = run_checks._descriptive

    def counted(*args):
        calls.append(1)
        return walk(*args)

    monkeypatch.setattr(run_checks, "_descriptive", counted)
    load_run(folder)
    assert len(calls) < 10_000


def test_a_negative_number_in_a_block_of_numbers_is_still_refused(tmp_path):
    folder = shutil.copytree(RUN, tmp_path / "run")
    record = json.loads((folder / "run.json").read_text())
    record["target"].update(free_bytes=-1, total_bytes=5)
    (folder / "run.json").write_text(json.dumps(record))
    with pytest.raises(ValueError, match=r"target.free_bytes is -1"):
        load_run(folder)


def test_a_run_json_of_millions_of_small_lists_is_refused_before_it_is_parsed(tmp_path):
    """24 million small lists in 131 MiB ran export past 300 s and 7 GB (every one made, walked
    and checked); a genuine run has one object or list per 80 to 200 bytes."""
    folder = shutil.copytree(RUN, tmp_path / "run")
    text = (folder / "run.json").read_text()
    (folder / "run.json").write_text(text[:-1].rstrip() + ', "junk": [' + "[[1]]," * 4_000_000
                                     + "[]]}")
    with pytest.raises(ValueError) as refused:
        load_run(folder)
    message = str(refused.value)
    assert "objects and lists" in message and "not read" in message and "\n" not in message
