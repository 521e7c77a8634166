"""A racing process flips the target folder with a link while real runs go on: fio writes only
the file the app created, the prepare fill included.

The attacker (a separate process, as a same-user program would be) watches the real data folder
for test files, plants a link of the same name to the user's ``thesis.bin`` in a look-alike
folder, and swaps the target folder with a link to that look-alike, atomically
(``renameat2(RENAME_EXCHANGE)`` through ctypes), back and forth in a tight loop, while tiny
real runs (a 16 MiB fill, one 1 s trial) start one after another. Some runs are refused at
their checks, some are stopped by the check before a trial, some finish: in every case the
thesis stays byte for byte, nothing appears in the look-alike folders, and the app's own test
files and locks are gone afterwards. A second look-alike is left empty: fio (which creates the
parent folders of a path it is given) must never make ``ssd-profiler-data`` there.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.engines.fio.argv import prepare_argv
from app.paths import TargetRefused
from app.paths.owned import FD_PATHS
from jobs.events import RunFinished
from jobs.run.session import prepare_run

from conftest import needs_fio
from safety_support import DATA_DIR, engines_on, snapshot

RUNS = int(os.environ.get("SSD_RACE_RUNS", "16"))
SETTINGS = {"queue_depths": "1", "repetitions": "1", "warmup": "false", "runtime": "1s",
            "size": "16MiB"}

FLIPPER = r"""
import ctypes, os, random, signal, sys, time
target, link, decoy_data, victim, count_file = sys.argv[1:6]
plant = decoy_data != "-"
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
real = os.open(target, os.O_RDONLY | os.O_DIRECTORY)  # the real folder, wherever its name goes
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
flips, planted = 0, set()
a, b = os.fsencode(target), os.fsencode(link)
rng = random.Random(int(sys.argv[6]))

def plant_links():
    try:
        names = os.listdir(f"/proc/self/fd/{real}/ssd-profiler-data") if plant else []
    except OSError:
        names = []
    for name in names:
        if name.startswith("ssd-profiler-test-") and name not in planted:
            try:
                os.symlink(victim, os.path.join(decoy_data, name))
            except FileExistsError:
                pass
            planted.add(name)

def flip():
    global flips
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        raise SystemExit("renameat2: " + os.strerror(ctypes.get_errno()))
    flips += 1

def hold(seconds):  # keep planting while one state holds
    end = time.monotonic() + seconds
    while time.monotonic() < end and not stop:
        plant_links()
        time.sleep(0.0005)

# The real folder in place long enough for a run to pass its checks, then the link for a while
# (a fill or a trial starting then opens through it), sometimes a burst of fast flips.
while not stop:
    hold(rng.uniform(0.0, 0.3))
    flip()
    hold(rng.uniform(0.0, 0.15))
    flip()
    if rng.random() < 0.3:
        for _ in range(2 * rng.randint(20, 200)):
            plant_links()
            flip()
if flips % 2:
    libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)  # leave the real folder in place
    flips += 1
open(count_file, "w").write(f"{flips} {len(planted)}")
"""


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _race(lab: Path, runs_root: Path, decoy: Path, plant: bool, runs: int) -> dict:
    target, link = lab / "target", lab / "link"
    link.symlink_to(decoy)
    count = lab / f"flips-{decoy.name}"
    flipper = subprocess.Popen([sys.executable, "-c", FLIPPER, str(target), str(link),
                                str(decoy / DATA_DIR) if plant else "-",
                                str(lab.parent / "victim" / "thesis.bin"), str(count), str(runs)])
    outcome, workdirs = {"refused": 0, "done": 0, "failed": 0}, []
    try:
        time.sleep(0.2)
        for _ in range(runs):
            while os.path.islink(target):  # a user starts a run on the real folder
                time.sleep(0.002)
            try:
                session = prepare_run(["queue-depth"], SETTINGS, str(target), runs_root=runs_root)
            except (TargetRefused, OSError):
                outcome["refused"] += 1
                continue
            workdirs.append(session.runner._workdir)
            try:
                events = list(session.runner.events())
            finally:
                session.close()
            assert isinstance(events[-1], RunFinished)
            outcome["done" if events[-1].status == "done" else "failed"] += 1
    finally:
        flipper.send_signal(signal.SIGTERM)
        flipper.wait(10)
    flips, planted = (int(x) for x in count.read_text().split())
    link.unlink()
    return {**outcome, "flips": flips, "planted": planted, "workdirs": workdirs}


@needs_fio
@pytest.mark.skipif(not FD_PATHS, reason="fio is handed the app's descriptor only on Linux")
@pytest.mark.timeout(240)
def test_flipping_the_target_folder_never_lets_fio_write_the_users_file(tmp_path):
    lab, victim = tmp_path / "lab", tmp_path / "victim"
    (lab / "target").mkdir(parents=True)
    planted, empty = tmp_path / "lookalike", tmp_path / "empty"
    (planted / DATA_DIR).mkdir(parents=True)
    empty.mkdir()
    victim.mkdir()
    (victim / "thesis.bin").write_bytes(os.urandom(16 << 20))
    before = _sha(victim / "thesis.bin")
    figures = [_race(lab, tmp_path / "runs", planted, True, RUNS),
               _race(lab, tmp_path / "runs", empty, False, RUNS // 2)]
    print("race:", [{k: v for k, v in f.items() if k != "workdirs"} for f in figures])
    assert _sha(victim / "thesis.bin") == before, "fio wrote through the planted link"
    assert sum(f["done"] + f["failed"] for f in figures) >= RUNS // 3, figures
    assert figures[0]["planted"] > 0 and all(f["flips"] > 100 for f in figures), figures
    assert snapshot(empty) == {}, "something was created in the link's target"
    assert all(os.path.islink(planted / DATA_DIR / n) for n in os.listdir(planted / DATA_DIR))
    assert [p.name for p in (lab / "target").iterdir()] == [] and not engines_on(tmp_path)
    assert not [w for f in figures for w in f["workdirs"] if w.exists()]  # private engine folders


@needs_fio
@pytest.mark.skipif(not FD_PATHS or not shutil.which("strace"), reason="Linux with strace")
def test_fio_opens_the_inherited_descriptor_with_direct_io(tmp_path):
    """What the runner relies on, seen from the system calls: fio opens ``/proc/self/fd/N``
    (the kernel reopens the inherited inode) with O_DIRECT and writes the app's file."""
    test_file = tmp_path / "t.dat"
    fd = os.open(test_file, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.ftruncate(fd, 1 << 20)
        trace = tmp_path / "trace"
        argv = prepare_argv(shutil.which("fio"), Path(f"/proc/self/fd/{fd}"), 1 << 20,
                            tmp_path / "stop")
        done = subprocess.run(["strace", "-f", "-e", "trace=openat", "-o", str(trace), *argv],
                              pass_fds=(fd,), capture_output=True, text=True, timeout=60)
    finally:
        os.close(fd)
    assert done.returncode == 0, done.stderr
    opened = [line for line in trace.read_text().splitlines() if f"/proc/self/fd/{fd}\"" in line]
    assert opened and all("O_DIRECT" in line for line in opened), opened
    assert test_file.read_bytes() != bytes(1 << 20)  # written, not left sparse
