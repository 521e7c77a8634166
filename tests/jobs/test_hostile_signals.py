"""Every way out is clean: SIGTERM, SIGHUP and SIGINT end a CLI run like a cancel,
at every stage; after ``kill -9`` of the app the engine still dies with it."""
from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from conftest import run_cli, run_json
from safety_support import ONE_TRIAL, data_files, engines_on, needs_fio, start_cli, wait_for

THREE_TRIALS = ["queue-depth", "--set", "queue_depths=1,2,4", "--set", "repetitions=1",
                "--set", "warmup=false", "--set", "runtime=2s", "--set", "size=16MiB"]
# a 1 GiB test file: its prefill takes long enough to be interrupted
LONG_PREPARE = ["queue-depth", "--set", "queue_depths=1", "--set", "repetitions=1",
                "--set", "warmup=false", "--set", "runtime=1s", "--set", "size=1GiB",
                "--set", "direct=false"]


def _start(tmp_path: Path, args: list[str]):
    target, tmp = tmp_path / "t", tmp_path / "tmp"
    tmp.mkdir()
    proc = start_cli("run", *args, "--target", str(target), "--out", str(tmp_path / "runs"),
                     env={"TMPDIR": str(tmp)})
    return proc, target, tmp


def _engine(target: Path, marker: str):
    return wait_for(lambda: [p for p in engines_on(target) if marker in " ".join(p.cmdline())], 60)


def _assert_clean(tmp_path: Path, proc, target: Path, tmp: Path, code: int, started: float) -> None:
    assert proc.wait(timeout=10) == code, proc.communicate()
    assert time.monotonic() - started < 5, "the run took more than 5 s to end"
    assert not engines_on(target), "an engine outlived the app"
    assert data_files(target) == [] and not target.exists()
    assert list(tmp.iterdir()) == [], "the engine's temporary folder was left"
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_json(run_dir)["status"] == "cancelled"


@needs_fio
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signal_during_a_trial_ends_like_a_cancel(tmp_path, signum):
    proc, target, tmp = _start(tmp_path, THREE_TRIALS)
    assert _engine(target, "--name=queue-depth")
    started = time.monotonic()
    proc.send_signal(signum)
    _assert_clean(tmp_path, proc, target, tmp, 128 + signum, started)


@needs_fio
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_signal_while_the_test_file_is_written_ends_like_a_cancel(tmp_path, signum):
    proc, target, tmp = _start(tmp_path, LONG_PREPARE)
    assert _engine(target, "--name=prepare")
    started = time.monotonic()
    proc.send_signal(signum)
    _assert_clean(tmp_path, proc, target, tmp, 128 + signum, started)


@needs_fio
@pytest.mark.parametrize("stage", ["--name=prepare", "--name=queue-depth"])
def test_kill_9_of_the_app_stops_the_engine(tmp_path, stage):
    args = LONG_PREPARE if stage == "--name=prepare" else THREE_TRIALS
    proc, target, _ = _start(tmp_path, args)
    assert _engine(target, stage)
    proc.kill()
    proc.wait(timeout=5)
    assert wait_for(lambda: not engines_on(target), 5), "fio kept running after kill -9 of the app"
    # the test file of the killed run is recognized and removed on request, nothing else
    (leftover,) = data_files(target)
    done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "again"),
                   "--remove-leftovers", timeout=120)
    assert done.returncode == 0 and f"removed {leftover}" in done.stderr, done.stderr
    assert list(target.iterdir()) == []  # the data folder too; the target was the killed run's
