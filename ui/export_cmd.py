"""`ssd-profiler export RUN_DIR [--out DIR]`: tables, figures and report.md for a run.

Works without a display: the renderer runs Qt offscreen (QT_QPA_PLATFORM=offscreen is set
before the QApplication exists when no display is available). The export folder is the last
line on stdout; exit 2 with a one-line reason when RUN_DIR is not a run folder.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from app.report import export_run
from app.store import load_run

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def export_run_dir(run_dir: str | Path, out_dir: str | Path | None = None) -> Path:
    """Export with the real renderer (Qt offscreen when there is no display); the export
    folder (default ``<run_dir>/export``) holds report.md, tables/ and figures/."""
    from ui.figure_render import ensure_app, render_figure
    ensure_app()
    return export_run(run_dir, out_dir, render_figure)


def cmd_export(args) -> int:
    run_dir = Path(args.run_dir)
    try:
        load_run(run_dir)  # checks it is a run folder before Qt starts
    except ValueError as exc:
        print(f"ssd-profiler: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    started = time.monotonic()
    try:
        out = export_run_dir(run_dir, getattr(args, "out", None))
    except OSError as exc:
        print(f"ssd-profiler: error: cannot write the export: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(f"exported {run_dir} in {time.monotonic() - started:.1f} s", file=sys.stderr)
    print(out)
    return EXIT_OK
