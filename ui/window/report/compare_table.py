"""The comparison's table and the runs' colour key, as the Compare view shows them.

Why apart from the view: the same texts as the CLI and comparison.md (app.compare.report's
formatters), laid into Qt widgets; the view only arranges them.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from app.compare.figures import RUN_COLORS
from app.compare.report import Comparison, call_text, cell, p_text, ratio_text, workload_text
from app.text import visible
from ui.render.style import FIGURE_BACKGROUND, PALETTE
from ui.window import theme

HEADERS = ("Run", "Workload", "Metric", "First run", "This run", "Ratio",
           "Larger than the runs' spread?")


def run_color(index: int) -> str:
    """The colour of the index-th run in the figures (app.compare.figures.RUN_COLORS)."""
    return PALETTE[RUN_COLORS[index % len(RUN_COLORS)] % len(PALETTE)]


def runs_html(c: Comparison) -> str:
    """The runs with their colours: the key to the figures, visible on every tab."""
    rows = []
    # the swatch on the figures' own (light) background, where a dark palette would hide it
    chip = f" background:{FIGURE_BACKGROUND};" if theme.is_dark() else ""
    for i, (label, folder) in enumerate(zip(c.labels, c.run_dirs)):
        role = "first: the others are compared with it" if i == 0 else "compared with the first"
        rows.append(f"<span style='color:{run_color(i)};{chip}'>&#9632;</span> "
                    f"<b>{html.escape(visible(label))}</b> "
                    + theme.span("muted", f"({role}; {html.escape(visible(folder))})"))
    return "<br>".join(rows)


def conditions_html(c: Comparison) -> str:
    if not c.notes:
        return ("Conditions match: engine, drive, file system, experiments and parameters are "
                "the same in every run.")
    items = "".join(f"<li>{html.escape(visible(n))}</li>" for n in c.notes)
    return (theme.span("error", f"<b>{len(c.notes)} condition(s) differ</b>") + ", so "
            f"a difference may come from them, not from the drive:<ul style='margin:0'>{items}</ul>")


def comparison_table() -> QTableWidget:
    table = QTableWidget(0, len(HEADERS))
    table.setHorizontalHeaderLabels(list(HEADERS))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table


def fill_table(table: QTableWidget, c: Comparison) -> None:
    """One row per workload, metric and later run; the Run column only with three runs or more
    (with two, every row is the second run against the first, as the header above says)."""
    rows = list(c.table.itertuples())
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        values = (row.label, workload_text(row), row.metric, cell(row.metric, row.base_mean),
                  cell(row.metric, row.mean), ratio_text(row.ratio), call_text(row))
        for col, text in enumerate(values):
            item = QTableWidgetItem(visible(text))   # run-folder text: bidi shown, not obeyed
            if 3 <= col <= 5:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if col == 6:
                item.setToolTip(f"Welch's t-test on the repetitions, two-sided, 5 %: "
                                f"p = {p_text(row.p_value)}")
                if row.call.startswith("larger"):
                    # a difference the spread does not explain: a pale (or, dark, deep) orange
                    item.setBackground(theme.tone("highlight"))
            table.setItem(r, col, item)
    table.setColumnHidden(0, len(c.labels) < 3)
