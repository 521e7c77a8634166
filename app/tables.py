"""Report tables: one model, two writers (CSV for tools, Markdown for report.md).

Output is deterministic so that exporting a run twice gives byte-identical files (they go into
version control and diffs): rows keep plan order, floats use fixed formats (CSV 3 decimals,
Markdown the column's digits), line endings are "\\n", and nothing time-dependent is written.

A cell of a *stat* column is a summary ``{"mean", "std", "n"}`` (mean ± sample std across
repetitions): CSV splits it into ``<key>_mean`` and ``<key>_std`` columns, Markdown shows
"mean ± std". The repetition count is its own ``n`` column. ``notes`` (the exact workload and
engine parameters) are printed under the Markdown table; the CSV carries the workload
parameters as columns instead, so it stays a plain rectangular file.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from app.experiments import CATALOG
from app.params import fields_of, format_value


@dataclass(frozen=True)
class Column:
    name: str            # Markdown header, with unit
    key: str             # CSV header (stat columns get _mean/_std), unit in the name
    digits: int = 1      # decimals in Markdown
    stat: bool = False
    where: str = "both"  # both | csv | md: workload parameters go to CSV, labels to Markdown


@dataclass(frozen=True)
class Table:
    id: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple, ...]
    notes: tuple[str, ...] = ()
    experiment: str = ""


def _csv_number(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def to_csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header = []
    for c in table.columns:
        if c.where != "md":
            header += [f"{c.key}_mean", f"{c.key}_std"] if c.stat else [c.key]
    writer.writerow(header)
    for row in table.rows:
        cells = []
        for c, v in zip(table.columns, row):
            if c.where == "md":
                continue
            if c.stat:
                v = v or {}
                cells += [_csv_number(v.get("mean")), _csv_number(v.get("std"))]
            else:
                cells.append(_csv_number(v))
        writer.writerow(cells)
    return buf.getvalue()


def _md_number(value, digits: int) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def md_cell(column: Column, value) -> str:
    if not column.stat:
        return _md_number(value, column.digits)
    value = value or {}
    if value.get("mean") is None:
        return "–"
    text = _md_number(float(value["mean"]), column.digits)
    if value.get("std") is not None:
        text += f" ± {_md_number(float(value['std']), column.digits)}"
    return text


def _numeric(table: Table, index: int) -> bool:
    """Right-align a column whose cells are numbers or summaries (text stays left)."""
    cells = [row[index] for row in table.rows if row[index] is not None]
    return bool(cells) and all(isinstance(c, (int, float, dict)) and not isinstance(c, bool)
                               for c in cells)


def to_markdown(table: Table, heading_level: int = 3) -> str:
    """The table with its title as a heading and its notes as a list under it."""
    lines = [f"{'#' * heading_level} {table.title}", ""]
    shown = [i for i, c in enumerate(table.columns) if c.where != "csv"]
    cols = [table.columns[i] for i in shown]
    if not table.rows:
        lines += ["No finished trials.", ""]
    else:
        lines.append("| " + " | ".join(c.name for c in cols) + " |")
        lines.append("|" + "|".join(":---" if i == 0 or not _numeric(table, j) else "---:"
                                    for i, j in enumerate(shown)) + "|")
        for row in table.rows:
            lines.append("| " + " | ".join(md_cell(c, row[i]) for c, i in zip(cols, shown)) + " |")
        lines.append("")
    lines += [f"- {note}" for note in table.notes]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- notes: the exact parameters under each table ------------------------------------------------

def params_text(exp: dict) -> str:
    """An experiment's parameters as ``--set`` would take them, e.g. 'runtime=1s size=32MiB'."""
    cls = CATALOG.get(exp.get("id"))
    values = exp.get("params") or {}
    kinds = {f.name: f.metadata["kind"] for f in fields_of(cls)} if cls else {}
    parts = []
    for name, value in values.items():
        kind = kinds.get(name)
        parts.append(f"{name}={format_value(kind, value) if kind else value}")
    return " ".join(parts)


def workload_text(w: dict) -> str:
    keys = ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")
    return " ".join(f"{k}={w.get(k)}" for k in keys if w.get(k) is not None)


def engine_note(record: dict, eid: str) -> str | None:
    """Options every trial of the experiment shared (argv minus per-trial and path options)."""
    trial = next((t for t in record.get("trials", []) if t.get("experiment") == eid
                  and t.get("argv")), None)
    if not trial:
        return None
    skip = ("--name=", "--filename=", "--trigger-file=", "--rw=", "--bs=", "--iodepth=",
            "--numjobs=", "--rwmixread=")
    opts = [a for a in trial["argv"][1:] if not a.startswith(skip)]
    engine = record.get("engine") or {}
    return f"Engine: {engine.get('version') or engine.get('name')} `{' '.join(opts)}`"


def parameter_notes(record: dict, eid: str, rows: list[dict]) -> tuple[str, ...]:
    exp = next((e for e in record.get("experiments", []) if e["id"] == eid), {})
    notes = [f"Parameters: `{params_text(exp)}`" + (f", seed {record['seed']}"
                                                     if record.get("seed") is not None else "")]
    notes += [f"{r['label']}: `{workload_text(r['workload'])}`" for r in rows]
    engine = engine_note(record, eid)
    if engine:
        notes.append(engine)
    notes.append("Cells: mean ± sample std over n repetitions (warm-ups, failed and cancelled "
                 "trials excluded); MB/s = 10^6 B/s.")
    return tuple(notes)


def build_tables(record: dict, summary: dict, comparison: dict | None = None) -> list[Table]:
    """Every table of a run, in experiment order, then the vendor comparison."""
    from app import tables_experiments as tx
    out: list[Table] = []
    for exp in record.get("experiments", []):
        eid = exp["id"]
        part = summary.get(eid) or {"workloads": [], "findings": {}}
        out += tx.tables_for(eid, part, record)
    if comparison:
        out.append(tx.vendor_table(comparison))
    return out
