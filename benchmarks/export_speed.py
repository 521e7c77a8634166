"""Time to export a run that holds every experiment (target: <= 1.5 s).

Without an argument it builds a synthetic run folder (every catalog experiment at its default
workloads, 3 repetitions, a 120 s SLC-cache trace with a drop, a drive that matches a vendor
record) so the number does not depend on fio or on the drive; with RUN_DIR it exports that run.
The time covers everything `ssd-profiler export` does after Qt has started: summary, tables,
figures (PNG + SVG) and report.md. Prints the median of --runs exports against the target, then
where the time goes in one more export: summary, tables, figure specs, report.md, and per
figure its layout, PNG render, PNG encode (on the encoder thread, beside the SVG) and SVG.
Exits 1 when the median misses the target.

Usage: python benchmarks/export_speed.py [RUN_DIR] [--runs 3]
"""
from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.experiments import CATALOG  # noqa: E402
from app.model.interval import SAMPLE_COLUMNS  # noqa: E402
from app.report.export import export_run  # noqa: E402
from app.store.new_folder import write_run_folder  # noqa: E402
from app.store.run_folder import SCHEMA_VERSION  # noqa: E402

TARGET_S = 1.5


def _side(rng, iops: float, bs: int, lat_us: float) -> dict:
    lat = {"mean": lat_us, "p50": lat_us * 0.9, "p95": lat_us * 1.6, "p99": lat_us * 2.5,
           "p99.9": lat_us * 6, "p99.99": lat_us * 12, "max": lat_us * 20}
    iops *= rng.uniform(0.95, 1.05)
    return {"io_bytes": int(iops * bs), "iops": iops, "MBps": iops * bs / 1e6,
            "MiBps": iops * bs / 2**20, "lat_kind": "total",
            "lat_us": {k: v * rng.uniform(0.95, 1.05) for k, v in lat.items()}}


def _measurement(rng, w) -> dict:
    out = w.iodepth * w.numjobs
    iops = min(600_000, 12_000 * out ** 0.8) * min(1.0, 65536 / w.bs_bytes) ** 0.6
    iops = min(iops, 3.5e9 / w.bs_bytes)
    lat = out / iops * 1e6
    read = w.reads and _side(rng, iops * (w.rwmixread if w.rwmixread is not None else 100) / 100,
                             w.bs_bytes, lat)
    write = w.writes and _side(rng, iops * (100 - (w.rwmixread if w.rwmixread is not None else 0)) / 100,
                               w.bs_bytes, lat * 1.2)
    read, write = read or None, write or None
    sides = [s for s in (read, write) if s]
    return {"engine": "fio", "engine_version": "fio-3.33", "source": None, "job": w.key,
            "status": "ok", "error": None, "workload": {**w.to_json(), "runtime_s": 30.0},
            "read": read, "write": write,
            "total": {"iops": sum(s["iops"] for s in sides), "MBps": sum(s["MBps"] for s in sides)}}


