"""One experiment's section of the report (docs/report.md): purpose in one line, its setup (each
parameter once), numbered tables and figures with captions, its findings in words (the
experiment module's ``sentences``, the same the window and the CLI show) and the caveats that
apply to it (one of those sentences that says a percentile rests on too few I/Os is a caveat).

A :class:`Said` is shared by the whole document so that a note under a table (how pooled
percentiles are read, what an I/O count means) is written the first time only: the report says
no sentence more than twice.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.experiments.plan import PRECISION_RAMP_S
from app.experiments.registry import CATALOG, experiment_of, results_for
from app.model.summary import Stat
from app.report.caveats import experiment_caveats, is_io_caveat
from app.report.document import Block, Bullets, DocFigure, DocTable, Paragraph, Section
from app.report.precondition_note import precondition_sentence
from app.results.figure import Figure, as_stat
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import Column, Table, params_text
from app.text.markup import literal
from app.units import count, mean_pm, sig

Files = Mapping[str, tuple[str, str]]
#: Notes said once for the whole report (in Methodology or the Setup), not under each table.
_ONCE = ("Preconditioning:", "Parameters:", "Engine:", "Cells: mean ± sample std")
_WORKLOAD_NOTE = re.compile(r"^[^`]*: `rw=")
_INTERVAL = re.compile(r"^([\d,]+\.?\d*) \[([\d,]+\.?\d*), ([\d,]+\.?\d*)\]$")  # pooled cells
_EMPTY = "No rows: the trials finished but gave this table nothing to show (the findings say why)."
_LEFT_OUT = ("precondition", "precondition_rounds", "randomize")  # said in Methodology / Setup
_PRECISION_ONLY = ("min_time", "max_time")  # bounds of a precision target: noise without one


@dataclass
class Said:
    """The sentences the document has written so far (notes are written once)."""

    sentences: set[str] = field(default_factory=set)

    def first(self, text: str) -> bool:
        if text in self.sentences:
            return False
        self.sentences.add(text)
        return True


def cell(column: Column, value: Any) -> str:
    """A table cell at report precision: means to 3 significant digits with the ± to the same
    place, I/O counts whole (app/units.py)."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if column.stat or isinstance(value, (Stat, Mapping)):
        stat = as_stat(value)
        if stat is not None and stat.too_few is not None:
            return stat.mark() or "–"   # a percentile on too few I/Os: the mark, never a value
        return mean_pm(stat.mean, stat.std) if stat else "–"
    if isinstance(value, float) and column.key.startswith("ios"):
        return count(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str) and (interval := _INTERVAL.match(value)):
        return "{} [{}, {}]".format(*(sig(float(x.replace(",", ""))) for x in interval.groups()))
    if isinstance(value, float):
        return sig(value) if math.isfinite(value) else "–"
    return literal(value)   # a label or name from the run folder: text, never marks


def doc_table(table: Table, number: str, files: Sequence[str], said: Said,
              empty: str = "No finished trials.") -> DocTable:
    shown = [c for c in table.columns if c.where != "csv"]
    index = [table.columns.index(c) for c in shown]
    rows = tuple(tuple(cell(c, row[i]) for c, i in zip(shown, index)) for row in table.rows)
    numeric = tuple(bool(table.rows) and all(
        isinstance(r[i], (int, float, Stat, Mapping)) and not isinstance(r[i], bool)
        for r in table.rows if r[i] is not None) for i in index)
    notes = tuple(n for n in table.notes if not n.startswith(_ONCE)
                  and not _WORKLOAD_NOTE.match(n) and said.first(n))
    return DocTable(number, table.title, tuple(c.name for c in shown), rows, numeric, notes,
                    tuple(files), empty)


def doc_figure(fig: Figure, number: str, drawn: Files, problems: Mapping[str, str],
               precondition: str) -> DocFigure:
    caption = fig.caption.replace(precondition, "").strip() if precondition else fig.caption
    if fig.id in drawn:
        png, svg = drawn[fig.id]
        return DocFigure(number, fig.title, caption, png, svg)
    return DocFigure(number, fig.title, caption, missing=problems.get(fig.id) or "not drawn")


