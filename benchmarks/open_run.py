"""Opening a past run with 100,000 live samples in the window (item 6). Prints figures.

A real run is made once through ``ssd-profiler run`` (zero-queue, 4 trials of 1 s, no warm-up),
then its samples.csv is replaced by ``--samples`` rows spread over the same trials (the shape a
long run at a 0.1 s interval leaves: 100,000 samples are 2.8 hours). A fresh window opens it the
way the runs browser does (``MainWindow.open_run``: read in the background, then shown); the
time is from the request until the charts, the results tables and the first paint of all of it
are done. Several rounds, each in a fresh window; the median is printed (target: under 1 s).

Run: ``.venv/bin/python benchmarks/open_run.py [--samples 100000] [--rounds 5]`` (offscreen
unless $DISPLAY is set).
"""
from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def make_run(work: Path, samples: int) -> Path:
    """A real run folder whose samples.csv holds ``samples`` rows over its trials."""
    done = subprocess.run(
        [sys.executable, "-m", "ui.main", "run", "zero-queue", "--target", str(work / "target"),
         "--set", "runtime=1s", "--set", "repetitions=1", "--set", "warmup=false",
         "--set", "size=16MiB", "--out", str(work / "runs")],
        cwd=REPO, capture_output=True, text=True, check=True)
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    path = run_dir / "samples.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    trials = sorted({row["trial"] for row in rows})
    per_trial = samples // len(trials)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for k, trial in enumerate(trials):
            mine = [row for row in rows if row["trial"] == trial]
            for i in range(per_trial):
                row = dict(mine[i % len(mine)])
                row["trial"], row["t_s"] = trial, f"{(k * per_trial + i) * 0.1:.3f}"
                writer.writerow(row)
    return run_dir


def shown_window(run_dir: Path, settings: Path):
    """(app, a fresh main window at 1280x720, shown and settled) for timing one reopen."""
    from PySide6.QtWidgets import QApplication

    from ui.window.main_window import MainWindow
    from ui.window.settings import AppSettings
    app = QApplication.instance() or QApplication([])
    window = MainWindow(settings=AppSettings(settings), runs_root=str(run_dir.parent))
    window.resize(1280, 720)
    window.show()
    for _ in range(30):
        app.processEvents()
        time.sleep(0.01)
    return app, window


def open_once(run_dir: Path, settings: Path) -> float:
    app, window = shown_window(run_dir, settings)
    start = time.monotonic()
    window.open_run(str(run_dir))
    while window.model.run_dir != str(run_dir):
        app.processEvents()
        time.sleep(0.002)
    window.charts.redraw()
    window.repaint()   # the charts, tables and everything else painted once
    app.processEvents()
    seconds = time.monotonic() - start
    shown = window.model.series.samples
    window.close()
    if shown < 1:
        raise SystemExit("the run opened without its samples")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ssd-open-run-"))
    try:
        run_dir = make_run(work, args.samples)
        times = [open_once(run_dir, work / f"settings-{i}.ini") for i in range(args.rounds)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"open a run with {args.samples:,} samples: median {statistics.median(times):.2f} s "
          f"(min {min(times):.2f}, max {max(times):.2f}, n={len(times)}; target < 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
