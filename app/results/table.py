"""Report tables: one model, two writers (CSV for tools, Markdown for report.md).

Output is deterministic so that exporting a run twice gives byte-identical files (they go into
version control and diffs): rows keep plan order, floats use fixed formats (CSV 3 decimals,
Markdown the column's digits), line endings are "\\n", and nothing time-dependent is written.

A cell of a *stat* column is a :class:`Stat` (mean ± sample std across repetitions; the
``{"mean", "std", "n"}`` mapping of run.json is read the same): CSV splits it into ``<key>_mean`` and ``<key>_std`` columns, Markdown shows
"mean ± std". The repetition count is its own ``n`` column. ``notes`` (the exact workload and
engine parameters) are printed under the Markdown table; the CSV carries the workload
parameters as columns instead, so it stays a plain rectangular file.

Text from a run folder (a label, a workload's ``rw``, an id) is data in both (app/text/): a CSV
text cell that a spreadsheet would take for a formula gets a leading single quote (numbers are
written as numbers and stay so), and Markdown text is escaped (no link, tag or heading from it).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.model.summary import Stat, WorkloadSummary
from app.params import build_or_none, fields_of, format_value
from app.results.figure import as_stat
from app.text import csv_text
from app.text.markup import md_inline, md_text

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


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
    rows: tuple[tuple[Any, ...], ...]
    notes: tuple[str, ...] = ()
    experiment: str = ""


def _csv_number(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.3f}"
    return csv_text(str(value))


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
                stat = as_stat(v)
                cells += [_csv_number(stat.mean if stat else None),
                          _csv_number(stat.std if stat else None)]
            else:
                cells.append(_csv_number(v))
        writer.writerow(cells)
    return buf.getvalue()


def _md_number(value: object, digits: int) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return md_text(str(value), table=True)


def md_cell(column: Column, value: Any) -> str:
    if not column.stat:
        return _md_number(value, column.digits)
    stat = as_stat(value)
    if stat is not None and stat.too_few is not None:
        return stat.mark() or "–"      # a percentile on too few I/Os: the mark, never a value
    if stat is None or stat.mean is None:
        return "–"
    text = _md_number(float(stat.mean), column.digits)
    if stat.std is not None:
        text += f" ± {_md_number(float(stat.std), column.digits)}"
    return text


def _numeric(table: Table, index: int) -> bool:
    """Right-align a column whose cells are numbers or summaries (text stays left)."""
    cells = [row[index] for row in table.rows if row[index] is not None]
    return bool(cells) and all(isinstance(c, (int, float, Stat, Mapping)) and not isinstance(c, bool)
                               for c in cells)


def to_markdown(table: Table, heading_level: int = 3) -> str:
    """The table with its title as a heading and its notes as a list under it."""
    lines = [f"{'#' * heading_level} {md_inline(table.title, block=False)}", ""]
    shown = [i for i, c in enumerate(table.columns) if c.where != "csv"]
    cols = [table.columns[i] for i in shown]
    if not table.rows:
        lines += ["No finished trials.", ""]
    else:
        lines.append("| " + " | ".join(md_inline(c.name, table=True) for c in cols) + " |")
        lines.append("|" + "|".join(":---" if i == 0 or not _numeric(table, j) else "---:"
                                    for i, j in enumerate(shown)) + "|")
        for row in table.rows:
            lines.append("| " + " | ".join(md_cell(c, row[i]) for c, i in zip(cols, shown)) + " |")
        lines.append("")
    lines += [f"- {md_inline(note)}" for note in table.notes]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- notes: the exact parameters under each table ------------------------------------------------

def params_text(values: Mapping[str, Any], cls: type | None = None) -> str:
    """An experiment's parameters as ``--set`` would take them, e.g. 'runtime=1s size=32MiB',
    in the order ``values`` (as run.json records them) lists them.

    ``cls`` is the experiment's class: the values are read as it types them (sizes print as
    '32MiB'). Without it (imported or unknown ids), or when the values do not build into it
    (another version's, someone else's run folder), they print as stored."""
    typed = build_or_none(cls, values) if cls else None
    kinds = {f.name: f.metadata["kind"] for f in fields_of(cls)} if typed is not None else {}
    return " ".join(f"{name}={format_value(kinds[name], getattr(typed, name))}" if name in kinds
                    else f"{name}={value}" for name, value in values.items())


def workload_text(w: Mapping[str, Any]) -> str:
    keys = ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")
    return " ".join(f"{k}={w.get(k)}" for k in keys if w.get(k) is not None)


def engine_note(run: RunResults, eid: str) -> str | None:
    """Options every trial of the experiment shared (argv minus per-trial and path options)."""
    trial = next((t for t in run.run.trials if t.experiment == eid and t.argv), None)
    if trial is None or trial.argv is None:
        return None
    skip = ("--name=", "--filename=", "--trigger-file=", "--rw=", "--bs=", "--iodepth=",
            "--numjobs=", "--rwmixread=")
    argv = trial.job_argv or trial.argv
    opts = [str(a) for a in argv[1:] if not str(a).startswith(skip)]
    engine = run.run.info.engine
    name = (engine.version or engine.name) if engine else None
    return f"Engine: {name} `{' '.join(opts)}`"


def parameter_notes(part: ExperimentResults, run: RunResults, rows: Sequence[WorkloadSummary],
                    cls: type | None = None) -> tuple[str, ...]:
    seed = run.run.info.seed
    notes = [f"Parameters: `{params_text(part.entry.params, cls)}`" + (f", seed {seed}"
                                                            if seed is not None else "")]
    notes += [f"{r.label}: `{workload_text(r.workload_json)}`" for r in rows]
    engine = engine_note(run, part.id)
    if engine:
        notes.append(engine)
    notes.append("Cells: mean ± sample std over n repetitions (warm-ups, failed and cancelled "
                 "trials excluded); MB/s = 10^6 B/s.")
    return tuple(notes)


# -- workload tables: the columns every experiment's table starts with ---------------------------
# A CSV row says exactly what was run (workload parameters as CSV-only columns) and the Markdown
# stays readable (the label as a Markdown-only column).

W_KEYS = ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")
W_COLS = tuple(Column(k, k, where="csv") for k in W_KEYS)
LABEL = Column("Workload", "label", where="md")
N = Column("n", "n", 0)
IOPS = Column("IOPS", "iops", 0, True)
MBPS = Column("MB/s", "MBps", 1, True)


def latency_kind(rows: Sequence[WorkloadSummary]) -> str:
    """The latency kind the rows were measured with, for column headers ('unknown kind')."""
    return next((str(r.lat_kind) for r in rows if r.lat_kind), "unknown kind")


def lat_column(name: str, key: str, kind: str) -> Column:
    """A latency stat column, e.g. 'p99 lat. (µs, total)' / ``lat_p99_us``."""
    return Column(f"{name} lat. (µs, {kind})", f"{key}_us", 1, True)


def workload_cells(row: WorkloadSummary) -> tuple[Any, ...]:
    """The cells of the CSV-only workload columns (W_COLS) and the label column."""
    return (*(row.workload_json.get(k) for k in W_KEYS), row.label)


def workload_table(part: ExperimentResults, run: RunResults, tid: str, title: str,
                   cols: Sequence[Column], rows: Sequence[tuple[Any, ...]],
                   source_rows: Sequence[WorkloadSummary] | None = None,
                   extra_notes: tuple[str, ...] = (), cls: type | None = None) -> Table:
    """A table of one experiment with the parameter notes under it (``source_rows``: the
    workloads the notes list, by default all of the part's, in plan order)."""
    notes = parameter_notes(part, run, part.workloads if source_rows is None else source_rows, cls)
    cols, rows = too_few_flags(cols, rows)
    return Table(tid, title, tuple(cols), tuple(rows), tuple(extra_notes) + notes, part.id)


def too_few_flags(cols: Sequence[Column], rows: Sequence[tuple[Any, ...]]
                  ) -> tuple[list[Column], list[tuple[Any, ...]]]:
    """After each stat column in which some row holds a percentile resting on too few I/Os
    (``Stat.too_few``, app/model/percentiles.py), a CSV-only column ``<key>_too_few`` (true or
    false): the CSV keeps such a value only beside its flag; Markdown shows the mark instead.
    Columns without one are left as they were, so tables without thin percentiles keep their
    bytes."""
    flagged = [i for i, c in enumerate(cols) if c.stat and any(
        (st := as_stat(r[i])) is not None and st.too_few is not None for r in rows)]
    if not flagged:
        return list(cols), list(rows)
    out_cols: list[Column] = []
    for i, c in enumerate(cols):
        out_cols.append(c)
        if i in flagged:
            out_cols.append(Column(f"{c.name}: too few I/Os", f"{c.key}_too_few", where="csv"))
    out_rows = []
    for r in rows:
        cells: list[Any] = []
        for i, v in enumerate(r):
            cells.append(v)
            if i in flagged:
                cells.append((st := as_stat(v)) is not None and st.too_few is not None)
        out_rows.append(tuple(cells))
    return out_cols, out_rows


Cells = Sequence[tuple[Column, Callable[[WorkloadSummary], Any]]]

#: With a precision target (app/model/precision.py): the achieved ± of IOPS and MB/s and
#: whether the target was reached, in words for Markdown, as numbers for CSV.
PRECISION_CELLS: Cells = (
    (Column("Achieved ± (95 %)", "precision", where="md"),
     lambda r: r.precision.text(advice=False) if r.precision else "fixed time"),
    (Column("precision_achieved_pct", "precision_achieved_pct", 2, where="csv"),
     lambda r: None if not r.precision or r.precision.achieved is None
     else r.precision.achieved * 100),
    (Column("precision_target_pct", "precision_target_pct", 2, where="csv"),
     lambda r: r.precision.target * 100 if r.precision else None),
    (Column("precision_reached", "precision_reached", where="csv"),
     lambda r: r.precision.reached if r.precision else None))


def rows_table(part: ExperimentResults, run: RunResults, tid: str, title: str,
               rows: Sequence[WorkloadSummary], cells: Cells, extra_notes: tuple[str, ...] = (),
               cls: type | None = None) -> Table:
    """One line per workload: the workload columns, then ``cells`` (each a column and how to
    read its cell from the row), then n; the parameter notes list ``rows``."""
    if any(r.precision for r in rows):
        cells = [*cells, *PRECISION_CELLS]
    cols = [*W_COLS, LABEL, *(c for c, _ in cells), N]
    data = [(*workload_cells(r), *(cell(r) for _, cell in cells), r.n) for r in rows]
    return workload_table(part, run, tid, title, cols, data, rows, extra_notes, cls)


def lat_cells(kind: str, stats: Sequence[str], direction: str | None = None,
              prefix: str = "") -> list[tuple[Column, Callable[[WorkloadSummary], Any]]]:
    """Latency stat columns of ``direction`` (default: each row's main one), e.g. 'p99 lat.
    (µs, total)' / ``lat_p99_us``; ``prefix`` names the direction ('Read p99' / ``read_lat_p99``)."""
    def cell(stat: str) -> Callable[[WorkloadSummary], Any]:
        return lambda r: r.lat(stat, direction)
    return [(lat_column(f"{prefix.title()} {s}".strip(), f"{prefix}_lat_{s}".lstrip("_"), kind),
             cell(s)) for s in stats]


def sweep_table(part: ExperimentResults, run: RunResults, tid: str, title: str,
                rows: Sequence[WorkloadSummary], extra: Cells = (), throughput: bool = True,
                cls: type | None = None, notes: tuple[str, ...] = ()) -> Table:
    """``extra`` columns, IOPS and MB/s (unless ``throughput`` is False), mean and p99 latency;
    the latency kind is the first the part's rows report, in plan order."""
    rates: Cells = [(IOPS, lambda r: r.total_iops), (MBPS, lambda r: r.total_MBps)]
    cells = [*extra, *(rates if throughput else ()),
             *lat_cells(latency_kind(part.workloads), ("mean", "p99"))]
    return rows_table(part, run, tid, title, rows, cells, notes, cls=cls)


def generic_table(part: ExperimentResults, run: RunResults, cls: type | None = None) -> Table:
    """IOPS, MB/s, mean and p99 latency per workload: what an experiment without tables of its
    own (or an id no module registers) shows."""
    return sweep_table(part, run, part.id, part.id, part.workloads, cls=cls)
