"""The results of the run: one row per trial as it finishes, then mean ± std (n) per workload;
the experiments' findings are a page of their own (``findings_page``, a tab of the window).

Two tables instead of one because they answer different questions: the trial rows show that
every repetition ran (and which failed or were cancelled), the workload rows are the numbers to
report. Warm-up rows are shown but greyed: they are run, never counted. A trial the drive
throttled (run.json ``throttled``) says so in its Status cell, with the signals that fired as the
tooltip: its numbers are the drive's hot numbers, not its normal ones.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.model.summary import WorkloadSummary
from app.report.outputs import findings
from app.results.pooled import pooled_text
from ui.window import theme
from ui.window.plain import html_text
from ui.window.report.findings_text import findings_html, stat_text
from ui.window.report.trials_table import THROTTLED, TrialsView
from ui.window.run.run_model import RunModel
from ui.window.run.run_state import RunState
from ui.window.run.run_text import CANCELLED_EARLY, trials_text
from ui.window.widgets import SteadyLabel

SUMMARY_COLUMNS = ("Experiment", "Workload", "n", "IOPS", "MB/s", "Mean latency µs",
                   "p99 µs per rep.", "p99 µs, all I/Os [95% CI]")
def _directions(row: WorkloadSummary) -> list[str]:
    """The directions a workload row has: read, write or both."""
    return [d for d in ("read", "write") if row.side(d)]


def _pooled_p99(row: WorkloadSummary, direction: str) -> str:
    side = row.side(direction)
    return pooled_text(side.pooled, "p99") if side and side.pooled else "no histogram"


def _table(columns: tuple[str, ...]) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)  # compact rows
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(False)
    return table


def _cell_brush(tone: str) -> QBrush:
    """A table cell's text in ``tone``, readable on the table's (Base) background."""
    return QBrush(theme.tone(tone, background=theme.Role.Base))


def _set_row(table: QTableWidget, row: int, values: list[str], brush: QBrush | None = None) -> None:
    for col, text in enumerate(values):
        item = QTableWidgetItem(text)
        if col >= 3 and (text[:1].isdigit() or text == "-"):
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if brush is not None:
            item.setForeground(brush)
        table.setItem(row, col, item)


class ResultsTable(QWidget):
    def __init__(self, model: RunModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setAutoFillBackground(True)   # opaque: a caption or row repaint stops here
        self.caption = SteadyLabel()   # its counts change at every trial's end: no relayout
        self.trials = TrialsView(model.trials)
        self.workloads = _table(SUMMARY_COLUMNS)
        # the findings are a page of their own (the window gives it a tab): under the tables
        # a 1280x720 screen left them about three lines
        self.findings = QTextBrowser()
        self.findings_page = QWidget()
        findings_layout = QVBoxLayout(self.findings_page)
        findings_layout.setContentsMargins(4, 4, 4, 4)
        findings_layout.addWidget(QLabel("<b>Findings</b>: the report's sentences, experiment by "
                                         "experiment"))
        findings_layout.addWidget(self.findings, 1)

        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        per_workload = QLabel("<b>Per workload</b>: mean ± sample standard deviation (n "
                              "repetitions); warm-ups, failed and cancelled trials are not counted")
        per_workload.setWordWrap(True)   # never wider than the column
        lower_layout.addWidget(per_workload)
        lower_layout.addWidget(self.workloads, 1)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addWidget(self.caption)
        upper_layout.addWidget(self.trials, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(upper)
        split.addWidget(lower)
        split.setSizes([140, 260])  # the per-workload numbers are what a report needs
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

        model.reset.connect(self._rebuild)
        model.trial_ended.connect(self._add_trial)
        model.summary_changed.connect(self._show_summary)
        model.state_changed.connect(self._show_caption)
        self._rebuild()

    def _rebuild(self) -> None:
        """Every row at once (a model reset), then one scroll and one caption: done per row,
        each counted all rows again (the caption's totals, the columns' widths on scrolling),
        so reopening a run took time in the square of its trials (8,000 trials: minutes)."""
        self.trials.rows.show(self.model.trials)
        self.trials.scrollToBottom()
        self._show_summary()
        self._show_caption()

    def _show_caption(self) -> None:
        m = self.model
        if m.finished and not m.run_dir:
            text = CANCELLED_EARLY
        elif m.status is RunState.IDLE:
            text = ("No run yet. Choose a target and experiments, then press Run (Ctrl+R); "
                    "rows appear here as trials finish. Past runs open from the Runs tab.")
        else:
            text = (f"<b>Trials</b> of {html_text(m.run_dir or 'the run being prepared')}: "
                    f"{trials_text(m.trials, m.trial_count)}; status <b>{html_text(m.status)}</b>"
                    + (f" ({html_text(m.error)})" if m.error else ""))  # run.json's own text
            throttled = sum(1 for t in m.trials if t.throttled)
            if throttled:
                text += (f"; {theme.span('warning', f'{throttled} {THROTTLED}')} (hover "
                         "the Status cell for why)")
        self.caption.setText(text)

    def _add_trial(self, _trial: object) -> None:
        self.trials.rows.added()  # the run model appended the trial to its trials
        self.trials.scrollToBottom()
        self._show_caption()

    def _running(self) -> bool:
        return self.model.status in (RunState.PREPARING, RunState.RUNNING) and self.model.live

    def _show_summary(self) -> None:
        self.workloads.setRowCount(0)
        lines = []
        for eid, rows in self.model.summary.items():
            for w in rows:
                sides = _directions(w)
                row = self.workloads.rowCount()
                self.workloads.insertRow(row)
                _set_row(self.workloads, row, [
                    eid, w.label, str(w.n), stat_text(w.total_iops, False),
                    stat_text(w.total_MBps, False),
                    " / ".join(stat_text(w.lat("mean", d), False) for d in sides) or "-",
                    " / ".join(stat_text(w.lat("p99", d), False) for d in sides) or "-",
                    " / ".join(_pooled_p99(w, d) for d in sides) or "-"])
            # the same sentences as report.md, from the one place that words them; only once
            # the run has ended: mid-run the findings (tail spread, knee) are not computed yet
            results = self.model.results
            shown = results.part(eid) if results is not None else None
            if not self._running() and results is not None and shown is not None:
                lines += [f"<b>{html_text(eid)}</b>: {html_text(line)}"
                          for line in findings(shown, results)]
        if lines:
            self.findings.setHtml(findings_html(lines))
        elif self.model.status is RunState.IDLE or self._running():
            self.findings.setText("The experiment's findings (knee, crossover, cache exhaustion "
                                  "point, tail spread) appear here when the run ends.")
        else:
            self.findings.setText("No findings: no workload finished all its repetitions.")
