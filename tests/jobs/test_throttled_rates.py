"""The app's own runs read a throttle's truth (docs/precision.md, "Counting after the ramp").

A loop device (its image in RAM) throttled by the block cgroup has a known rate; a real
``ssd-profiler run`` of the queue-depth experiment on it, with a ramp, must read that rate within
1 % at QD 1, 32 and 256, whether the throttle counts I/Os (120 IOPS, 4 KiB) or bytes (40 MB/s,
large blocks, where a 256-deep queue takes seconds to drain after the runtime), and its IOPS x
block size must equal its MB/s. Needs root, a free loop device and the block cgroup; skipped
with the reason otherwise.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, run_json
from tests.throttle_support import ThrottledLoop, unavailable

WHY_NOT = unavailable()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")

DEPTHS = (1, 32, 256)
#: The runtime a 1 % claim needs: a block cgroup (v1) lets its I/Os through in 100-ms slices,
#: so a count taken at any moment may be one slice's worth off (1 % of 10 s; 0.75 % of 13.5)
RUNTIME = "14s"
CASES = {"iops": ({"iops": 120}, "4KiB", 4096, "randread"),
         "bps": ({"bps": 40_000_000}, "512KiB", 512 << 10, "write")}


def _argv(loop: ThrottledLoop, out: Path, bs: str, rw: str) -> list[str]:
    return [sys.executable, "-m", "ui.main", "-q", "run", "queue-depth", "--target", str(loop.mnt),
            "--out", str(out), "--json",
            "--set", f"queue-depth.queue_depths={','.join(map(str, DEPTHS))}",
            "--set", f"queue-depth.bs={bs}", "--set", f"queue-depth.rw={rw}",
            "--set", "ramp=1s", "--set", f"runtime={RUNTIME}", "--set", "interval=500ms",
            "--set", "repetitions=1", "--set", "warmup=false", "--set", "size=16MiB"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Both throttled devices, each with its CLI run, side by side (the throttles, not the
    CPU, set their pace): {case: (run.json, truth IOPS, block size)}."""
    loops, procs = {}, {}
    try:
        for name, (limits, bs, _, rw) in CASES.items():
            work = tmp_path_factory.mktemp(name)
            loops[name] = loop = ThrottledLoop(work, "2G", name=f"ssd-profiler-test-{name}", **limits)
            procs[name] = subprocess.Popen(_argv(loop, work / "runs", bs, rw), cwd=REPO, text=True,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           preexec_fn=loop.enter)
        out = {}
        for name, proc in procs.items():
            stdout, stderr = proc.communicate(timeout=240)
            assert proc.returncode == 0, stderr[-2000:]
            bs_bytes = CASES[name][2]
            out[name] = (run_json(json.loads(stdout)["run_dir"]), loops[name].truth_iops(bs_bytes), bs_bytes)
        yield out
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for loop in loops.values():
            loop.close()


def _check(run: dict, truth: float, bs_bytes: int) -> None:
    seen = {}
    for trial in run["trials"]:
        side = trial["measurement"]["read"] or trial["measurement"]["write"]
        seen[trial["workload"]["iodepth"]] = side["iops"]
        assert side["iops"] * bs_bytes / 1e6 == pytest.approx(side["MBps"], rel=1e-3)
    assert sorted(seen) == list(DEPTHS)
    for depth, iops in seen.items():
        assert iops == pytest.approx(truth, rel=0.01), f"QD {depth}: {iops:.2f} IOPS, truth {truth:.2f}"


def test_an_iops_throttle_is_read_at_every_queue_depth(runs):
    _check(*runs["iops"])


def test_a_bandwidth_throttle_is_read_at_every_queue_depth_with_large_blocks(runs):
    """512 KiB writes at 40 MB/s: QD 256 holds 134 MB, a drain of 3.4 s after the runtime."""
    _check(*runs["bps"])
