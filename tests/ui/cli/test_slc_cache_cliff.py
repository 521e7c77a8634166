"""slc-cache against an emulated SLC cliff (tests/throttle_support.py): a RAM-backed loop device
throttled to 100 MB/s of writes until 400 MB have reached it, then to 20 MB/s. The real CLI and
fio run the experiment; the finding places the cliff within 3 % of 400 MB and the rate after it
within 3 % of 20 MB/s. Root, a loop device and a block cgroup throttle are needed (skipped
otherwise). benchmarks/slc_cliff.py runs it five times and prints the figures."""
from __future__ import annotations

import shutil

import pytest
from throttle_support import MB, cliff_run, unavailable

pytestmark = [pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed"),
              pytest.mark.skipif(unavailable() is not None, reason=str(unavailable()))]


def test_the_cliff_and_the_rate_after_it_match_the_emulated_cache(tmp_path):
    run = cliff_run(tmp_path / "cliff", before_bps=100 * MB, at_bytes=400 * MB, after_bps=20 * MB,
                    runtime_s=10, interval_s=1)
    f = run.finding
    assert f["drop_observed"], f["note"]
    assert abs(run.cliff_error()) <= 0.03, f
    assert abs(run.after_error(20 * MB)) <= 0.03, f
    assert f["gb_resolution"] < 0.05 * 0.4 and f["t_resolution_s"] < 0.5   # stated, and useful
    step = run.device_step   # the device's own step, fitted on its byte count: the same point
    assert step is not None and f["gb_before_drop"] * 1e9 == pytest.approx(step[0], rel=0.03)
