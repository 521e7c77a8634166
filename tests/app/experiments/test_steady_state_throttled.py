"""The steady-state experiment on a device whose speed we set: the run's processes go
into a blkio cgroup that caps write IOPS at 2,400 for two and a half rounds, then at 600. The rule
(5 rounds, excursion <= 20 %, slope <= 10 %) must first hold over the five rounds that follow the
one the cap changed in (rounds 4-8 when it lands in round 3), so the run stops there and says so. Needs root, cgroup v1 blkio throttling and fio (cgroup v2 io.max: not written yet);
skipped with the reason otherwise.

The device is a loop device whose image is in RAM (/dev/shm) when this machine can make one: the
shared virtual disk under a test folder, busy with the suite's other fio, fell under the caps in
CI (a round near 420 IOPS at 600), and then the cap is no longer the truth. Where no loop device
can be made, the test folder's own disk is used, and a run where it fell far under a cap is run
once more."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.stats.steady_state import first_steady_round

from conftest import REPO, needs_fio, needs_root

BLKIO = Path("/sys/fs/cgroup/blkio")
# write IOPS caps, before and after: well under what the virtual disk does at QD8 while the
# suite runs other fio beside it (a round at an 8,000 cap read 3,649 there: the disk, not the cap)
HIGH, LOW = 2400, 600


def _device_of(path: Path) -> str:
    """'major:minor' of the whole disk under ``path`` (throttling applies to whole disks)."""
    dev = os.stat(path).st_dev
    sys_dev = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    disk = sys_dev.resolve()
    if (disk / "partition").exists():
        disk = disk.parent
    return (disk / "dev").read_text().strip()


def _sh(*argv: str) -> str:
    return subprocess.run(argv, check=True, capture_output=True, text=True, timeout=60).stdout.strip()


@contextmanager
def _folder_on_ram_disk(work: Path) -> Iterator[Path]:
    """A folder on an ext4 loop device whose image is in /dev/shm, or ``work`` itself (on the
    shared disk) when this machine cannot make one (no /dev/shm, no loop device, no mkfs)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and shutil.which("losetup") and shutil.which("mkfs.ext4")):
        yield work
        return
    image = shm / f"ssd-profiler-test-{uuid.uuid4().hex[:8]}.img"
    mnt, dev = work / "mnt", ""
    try:
        _sh("truncate", "-s", "1200M", str(image))   # sparse: the app keeps 1 GiB free
        dev = _sh("losetup", "-f", "--show", str(image))
        _sh("mkfs.ext4", "-q", dev)
        mnt.mkdir(parents=True)
        _sh("mount", dev, str(mnt))
    except (OSError, subprocess.SubprocessError):
        if dev:
            subprocess.run(["losetup", "-d", dev], check=False)
        image.unlink(missing_ok=True)
        yield work
        return
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=False, timeout=60)
        subprocess.run(["losetup", "-d", dev], check=False, timeout=60)
        image.unlink(missing_ok=True)


def _run_with_cap_lowered(tmp_path: Path) -> tuple[list[float], dict]:
    """A steady-state run under a HIGH write cap lowered to LOW during its third round: the
    rounds' IOPS and the findings."""
    with _folder_on_ram_disk(tmp_path / "disk") as disk:
        return _run_on(disk, tmp_path)


def _run_on(disk: Path, tmp_path: Path) -> tuple[list[float], dict]:
    group = BLKIO / f"ssd-profiler-test-{uuid.uuid4().hex[:8]}"
    group.mkdir()
    limit = group / "blkio.throttle.write_iops_device"
    target = disk / "t"
    target.mkdir(parents=True)
    device = _device_of(target)
    try:
        limit.write_text(f"{device} {HIGH}")
        argv = [sys.executable, "-m", "ui.main", "run", "steady-state", "--target", str(target),
                "--set", "round=1s", "--set", "max_rounds=12", "--set", "size=16MiB",
                "--set", "iodepth=8", "--set", "precondition=none",
                "--out", str(tmp_path / "runs"), "--json"]
        proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, preexec_fn=lambda: (group / "tasks").write_text(str(os.getpid())))
        runs = tmp_path / "runs"
        deadline = time.monotonic() + 60
        # halfway through round 3, lower the cap: rounds follow each other within milliseconds
        # (held starts), so "between rounds" cannot be hit from here
        while time.monotonic() < deadline and proc.poll() is None:
            # trials.csv gets each trial at once (run.json is saved every few seconds)
            done = [len(p.read_text().splitlines()) - 1 for p in runs.glob("*/trials.csv")]
            if done and done[0] >= 2:
                time.sleep(0.5)
                limit.write_text(f"{device} {LOW}")
                break
            time.sleep(0.02)
        out, err = proc.communicate(timeout=120)
    finally:
        for pid in (group / "tasks").read_text().split():
            (BLKIO / "tasks").write_text(pid)
        group.rmdir()
    assert proc.returncode == 0, err
    record = json.loads((Path(json.loads(out)["run_dir"]) / "run.json").read_text())
    findings = record["summary"]["steady-state"]["findings"]
    return findings["rounds_iops"], findings


def _disk_kept_up(iops: list[float]) -> bool:
    """The virtual disk itself did the capped rate: no round far under its cap. Other tests'
    I/O beside this one can slow it below a cap (a round of 3,649 at 8,000, one near 420 at
    600): then the cap is no longer the truth the rounds are judged against."""
    capped = next((i for i, v in enumerate(iops) if v <= LOW * 1.25), len(iops))
    return all(v > HIGH / 2 for v in iops[:2]) and all(v > LOW * 0.8 for v in iops[capped + 1:])


@needs_root
@needs_fio
@pytest.mark.skipif(not (BLKIO / "blkio.throttle.write_iops_device").exists(),
                    reason="no cgroup v1 blkio throttling on this machine")
def test_a_cap_lowered_mid_run_converges_five_rounds_after_it(tmp_path):
    for attempt in range(2):   # once more when the shared disk, not the cap, set a round's rate
        iops, findings = _run_with_cap_lowered(tmp_path / f"attempt{attempt}")
        if _disk_kept_up(iops):
            break
    # blk-throttle hands out its budget in time slices; rounds that follow each other within
    # milliseconds (held starts) inherit what the last one left: seen up to 15 % over
    assert all(HIGH / 2 < v <= HIGH * 1.25 for v in iops[:2]), iops
    # the cap is lowered from this process while a round runs; on a loaded machine that can land
    # a round later than aimed at, so the expected stop is read off the rounds themselves: the
    # first round wholly under the new cap opens the first window of 5 that can hold
    capped = next(i for i, v in enumerate(iops) if v <= LOW * 1.25)
    assert 2 <= capped <= 7 and LOW * 1.5 < iops[capped - 1] <= HIGH * 1.25, iops  # 12 rounds at most
    assert all(v <= LOW * 1.25 for v in iops[capped:]), iops
    first = capped + 1  # rounds are numbered from 1
    # blk-throttle also carries a slice's debt over: a round just over the new cap can be followed
    # by one far under it (seen: 2,117 then 944 IOPS at a 2,000 cap), and a window holding both
    # is rightly not steady. Then the run goes on to a later window, still wholly under the new
    # cap; the run stops at the first window that holds, never later
    start = findings["window"]["first_round"]
    assert findings["steady"] and first <= start <= 12 - 4, (iops, findings)
    assert findings["round"] == start + 4 and len(iops) == start + 4, iops
    assert first_steady_round(iops).first_round == start, iops   # no earlier window held
