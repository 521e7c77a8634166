"""Cancel and fault injection: every way a trial can go wrong ends cleanly.

The fake fio (tests/fakes/fio) is used only to inject faults; cancel uses the real fio.
"""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from jobs.events import RunFinished, TrialFailed
from jobs.run.session import prepare_run

from conftest import REPO, TINY, run_cli, run_json, tree
from safety_support import engines_on


def _check_failed_run(run_dir: Path, target: Path, expect_in_error: str, expect_in_stderr: str):
    record = run_json(run_dir)  # valid JSON, rewritten atomically
    assert record["status"] == "failed"
    failed = [t for t in record["trials"] if t["status"] == "failed"]
    assert failed, record["trials"]
    assert expect_in_error in failed[0]["error"]
    assert expect_in_stderr in failed[0]["stderr_tail"]
    assert tree(target) == []  # no test file, no data folder left


@pytest.mark.parametrize("mode, in_error, in_stderr", [
    ("crash", "rc -9", "Segmentation fault"),
    ("garbage", "no readable result", "printed garbage"),
    ("exit1", "rc 1", "unrecognized option"),
])
def test_engine_faults_mark_the_trial_failed(tmp_path, fake_fio_env, mode, in_error, in_stderr):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--target", str(target), *TINY, "--set", "repetitions=1",
                   "--set", "warmup=false", "--out", str(tmp_path / "runs"),
                   env={**fake_fio_env, "FAKE_FIO_MODE": mode}, timeout=120)
    assert done.returncode == 1, done.stderr
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    _check_failed_run(run_dir, target, in_error, in_stderr)
    assert len(run_json(run_dir)["trials"]) == 4  # every trial tried, each recorded


def test_hanging_engine_is_stopped_by_the_watchdog(tmp_path, fake_fio_env, monkeypatch):
    for key, value in {**fake_fio_env, "FAKE_FIO_MODE": "hang"}.items():
        monkeypatch.setenv(key, value)
    target = tmp_path / "target"
    target.mkdir()
    session = prepare_run(["tail-latency"], {"runtime": "1s", "size": "32MiB", "repetitions": "1",
                                             "warmup": "false", "tail-latency.queue_depths": "1,2"},
                          str(target), runs_root=tmp_path / "runs", watchdog_grace_s=1.0)
    started = time.monotonic()
    events = list(session.runner.events())
    assert time.monotonic() - started < 2 * 6  # two trials, each bounded (2 s + stop waits)
    failures = [e for e in events if isinstance(e, TrialFailed)]
    assert len(failures) == 2 and "time limit" in failures[0].error
    assert isinstance(events[-1], RunFinished) and events[-1].status == "failed"
    _check_failed_run(session.store.dir, target, "time limit", "hanging")
    assert not engines_on(target)


def _fio_processes(folder: Path) -> list[psutil.Process]:
    """fio processes at work in ``folder`` (they hold its test file: fio names it by the app's
    descriptor, not by a path in the folder)."""
    return [p for p in engines_on(folder) if "fio" in p.name()]


@pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
def test_ctrl_c_stops_fio_keeps_finished_trials_and_exits_130(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    cli = subprocess.Popen(
        [sys.executable, "-m", "ui.main", "run", "zero-queue", "--target", str(target),
         "--set", "runtime=1s", "--set", "size=32MiB", "--set", "warmup=false",
         "--set", "repetitions=5", "--set", "randomize=false", "--out", str(tmp_path / "runs")],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = ""
    while "done:" not in seen:  # wait until one trial has finished
        line = cli.stderr.readline()
        assert line, f"CLI ended early: {seen}"
        seen += line
    time.sleep(0.5)  # now the next trial's fio is running
    assert _fio_processes(target), "expected a running fio"
    cli.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = cli.communicate(timeout=10)
    assert time.monotonic() - sent < 3.0
    assert cli.returncode == 130, err
    assert not _fio_processes(target)
    record = run_json(out.strip().splitlines()[-1])
    assert record["status"] == "cancelled"
    statuses = [t["status"] for t in record["trials"]]
    assert statuses[0] == "done" and statuses[-1] == "cancelled" and len(statuses) < 20
    assert tree(target) == []
