"""Clean ends: every way a run can fail removes the test file, the lock and the engine's private
folder (or names what it could not remove), and what the app detected is one line, never an
"internal error".

Real runs of the CLI, with the runs folder taken away under them: made immutable mid-run
(``chattr +i``: root, ext4) or full (a 400 KiB tmpfs). The engine's private folder is made in a
TMPDIR of the test's own, so other runs on the machine do not blur the check. The inputs refused
up front (a target or runs folder whose name is not UTF-8 text, a runs folder near PATH_MAX, a
``--wait`` that is not a duration, a remote folder ending in a space) leave nothing behind.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.paths import TargetRefused
from app.paths.owned import OwnedFolder
from jobs.run.session import prepare_run
from ui.main import _is_bad_input

from conftest import FIXTURES, REPO, mounted, run_cli
from safety_support import ONE_TRIAL, assert_one_error, needs_fio, needs_root, snapshot, start_cli

THREE = ["queue-depth", "--set", "queue_depths=1,2,4", "--set", "repetitions=1", "--set",
         "warmup=false", "--set", "runtime=2s", "--set", "size=16MiB", "--set", "randomize=false"]


def _clean_end(done_err: str, rc: int, target: Path, tmp: Path) -> None:
    assert rc == 1, done_err
    assert "internal error" not in done_err and "Traceback" not in done_err, done_err
    assert "run failed:" in done_err and len(done_err.splitlines()) < 20, done_err
    assert not target.exists() or not any(target.rglob("*")), list(target.rglob("*"))
    assert list(tmp.iterdir()) == [], "the engine's private folder was left"


@needs_fio
@needs_root
@pytest.mark.skipif(shutil.which("chattr") is None, reason="needs chattr")
def test_a_runs_folder_made_unwritable_mid_run_still_cleans_the_target(tmp_path):
    target, runs, tmp = tmp_path / "t", tmp_path / "runs", tmp_path / "tmp"
    tmp.mkdir()
    proc = start_cli("run", *THREE, "--target", str(target), "--out", str(runs),
                     env={"TMPDIR": str(tmp)})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # one trial saved: the second one is under way
        found = list(runs.glob("*/trials.csv"))
        if found and len(found[0].read_text().splitlines()) >= 2:
            break
        time.sleep(0.05)
    run_dir = found[0].parent
    locked = subprocess.run(["chattr", "+i", str(run_dir), str(run_dir / "raw")],
                            capture_output=True, text=True)
    if locked.returncode:
        proc.kill()
        pytest.skip(f"chattr +i is not supported here: {locked.stderr.strip()}")
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        subprocess.run(["chattr", "-i", str(run_dir), str(run_dir / "raw")])
    _clean_end(err, proc.returncode, target, tmp)
    assert "could not be updated" in err and "still says the run is going on" in err


@needs_fio
@needs_root
def test_a_full_runs_folder_ends_the_run_cleanly(tmp_path):
    target, runs, tmp = tmp_path / "t", tmp_path / "runs", tmp_path / "tmp"
    tmp.mkdir()
    with mounted(["-t", "tmpfs", "-o", "size=200k", "tmpfs"], runs):
        eight = [a.replace("1,2,4", "1,2,4,8").replace("2s", "1s") for a in THREE]
        done = run_cli("run", *eight, "--target", str(target), "--out", str(runs),
                       env={"TMPDIR": str(tmp)})
        assert "No space left on device" in done.stderr, done.stderr
        _clean_end(done.stderr, done.returncode, target, tmp)


@needs_fio
def test_a_swap_caught_by_the_direct_io_probe_is_one_line(tmp_path, monkeypatch):
    """Fault injection: right after the probe's file is made, another program replaces the
    data folder with a link to the user's folder."""
    target, elsewhere = tmp_path / "t", tmp_path / "mine"
    elsewhere.mkdir()
    (elsewhere / "thesis.bin").write_bytes(os.urandom(4096))
    before = snapshot(elsewhere)
    made = OwnedFolder.new_test_file

    def swapped(self, tag, size):
        path = made(self, tag, size)
        if tag == "direct-probe":
            data = path.parent
            data.rename(data.with_name("moved"))
            data.symlink_to(elsewhere)
        return path
    monkeypatch.setattr(OwnedFolder, "new_test_file", swapped)
    settings = dict(s.split("=") for s in ONE_TRIAL[2::2])  # ONE_TRIAL's --set values
    with pytest.raises(TargetRefused) as caught:
        prepare_run(["queue-depth"], settings, str(target), runs_root=tmp_path / "runs")
    message = str(caught.value)
    assert "\n" not in message and "direct I/O check" in message and _is_bad_input(caught.value)
    assert snapshot(elsewhere) == before and not (tmp_path / "runs").exists()
    assert not [p for p in (target / "moved").iterdir()]  # probe file and lock removed


