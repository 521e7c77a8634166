"""``kill -9`` between two run.json saves loses no trial: run.json is saved every few seconds, and
the trials kept since its last save are read back from the run folder's journal, so what every
reader (export, compare, the window) sees agrees with trials.csv. docs/architecture.md."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from app.store.run_folder import load_run, open_run

from conftest import mounted, needs_root, run_cli
from safety_support import engines_on, needs_fio, start_cli, wait_for

SEVEN_TRIALS = ["queue-depth", "--set", "queue_depths=1,2,4,8,16,32,64", "--set", "repetitions=1",
               "--set", "warmup=false", "--set", "runtime=1s", "--set", "size=16MiB"]


def _csv_indices(run_dir: Path) -> list[int]:
    with open(run_dir / "trials.csv", newline="", encoding="utf-8") as handle:
        return [int(row["index"]) for row in csv.DictReader(handle)]


def _behind(runs: Path) -> Path | None:
    """The run folder once trials.csv lists a trial run.json's last save does not hold."""
    for run_dir in runs.iterdir() if runs.is_dir() else ():
        try:
            saved = len(json.loads((run_dir / "run.json").read_text())["trials"])
            if len(_csv_indices(run_dir)) > saved:
                return run_dir
        except (OSError, ValueError, KeyError):
            pass
    return None


@needs_fio
def test_kill_9_after_a_trial_run_json_has_not_saved_yet_keeps_it(tmp_path):
    target, runs = tmp_path / "t", tmp_path / "runs"
    proc = start_cli("run", *SEVEN_TRIALS, "--target", str(target), "--out", str(runs))
    seen: list[Path] = []
    wait_for(lambda: seen.extend(filter(None, [_behind(runs)])) or seen or proc.poll() is not None,
             60, step=0.01)
    ended, run_dir = proc.poll() is not None, (seen or [None])[0]
    proc.kill()
    proc.wait(timeout=10)
    if run_dir is None and ended:   # each trial took over SAVE_EVERY_S: saved one by one
        pytest.skip("every trial ended more than 2 s after the one before (a loaded machine)")
    assert run_dir is not None, "no moment where trials.csv was ahead of run.json"
    assert wait_for(lambda: not engines_on(target), 5)
    indices = _csv_indices(run_dir)
    record = load_run(run_dir)
    assert [t["index"] for t in record["trials"]] == indices   # the same trials as trials.csv
    assert record["status"] == "running" and len(open_run(run_dir).trials) == len(indices)
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "export"), timeout=120)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "export" / "report.md").read_text()
    assert f"Only {len(indices)} of 7 planned trials ran (run not ended: going on or interrupted)" in report
    assert "This run did not record its end: it is still going on, or it was interrupted" in report



@needs_fio
@needs_root
def test_a_runs_folder_that_fills_up_ends_the_run_with_its_files_agreeing(tmp_path):
    """A runs folder of 400 KiB fills up within a few trials (each raw fio output is tens of
    KiB): the run fails with one line, the test file goes, and what a reader of the run gets
    is what trials.csv lists (the record is kept before its csv row, never only the row)."""
    target = tmp_path / "t"
    with mounted(["-t", "tmpfs", "-o", "size=400k", "tmpfs"], tmp_path / "runs") as runs:
        done = run_cli("run", "block-size", "--target", str(target), "--out", str(runs),
                       "--set", "runtime=1s", "--set", "size=16MiB", timeout=120)
        assert done.returncode == 1 and "No space left on device" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and not target.exists()
        (run_dir,) = runs.iterdir()
        assert [t["index"] for t in load_run(run_dir)["trials"]] == _csv_indices(run_dir)
