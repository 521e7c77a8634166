"""A comparison of runs, computed once and said in words: what the CLI prints, the window shows
and the export writes. No Qt.

Why one value: ``ssd-profiler compare`` and the window's Compare view must give the same table,
the same listed conditions and the same figures, so both call :func:`build_comparison` (in a
pool thread in the window) and hand the frozen :class:`Comparison` to what shows or writes it.
Every run after the first is compared with the first (app/compare/compute.py).

The runs' labels, folder names, ids and notes are data from their run folders: the Markdown
files write them escaped (app/text/markup.py), so no link, tag or heading comes from them.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from app.compare.compute import METRICS, compare, mismatches
from app.compare.figures import comparison_figures, run_labels, slot_text
from app.results.figure import Figure
from app.results.load import load_results
from app.runs import run_tables
from app.text.markup import export_href, md_code, md_text

FORMATS = {label: fmt for _, label, fmt in METRICS}
DAMAGE = (KeyError, TypeError, AttributeError, IndexError)   # a damaged run.json, read
METHOD = ("Means over measured repetitions (warm-ups and failed trials left out); the call is "
          "Welch's t-test on the repetitions at 5 % (two-sided): \"larger than the spread\" when "
          "the difference is unlikely to come from the runs' own repetition-to-repetition "
          "spread. MB/s = 10^6 B/s; latency is the kind each run states (total = submission + "
          "completion).")


@dataclass(frozen=True, eq=False)
class Comparison:
    """Runs side by side; ``table`` is app.compare.compute.compare's, with each run's label added."""

    run_dirs: tuple[str, ...]
    names: tuple[str, ...]          # the runs' names in the tables (folder names, made unique)
    labels: tuple[str, ...]         # drive model and start time: what legends and headers say
    table: pd.DataFrame
    notes: tuple[str, ...]
    figures: tuple[Figure, ...]

    def label(self, name: str) -> str:
        return dict(zip(self.names, self.labels)).get(name, name)


def build_comparison(run_dirs: Sequence[str | os.PathLike[str]]) -> Comparison:
    """Read the runs and compare them; ValueError (one line) when fewer than two are named or
    one is not a readable run folder."""
    if len(run_dirs) < 2:
        raise ValueError("name at least two run folders to compare")
    seen: dict[str, str] = {}
    for d in run_dirs:   # a run against itself says nothing (ratio 1, p = 1): a slip, say so
        key = os.path.normcase(os.path.realpath(d))
        if key in seen:
            raise ValueError(f"{d} is named twice (as {seen[key]}); compare different runs")
        seen[key] = str(d)
    loaded = [load_results(d, strict=True).results for d in run_dirs]   # each run read and built once
    try:
        tables = run_tables([(Path(d), r) for d, r in zip(run_dirs, loaded)])
        names = tuple(tables.runs["run"])
        labels = tuple(run_labels([r.run.info for r in loaded], list(names)))
        table = compare(tables)
        by_name = dict(zip(names, labels))
        table["base_label"] = [by_name.get(n, n) for n in table["base_run"]]
        table["label"] = [by_name.get(n, n) for n in table["run"]]
        figures = tuple(comparison_figures(tables, by_name))
        notes = tuple(mismatches([r.run for r in loaded]))
    except DAMAGE as exc:
        raise ValueError(f"a run.json is damaged: {type(exc).__name__}: {exc}".splitlines()[0]) \
            from None
    return Comparison(tuple(str(d) for d in run_dirs), names, labels, table, notes, figures)


def cell(metric: str, value: float | None) -> str:
    """A mean in the metric's format ('12,093', '87.5'); '–' when there is none."""
    return "–" if value is None or value != value else FORMATS[metric].format(value)


def ratio_text(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.3f}"


def p_text(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.3g}"


def workload_text(row: Any) -> str:   # a row of the table's itertuples(): pandas is untyped
    """'zero-queue RND4K Q1T1 read'; a mixed workload also names the direction of the row."""
    return f"{row.experiment} {slot_text(row.workload, row.direction)}"


def call_text(row: Any) -> str:   # as workload_text's row
    return f"{row.call} (n {row.n_base} vs {row.n}, p = {p_text(row.p_value)})"


def runs_lines(c: Comparison) -> list[str]:
    return [f"- {'first (the others against it)' if i == 0 else 'then'}: {md_text(label)} "
            f"({md_code(Path(d).name)})" for i, (label, d) in enumerate(zip(c.labels, c.run_dirs))]


def _conditions(c: Comparison) -> list[str]:
    return [f"- {md_text(n)}" for n in c.notes] or \
        ["None: engine, drive, file system, experiments and parameters match."]


def _table_lines(c: Comparison) -> list[str]:
    if c.table.empty:
        return ["No workload was measured in both the first run and another one."]
    lines = ["| Run | Workload | Metric | First | This | Ratio | Call |",
             "|---|---|---|---:|---:|---:|---|"]
    for r in c.table.itertuples():
        shown = [md_text(str(x), table=True) for x in (r.label, workload_text(r), r.metric)]
        lines.append(f"| {' | '.join(shown)} | {cell(r.metric, r.base_mean)} | "
                     f"{cell(r.metric, r.mean)} | {ratio_text(r.ratio)} | "
                     f"{md_text(call_text(r), table=True)} |")
    return lines


def markdown(c: Comparison) -> str:
    """comparison.md: the runs, the conditions that differ and the table."""
    lines = ["# Comparison", "", "Runs (each against the first):", "", *runs_lines(c), "",
             "## Conditions that differ", "", *_conditions(c), "", "## Workloads", "",
             *_table_lines(c), "", METHOD, ""]
    return "\n".join(lines)


def report_section(c: Comparison, drawn: dict[str, tuple[str, str]],
                   problems: dict[str, str]) -> str:
    """report.md: the comparison as a section to paste into a report, figures included."""
    lines = ["## Comparison of runs", "", *runs_lines(c), "", "### Conditions that differ", "",
             *_conditions(c), "", "### Figures", ""]
    for fig in c.figures:
        title = md_text(fig.title)
        if fig.id in drawn and (png := export_href(drawn[fig.id][0])) \
                and (svg := export_href(drawn[fig.id][1])):
            lines += [f"![{title}]({png})", "",
                      f"*{title}.* [PNG]({png}) · [SVG]({svg}) {md_text(fig.caption)}".rstrip(), ""]
        else:
            lines += [f"*Figure {md_text(fig.id)} ({title}) was not drawn: "
                      f"{md_text(problems.get(fig.id, 'no renderer'))}.*", ""]
    if not c.figures:
        lines += ["No figure: no workload was measured in two of the runs.", ""]
    lines += ["### Workloads", "", *_table_lines(c), "",
              f"{METHOD} The same table: `comparison.csv`, `comparison.md`.", ""]
    return "\n".join(lines)