NOT_UTF8 = os.fsdecode(b"not-utf8-\xff")


@pytest.mark.parametrize("where", ["target", "out"])
def test_a_folder_name_that_is_not_utf8_is_refused_up_front(tmp_path, where):
    odd = tmp_path / NOT_UTF8
    args = (["--target", str(odd), "--out", str(tmp_path / "runs")] if where == "target" else
            ["--target", str(tmp_path / "t"), "--out", str(odd / "runs")])
    line = assert_one_error(run_cli("run", *ONE_TRIAL, *args))
    assert "not UTF-8 text" in line and "\\udcff" in line
    assert list(tmp_path.iterdir()) == []


def test_a_run_under_a_folder_that_is_not_utf8_still_exports(tmp_path):
    (run,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
    copy = shutil.copytree(run, tmp_path / NOT_UTF8 / run.name)
    done = subprocess.run([sys.executable, "-m", "ui.main", "export", str(copy)], cwd=REPO,
                          capture_output=True, timeout=180)  # bytes: the path is printed as it is
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == os.fsencode(copy / "export")
    report = (copy / "export" / "report.md").read_text()
    assert f"`{run.name}`" in report and "not-utf8" not in report   # its name, no local path


def test_a_runs_folder_near_path_max_is_refused_up_front(tmp_path):
    deep = tmp_path / "/".join(["d" * 200] * 19)  # ~3.9 KiB: a run folder inside passes 4 KiB
    line = assert_one_error(run_cli("run", *ONE_TRIAL, "--target", str(tmp_path / "t"),
                                    "--out", str(deep)))
    assert "limit of" in line and "shorter" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("wait", ["nan", "inf", "-1", "-inf", "1e300"])
def test_wait_must_be_a_duration(tmp_path, wait):
    started = time.monotonic()
    done = run_cli("run", *ONE_TRIAL, "--target", str(tmp_path / "t"), f"--wait={wait}",
                   "--out", str(tmp_path / "runs"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "--wait: expects seconds from 0 to 86400" in done.stderr
    assert time.monotonic() - started < 30 and list(tmp_path.iterdir()) == []


def test_a_remote_folder_ending_in_a_space_is_named_not_reported_missing(tmp_path):
    line = assert_one_error(run_cli("run", *ONE_TRIAL, "--remote", "127.0.0.1:9", "--target",
                                    "/srv/lab /ssd", "--out", str(tmp_path / "runs")))
    assert "ends in a space" in line and "does not exist" not in line
    assert list(tmp_path.iterdir()) == []


def _idle(job: dict) -> dict:
    for side in ("read", "write", "trim", "sync"):
        for key in ("io_bytes", "io_kbytes", "total_ios", "short_ios", "bw", "bw_bytes", "iops"):
            if key in job.get(side, {}):
                job[side][key] = 0
    return job


def test_a_file_whose_only_job_did_no_io_is_refused_with_one_line(tmp_path):
    """An import that imported nothing is not a success: exit 2 and one line, for fio's zeros
    and for a job that names a direction with nothing in it (NaN is not a count either)."""
    doc = json.loads((FIXTURES / "fio" / "fio-3.16-linux-libaio-randrw-qd1-nj1-json.json").read_text())
    idle = tmp_path / "idle.json"
    idle.write_text(json.dumps({**doc, "jobs": [_idle(doc["jobs"][0])]}))
    bare = tmp_path / "bare.json"
    bare.write_text('{"jobs":[{"jobname":"x","read":{"iops":NaN}}]}')
    for path in (idle, bare):
        for extra in ((), ("--json",)):
            done = run_cli("import", str(path), *extra)
            line = assert_one_error(done)
            assert "did no I/O" in line and str(path) in line


def test_a_job_that_did_no_io_beside_one_that_did_imports_as_failed_with_the_reason(tmp_path):
    doc = json.loads((FIXTURES / "fio" / "fio-3.16-linux-libaio-randrw-qd1-nj1-json.json").read_text())
    busy = json.loads(json.dumps(doc["jobs"][0]))
    path = tmp_path / "half.json"
    path.write_text(json.dumps({**doc, "jobs": [_idle(doc["jobs"][0]), busy]}))
    done = run_cli("import", str(path), "--json")
    assert done.returncode == 0, done.stderr
    idle, measured = json.loads(done.stdout)
    assert idle["status"] == "failed" and "did no I/O" in idle["error"] and measured["status"] == "ok"
    assert "FAILED: the job did no I/O" in run_cli("import", str(path)).stdout
