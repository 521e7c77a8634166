"""Resident memory of a run whose engine prints for hours: is the app's memory bounded?

A fake fio (tests/fakes/fio, mode ``stream``) prints the status documents a trial at a 0.1 s
interval would print in H hours (36,000 per hour, each a full fio JSON document), 50 times faster
than fio would (500 a second, so the app keeps up as it does in real time), through the real
``ssd-profiler run``. The app's resident memory is sampled every 50 ms; the
figure printed is the peak per hour of engine output, for 1 and for 2 hours, and the growth per
extra hour (target: a 24 h trial at 0.1 s stays under 200 MB, so growth must be near zero).

Usage: python benchmarks/memory_long_run.py [--hours 1 2]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
FAKE_FIO = REPO / "tests" / "fakes" / "fio"


def peak_rss_mb(hours: float, work: Path) -> tuple[float, float, int]:
    """(peak resident MB of the app, seconds, bytes of engine output) for ``hours`` of output."""
    docs = int(hours * 36000)
    env = {**os.environ, "SSD_PROFILER_FIO": str(FAKE_FIO), "FAKE_FIO_MODE": "stream",
           "FAKE_FIO_DOCS": str(docs), "FAKE_FIO_RATE": "500"}
    argv = [sys.executable, "-m", "ui.main", "run", "queue-depth", "--target", str(work / "t"),
            "--out", str(work / "runs"), "--set", "queue_depths=1", "--set", "repetitions=1",
            "--set", "warmup=false", "--set", "runtime=24h", "--set", "size=16MiB",
            "--set", "interval=100ms"]
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    app, peak = psutil.Process(proc.pid), 0
    while proc.poll() is None:
        try:
            peak = max(peak, app.memory_info().rss)
        except psutil.Error:
            break
        time.sleep(0.05)
    raw = sum(p.stat().st_size for p in (work / "runs").rglob("*.out.json"))
    return peak / 1e6, time.monotonic() - started, raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, nargs="+", default=[1.0, 2.0])
    args = parser.parse_args()
    results = []
    for hours in args.hours:
        with tempfile.TemporaryDirectory() as work:
            peak, seconds, raw = peak_rss_mb(hours, Path(work))
        results.append((hours, peak))
        print(f"{hours:g} h of 0.1 s status output ({raw / 1e6:.0f} MB of JSON, streamed in "
              f"{seconds:.0f} s): peak resident memory {peak:.0f} MB")
    if len(results) >= 2:
        (h1, m1), (h2, m2) = results[0], results[-1]
        per_hour = (m2 - m1) / (h2 - h1)
        print(f"growth: {per_hour:+.1f} MB per hour of output; a 24 h trial: about "
              f"{m1 + per_hour * (24 - h1):.0f} MB (target < 200 MB)")


if __name__ == "__main__":
    main()