def setup_text(part: ExperimentResults, common_precondition: str) -> list[str]:
    """Each parameter once, the workloads by label, and the preconditioning when it differs
    from the one the Methodology states for all."""
    text = params_text(part.entry.params, CATALOG.get(part.id))   # shown even when it does not build
    exp = experiment_of(part.entry)
    precision = exp is not None and exp.precision != "off"
    # a precision target replaces the runtime (min_time to max_time per workload): say what ran
    left_out = _LEFT_OUT + (("runtime",) if precision else _PRECISION_ONLY)
    values = [literal(p.replace("=", " ", 1)) for p in text.split(" ")
              if p and p.split("=", 1)[0] not in left_out]
    if precision:   # the ramp each repetition really ran
        values = [v + f" (at least {PRECISION_RAMP_S:g} s per measured repetition: see Precision)"
                  if v.startswith("ramp ") else v for v in values]
    n = sorted({r.n for r in part.workloads})
    # rounds (steady-state) end once steady: how many ran is worth saying, not a shortfall
    planned = exp.repetitions if exp is not None and not exp.rounds_measured else None
    out = [f"**Setup.** Parameters: {', '.join(values) or 'not recorded'}."
           + (f" Measured repetitions per workload: n = {'/'.join(map(str, n))}."
              if n and n != [planned] else "")]
    if part.workloads:
        out.append(f"Workloads ({len(part.workloads)}): "
                   + ", ".join(literal(r.label) for r in part.workloads) + ".")
    own = precondition_sentence(part.entry)
    if own and own != common_precondition:
        out.append(own)
    return out


def in_appendix(table: Table) -> bool:
    """Pooled percentiles and I/O counts go to the Appendix: a grader reads the per-repetition
    table in the section and looks the others up (docs/report.md)."""
    return table.id.endswith(("-pooled", "-io-counts"))


def experiment_section(part: ExperimentResults, number: int, results: RunResults,
                       tables: Sequence[Table], table_files: Files, figures: Sequence[Figure],
                       drawn: Files, problems: Mapping[str, str], said: Said,
                       common_precondition: str, appendix: list[DocTable] | None = None,
                       method: str | None = None,
                       interpretation: Sequence[str] | None = None) -> Section:
    """``appendix`` (when given) collects this section's pooled and I/O-count tables, numbered
    A.k; ``method`` is the method in prose, ``interpretation`` the mechanism sentences (None:
    the report is exported without them)."""
    cls = results_for(part.id)
    title = part.entry.title or getattr(cls, "title", "") or part.id
    purpose = getattr(cls, "summary", "")
    blocks: list[Block | Section] = []
    if purpose:  # "p50 .. p99.99 at ..." keeps its lower case; a word gets a capital
        first = purpose.split(" ", 1)[0]
        lead = purpose if first[1:2].isdigit() else purpose[0].upper() + purpose[1:]
        blocks.append(Paragraph(f"**Purpose.** {lead}."))
    if method:
        blocks.append(Paragraph(f"**Method.** {method}"))
    blocks += [Paragraph(" ".join(setup_text(part, common_precondition)))]
    measured = bool(part.workloads)
    stated = cls.sentences(part, results) if measured else []   # the findings, said once
    found = [w for w in stated
             if not is_io_caveat(w) and said.first(w)]   # before the notes: a note that is
    results_blocks: list[Block | Section] = []             # a finding is not written again
    mine = [t for t in tables if t.experiment == part.id]
    moved = [t for t in mine if appendix is not None and in_appendix(t)]
    empty = _EMPTY if part.workloads else "No finished trials."
    for k, table in enumerate((t for t in mine if t not in moved), 1):
        results_blocks.append(doc_table(table, f"{number}.{k}", table_files.get(table.id, ()), said,
                                        empty))
    if moved and appendix is not None:
        numbers = []
        for table in moved:
            appendix.append(doc_table(table, f"A.{len(appendix) + 1}",
                                      table_files.get(table.id, ()), said, empty))
            numbers.append(f"Table A.{len(appendix)}")
        results_blocks.append(Paragraph(f"Pooled percentiles and the I/Os each percentile rests "
                                        f"on, for {part.id}: Appendix, {', '.join(numbers)}."))
    own = precondition_sentence(part.entry)
    for k, fig in enumerate((f for f in figures if f.experiment == part.id), 1):
        results_blocks.append(doc_figure(fig, f"{number}.{k}", drawn, problems, own))
    if results_blocks:
        blocks.append(Section("Results", tuple(results_blocks), level=3))
    if found:
        blocks.append(Section("Findings", (Bullets(tuple(found)),), level=3))
    reading = [s for s in interpretation or () if said.first(s)]
    if reading:
        blocks.append(Section("Interpretation", (Bullets(tuple(reading)),), level=3))
    thin = [s for s in stated if is_io_caveat(s)]   # percentiles on too few I/Os: caveats
    caveats = [c for c in experiment_caveats(part, results, thin) if said.first(c)]
    if caveats:
        blocks.append(Section("Caveats", (Bullets(tuple(caveats)),), level=3))
    return Section(f"{number}. {literal(title)}", tuple(blocks), anchor=part.id)
