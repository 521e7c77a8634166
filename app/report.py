"""Export orchestration: a run folder -> tables, figures and report.md (issue 5).

``render(figure, png_path, svg_path)`` is injected so that this module (and all of ``app``)
stays free of Qt: the command line passes ``ui.render.export.start_figure``, the window
``render_figure``; tests of the data path may pass ``None`` (figures are then listed as not
drawn). A renderer may return a callable that completes the files (a PNG still being encoded
on another thread): it is called, and the files placed, once the next figure is drawn, so the
encoding overlaps the drawing; ``None`` means the files are complete.

Layout of the export folder (default ``<run_dir>/export``)::

    .ssd-profiler-export.json   the marker: this folder is an export of that run (export_folder)
    report.md
    tables/<id>.csv  tables/<id>.md
    figures/<id>.png figures/<id>.svg

The summary is recomputed from the trials rather than read from ``run.json``, so a cancelled or
crashed run (whose stored summary may be partial or missing) exports what finished, and so does
a folder made from imported measurements (:func:`run_from_measurements`).

The export writes only where :class:`app.export_folder.ExportFolder` allows it (a new or empty
folder, or an earlier export of the same run), and only the files listed above.
"""
from __future__ import annotations

import csv
import errno
import logging
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from app import __version__, vendor, vendor_compare
from app.experiment_outputs import build_figures, build_tables
from app.experiments.registry import IMPORTED
from app.export_folder import ExportFolder, run_identity, safe_stem
from app.figures import Figure
from app.model.status import JobStatus, RunStatus, TrialStatus
from app.model.workload import Workload
from app.report_text import report_markdown
from app.samples_file import SamplesRefused
from app.store import SCHEMA_VERSION, load_run, write_json_atomic
from app.summary import read_samples, summarize_run
from app.tables import to_csv, to_markdown

log = logging.getLogger(__name__)

Render = Callable[[Figure, Path, Path], Callable[[], object] | None]
Warn = Callable[[str], None]
#: What a damaged run.json (or a bug reading one) raises while the report is being computed.
DAMAGE = (KeyError, TypeError, AttributeError, IndexError, ValueError)


def export_run(run_dir: str | Path, out_dir: str | Path | None = None,
               render: Render | None = None, warn: Warn | None = None) -> Path:
    """Export a run folder; returns the export folder (default ``<run_dir>/export``).

    Raises ValueError with a one-line reason, before writing anything, when ``run_dir`` is not
    a readable run, its run.json is damaged, or the export folder is refused (see
    :mod:`app.export_folder`); OSError when the system refuses a write. ``warn`` gets one line
    for what is exported without (a damaged samples.csv), default: the log."""
    run_dir = Path(run_dir)
    record = load_run(run_dir)
    return export_record(record, Path(out_dir) if out_dir else run_dir / "export", render,
                         run_dir, warn)


