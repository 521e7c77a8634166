"""Past runs under the runs root, from their folders alone (done, failed and cancelled alike).

Listing reads every run.json, so it runs in the background; opening a run is a request the window
carries out (it owns the run model), which keeps this view free of any knowledge of the others.
Two or more selected runs can be compared: the Compare view is a window of its own
(compare_view.py), opened from here, which reads the runs itself in the background.

The list keeps itself current (a run made from the command line appears within seconds): a
QFileSystemWatcher watches the runs folder (or, before it exists, the folder it will be made
in) and the folders of runs still going, and a change lists the runs again after WATCH_MS
(RUN_WATCH_MS for a run going on: one listing for a burst of writes). The selection is kept
across such a listing, and only the listing asked for last is shown (they run in parallel).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QItemSelectionModel, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.model.status import RunStatus
from app.text import visible
from ui.window.background import Background
from ui.window.folders import PathDialog, open_folder
from ui.window.plain import plain_label, plain_tip
from ui.window.run.past_runs import UNREADABLE, RunListing, scan_runs

if TYPE_CHECKING:
    from ui.window.report.compare_view import CompareView

COLUMNS = ("Started (UTC)", "Experiments", "Status", "Trials done", "Target", "Folder")
WATCH_MS = 1000   # a change in the runs folder lists the runs again after this long
RUN_WATCH_MS = 5000   # and a change in the folder of a run going on, after this long


class RunsBrowser(QWidget):
    """Emits ``open_requested(run_dir)`` and ``runs_root_changed(path)``."""

    open_requested = Signal(str)
    runs_root_changed = Signal(str)

    def __init__(self, background: Background, runs_root: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.background = background
        self.runs_root = runs_root
        self.listings: tuple[RunListing, ...] = ()
        self._asked = 0   # listings asked for: only the last one asked is shown
        self.choose_folder: Callable[[str, str], str] = lambda title, start: QFileDialog.getExistingDirectory(self, title, start)
        self.open_url = None        # None: the system's file manager (tests pass their own)
        self.folder_dialog: PathDialog | None = None   # shown when no file manager could open the folder
        self.compare_view: CompareView | None = None   # imported when first used (it loads pandas)
        self.watcher = QFileSystemWatcher(self)
        self._relist = QTimer(self)
        self._relist.setSingleShot(True)
        self._relist.timeout.connect(self.refresh)
        self.watcher.directoryChanged.connect(self._changed)

        self.root_edit = QLineEdit(runs_root)
        self.root_edit.setReadOnly(True)
        change = QPushButton("Change...")
        change.clicked.connect(self._change_root)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.cellDoubleClicked.connect(lambda row, _col: self.open_row(row))
        self.status = plain_label(QLabel())  # folder names and reasons, never markup
        self.status.setWordWrap(True)   # a long runs folder must not widen the window
        open_button = QPushButton("Open selected run")
        open_button.clicked.connect(lambda: self.open_row(self.table.currentRow()))
        other = QPushButton("Open a run folder...")
        other.clicked.connect(self.open_other)
        show = QPushButton("Show folder")
        show.clicked.connect(self._show_folder)
        self.compare_button = QPushButton("Compare")
        self.compare_button.clicked.connect(self.compare)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self._selection_changed()

        top = QHBoxLayout()
        top.addWidget(QLabel("Runs folder:"))
        top.addWidget(self.root_edit, 1)
        top.addWidget(change)
        top.addWidget(refresh)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(show)
        bottom.addWidget(other)
        bottom.addWidget(open_button)
        bottom.addWidget(self.compare_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)
        self.refresh()

    def refresh(self) -> None:
        """List the runs again. Listings run on a pool of threads and may finish out of order:
        one begun while a run was going must not overwrite the one asked for when it ended."""
        root = self.runs_root
        self._asked += 1
        asked = self._asked
        self.status.setText("Looking for runs...")
        self.background.submit(lambda: scan_runs(root),
                               lambda listings: self._show_if_last(asked, listings),
                               lambda exc: self._fail_if_last(asked, root, exc))

    def _show_if_last(self, asked: int, listings: tuple[RunListing, ...]) -> None:
        if asked == self._asked:
            self._show(listings)

    def _fail_if_last(self, asked: int, root: str, exc: BaseException) -> None:
        if asked == self._asked:
            self.status.setText(f"Cannot list {root}: {exc}")

    def _changed(self, path: str) -> None:
        """A listing soon: within WATCH_MS for the runs folder, RUN_WATCH_MS for a run going on
        (it rewrites its run.json after each trial: one listing for many writes)."""
        if not self._relist.isActive():
            self._relist.start(WATCH_MS if Path(path) == Path(self.runs_root) or
                               not Path(self.runs_root).is_dir() else RUN_WATCH_MS)

    def _watch(self, listings: tuple[RunListing, ...]) -> None:
        """The runs folder (or the nearest folder above it that exists) and each run still going."""
        root = Path(self.runs_root)
        while not root.is_dir() and root.parent != root:
            root = root.parent
        wanted = {str(root)} | {run.run_dir for run in listings if run.status == RunStatus.RUNNING}
        wanted = {p for p in wanted if Path(p).is_dir()}
        watched = set(self.watcher.directories())
        if watched - wanted:
            self.watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self.watcher.addPaths(sorted(wanted - watched))

    def _show(self, listings: tuple[RunListing, ...]) -> None:
        selected = set(self.selected_runs())
        self.listings = listings
        self._watch(listings)
        self.table.setRowCount(len(listings))
        for r, run in enumerate(listings):
            status = ("running or interrupted" if run.status == RunStatus.RUNNING   # killed: the same
                      else run.status + (f": {run.error}" if run.error and run.status != RunStatus.DONE else ""))
            trials = "-" if run.status == UNREADABLE else f"{run.trials_done} of {run.trials_planned}"
            values = (run.started_at, run.experiments, status, trials, run.target,
                      Path(run.run_dir).name)
            for c, text in enumerate(values):
                item = QTableWidgetItem(visible(text))   # a bidi override shown, not obeyed
                item.setToolTip(plain_tip(visible(run.run_dir if c == 5 else text)))  # run.json's text
                self.table.setItem(r, c, item)
        keep = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for r, run in enumerate(listings):   # a new listing keeps what the user had selected
            if run.run_dir in selected:
                self.table.selectionModel().select(self.table.model().index(r, 0), keep)
        self.status.setText(f"{len(listings)} run(s) in {self.runs_root}. Double-click one to "
                            "reopen it; select two or more (Ctrl+click) to compare them."
                            if listings else f"No runs yet in {self.runs_root}.")
        self._selection_changed()

    def selected_runs(self) -> list[str]:
        """The selected runs' folders, oldest first: the first is the one the others are
        compared with (before, then after)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()}, reverse=True)
        return [self.listings[r].run_dir for r in rows if 0 <= r < len(self.listings)]

    def _selection_changed(self) -> None:
        count = len(self.selected_runs())
        self.compare_button.setEnabled(count >= 2)
        self.compare_button.setToolTip(
            f"Compare the {count} selected runs, each against the oldest" if count >= 2 else
            "Select two or more runs (Ctrl+click or Shift+click) to compare them")

    def compare(self) -> None:
        """Open the Compare view of the selected runs (it replaces an earlier one)."""
        runs = self.selected_runs()
        if len(runs) < 2:
            return
        if self.compare_view is not None:
            self.compare_view.dispose()
        from ui.window.report.compare_view import CompareView  # not at start-up: pandas is slow
        self.compare_view = CompareView(self.background, runs, self)
        self.compare_view.open_url = self.open_url
        self.compare_view.show()

    def open_row(self, row: int) -> None:
        if 0 <= row < len(self.listings):
            self.open_requested.emit(self.listings[row].run_dir)

    def set_runs_root(self, path: str) -> None:
        self.runs_root = path
        self.root_edit.setText(path)
        self.runs_root_changed.emit(path)
        self.refresh()

    def _change_root(self) -> None:
        folder = self.choose_folder("Choose the folder that holds run folders", self.runs_root)
        if folder:
            self.set_runs_root(folder)

    def open_other(self) -> None:
        """Ask for a run folder anywhere (File > Open run folder...) and open it."""
        folder = self.choose_folder("Open a run folder (it holds run.json)", self.runs_root)
        if folder:
            self.open_requested.emit(folder)

    def _show_folder(self) -> None:
        row = self.table.currentRow()
        path = self.listings[row].run_dir if 0 <= row < len(self.listings) else self.runs_root
        self.folder_dialog = open_folder(self, path, "run folder", self.open_url)
