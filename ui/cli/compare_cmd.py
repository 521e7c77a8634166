"""`ssd-profiler compare RUN_DIR RUN_DIR... [--out DIR] [--json]`: runs side by side.

Every run after the first is compared with the first, workload by workload (app/compare.py):
both means, their ratio, the difference and whether it is larger than the runs' own spread.
Conditions that differ are printed first. ``--out DIR`` writes comparison.csv and
comparison.md into a new or empty folder (or an earlier comparison of the same runs), through
the same checks as an export. ``--json`` prints exactly one JSON document.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from rich import box
from rich.table import Table

from app.compare import METRICS, compare, mismatches
from app.export_folder import ExportFolder
from app.runs import load_runs
from app.store import load_run
from ui.cli.results import console_for

EXIT_OK, EXIT_BAD_INPUT = 0, 2
FORMATS = {label: fmt for _, label, fmt in METRICS}


def cmd_compare(args) -> int:
    try:
        if len(args.run_dirs) < 2:
            raise ValueError("name at least two run folders to compare")
        records = [load_run(d) for d in args.run_dirs]
        folder = ExportFolder(Path(args.out), _identity(args.run_dirs)) if args.out else None
    except ValueError as exc:
        print(f"ssd-profiler: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    table = compare(load_runs(args.run_dirs))
    notes = mismatches(records)
    if args.json:
        print(json.dumps({"runs": [str(d) for d in args.run_dirs], "mismatches": notes,
                          "rows": json.loads(table.to_json(orient="records"))}, allow_nan=False))
    else:
        _print(table, notes)
    if folder is not None:
        folder.claim()
        folder.write("comparison.csv", table.to_csv(index=False, float_format="%.10g").encode("utf-8"))
        folder.write("comparison.md", markdown(table, notes, args.run_dirs).encode("utf-8"))
        if not args.json:
            print(folder.dir)
    return EXIT_OK


def _identity(run_dirs) -> dict:
    names = "+".join(Path(d).resolve().name for d in run_dirs)
    return {"run_folder": f"compare:{names}", "started_at": None}


def _cell(metric: str, value) -> str:
    return "–" if value is None else FORMATS[metric].format(value)


def _print(table, notes: list[str]) -> None:
    console = console_for(sys.stdout)
    for note in notes or ["conditions match (engine, drive, file system, parameters)"]:
        console.print(f"note: {note}", markup=False, soft_wrap=True)
    if table.empty:
        console.print("no workload was measured in both runs", markup=False)
        return
    for run, part in table.groupby("run", sort=False):
        view = Table(title=f"{run} against {part['base_run'].iloc[0]} (mean over repetitions, "
                           "ratio = this run / first run)", box=box.SIMPLE_HEAD, title_justify="left")
        for name in ("Workload", "Metric", "First", "This", "Ratio", "Difference"):
            view.add_column(name, justify="left" if name in ("Workload", "Metric", "Difference") else "right")
        view.columns[-1].header = "Larger than the runs' spread?"
        for r in part.itertuples():
            ratio = "–" if r.ratio is None else f"{r.ratio:.3f}"
            view.add_row(_workload(r), r.metric,
                         _cell(r.metric, r.base_mean), _cell(r.metric, r.mean), ratio,
                         f"{r.call} (n {r.n_base} vs {r.n})")
        console.print(view)


def markdown(table, notes: list[str], run_dirs) -> str:
    lines = ["# Comparison", "", "Runs: " + ", ".join(f"`{Path(d).name}`" for d in run_dirs)
             + " (each against the first).", "", "## Conditions that differ", ""]
    lines += [f"- {n}" for n in notes] or ["None: engine, drive, file system and parameters match."]
    lines += ["", "## Workloads", "", "| Run | Workload | Metric | First | This | Ratio | Call |",
              "|---|---|---|---:|---:|---:|---|"]
    for r in table.itertuples():
        ratio = "–" if r.ratio is None else f"{r.ratio:.3f}"
        lines.append(f"| {r.run} | {_workload(r)} | {r.metric} | "
                     f"{_cell(r.metric, r.base_mean)} | {_cell(r.metric, r.mean)} | {ratio} | "
                     f"{r.call} (n {r.n_base} vs {r.n}, p = {_p(r.p_value)}) |")
    lines += ["", "Means over measured repetitions; the call is Welch's t-test on the repetitions "
              "at 5 % (two-sided). MB/s = 10^6 B/s; latency is the kind each run states.", ""]
    return "\n".join(lines)


def _workload(r) -> str:
    """'zero-queue RND4K Q1T1 read'; a mixed workload also names the direction of the row."""
    own = r.workload.endswith(r.direction)
    return f"{r.experiment} {r.workload}" + ("" if own else f" ({r.direction})")


def _p(value) -> str:
    return "–" if value is None or value != value else f"{value:.3g}"
