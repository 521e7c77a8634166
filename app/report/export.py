"""Export orchestration: a run folder -> tables, figures, report.md, report.html and report.pdf
(docs/architecture.md, docs/report.md).

``render(figure, png_path, svg_path)`` is injected so that this module (and all of ``app``)
stays free of Qt: the command line passes ``ui.render.figure_files.start_figure``, the window
``render_figure``; tests of the data path may pass ``None`` (figures are then listed as not
drawn). A renderer may return a callable that completes the files (a PNG still being encoded
on another thread): it is called, and the files placed, once the next figure is drawn, so the
encoding overlaps the drawing; ``None`` means the files are complete.

Layout of the export folder (default ``<run_dir>/export``)::

    .ssd-profiler-export.json   the marker: this folder is an export of that run (export_folder)
    report.md  report.html (self-contained)  report.pdf (when a ``pdf`` printer is given)
    tables/<id>.csv  tables/<id>.md
    figures/<id>.png figures/<id>.svg

The summary is recomputed from the trials rather than read from ``run.json``, so a cancelled or
crashed run (whose stored summary may be partial or missing) exports what finished, and so does
a folder made from imported measurements (app/results/imported.py).

The export writes only where :class:`app.report.export_folder.ExportFolder` allows it (a new or empty
folder, or an earlier export of the same run), and only the files listed above.
"""
from __future__ import annotations

import errno
import logging
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from app.report.document_build import build_document
from app.report.export_folder import ExportFolder, safe_stem
from app.report.export_marker import run_identity
from app.report.html import document_html
from app.report.markdown import document_markdown
from app.report.options import ReportOptions
from app.report.outputs import build_figures, build_tables
from app.results.figure import Figure
from app.results.load import load_results
from app.results.run_results import RunResults
from app.results.table import to_csv, to_markdown
from app.specs import catalog as vendor
from app.specs import match as vendor_compare
from app.text import visible

log = logging.getLogger(__name__)

Render = Callable[[Figure, Path, Path], Callable[[], object] | None]
#: Prints report.pdf from the report's HTML, whose figures name export files, given with their
#: bytes (ui/render/pdf.py).
Print = Callable[[str, Mapping[str, bytes]], bytes]
Warn = Callable[[str], None]
#: What a damaged run.json (or a bug reading one) raises while the report is being computed.
DAMAGE = (KeyError, TypeError, AttributeError, IndexError, ValueError)


def export_run(run_dir: str | Path, out_dir: str | Path | None = None,
               render: Render | None = None, warn: Warn | None = None,
               vendor_spec: Mapping[str, Any] | None = None, pdf: Print | None = None,
               options: ReportOptions | None = None) -> Path:
    """Export a run folder; returns the export folder (default ``<run_dir>/export``).

    Raises ValueError with a one-line reason, before writing anything, when ``run_dir`` is not
    a readable run, its run.json is damaged, or the export folder is refused (see
    :mod:`app.report.export_folder`); OSError when the system refuses a write. ``warn`` gets one line
    for what is exported without (a damaged samples.csv), default: the log."""
    run_dir = Path(run_dir)
    loaded = load_results(run_dir, warn)
    notes = (loaded.samples_note,) if loaded.samples_note else ()
    return export_results(loaded.results, Path(out_dir) if out_dir else run_dir / "export", render,
                          notes, vendor_spec, pdf, options)


