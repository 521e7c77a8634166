"""A hostile review of run.json's numbers: an experiment's parameters (shown in the report's
Setup lines) are range-checked like the descriptive blocks. A runtime of 1e308 s or a size of
2^200 bytes was printed as a 309-digit number and "1461501637330902918203684832716283019655932542976
TiB" for a run whose trials ran one second; a negative runtime passed too. The run is a copy of a
genuine run folder (tests/fixtures/runs) in tmp_path."""
import json
import shutil

import pytest
from spec_support import RUN

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