def synthetic_run(folder: Path) -> Path:
    """A done run of every experiment with default parameters (3 repetitions each)."""
    rng = random.Random(5)
    experiments: list[dict] = []
    trials: list[dict] = []
    samples: list[dict] = []
    for cls in CATALOG.values():
        exp = cls()
        experiments.append({"id": exp.id, "title": exp.title, "params": {"repetitions": 3},
                            "workload_keys": [w.key for w in exp.workloads()]})
        for rep in (1, 2, 3):
            for w in exp.workloads():
                index = len(trials)
                trials.append({"index": index, "experiment": exp.id, "workload": w.to_json(),
                               "label": w.label, "repetition": rep, "warmup": False,
                               "runtime_s": 30.0, "status": "done", "error": None,
                               "measurement": _measurement(rng, w)})
                if exp.id == "slc-cache":
                    t0 = index * 200.0
                    samples += [{"trial": index, "t_s": t0 + s, "write_MBps":
                                 (3200 if s < 40 + rep else 900) * rng.uniform(0.97, 1.03),
                                 "temperature_c": 45 + s * 0.2} for s in range(1, 121)]
    record = {"schema_version": SCHEMA_VERSION, "status": "done", "app_version": "bench",
              "started_at": "2026-01-01T00:00:00+00:00", "ended_at": "2026-01-01T01:00:00+00:00",
              "experiments": experiments, "seed": 1, "target": {"folder": "/bench"},
              "drive": {"model": "Samsung SSD 990 PRO 2TB", "bus": "NVMe", "fstype": "ext4",
                        "link": {"speed_gts": 16.0, "width": 4, "text": "PCIe 4.0 x4"}},
              "host": {"hostname": "bench", "os": "Linux"},
              "engine": {"name": "fio", "version": "fio-3.33", "path": "fio"},
              "planned_trials": [], "trials": trials, "summary": {}}
    write_run_folder(record, folder)
    with open(folder / "samples.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, SAMPLE_COLUMNS)
        writer.writeheader()
        writer.writerows({k: s.get(k, "") for k in SAMPLE_COLUMNS} for s in samples)
    return folder


FIGURE_STAGES = ("layout", "PNG render", "PNG encode", "SVG")


def _timed(record, key, function):
    """``function``, reporting its run time as ``record(key(args), seconds)``."""
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            record(key(args), time.perf_counter() - start)
    return timed


def breakdown(run_dir: Path, out: Path) -> tuple[float, dict, dict]:
    """One export with each stage timed: (total, {stage: s}, {figure: {stage: s}})."""
    import app.report.export as report
    import ui.render.figure_files as export
    from app.report.export_folder import ExportFolder
    stages: defaultdict[str, float] = defaultdict(float)
    figures: defaultdict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(FIGURE_STAGES, 0.0))
    current = [""]

    def record(key, seconds: float) -> None:
        if isinstance(key, tuple):
            figures[key[0]][key[1]] += seconds
        else:
            stages[key] += seconds

    laid_out = export.laid_out

    @contextmanager
    def timed_layout(fig, *args):
        current[0], start = fig.id, time.perf_counter()
        with laid_out(fig, *args) as widget:
            record((fig.id, "layout"), time.perf_counter() - start)
            yield widget

    patches = {(report, "load_results"): lambda a: "results",
               (report, "build_tables"): lambda a: "tables",
               (report, "to_csv"): lambda a: "tables",
               (report, "to_markdown"): lambda a: "tables",
               (report, "build_figures"): lambda a: "figure specs",
               (report, "report_markdown"): lambda a: "report.md",
               (ExportFolder, "write"): lambda a: "writing tables and report.md",
               (export, "_scene_image"): lambda a: (current[0], "PNG render"),
               (export, "_save_png"): lambda a: (Path(a[1]).stem, "PNG encode"),
               (export, "_write_svg"): lambda a: (Path(a[1]).stem, "SVG")}
    saved = {where: getattr(*where) for where in [*patches, (export, "laid_out")]}
    try:
        for (module, name), key in patches.items():
            setattr(module, name, _timed(record, key, getattr(module, name)))
        export.laid_out = timed_layout  # type: ignore[assignment]  # a timing wrapper
        start = time.perf_counter()
        report.export_run(run_dir, out, export.start_figure)
        total = time.perf_counter() - start
    finally:
        for (module, name), original in saved.items():
            setattr(module, name, original)
    return total, stages, figures


def print_breakdown(total: float, stages: dict, figures: dict) -> None:
    print(f"\nwhere the time goes, one more export with each stage timed ({total:.2f} s):")
    print("  " + ", ".join(f"{k} {v:.3f} s" for k, v in stages.items()))
    print(f"  {'figure (s)':36s}" + "".join(f"{s:>12s}" for s in FIGURE_STAGES))
    sums = dict.fromkeys(FIGURE_STAGES, 0.0)
    for fig_id, times in figures.items():
        print(f"  {fig_id:36s}" + "".join(f"{times[s]:12.3f}" for s in FIGURE_STAGES))
        for s in FIGURE_STAGES:
            sums[s] += times[s]
    print(f"  {'all figures':36s}" + "".join(f"{sums[s]:12.3f}" for s in FIGURE_STAGES))
    main_thread = sum(stages.values()) + sums["layout"] + sums["PNG render"] + sums["SVG"]
    print("  PNG encode runs on the encoder thread, beside the SVG and the next figure; the rest "
          f"({total - main_thread:.3f} s) is staging, closing widgets and waiting for encodes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", nargs="?", help="a run folder (default: a synthetic one)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from ui.render.figure_files import ensure_app, start_figure
    ensure_app()
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(args.run_dir) if args.run_dir else synthetic_run(Path(tmp) / "run")
        times, cpu, main_cpu = [], [], []
        for i in range(args.runs):
            start, start_cpu, start_main = time.perf_counter(), time.process_time(), time.thread_time()
            out = export_run(run_dir, Path(tmp) / f"export{i}", start_figure)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            main_cpu.append(time.thread_time() - start_main)
        figures = len(list((out / "figures").glob("*.png")))
        tables = len(list((out / "tables").glob("*.csv")))
        detail = breakdown(run_dir, Path(tmp) / "breakdown")
    median = statistics.median(times)
    verdict = (f"met, {TARGET_S - median:.2f} s to spare" if median <= TARGET_S else
               f"missed by {median - TARGET_S:.2f} s ({median / TARGET_S - 1:.0%})")
    print(f"export of {figures} figures (PNG + SVG), {tables} tables and report.md: "
          f"median {median:.2f} s over {args.runs} runs (min {min(times):.2f} s, "
          f"all {' '.join(f'{t:.2f}' for t in times)}); target <= {TARGET_S} s: {verdict}")
    print(f"CPU time: median {statistics.median(main_cpu):.2f} s in the main thread (the wall "
          f"time on idle cores), {statistics.median(cpu):.2f} s in all threads; {os.cpu_count()} "
          f"cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print_breakdown(*detail)
    return 0 if median <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
