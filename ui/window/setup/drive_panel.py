"""The drive and target folder: the system's volumes, any folder, and whether Run may use it.

The target's free space and the planned test-file size are shown side by side, and the same check
the run makes (app.paths.check_target) runs live in the background, so a target that
would be refused says why before Run is pressed. Volume listing and checks never run on the GUI
thread (a sleeping network mount must not freeze the window). Below the target, DriveInfo shows
the drive behind it (identity, link, health, temperature), read in the background too.
"""
from __future__ import annotations

import html
import os
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
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

from app.drive.facts import DriveFacts
from app.drive.identity import list_volumes
from app.paths import TargetRefused, check_target, free_space_margin, remove_leftovers
from app.units import human_bytes
from ui.window import theme
from ui.window.background import Background
from ui.window.setup.drive_info import DriveInfo
from ui.window.setup.remote_field import RemoteField, remote_lines, remote_problem
from ui.window.setup.target_check import WATCH_MS, TargetReport, inspect_target, suggested_folder

# no temperature column: list_volumes reads no sensor (that costs a smartctl call per drive);
# the target's drive shows its temperature in DriveInfo below
VOLUME_COLUMNS = ("Mount point", "Device", "FS", "Size", "Free", "Model")


class DrivePanel(QWidget):
    """Emits ``target_changed`` when the text changes and ``check_changed`` with each result."""

    target_changed = Signal(str)
    check_changed = Signal(object)          # TargetReport

    def __init__(self, background: Background, target: str = "", remote: str = "",
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.background = background
        self.size_bytes: int | None = None
        self.report: TargetReport | None = None
        self.volumes: list[dict[str, Any]] = []   # list_volumes' JSON records
        self.choose_folder: Callable[[str], str] = lambda start: QFileDialog.getExistingDirectory(
            self, "Choose the target folder (on the drive to test)", start)

        self.table = QTableWidget(0, len(VOLUME_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(VOLUME_COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # fits the panel's width
        rows = self.table.verticalHeader().defaultSectionSize()
        self.table.setMaximumHeight(header.sizeHint().height() + int(3.5 * rows))
        self.table.itemSelectionChanged.connect(self._on_volume)
        self.edit = QLineEdit(target)
        self.edit.setPlaceholderText("a folder on the drive to test, e.g. /mnt/ssd/bench")
        self.edit.textChanged.connect(self._on_text)
        self.choose_button = choose = QPushButton("Choose folder...")
        choose.clicked.connect(self._choose)
        self.space = QLabel()
        self.verdict = QLabel()
        for label in (self.space, self.verdict):
            label.setWordWrap(True)
        self.clean_button = QPushButton("Remove leftover test files")
        self.clean_button.setVisible(False)
        self.clean_button.clicked.connect(self._remove_leftovers)
        self.info = DriveInfo(background)
        self.remote = RemoteField(remote)
        self.remote.changed.connect(self._on_remote)

        row = QHBoxLayout()
        row.addWidget(QLabel("Target folder:"))
        row.addWidget(self.edit, 1)
        row.addWidget(choose)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        volumes = QLabel("Volumes (pick one, or choose any folder below):")
        volumes.setWordWrap(True)
        layout.addWidget(volumes)
        layout.addWidget(self.table)
        layout.addLayout(row)
        layout.addWidget(self.remote)
        layout.addWidget(self.info)
        layout.addWidget(self.space)
        layout.addWidget(self.verdict)
        layout.addWidget(self.clean_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)   # a tall tab keeps the lines together at the top

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self._check)
        # the folder's state changes without the path changing (another run takes or frees it,
        # free space moves): looked at again every few seconds and when the window comes back
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._look_again)
        self._watch.start()
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):   # always, with a widget: typed as a QCoreApplication
            app.applicationStateChanged.connect(self._on_app_state)
        self.verdict.setText("Checking the target...")
        self.refresh_volumes()
        self._on_remote(self.remote.address())

    # -- public ---------------------------------------------------------------------------------
    def target(self) -> str:
        return self.edit.text().strip()

    def set_target(self, path: str) -> None:
        self.edit.setText(path)

    def set_test_size(self, size_bytes: int | None) -> None:
        if size_bytes != self.size_bytes:
            self.size_bytes = size_bytes
            self._debounce.start()

    def is_ready(self) -> bool:
        r = self.report
        return bool(r and r.ok and r.path == self.target() and r.size_bytes == self.size_bytes
                    and r.remote == self.remote.address())

    def recheck(self) -> None:
        self._debounce.start()

    def set_running(self, running: bool) -> None:
        """Locked during a run; the drive's temperature is then read by the run's sampler."""
        self.setEnabled(not running)
        self.info.set_running(running)
        if running:
            self._watch.stop()   # nothing to look at while the app itself holds the folder
        else:
            self._watch.start()

    def refresh_volumes(self) -> None:
        self.background.submit(list_volumes, self._show_volumes, lambda exc: self._show_volumes([]))

    # -- internals ----------------------------------------------------------------------------
    def _show_volumes(self, volumes: list[dict[str, Any]]) -> None:
        self.volumes = volumes
        self.table.blockSignals(True)
        self.table.setRowCount(len(volumes))
        for r, v in enumerate(volumes):
            d = DriveFacts.from_json(v)
            model = d.model or (f"({d.bus} disk)" if d.bus else "unknown")
            values = (d.mountpoint, d.device, d.fstype, human_bytes(d.total_bytes or 0),
                      human_bytes(d.free_bytes or 0), model)
            for c, text in enumerate(values):
                self.table.setItem(r, c, QTableWidgetItem(str(text)))
        self.table.blockSignals(False)

    def _on_volume(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.set_target(suggested_folder(self.volumes[rows[0].row()]["mountpoint"]))

    def _choose(self) -> None:
        folder = self.choose_folder(self.target() or os.path.expanduser("~"))
        if folder:
            self.set_target(folder)

    def _on_remote(self, remote: str) -> None:
        """A folder on another machine: no chooser, no volumes of this one to pick from."""
        self.table.setEnabled(not remote)
        self.choose_button.setEnabled(not remote)
        self.edit.setPlaceholderText("a folder on the remote machine, e.g. /home/you/ssdtest"
                                     if remote else "a folder on the drive to test, e.g. /mnt/ssd/bench")
        self._on_text(self.edit.text())

    def _on_text(self, text: str) -> None:
        self.target_changed.emit(text.strip())
        self.verdict.setText("Checking the target...")
        self._debounce.start()

    def _check(self) -> None:
        path, size, remote = self.target(), self.size_bytes, self.remote.address()
        if remote:  # its spelling only (no I/O); the server is probed when Run starts
            self.info.show_remote(remote)
            reason = remote_problem(remote, path)
            self._show_report(TargetReport(path, size, not reason, reason, None, None, (), remote))
            return
        self.info.show_for(path)
        self.background.submit(lambda: inspect_target(path, size), self._show_report)

    def _look_again(self) -> None:
        """The same question again (in use? free space? leftovers?), without the drive facts."""
        path, size = self.target(), self.size_bytes
        if path and not self.remote.address() and self.isEnabled():
            self.background.submit(lambda: inspect_target(path, size), self._show_report)

    def _on_app_state(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive:
            self._look_again()

    def _show_report(self, report: TargetReport) -> None:
        if (report.path, report.size_bytes, report.remote) != (self.target(), self.size_bytes,
                                                                self.remote.address()):
            return  # an answer to an older question
        self.report = report
        size = human_bytes(report.size_bytes) if report.size_bytes else "none (no valid plan yet)"
        if report.free_bytes is not None and report.total_bytes:
            self.space.setText(
                f"Target volume: {human_bytes(report.free_bytes)} free of "
                f"{human_bytes(report.total_bytes)}. Planned test file: {size} (plus "
                f"{human_bytes(free_space_margin(report.total_bytes))} always left free).")
        else:
            self.space.setText(f"Planned test file: {size}. Choose a target folder to compare "
                               "it with the free space there.")
        reason = report.reason
        if report.remote:  # what the user typed is quoted in both lines: never markup
            space, ready = remote_lines(report.remote, report.path, size)
            self.space.setText(space)
            reason = html.escape(reason, quote=False)
        if report.ok and report.remote:
            self.verdict.setText(theme.span("ok", f"\u2714 {html.escape(ready)}"))
        elif report.ok:
            self.verdict.setText(theme.span("ok", f"\u2714 Ready: test files go to "
                                            f"{os.path.join(report.path, 'ssd-profiler-data')} "
                                            "and are removed afterwards."))
        else:
            self.verdict.setText(theme.span("error", f"\u2716 Run would be refused: {reason}"))
        self.clean_button.setVisible(bool(report.leftovers))
        if report.leftovers:
            self.clean_button.setText(f"Remove {len(report.leftovers)} test file(s) left by an "
                                      "earlier run")
        self.check_changed.emit(report)

    def _remove_leftovers(self) -> None:
        """Only files the app named itself, never through a link, and only under the folder's
        lock (app.paths.remove_leftovers): a file a live run is using is never deleted."""
        try:
            remove_leftovers(check_target(self.target(), 0))
        except (TargetRefused, OSError) as exc:
            self.verdict.setText(theme.span("error", f"\u2716 Test files not removed: {exc}"))
            return
        self._check()
