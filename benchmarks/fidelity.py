"""Does measuring through SSD Profiler change what fio measures, and what does it add?

The same 4 KiB random-read QD16 workload is run by bare fio and through ``ssd-profiler run``,
alternated in ABBA order (bare, app, app, bare, ...) so drift hits both alike; ``--trials`` of
each per round, back to back (the app's second trial onward starts under the end of the one
before it, as every sweep's does: jobs/run/held_starts.py), medians per round. Prints the median IOPS ratio
app / bare (target >= 0.98) and the per-trial overhead beyond fio's own (target <= 0.3 s): the
trial's wall time as the runner saw it (start of fio to the trial saved) minus ``runtime``, less
the same figure for bare fio (its own start-up, file open and JSON dump), both printed.

Usage: python benchmarks/fidelity.py [--target DIR] [--rounds 6] [--trials 3] [--runtime 5] [--size 256MiB]
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.engines.fio import ioengine_for  # noqa: E402
from app.engines.fio.result import parse_fio_text  # noqa: E402
from app.units import parse_size  # noqa: E402


def bare_fio(fio: str, test_file: Path, size: int, runtime: float) -> tuple[float, float]:
    argv = [fio, "--name=bare", f"--filename={test_file}", f"--size={size}", "--rw=randread",
            "--bs=4096", "--iodepth=16", "--numjobs=1", f"--ioengine={ioengine_for()}", "--direct=1",
            "--time_based", f"--runtime={int(runtime * 1000)}ms", "--refill_buffers",
            "--randrepeat=0", "--norandommap", "--lat_percentiles=1", "--output-format=json"]
    start = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    wall = time.monotonic() - start
    return parse_fio_text(done.stdout)[0]["read"]["iops"], wall - runtime


def bare_trials(fio: str, test_file: Path, size: int, runtime: float, n: int) -> tuple[float, float]:
    runs = [bare_fio(fio, test_file, size, runtime) for _ in range(n)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def through_app(target: Path, runs: Path, size: int, runtime: float, n: int) -> tuple[float, float]:
    argv = [sys.executable, "-m", "ui.main", "run", "queue-depth", "--target", str(target),
            "--set", "queue_depths=16", "--set", f"runtime={runtime}s", "--set", f"size={size}",
            "--set", f"repetitions={n}", "--set", "warmup=false", "--out", str(runs)]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=True)
    record = json.loads((Path(done.stdout.strip().splitlines()[-1]) / "run.json").read_text())
    iops, over = [], []
    for trial in record["trials"]:
        wall = datetime.fromisoformat(trial["ended_at"]) - datetime.fromisoformat(trial["started_at"])
        iops.append(trial["measurement"]["read"]["iops"])
        over.append(wall.total_seconds() - runtime)
    return statistics.median(iops), statistics.median(over)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, help="folder on the drive (default: a temp folder)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--trials", type=int, default=3, help="trials of each per round")
    parser.add_argument("--runtime", type=float, default=5.0)
    parser.add_argument("--size", default="256MiB")
    args = parser.parse_args()
    fio = shutil.which("fio")
    if not fio:
        print("fio is not installed", file=sys.stderr)
        return 1
    size = parse_size(args.size)
    scratch = Path(tempfile.mkdtemp(prefix="ssd-profiler-fidelity-"))
    target = args.target or scratch / "target"
    target.mkdir(parents=True, exist_ok=True)
    bare_file = target / "fidelity-bare.dat"
    try:
        subprocess.run([fio, "--name=fill", f"--filename={bare_file}", f"--size={size}", "--rw=write",
                        "--bs=1M", "--direct=1", "--refill_buffers", "--output-format=json"],
                       capture_output=True, check=True)
        bare, app = [], []
        for i in range(args.rounds):
            # ABBA order (bare-app, app-bare, ...): a drive whose speed drifts (thermal, or a
            # virtual disk's burst credits running out) hits both sides alike
            steps = [lambda: bare.append(bare_trials(fio, bare_file, size, args.runtime, args.trials)),
                     lambda: app.append(through_app(target, scratch / "runs", size, args.runtime,
                                                    args.trials))]
            for step in (steps if i % 2 == 0 else steps[::-1]):
                step()
            print(f"round {i + 1}: bare {bare[-1][0]:,.0f} IOPS (+{bare[-1][1]:.3f} s), "
                  f"app {app[-1][0]:,.0f} IOPS (+{app[-1][1]:.3f} s)", flush=True)
    finally:
        bare_file.unlink(missing_ok=True)
        shutil.rmtree(scratch, ignore_errors=True)
    ratios = [a[0] / b[0] for a, b in zip(app, bare)]
    print(f"median IOPS: bare fio {statistics.median(b[0] for b in bare):,.0f}, "
          f"through ssd-profiler {statistics.median(a[0] for a in app):,.0f}")
    print(f"median IOPS ratio app/bare: {statistics.median(ratios):.3f} (target >= 0.98)")
    bare_iops = [b[0] for b in bare]
    print(f"noise floor: bare fio alone ranged {min(bare_iops):,.0f}..{max(bare_iops):,.0f} IOPS "
          f"(max/min {max(bare_iops) / min(bare_iops):.2f}); a ratio inside that spread is noise")
    app_over = statistics.median(a[1] for a in app)
    bare_over = statistics.median(b[1] for b in bare)
    print(f"median per-trial wall time beyond runtime: bare fio {bare_over:.3f} s (fio's own "
          f"start-up), through ssd-profiler {app_over:.3f} s")
    print(f"per-trial overhead added by ssd-profiler beyond fio's own: {app_over - bare_over:.3f} s "
          f"(target <= 0.3 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
