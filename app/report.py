"""Export orchestration: a run folder -> tables, figures and report.md (issue 5).

``render(figure, png_path, svg_path)`` is injected so that this module (and all of ``app``)
stays free of Qt: the command line and the window pass ``ui.figure_render.render_figure``;
tests of the data path may pass ``None`` (figures are then listed as not drawn).

Layout of the export folder (default ``<run_dir>/export``)::

    report.md
    tables/<id>.csv  tables/<id>.md
    figures/<id>.png figures/<id>.svg

The summary is recomputed from the trials rather than read from ``run.json``, so a cancelled or
crashed run (whose stored summary may be partial or missing) exports what finished, and so does
a folder made from imported measurements (:func:`run_from_measurements`).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from app import __version__, vendor
from app.figures import Figure, build_figures
from app.report_text import report_markdown
from app.store import SCHEMA_VERSION, load_run, write_json_atomic
from app.summary import read_samples, summarize_run
from app.tables import build_tables, to_csv, to_markdown
from app.workloads import Workload

log = logging.getLogger(__name__)

Render = Callable[[Figure, Path, Path], None]
IMPORTED = "imported"


def _write_text(path: Path, text: str) -> None:
    """UTF-8 with "\\n" line endings on every OS (newline="" stops the platform translation)."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def export_run(run_dir: str | Path, out_dir: str | Path | None = None,
               render: Render | None = None) -> Path:
    """Export a run folder; raises ValueError when ``run_dir`` is not one. Returns the folder."""
    run_dir = Path(run_dir)
    record = load_run(run_dir)
    return export_record(record, Path(out_dir) if out_dir else run_dir / "export", render, run_dir)


def export_record(record: dict, out_dir: Path, render: Render | None = None,
                  run_dir: Path | None = None) -> Path:
    out_dir = Path(out_dir)
    (out_dir / "tables").mkdir(parents=True, exist_ok=True)
    summary = summarize_run(record, run_dir)
    samples = read_samples(run_dir) if run_dir else []
    spec = vendor.spec_for_run(record)
    comparison = vendor.compare(summary, spec, record) if spec else None

    tables = build_tables(record, summary, comparison)
    table_files = {}
    for table in tables:
        _write_text(out_dir / "tables" / f"{table.id}.csv", to_csv(table))
        _write_text(out_dir / "tables" / f"{table.id}.md", to_markdown(table, 2))
        table_files[table.id] = (f"tables/{table.id}.csv", f"tables/{table.id}.md")

    figures = build_figures(record, summary, samples, comparison)
    drawn, problems = {}, {}
    if figures and render is not None:
        (out_dir / "figures").mkdir(exist_ok=True)
    for fig in figures:
        if render is None:
            problems[fig.id] = "no renderer was given (data-only export)"
            continue
        png, svg = out_dir / "figures" / f"{fig.id}.png", out_dir / "figures" / f"{fig.id}.svg"
        try:
            render(fig, png, svg)
            drawn[fig.id] = (f"figures/{fig.id}.png", f"figures/{fig.id}.svg")
        except Exception as exc:  # one bad figure must not cost the user the whole report
            log.exception("figure %s failed", fig.id)
            problems[fig.id] = f"{type(exc).__name__}: {exc}"

    text = report_markdown(record, summary, tables, table_files, figures, drawn, problems,
                           comparison, vendor_hint=str(vendor.user_specs_path()))
    _write_text(out_dir / "report.md", text)
    return out_dir


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
        failed = m.get("status") == "failed" or not (m.get("read") or m.get("write"))
        trials.append({"index": i, "experiment": IMPORTED, "workload": w, "label": _label(m, w),
                       "repetition": 1, "warmup": False, "runtime_s": mw.get("runtime_s"),
                       "status": "failed" if failed else "done", "error": m.get("error"),
                       "measurement": m, "source": m.get("source")})
    first = measurements[0] if measurements else {}
    return {"schema_version": SCHEMA_VERSION, "status": "done", "app_version": __version__,
            "started_at": None, "ended_at": None, "origin": "import",
            "experiments": [{"id": IMPORTED, "title": title, "params": {},
                             "workload_keys": []}],
            "seed": None, "target": None, "drive": None, "host": None,
            "engine": {"name": first.get("engine"), "version": first.get("engine_version"),
                       "path": None},
            "planned_trials": [], "trials": trials, "summary": {}}


def write_run_folder(record: dict, folder: str | Path) -> Path:
    """Save a record (e.g. from :func:`run_from_measurements`) as a run folder's run.json."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_json_atomic(folder / "run.json", {k: v for k, v in record.items() if k != "dir"})
    return folder
