"""Signals and kill -9 during the long writers: a round of precondition=steady and a
write-saturation trial (fio --io_size). The user's bytes stay, no fio survives, run.json is valid
JSON, the test file is gone (or, after kill -9, named and removable with --remove-leftovers)."""
from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from conftest import run_cli, run_json
from safety_support import ONE_TRIAL, data_files, engines_on, fingerprint, needs_fio, start_cli, wait_for

STEADY = ["queue-depth", "--set", "queue_depths=1", "--set", "repetitions=1", "--set", "warmup=false",
          "--set", "runtime=2s", "--set", "size=16MiB", "--set", "precondition=steady",
          "--set", "precondition_rounds=5"]
WSAT = ["write-saturation", "--set", "runtime=3s", "--set", "size=16MiB", "--set", "volume=100"]
ROUND, WSAT_TRIAL = "--name=queue-depth-randwrite-4096-q32", "--name=write-saturation"


def _start(tmp_path: Path, args: list[str]):
    target, tmp = tmp_path / "t", tmp_path / "tmp"
    target.mkdir()
    tmp.mkdir()
    (target / "mine.txt").write_text("the user's own bytes\n")
    before = fingerprint(target)
    proc = start_cli("run", *args, "--target", str(target), "--out", str(tmp_path / "runs"),
                     env={"TMPDIR": str(tmp)})
    return proc, target, tmp, before


def _engine_number(target: Path, marker: str, nth: int):
    """Wait for the nth engine process with ``marker`` (a new pid each round)."""
    seen: list[int] = []
    def look():
        for p in engines_on(target):
            if marker in " ".join(p.cmdline()) and p.pid not in seen:
                seen.append(p.pid)
        return len(seen) >= nth
    return wait_for(look, 60)


@needs_fio
@pytest.mark.parametrize("args,marker,nth,signum", [
    (STEADY, ROUND, 2, signal.SIGTERM),          # during the second precondition round
    (WSAT, WSAT_TRIAL, 1, signal.SIGHUP),        # during a volume-bound write-saturation trial
], ids=["steady-round2-TERM", "write-saturation-HUP"])
def test_signal_in_a_precondition_round_or_write_saturation_ends_like_a_cancel(
        tmp_path, args, marker, nth, signum):
    proc, target, tmp, before = _start(tmp_path, args)
    assert _engine_number(target, marker, nth)
    started = time.monotonic()
    proc.send_signal(signum)
    assert proc.wait(timeout=10) == 128 + signum, proc.communicate()
    assert "Traceback" not in proc.communicate()[1]
    assert time.monotonic() - started < 5
    assert not engines_on(target), "an engine outlived the app"
    assert data_files(target) == [] and fingerprint(target) == before
    assert sorted(p.name for p in target.iterdir()) == ["mine.txt"]
    assert list(tmp.iterdir()) == []
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_json(run_dir)["status"] == "cancelled"


@needs_fio
def test_kill_9_in_a_precondition_round_leaves_a_named_removable_file(tmp_path):
    proc, target, _, before = _start(tmp_path, STEADY)
    assert _engine_number(target, ROUND, 2)
    proc.kill()
    proc.wait(timeout=5)
    assert wait_for(lambda: not engines_on(target), 5), "fio kept running after kill -9"
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_json(run_dir)["status"] == "running"   # valid JSON: the last atomic rewrite
    (leftover,) = data_files(target)
    done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "again"),
                   "--remove-leftovers", timeout=120)
    assert done.returncode == 0 and f"removed {leftover}" in done.stderr, done.stderr
    assert fingerprint(target) == before and sorted(p.name for p in target.iterdir()) == ["mine.txt"]
