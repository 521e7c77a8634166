"""The trial rows of the results: a model that makes a row's cells only when Qt shows it.

Why a model and not a table of items: a reopened run of 10,000 trials made 90,000 items and
took seconds (and, refreshed row by row, minutes); here opening a run is a reset of the model,
a live trial one inserted row, and only the rows on screen are ever turned into text. Warm-up
rows are greyed, failed ones red, cancelled ones orange; a throttled trial says so in its
Status cell, with the signals that fired as the tooltip.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from app.experiments.plan import trial_kind
from app.model.status import TrialStatus
from app.model.trial import TrialResult
from app.stats.io_counts import trial_mark
from ui.window import theme
from ui.window.plain import plain_tip
from ui.window.report.findings_text import number

TRIAL_COLUMNS = ("#", "Experiment", "Workload", "Repetition", "Status", "IOPS", "MB/s",
                 "Mean latency µs", "p99 latency µs")


def _brush(tone: str) -> QBrush:
    """A cell's text in ``tone`` (ui/window/theme.py), readable on the table's background under
    a light or a dark palette."""
    return QBrush(theme.tone(tone, background=theme.Role.Base))
THROTTLED = "\u26a0 throttled"
#: Rows a column's width is fitted to beside the visible ones (Qt's default, 1000, measured them
#: all again at every trial a long run adds)
RESIZE_ROWS = 20


def _throttle_line(signal: str, t: Mapping[str, Any], drop: Mapping[str, Any]) -> str:
    """One fired signal of app.drive.throttle.throttle_flags in words."""
    if signal == "above_warning":
        return (f"temperature reached {number(t['max_temp_c'])} °C, at or above the drive's "
                f"warning threshold of {number(t['warning_temp_c'])} °C")
    if signal == "warning_time_rising":
        return "the drive's time-above-warning-temperature counter rose during the run"
    if signal == "drop_with_temp_rise":
        return (f"throughput fell {number(drop['drop_pct'])} % ({number(drop['from_MBps'])} to "
                f"{number(drop['to_MBps'])} MB/s) while the drive warmed from "
                f"{number(drop['temp_from_c'])} to {number(drop['temp_to_c'])} °C")
    if signal == "critical_warning_temperature":
        return "the drive reports a temperature critical warning"
    return str(signal)


def throttle_tip(throttle: Mapping[str, Any]) -> str:
    """The signals of app.drive.throttle.throttle_flags in words (one line each)."""
    t = defaultdict(lambda: None, throttle)
    drop = defaultdict(lambda: None, t["throughput_drop"] or {})
    lines = [_throttle_line(signal, t, drop) for signal in t["signals"] or []]
    return ("Thermal throttling suspected; this trial's numbers may be low:\n- "
            + "\n- ".join(lines or ["a throttle signal fired"]))


def _repetition(trial: TrialResult) -> str:
    if not (trial.warmup or trial.precondition):
        return str(trial.repetition)
    return trial_kind(True, int(trial.repetition or 0), trial.precondition)


def trial_cells(trial: TrialResult, row: int) -> tuple[list[str], QBrush | None, str]:
    """One trial's cells as shown, its colour (None: the default) and its Status tooltip."""
    m = trial.measurement
    pairs = list(m.sides()) if m else []
    sides = [side for _, side in pairs]
    lat = " / ".join(number(x.lat("mean")) for x in sides) or "-"
    p99 = " / ".join(trial_mark(trial, d, "p99") or number(x.lat("p99")) for d, x in pairs) or "-"
    status = trial.status
    brush = _brush("muted") if trial.warmup else (
        None if status == TrialStatus.DONE else _brush("warning") if status == TrialStatus.CANCELLED
        else _brush("error"))
    shown = {TrialStatus.DONE: str(status), TrialStatus.CANCELLED: "cancelled (not counted)"}.get(
        status, f"{status}: {trial.error or ''}")
    cells = [str(trial.index + 1), trial.experiment, trial.label, _repetition(trial), shown,
             number(m.total_iops if m else None), number(m.total_MBps if m else None), lat, p99]
    tip = ""
    if trial.throttled:
        cells[4] = f"{cells[4]} {THROTTLED}"
        tip = plain_tip(throttle_tip(trial.throttle))
        brush = brush or _brush("warning")
    return cells, brush, tip


@dataclass(frozen=True)
class Cell:
    """What one cell shows (the view's answer to ``item(row, column)``)."""

    _text: str
    _tip: str

    def text(self) -> str:
        return self._text

    def toolTip(self) -> str:  # noqa: N802 - as QTableWidgetItem says it
        return self._tip


class TrialRows(QAbstractTableModel):
    """``trials`` (the run model's own list, appended to as trials end) as rows."""

    _RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

    def __init__(self, trials: list[TrialResult]):
        super().__init__()
        self._cache: dict[int, tuple[list[str], QBrush | None, str]] = {}
        self.trials, self._count = trials, 0

    def show(self, trials: list[TrialResult]) -> None:
        self.beginResetModel()
        self.trials, self._count, self._cache = trials, len(trials), {}
        self.endResetModel()

    def added(self) -> None:
        """The trials list grew (a trial ended): its new rows."""
        if len(self.trials) > self._count:
            self.beginInsertRows(QModelIndex(), self._count, len(self.trials) - 1)
            self._count = len(self.trials)
            self.endInsertRows()

    def cells(self, row: int) -> tuple[list[str], QBrush | None, str]:
        if row not in self._cache:
            self._cache[row] = trial_cells(self.trials[row], row)
        return self._cache[row]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's signature
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(TRIAL_COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return TRIAL_COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        texts, brush, tip = self.cells(index.row())
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return texts[col]
        if role == Qt.ItemDataRole.ForegroundRole:
            return brush
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip if col == 4 and tip else None
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 3 and (
                texts[col][:1].isdigit() or texts[col] == "-"):
            return self._RIGHT
        return None


class TrialsView(QTableView):
    """The trial rows, sized to the visible rows (and RESIZE_ROWS more), read-only."""

    def __init__(self, trials: list[TrialResult]):
        super().__init__()
        self.rows = TrialRows(trials)
        self.setModel(self.rows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setResizeContentsPrecision(RESIZE_ROWS)
        header.setStretchLastSection(False)

    def rowCount(self) -> int:  # noqa: N802 - as QTableWidget says it
        return self.rows.rowCount()

    def item(self, row: int, column: int) -> Cell:
        texts, _brush, tip = self.rows.cells(row)
        return Cell(texts[column], tip if column == 4 else "")
