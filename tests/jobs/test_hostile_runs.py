"""Hostile timing, with the real fio: two runs on one folder, files swapped under a run,
leftovers of crashed runs. Every byte outside the app's data folder stays as it was."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.paths import FolderInUse
from jobs.events import RunFinished, TrialFinished
from jobs.run.session import prepare_run

from conftest import run_cli, run_json
from safety_support import (
    DATA_DIR,
    ONE_TRIAL,
    data_files,
    engines_on,
    fingerprint,
    needs_fio,
    start_cli,
    wait_for,
)

# three 1 s trials: long enough to act while it runs
THREE_TRIALS = ["queue-depth", "--set", "queue_depths=1,2,4", "--set", "repetitions=1",
                "--set", "warmup=false", "--set", "runtime=1s", "--set", "size=16MiB"]


@needs_fio
def test_two_runs_started_together_on_one_folder_one_is_refused(tmp_path):
    target = tmp_path / "t"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    before = fingerprint(target)
    procs = [start_cli("run", *THREE_TRIALS, "--target", str(target), "--out", str(tmp_path / f"runs{i}"))
             for i in range(2)]
    results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, _, err in results if code == 2)
    assert "in use by run" in refused and refused.count("\n") == 1, refused
    assert fingerprint(target) == before and data_files(target) == []


@needs_fio
def test_a_second_run_can_wait_for_the_folder(tmp_path):
    target = tmp_path / "t"
    first = start_cli("run", *THREE_TRIALS, "--target", str(target), "--out", str(tmp_path / "a"))
    assert wait_for(lambda: data_files(target), 30)
    second = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "b"),
                     "--wait", "60", timeout=120)
    assert first.wait(timeout=60) == 0 and second.returncode == 0, second.stderr
    assert not target.exists()


@needs_fio
def test_remove_leftovers_never_touches_a_live_runs_file(tmp_path):
    target = tmp_path / "t"
    live = start_cli("run", *THREE_TRIALS, "--target", str(target), "--out", str(tmp_path / "a"))
    # the run's test file, not the direct-I/O probe's, which goes away by itself
    files = wait_for(lambda: [f for f in data_files(target) if "direct-probe" not in f.name], 30)
    assert files
    done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--remove-leftovers",
                   "--out", str(tmp_path / "b"))
    assert done.returncode == 2 and "in use by run" in done.stderr, done.stderr
    assert all(p.exists() for p in files)
    assert live.wait(timeout=60) == 0


def test_remove_leftovers_happens_only_after_every_argument_is_valid(tmp_path):
    target = tmp_path / "t"
    (target / DATA_DIR).mkdir(parents=True)
    leftover = target / DATA_DIR / "ssd-profiler-test-20260101T000000Z-zero-queue.dat"
    leftover.write_bytes(b"x" * 4096)
    for bad in (["--set", "runtime=soon"], ["--engine", "diskspd"], ["--set", "size=16TiB"]):
        done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--remove-leftovers",
                       "--out", str(tmp_path / "runs"), *bad)
        assert done.returncode in (1, 2) and leftover.exists(), (bad, done.stderr)


@needs_fio
def test_leftovers_are_named_then_removed_only_when_asked_and_never_through_a_link(tmp_path):
    target, elsewhere = tmp_path / "t", tmp_path / "elsewhere"
    (target / DATA_DIR).mkdir(parents=True)
    elsewhere.mkdir()
    precious = elsewhere / "precious.dat"
    precious.write_bytes(b"keep me")
    leftover = target / DATA_DIR / "ssd-profiler-test-20260101T000000Z-zero-queue.dat"
    leftover.write_bytes(b"x" * 4096)
    planted = target / DATA_DIR / "ssd-profiler-test-planted.dat"
    planted.symlink_to(precious)
    mine = target / DATA_DIR / "notes.txt"
    mine.write_text("keep")
    done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "r1"))
    assert done.returncode == 0 and "left by an earlier run" in done.stderr and leftover.exists()
    done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "r2"),
                   "--remove-leftovers")
    assert done.returncode == 0 and "removed" in done.stderr, done.stderr
    assert not leftover.exists() and planted.is_symlink() and mine.read_text() == "keep"
    assert precious.read_bytes() == b"keep me"


def _swap_after_first_trial(tmp_path, swap) -> tuple[list, Path, dict]:
    """Run three trials in-process and call ``swap(test_file)`` after the first one finishes."""
    target = tmp_path / "t"
    victim_dir = tmp_path / "victim"
    victim_dir.mkdir()
    thesis = victim_dir / "thesis.docx"
    thesis.write_bytes(before := os.urandom(1 << 16))
    session = prepare_run(["queue-depth"], {"queue_depths": "1,2,4", "repetitions": "1",
                                            "warmup": "false", "runtime": "1s", "size": "16MiB"},
                          str(target), runs_root=tmp_path / "runs")
    events = []
    for event in session.runner.events():
        events.append(event)
        if isinstance(event, TrialFinished) and len([e for e in events if isinstance(e, TrialFinished)]) == 1:
            swap(data_files(target)[0], victim_dir)
    assert thesis.read_bytes() == before, "a file outside the data folder changed"
    return events, target, run_json(session.store.dir)


@needs_fio
def test_test_file_replaced_by_a_link_between_trials_stops_the_run_and_deletes_nothing(tmp_path):
    def swap(test_file: Path, victim_dir: Path) -> None:
        test_file.unlink()
        test_file.symlink_to(victim_dir / "thesis.docx")
    events, target, record = _swap_after_first_trial(tmp_path, swap)
    assert isinstance(events[-1], RunFinished) and events[-1].status == "failed"
    assert "replaced" in record["error"] and len(record["trials"]) == 1
    assert data_files(target)[0].is_symlink()  # the planted link is left alone, not followed


@needs_fio
def test_data_folder_replaced_by_a_link_between_trials_stops_the_run(tmp_path):
    def swap(test_file: Path, victim_dir: Path) -> None:
        data = test_file.parent
        data.rename(data.with_name("moved"))
        (victim_dir / test_file.name).symlink_to(victim_dir / "thesis.docx")
        data.symlink_to(victim_dir)
    events, target, record = _swap_after_first_trial(tmp_path, swap)
    assert record["status"] == "failed" and "moved or replaced" in record["error"]


@needs_fio
def test_a_folder_locked_by_another_run_is_refused_in_process(tmp_path):
    settings = {"queue_depths": "1", "repetitions": "1", "warmup": "false", "runtime": "1s",
                "size": "16MiB"}
    first = prepare_run(["queue-depth"], settings, str(tmp_path / "t"), runs_root=tmp_path / "r")
    try:
        with pytest.raises(FolderInUse, match="in use by run"):
            prepare_run(["queue-depth"], settings, str(tmp_path / "t"), runs_root=tmp_path / "r")
        started = time.monotonic()
        list(first.runner.events())
        assert time.monotonic() - started < 30
    finally:
        first.close()
    assert not (tmp_path / "t").exists() and not engines_on(tmp_path)
