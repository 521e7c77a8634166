"""Hostile target paths, run with the real fio: every byte outside the app's data folder stays.

Each case reproduces a data loss found on the landed app: a ':' in the folder name
made fio write a sibling file (or, behind a device node, a raw disk); system trees reached by
another spelling were written.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from app.engines.fio import trial_argv
from app.experiments.plan import Trial
from app.model.workload import Workload

from conftest import run_cli, run_json
from safety_support import DATA_DIR, ONE_TRIAL, data_files, engines_on, fingerprint, needs_fio, needs_root


def _run(target: Path, runs: Path, *extra: str):
    return run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(runs), *extra,
                   timeout=120)


@needs_fio
def test_colon_in_folder_name_never_writes_the_sibling_file(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "Thesis").write_bytes(b"my thesis, chapter 1\n" * 100)
    before = fingerprint(home)
    done = _run(home / "Thesis:draft", tmp_path / "runs")
    assert done.returncode == 0, done.stderr
    assert fingerprint(home) == before  # Thesis intact, Thesis:draft created and removed again
    assert run_json(done.stdout.strip().splitlines()[-1])["status"] == "done"


@needs_fio
def test_colon_path_that_names_a_file_and_a_folder_writes_neither(tmp_path):
    """``<dir>/disk:<dir>/sink``: fio would split it into ``<dir>/disk`` (a user's disk image
    here; a device node in the next test) and ``<dir>/sink/...``."""
    base = tmp_path / "lab"
    base.mkdir()
    (base / "disk").write_bytes(os.urandom(1 << 20))
    target = Path(f"{base}/disk:{base}/sink")
    target.parent.mkdir(parents=True)
    before = fingerprint(tmp_path, skip="runs")
    done = _run(target, tmp_path / "runs")
    assert done.returncode == 0, done.stderr
    assert fingerprint(tmp_path, skip="runs") == before


@needs_fio
@needs_root
def test_colon_path_behind_a_block_device_node_never_writes_the_device(tmp_path):
    image = tmp_path / "disk.img"
    image.write_bytes(os.urandom(4 << 20))
    attach = subprocess.run(["losetup", "--find", "--show", str(image)], capture_output=True, text=True)
    if attach.returncode != 0:
        pytest.skip(f"no loop device here: {attach.stderr.strip()}")
    loop = attach.stdout.strip()
    try:
        base = tmp_path / "lab"
        base.mkdir()
        st = os.stat(loop)
        os.mknod(base / "disk", 0o600 | 0o060000, st.st_rdev)  # S_IFBLK: the loop device
        target = Path(f"{base}/disk:{base}/sink")
        target.parent.mkdir(parents=True)
        before = image.read_bytes()
        done = _run(target, tmp_path / "runs")
        assert done.returncode == 0, done.stderr
        subprocess.run(["sync"])
        with open(loop, "rb") as dev:
            assert dev.read(len(before)) == before
    finally:
        subprocess.run(["losetup", "-d", loop])


@needs_fio
def test_spaces_quotes_newlines_and_non_ascii_in_the_target(tmp_path):
    target = tmp_path / "my \"SSD\" 'test'\nfolder ü:é 日本"
    done = _run(target, tmp_path / "runs")
    assert done.returncode == 0, done.stderr
    record = run_json(done.stdout.strip().splitlines()[-1])
    assert record["status"] == "done" and record["target"]["folder"] == str(target)
    assert not target.exists()  # created by the app, removed again when left empty
    assert [p.name for p in tmp_path.iterdir()] == ["runs"]


@pytest.mark.parametrize("name", ["a:b", "C:\\data\\x", "sp ace", "q\"uo'te", "new\nline", "ü日本",
                                  "back\\:slash", "::", "-rf"])
def test_fio_argv_names_exactly_the_test_file(tmp_path, name):
    """fio reads ``\\:`` as a literal ':' and splits at every other ':'; a backslash before it
    stays (fio removes exactly one). Undo fio's rule on our argv: it gives back the path."""
    test_file = tmp_path / name / "ssd-profiler-test-x.dat"
    trial = Trial(0, "zero-queue", Workload("randread", 4096), 1, False, 1.0, 0.0, 1 << 24, True, 1.0)
    argv = trial_argv("fio", trial, test_file, tmp_path / "stop", platform="linux")
    (value,) = [a.split("=", 1)[1] for a in argv if a.startswith("--filename=")]
    assert _fio_split(value) == [str(test_file)]


