"""docs/architecture.md's example experiment is one module: copied into place as it stands in
the document, it plans, runs with the real fio, summarizes and exports end to end."""
from __future__ import annotations

import json
import re
import sys

from conftest import REPO, needs_fio, run_cli

DOC = REPO / "docs" / "architecture.md"


def _example() -> str:
    (code,) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return code


def test_the_example_is_short():
    assert len(_example().strip().splitlines()) <= 45


@needs_fio
def test_the_documented_example_experiment_runs_end_to_end(tmp_path):
    (tmp_path / "seq_vs_random.py").write_text(_example(), encoding="utf-8")
    boot = tmp_path / "boot"
    boot.mkdir()
    # the CLI with the example imported first, as app/experiments/__init__.py would import it
    (boot / "sitecustomize.py").write_text("import app.experiments, seq_vs_random\n")
    env = {"PYTHONPATH": f"{boot}{':' if sys.platform != 'win32' else ';'}{tmp_path}:{REPO}"}
    runs = tmp_path / "runs"
    done = run_cli("run", "seq-vs-random", "--target", str(tmp_path / "target"), "--out", str(runs),
                   "--set", "runtime=1s", "--set", "size=16MiB", "--set", "repetitions=2",
                   "--set", "warmup=false", "--json", env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    part = result["summary"]["seq-vs-random"]
    assert [w["n"] for w in part["workloads"]] == [2, 2]
    assert part["findings"]["ratio"] > 0
    (run_dir,) = list(runs.iterdir())
    out = tmp_path / "export"
    done = run_cli("export", str(run_dir), "--out", str(out), env=env)
    assert done.returncode == 0, done.stderr
    report = (out / "report.md").read_text()
    assert "Sequential reads reach" in report and (out / "tables" / "seq-vs-random.csv").exists()
