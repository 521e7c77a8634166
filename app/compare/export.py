"""Writing a comparison's export: the same files from ``ssd-profiler compare --out DIR`` and the
window's "Export comparison". No Qt: the renderer is injected, as for a run's export
(app/report/export.py), so the CLI passes the offscreen one and the window one that draws on its GUI
thread.

Layout of the export folder::

    .ssd-profiler-export.json   the marker: an export of this comparison (app/export_folder)
    report.md                   the comparison as a report section, figures embedded
    comparison.csv  comparison.md
    figures/<id>.png  figures/<id>.svg

The folder follows the rule of every export: new, empty, or an earlier export of the very same
comparison (the same run folders in the same order); anything else is refused, before writing.
comparison.csv's text cells (labels, drive models, ids from the runs) that a spreadsheet would
read as a formula get a leading single quote (app/text); its numbers stay numbers.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from app.compare.report import Comparison, markdown, report_section
from app.report.export import Render, _utf8
from app.report.export import _draw as draw_figures  # the staging and renaming of a run's export
from app.report.export_folder import ExportFolder, safe_stem
from app.report.export_marker import RunIdentity
from app.text import csv_text

CSV_FORMAT = "%.10g"


def comparison_identity(run_dirs: Sequence[str | os.PathLike[str]]) -> RunIdentity:
    """What the export marker stores: the run folders compared, in order."""
    names = "+".join(Path(d).resolve().name for d in run_dirs)
    return RunIdentity(f"compare:{names}", None)


def csv_safe(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every text cell as :func:`app.text.csv_text` writes it."""
    out = table.copy()
    for name in out.columns:
        if not pd.api.types.is_numeric_dtype(out[name]):
            out[name] = [csv_text(v) if isinstance(v, str) else v for v in out[name]]
    return out


def comparison_folder(run_dirs: Sequence[str | os.PathLike[str]],
                      out_dir: str | os.PathLike[str]) -> ExportFolder:
    """The export folder, checked (ExportRefused, a ValueError, with one line); nothing written."""
    return ExportFolder(Path(out_dir), comparison_identity(run_dirs))


def default_export_dir(run_dirs: Sequence[str | os.PathLike[str]]) -> Path:
    """``<first run>/compare-<the other runs' folder names>``: in the app's own folder, and a
    new comparison with the same first run never lands on an earlier one."""
    first = Path(run_dirs[0])
    return first / ("compare-" + "+".join(Path(d).resolve().name for d in run_dirs[1:]))


def export_comparison(comparison: Comparison, out_dir: str | os.PathLike[str],
                      render: Render | None = None) -> Path:
    """Write the export into ``out_dir``; returns it. Every check is made before the first file
    is written; a figure that fails to draw is named in report.md, the rest is written."""
    folder = comparison_folder(comparison.run_dirs, out_dir)
    table = comparison.table
    texts = {"comparison.csv": csv_safe(table).to_csv(index=False, float_format=CSV_FORMAT),
             "comparison.md": markdown(comparison)}
    images = [f"figures/{safe_stem(f.id)}.{ext}" for f in comparison.figures
              for ext in ("png", "svg")] if render else []
    folder.check_names([*texts, *images, "report.md"])
    folder.claim()
    try:
        for name, text in texts.items():
            folder.write(name, _utf8(text))
        drawn, problems = draw_figures(folder, list(comparison.figures), render)
        folder.write("report.md", _utf8(report_section(comparison, drawn, problems)))
    finally:
        folder.close()
    return folder.dir
