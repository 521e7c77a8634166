"""`ssd-profiler export RUN_DIR [--out DIR] [--vendor-spec MODEL-ID|FILE] [--title T] [--author A]
[--course C] [--date D] [--no-interpretation]`: tables, figures, report.md, report.html and
report.pdf for a run (the spec given replaces the run's own for this export only; the title
block and mode: app/report/options.py).

Works without a display: the renderer runs Qt offscreen (QT_QPA_PLATFORM=offscreen is set
before the QApplication exists when no display is available). The export folder is the last
line on stdout.

Exit 2 with one line, before anything is written, when RUN_DIR is not a readable run folder
(a file, no run.json, a damaged run.json) or DIR may not be written (a symlink, a file, a
non-empty folder that is not an earlier export of the same run: app.report.export_folder). A damaged
samples.csv is not fatal: the export goes on without the live-sample figures and says so in one
``ssd-profiler: warning:`` line and in report.md. Exit 1 when the system refuses a write.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.report.export import Warn, export_run
from app.report.export_folder import ExportFolder
from app.report.export_marker import run_identity
from app.report.options import ReportOptions
from app.store.run_folder import open_run
from ui.cli import verbosity
from ui.cli.exits import EXIT_BAD_INPUT, EXIT_OK, one_line, write_or_exit
from ui.cli.terminal import terminal_text
from ui.cli.vendor_spec_arg import spec_from_argument


def export_run_dir(run_dir: str | Path, out_dir: str | Path | None = None,
                   warn: Warn | None = None, vendor_spec: Mapping[str, Any] | None = None,
                   options: ReportOptions | None = None) -> Path:
    """Export with the real renderer (Qt offscreen when there is no display); the export
    folder (default ``<run_dir>/export``) holds report.md, report.html, report.pdf, tables/ and
    figures/."""
    from ui.render.figure_files import ensure_app, start_figure
    from ui.render.pdf import html_to_pdf
    ensure_app()
    return export_run(run_dir, out_dir, start_figure, warn, vendor_spec, html_to_pdf, options)


def report_options(args: argparse.Namespace) -> ReportOptions:
    """The title block and mode given on the command line (docs/report.md, "Two modes")."""
    return ReportOptions(getattr(args, "title", "") or "", getattr(args, "author", "") or "",
                         getattr(args, "course", "") or "", getattr(args, "date", "") or "",
                         not getattr(args, "no_interpretation", False)).cleaned()


def _warn(line: str) -> None:
    print(f"ssd-profiler: warning: {terminal_text(line)}", file=sys.stderr)


def cmd_export(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    out_dir = getattr(args, "out", None)
    try:  # the cheap checks first, before Qt starts
        spec = spec_from_argument(args.vendor_spec) if getattr(args, "vendor_spec", None) else None
        run = open_run(run_dir)
        ExportFolder(Path(out_dir) if out_dir else run_dir / "export",
                     run_identity(run.info.started_at, run_dir))
    except ValueError as exc:
        print(f"ssd-profiler: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"ssd-profiler: error: cannot read "
              f"{terminal_text(f'{exc.filename or run_dir}: {exc.strerror or exc}')}", file=sys.stderr)
        return EXIT_BAD_INPUT
    started = time.monotonic()
    options = report_options(args)
    out, failed = write_or_exit(lambda: export_run_dir(run_dir, out_dir, _warn, spec, options))
    if failed is not None:
        return failed
    if verbosity.shows_progress(args):
        print(f"exported {one_line(str(run_dir))} in {time.monotonic() - started:.1f} s",
              file=sys.stderr)
    # the last line is the export folder for scripts, byte for byte (as `run` prints its run
    # folder); on a terminal its name is data shown as text, hidden characters as escapes
    print(terminal_text(out) if sys.stdout.isatty() else out)
    return EXIT_OK