def export_results(results: RunResults, out_dir: Path, render: Render | None = None,
                   notes: tuple[str, ...] = (), vendor_spec: Mapping[str, Any] | None = None,
                   pdf: Print | None = None, options: ReportOptions | None = None) -> Path:
    """The export of ``results`` into ``out_dir``; everything is computed and every check made
    before the first file is written. ``vendor_spec`` (a spec record) replaces the run's own
    spec for this export (``export --vendor-spec``)."""
    folder = ExportFolder(out_dir, run_identity(results.run.info.started_at, results.folder))
    where = (results.folder or Path(".")) / "run.json"
    try:
        comparison = vendor_compare.compare_results(results, vendor_spec)
        tables = build_tables(results, comparison)
        figures = build_figures(results, comparison)
        texts = {}
        for table in tables:  # an id from run.json names a file only as a safe stem
            texts[f"tables/{safe_stem(table.id)}.csv"] = to_csv(table)
            texts[f"tables/{safe_stem(table.id)}.md"] = to_markdown(table, 2)
    except DAMAGE as exc:
        log.debug("computing the report failed", exc_info=True)
        # one line that says what: a folder's name or a value may hold line breaks
        raise ValueError(visible(f"{where} is damaged: {type(exc).__name__}: {exc}")) from None
    images = [f"figures/{safe_stem(f.id)}.{ext}" for f in figures for ext in ("png", "svg")] \
        if render else []
    reports = ["report.md", "report.html"] + (["report.pdf"] if pdf else [])
    folder.check_names([*texts, *images, *reports])
    folder.claim()
    try:
        for name, text in texts.items():
            folder.write(name, _utf8(text))  # "\n" line ends on every OS
        table_files = {t.id: (f"tables/{safe_stem(t.id)}.csv", f"tables/{safe_stem(t.id)}.md")
                       for t in tables}
        drawn, problems = _draw(folder, figures, render)
        try:
            doc = build_document(results, tables, table_files, figures, drawn, problems,
                                 comparison, vendor_hint=str(vendor.user_specs_path()),
                                 notes=list(notes), options=options)
        except DAMAGE as exc:
            raise ValueError(visible(f"{where} is damaged: {type(exc).__name__}: {exc}")) from None
        folder.write("report.md", _utf8(document_markdown(doc)))
        folder.write("report.html", _utf8(document_html(doc, folder.read)))
        if pdf is not None:
            names = [x for f in doc.figures() for x in (f.svg, f.png) if x]
            files = {n: data for n in names if (data := folder.read(n)) is not None}
            folder.write("report.pdf", pdf(document_html(doc, folder.read, images="names"), files))
    finally:
        folder.close()
    return folder.dir


def _utf8(text: str) -> bytes:
    """An export file's bytes. A name that is not UTF-8 text (a folder with undecodable bytes,
    a run.json string with a lone surrogate) is written as its ``\\udcXX`` escape: the export is
    written whole, never refused half-way by one such character."""
    return text.encode("utf-8", "backslashreplace")


Files = dict[str, tuple[str, str]]


def _draw(folder: ExportFolder, figures: list[Figure],
          render: Render | None) -> tuple[Files, dict[str, str]]:
    """Render each figure into a private staging folder, then rename it into figures/; a
    figure's files are completed (see the module docstring) after the next one is drawn."""
    drawn: Files = {}
    problems: dict[str, str] = {}
    if render is None:
        return drawn, {fig.id: "no renderer was given (data-only export)" for fig in figures}
    if not figures:
        return drawn, problems

    def failed(fig: Figure, exc: Exception) -> None:  # one bad figure must not cost the report
        log.error("figure %s failed", fig.id, exc_info=exc)
        problems[fig.id] = f"{type(exc).__name__}: {exc}"

    with folder.staging() as staging:
        def place(fig: Figure, complete: Callable[[], object] | None) -> None:
            try:
                if complete is not None:
                    complete()
            except Exception as exc:
                return failed(fig, exc)
            stem = safe_stem(fig.id)
            for name in (f"{stem}.png", f"{stem}.svg"):
                staging.place(name, f"figures/{name}")
            drawn[fig.id] = (f"figures/{stem}.png", f"figures/{stem}.svg")

        pending = None  # (figure, completion): drawn, its files not yet placed
        try:
            for fig in figures:
                _room_for_figures(staging.dir)
                try:
                    complete = render(fig, staging.path(f"{safe_stem(fig.id)}.png"),
                                      staging.path(f"{safe_stem(fig.id)}.svg"))
                except Exception as exc:
                    failed(fig, exc)
                    continue
                previous, pending = pending, (fig, complete)
                if previous:
                    place(*previous)
            previous, pending = pending, None
            if previous:
                place(*previous)
        finally:  # after an error too: nothing may still be writing into the staging folder
            if pending and pending[1] is not None:
                try:
                    pending[1]()
                except Exception:  # noqa: BLE001 - already reported, or not the error to raise
                    pass
    return drawn, {fig.id: problems[fig.id] for fig in figures if fig.id in problems}


MIN_FREE_BYTES = 2 * 1024 * 1024   # a figure's PNG + SVG take a few hundred KiB


def _room_for_figures(folder: Path) -> None:
    """A full disk ends the export as a write error (exit 1 with the reason), checked before each
    figure: drawing into it fails inside Qt and libpng, which print their own lines and only
    return False, so the user would see noise and exit 0 instead of 'no space left'."""
    if shutil.disk_usage(folder).free < MIN_FREE_BYTES:
        raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)} (less than 2 MiB free for the "
                      "figures)", str(folder.parent))
