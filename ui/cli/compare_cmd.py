"""`ssd-profiler compare RUN_DIR RUN_DIR... [--out DIR] [--json]`: runs side by side.

Every run after the first is compared with the first, workload by workload (app/compare/compute.py):
both means, their ratio, the difference and whether it is larger than the runs' own spread.
Conditions that differ are printed first. ``--out DIR`` writes the comparison's export
(app/compare/export.py: comparison.csv, comparison.md, the overlaid figures as PNG and SVG,
report.md) into a new or empty folder (or an earlier export of the same comparison), through the
same checks as a run's export; the window's "Export comparison" writes the same files.
``--json`` prints exactly one JSON document.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich import box
from rich.table import Table

from app.compare.export import comparison_folder, export_comparison
from app.compare.report import Comparison, build_comparison, call_text, cell, ratio_text, workload_text
from app.report.export import Render
from ui.cli.exits import EXIT_BAD_INPUT, EXIT_OK, one_line, write_or_exit
from ui.cli.results import console_for
from ui.cli.terminal import terminal_text


def cmd_compare(args: argparse.Namespace) -> int:
    try:  # every cheap check before anything is printed, written or drawn
        comparison = build_comparison(args.run_dirs)
        if args.out:
            comparison_folder(args.run_dirs, args.out)
    except ValueError as exc:
        print(f"ssd-profiler: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps({"runs": [str(d) for d in args.run_dirs], "labels": list(comparison.labels),
                          "mismatches": list(comparison.notes),
                          "rows": json.loads(comparison.table.to_json(orient="records"))},
                         allow_nan=False))
    else:
        _print(comparison)
    if not args.out:
        return EXIT_OK
    out, failed = write_or_exit(lambda: export_comparison(comparison, args.out, _renderer()))
    if failed is not None:
        return failed
    if not args.json:
        print(terminal_text(out))
    return EXIT_OK


def _renderer() -> Render:
    """The offscreen figure renderer (Qt loads here, and only with --out)."""
    from ui.render.figure_files import ensure_app, start_figure
    ensure_app()
    return start_figure


def _print(c: Comparison) -> None:
    console = console_for(sys.stdout)
    for i, (label, d) in enumerate(zip(c.labels, c.run_dirs)):
        console.print(f"{'first' if i == 0 else 'then '}: {label} ({Path(d).name})", markup=False,
                      soft_wrap=True)
    for note in c.notes or ["conditions match (engine, drive, file system, parameters)"]:
        console.print(f"note: {note}", markup=False, soft_wrap=True)
    if c.table.empty:
        console.print("no workload was measured in both runs", markup=False)
        return
    for run, part in c.table.groupby("run", sort=False):
        view = Table(title=f"{c.label(run)} against {c.label(part['base_run'].iloc[0])} (mean "
                           "over repetitions, ratio = this run / first run)",
                     box=box.SIMPLE_HEAD, title_justify="left")
        for name in ("Workload", "Metric", "First", "This", "Ratio", "Difference"):
            view.add_column(name, justify="left" if name in ("Workload", "Metric", "Difference") else "right")
        view.columns[-1].header = "Larger than the runs' spread?"
        for r in part.itertuples():
            view.add_row(workload_text(r), r.metric, cell(r.metric, r.base_mean),
                         cell(r.metric, r.mean), ratio_text(r.ratio), call_text(r))
        console.print(view)