def _samples(record: dict, run_dir: Path | None) -> tuple[list[dict], str | None]:
    """samples.csv's rows, or ``([], note)`` when it is damaged: the live samples feed a few
    figures and the cache finding only, so a crash-truncated or edited file costs those, not
    the whole export. A samples.csv that is not the app's regular file (a FIFO, a link, too
    big: app.samples_file) is refused with its one line, never waited on."""
    folder = run_dir or record.get("dir")
    if not folder:
        return [], None
    path = Path(folder) / "samples.csv"
    try:
        return read_samples(folder), None
    except SamplesRefused as exc:
        return [], str(exc)
    except (*DAMAGE, csv.Error, OSError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [], f"{path} is damaged ({reason})"


def export_record(record: dict, out_dir: Path, render: Render | None = None,
                  run_dir: Path | None = None, warn: Warn | None = None) -> Path:
    """The export of ``record`` into ``out_dir``; everything is computed and every check made
    before the first file is written."""
    folder = ExportFolder(out_dir, run_identity(record, run_dir or record.get("dir")))
    samples, note = _samples(record, run_dir)
    notes = []
    if note:
        notes.append(f"{note}: exported without the live-sample figures and findings")
        (warn or log.warning)(notes[-1])
    where = Path(run_dir or record.get("dir") or ".") / "run.json"
    try:
        # summarize_run reads samples.csv itself unless it has no folder to read from
        summary = (summarize_run(record, run_dir) if not note else
                   summarize_run({**record, "dir": None}, None))
        spec = vendor.spec_for_run(record)
        comparison = vendor_compare.compare(summary, spec, record) if spec else None
        tables = build_tables(record, summary, comparison)
        figures = build_figures(record, summary, samples, comparison)
        texts = {}
        for table in tables:  # an id from run.json names a file only as a safe stem
            texts[f"tables/{safe_stem(table.id)}.csv"] = to_csv(table)
            texts[f"tables/{safe_stem(table.id)}.md"] = to_markdown(table, 2)
    except DAMAGE as exc:
        log.debug("computing the report failed", exc_info=True)
        raise ValueError(f"{where} is damaged: {type(exc).__name__}: {exc}".splitlines()[0]) from None
    images = [f"figures/{safe_stem(f.id)}.{ext}" for f in figures for ext in ("png", "svg")] \
        if render else []
    folder.check_names([*texts, *images, "report.md"])
    folder.claim()
    try:
        for name, text in texts.items():
            folder.write(name, _utf8(text))  # "\n" line ends on every OS
        table_files = {t.id: (f"tables/{safe_stem(t.id)}.csv", f"tables/{safe_stem(t.id)}.md")
                       for t in tables}
        drawn, problems = _draw(folder, figures, render)
        try:
            text = report_markdown(record, summary, tables, table_files, figures, drawn, problems,
                                   comparison, vendor_hint=str(vendor.user_specs_path()), notes=notes)
        except DAMAGE as exc:
            raise ValueError(f"{where} is damaged: {type(exc).__name__}: {exc}".splitlines()[0]) from None
        folder.write("report.md", _utf8(text))
    finally:
        folder.close()
    return folder.dir


def _utf8(text: str) -> bytes:
    """An export file's bytes. A name that is not UTF-8 text (a folder with undecodable bytes,
    a run.json string with a lone surrogate) is written as its ``\\udcXX`` escape: the export is
    written whole, never refused half-way by one such character."""
    return text.encode("utf-8", "backslashreplace")


def _draw(folder: ExportFolder, figures: list[Figure], render: Render | None) -> tuple[dict, dict]:
    """Render each figure into a private staging folder, then rename it into figures/; a
    figure's files are completed (see the module docstring) after the next one is drawn."""
    drawn, problems = {}, {}
    if render is None:
        return drawn, {fig.id: "no renderer was given (data-only export)" for fig in figures}
    if not figures:
        return drawn, problems

    def failed(fig: Figure, exc: Exception) -> None:  # one bad figure must not cost the report
        log.error("figure %s failed", fig.id, exc_info=exc)
        problems[fig.id] = f"{type(exc).__name__}: {exc}"

    with folder.staging() as staging:
        def place(fig: Figure, complete) -> None:
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


# -- imported measurements --------------------------------------------------------------------

def _label(m: dict, w: dict) -> str:
    try:
        return Workload.from_json(w).label
    except (KeyError, TypeError, ValueError):
        return str(m.get("job") or "imported job")


def run_from_measurements(measurements: list[dict], title: str = "Imported measurements") -> dict:
    """A minimal run record (experiment ``imported``), each measurement one trial.

    Measurements with the same workload are aggregated as repetitions by the summary, which is
    what a user importing several runs of one job expects; the ``imported`` table still lists
    every job on its own row. Host, drive and target are unknown (None) unless the caller adds
    them, e.g. ``record["drive"] = {"model": ...}`` so the vendor comparison can match.
    """
    trials = []
    for i, m in enumerate(measurements):
        mw = m.get("workload") or {}
        w = {k: mw.get(k) for k in ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")}
        failed = m.get("status") == JobStatus.FAILED or not (m.get("read") or m.get("write"))
        trials.append({"index": i, "experiment": IMPORTED, "workload": w, "label": _label(m, w),
                       "repetition": 1, "warmup": False, "runtime_s": mw.get("runtime_s"),
                       "status": TrialStatus.FAILED if failed else TrialStatus.DONE, "error": m.get("error"),
                       "measurement": m, "source": m.get("source")})
    first = measurements[0] if measurements else {}
    record = {"schema_version": SCHEMA_VERSION, "status": RunStatus.DONE, "app_version": __version__,
            "started_at": None, "ended_at": None, "origin": "import",
            "experiments": [{"id": IMPORTED, "title": title, "params": {},
                             "workload_keys": []}],
            "seed": None, "target": None, "drive": None, "host": None,
            "engine": {"name": first.get("engine"), "version": first.get("engine_version"),
                       "path": None},
            "planned_trials": [], "trials": trials, "summary": {}}
    record["summary"] = summarize_run(record)   # lat_us.pooled of json+ imports, as a run's
    return record


def check_new_run_folder(folder: str | Path) -> None:
    """Raise ValueError (one line) unless ``folder`` is new or an empty real folder: a run
    folder is the app's own, so it is never made inside a symlink, over a file, or among
    someone's files."""
    folder = Path(folder)
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise ValueError(f"{folder}: a part of this path is a file, not a folder") from None
    if stat.S_ISLNK(info.st_mode):
        raise ValueError(f"{folder} is a symbolic link; give a new folder, not a link")
    if not stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{folder} exists and is not a folder; give a new folder")
    if os.listdir(folder):
        raise ValueError(f"{folder} exists and is not empty; give a new or empty folder")


def write_run_folder(record: dict, folder: str | Path) -> Path:
    """Save a record (e.g. from :func:`run_from_measurements`) as a run folder's run.json.

    Refused (ValueError) by :func:`check_new_run_folder`; on a failed write the folder, when
    this call made it, is removed again, and no temp file is left."""
    folder = Path(folder)
    check_new_run_folder(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(folder)
        made = True
    except FileExistsError:
        made = False
        check_new_run_folder(folder)  # appeared meanwhile: judge it again
    try:
        write_json_atomic(folder / "run.json", {k: v for k, v in record.items() if k != "dir"})
    except BaseException:
        if made:
            try:
                folder.rmdir()
            except OSError:
                pass
        raise
    return folder
