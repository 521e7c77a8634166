"""Write saturation (SNIA WSAT, file-level): a volume of 4 KiB random writes, bounded
by the runtime, IOPS against GB written from the same series code as slc-cache."""
from __future__ import annotations

import json
from pathlib import Path

from app.engines.fio.argv import trial_argv
from app.experiments.plan import experiments_from_settings, plan_run
from app.experiments.write_saturation import WriteSaturation
from app.model.experiment_entry import ExperimentEntry
from app.model.interval import Sample
from app.model.run import Run
from app.model.summary import Stat, WorkloadSummary
from app.model.trial import TrialResult
from app.results.run_results import ExperimentResults, RunResults

from conftest import needs_fio, run_cli


def test_a_trial_is_the_volume_with_the_runtime_as_its_bound(tmp_path):
    (exp,) = experiments_from_settings(["write-saturation"], {"size": "64MiB", "volume": "4"})
    (trial,) = plan_run([exp], seed=1).trials
    argv = trial_argv("fio", trial, tmp_path / "f", tmp_path / "stop")
    assert f"--io_size={4 * 64 * 2**20}" in argv and "--time_based" not in argv
    assert any(a.startswith("--runtime=") for a in argv) and trial.to_json()["io_bytes"] == 4 * 2**26


def test_findings_compare_the_first_and_the_last_intervals():
    samples = tuple(Sample(trial=0, t_s=1.0 + i, read_MBps=0.0, read_iops=0.0, read_lat_us=None,
                           write_MBps=400.0 if i < 10 else 100.0,
                           write_iops=100_000.0 if i < 10 else 25_000.0, write_lat_us=None)
                    for i in range(30))
    trial = TrialResult.from_json({"index": 0, "experiment": "write-saturation", "repetition": 1,
                                   "status": "done", "workload": {"rw": "randwrite",
                                                                  "bs_bytes": 4096, "iodepth": 32}})
    found = WriteSaturation.findings((), (trial,), samples)
    (f,) = found.per_trial
    assert f.iops_first == 100_000 and f.iops_last == 25_000 and round(f.change, 2) == -0.75
    assert round(f.gb_written, 2) == round((10 * 400 + 20 * 100) / 1000, 2)
    assert found.to_json()["saturation"][0]["iops_last"] == 25_000
    row = WorkloadSummary("k", "RND4K Q32T1 write", dict(trial.workload), 1, Stat(None, None, 0),
                          Stat(None, None, 0), None, None)
    part = ExperimentResults("write-saturation", ExperimentEntry(id="write-saturation"), (row,), (trial,), found)
    run = RunResults(Run.from_json({"status": "done"}), (part,), samples)
    (fig,) = WriteSaturation.figures(part, run)
    assert fig.x_axis.label == "Data written (GB)" and "75 % lower" in fig.caption


@needs_fio
def test_a_tiny_saturation_run_exports_its_figure(tmp_path):
    (tmp_path / "t").mkdir()
    done = run_cli("run", "write-saturation", "--target", str(tmp_path / "t"), "--set", "size=32MiB",
                   "--set", "volume=8", "--set", "runtime=30s", "--set", "interval=0.1s",
                   "--set", "direct=false", "--out", str(tmp_path / "runs"), "--json")
    assert done.returncode == 0, done.stderr
    run_dir = Path(json.loads(done.stdout)["run_dir"])
    (trial,) = json.loads((run_dir / "run.json").read_text())["trials"]
    assert trial["measurement"]["write"]["io_bytes"] == 8 * 32 * 2**20   # the volume, not the time
    out = tmp_path / "export"
    assert run_cli("export", str(run_dir), "--out", str(out)).returncode == 0
    assert (out / "tables" / "write-saturation.md").is_file()


@needs_fio
def test_a_dry_run_counts_the_volume_not_time_based_writing(tmp_path):
    done = run_cli("run", "write-saturation", "--target", str(tmp_path), "--set", "size=64MiB",
                   "--dry-run", "--json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["volume_bytes"] == 4 * 64 * 2**20 and plan["write_seconds"] == 0
