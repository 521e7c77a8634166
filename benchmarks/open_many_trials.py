"""Reopening a run of 10,000 trials in the window. Prints figures (target: under 2 s).

The app plans runs of up to 10,100 trials (100 workloads x 100 repetitions), and reopening one
used to take time in the square of its trials (the results table refreshed its caption and
column widths once per row, the charts blanked each trial's directions with a mask over all
samples): 2,000 trials 44 s, 8,000 trials 223 s. A real run is made once through
``ssd-profiler run`` (zero-queue, 4 trials of 1 s), then its run.json is grown to ``--trials``
trials (its own trial records, re-indexed, planned and run) and its samples.csv to
``--samples-per-trial`` rows per trial. A fresh window opens it the way the runs browser does
(``MainWindow.open_run``: read in the background, then shown); the time is from the request
until the charts, the tables and their first paint are done. The median of ``--rounds`` fresh
windows is printed.

Run: ``.venv/bin/python benchmarks/open_many_trials.py [--trials 10000] [--rounds 3]``.
"""
from __future__ import annotations

import argparse
import copy
import csv
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from open_run import make_run, shown_window  # noqa: E402 - the same real run and window


def grow(run_dir: Path, trials: int, per_trial: int) -> None:
    """run.json with ``trials`` trials made of the run's own, samples.csv to match."""
    record = json.loads((run_dir / "run.json").read_text())
    base = record["trials"]
    grown = []
    for i in range(trials):
        t = copy.deepcopy(base[i % len(base)])
        t["index"], t["repetition"] = i, i // len(base) + 1
        grown.append(t)
    keep = ("index", "experiment", "workload", "label", "repetition", "warmup", "runtime_s",
            "ramp_s", "size_bytes", "direct", "interval_s")
    record["trials"] = grown
    record["planned_trials"] = [{k: t[k] for k in keep if k in t} for t in grown]
    (run_dir / "run.json").write_text(json.dumps(record))
    path = run_dir / "samples.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for i in range(trials):
            for k in range(per_trial):
                row = dict(rows[(i * per_trial + k) % len(rows)])
                row["trial"], row["t_s"] = i, f"{i * 1.2 + k * 1.0 / per_trial:.3f}"
                writer.writerow(row)


def open_once(run_dir: Path, settings: Path) -> float:
    """Seconds from ``open_run`` until the run is shown and painted, in a fresh window; the
    window is closed once its figures (computed in the background afterwards) are done too."""
    app, window = shown_window(run_dir, settings)
    start = time.monotonic()
    window.open_run(str(run_dir))
    while window.model.run_dir != str(run_dir):
        if "Cannot open" in window.statusBar().currentMessage():
            raise SystemExit(window.statusBar().currentMessage())
        app.processEvents()
        time.sleep(0.002)
    window.charts.redraw()
    window.repaint()
    app.processEvents()
    seconds = time.monotonic() - start
    figures = window.report_bar.figures
    while figures.loading:  # not measured: the Figures tab fills in the background
        app.processEvents()
        time.sleep(0.01)
    window.close()
    return seconds


def parse_seconds(run_dir: Path) -> float:
    """Parsing run.json alone, as the loader does (orjson): the part that is the parser's."""
    data = (run_dir / "run.json").read_bytes()
    start = time.monotonic()
    orjson.loads(data)
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--samples-per-trial", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ssd-open-many-"))
    try:
        run_dir = make_run(work, 4)
        grow(run_dir, args.trials, args.samples_per_trial)
        size = (run_dir / "run.json").stat().st_size
        times, parse = [], []
        for i in range(args.rounds):
            parse.append(parse_seconds(run_dir))
            times.append(open_once(run_dir, work / f"settings-{i}.ini"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"open a run of {args.trials:,} trials (run.json {size / 2**20:.1f} MiB, "
          f"{args.trials * args.samples_per_trial:,} samples): median "
          f"{statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}, "
          f"n={len(times)}; target < 2 s), of which parsing run.json alone takes "
          f"{statistics.median(parse):.2f} s; each: {', '.join(f'{t:.2f}' for t in times)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