def _fio_split(value: str) -> list[str]:
    """fio's get_next_name(): split at ':' unless escaped; an escape loses its backslash."""
    names, current, i = [], "", 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value) and value[i + 1] == ":":
            current, i = current + ":", i + 2
        elif value[i] == ":":
            names, current, i = names + [current] if current else names, "", i + 1
        else:
            current, i = current + value[i], i + 1
    return names + [current] if current else names


@pytest.mark.parametrize("spelling", ["//dev/shm/ssd-x", "/dev/shm/ssd-x", "/dev/../dev/shm/x",
                                      "/proc/self/x", "/sys/kernel/x", "/dev/null", "/dev/vda"])
def test_system_trees_are_refused_however_spelt(tmp_path, spelling):
    done = run_cli("run", *ONE_TRIAL, "--target", spelling, "--out", str(tmp_path / "runs"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "device node" in done.stderr or "mount" in done.stderr
    assert not Path("/dev/shm/ssd-x").exists() and not (tmp_path / "runs").exists()


def test_a_parent_that_links_into_dev_is_refused(tmp_path):
    (tmp_path / "innocent").symlink_to("/dev")
    done = run_cli("run", *ONE_TRIAL, "--target", str(tmp_path / "innocent" / "shm" / "x"),
                   "--out", str(tmp_path / "runs"))
    assert done.returncode == 2 and "device node or system file" in done.stderr, done.stderr
    assert not Path("/dev/shm/x").exists()


@needs_root
def test_a_bind_mount_of_dev_is_refused(tmp_path):
    mount = tmp_path / "devbind"
    mount.mkdir()
    if subprocess.run(["mount", "--bind", "/dev", str(mount)], capture_output=True).returncode:
        pytest.skip("bind mounts are not allowed here")
    try:
        done = run_cli("run", *ONE_TRIAL, "--target", str(mount / "x"), "--out", str(tmp_path / "runs"))
        assert done.returncode == 2 and "devtmpfs" in done.stderr, done.stderr
        assert not Path("/dev/x").exists()
    finally:
        subprocess.run(["umount", str(mount)])


def test_symlinked_data_folder_is_refused_and_its_target_untouched(tmp_path):
    target, elsewhere = tmp_path / "target", tmp_path / "elsewhere"
    target.mkdir()
    elsewhere.mkdir()
    (elsewhere / "ssd-profiler-test-old.dat").write_bytes(b"not the app's")
    (target / DATA_DIR).symlink_to(elsewhere)
    before = fingerprint(tmp_path)
    for extra in ([], ["--remove-leftovers"]):
        done = run_cli("run", *ONE_TRIAL, "--target", str(target), "--out", str(tmp_path / "runs"), *extra)
        assert done.returncode == 2 and "not a plain folder" in done.stderr, done.stderr
    assert fingerprint(tmp_path) == before and not engines_on(tmp_path)


@needs_fio
def test_test_files_have_unpredictable_names_and_are_gone_after_the_run(tmp_path):
    target = tmp_path / "t"
    names = set()
    for _ in range(2):
        done = _run(target, tmp_path / "runs")
        assert done.returncode == 0, done.stderr
        argv = run_json(done.stdout.strip().splitlines()[-1])["trials"][0]["argv"]
        trigger = next(a for a in argv if a.startswith("--trigger-file=")).split("=", 1)[1]
        names.add(Path(trigger).name)  # named after the test file (fio gets its descriptor)
        assert not trigger.startswith(str(tmp_path))  # the stop trigger never sits in the target
        assert data_files(target) == [] and not target.exists()
    assert len(names) == 2  # a fresh random name per run
