"""The report strip under the run views: Export (Ctrl+E), Export to..., the vendor-spec status.

Why a strip visible from every tab: exporting and checking the vendor comparison are what a user
does once a run has ended, whichever tab is open. The shown run (live once ended, or reopened;
done, cancelled or failed alike: the export holds what finished) comes from RunFiguresModel.
The vendor spec can be entered before any run, for the drive of the chosen target
(``set_drive``); it is then saved in the user's specs and used by the runs on that drive.
Slow work leaves the GUI thread: the export (RunExporter), the spec lookup and the spec save,
which rewrites run.json with an fsync. Dialogs and the folder opener are attributes so tests can
drive them; a folder no file manager can open is shown as a path to copy (ui/window/folders.py).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
    QWidgetAction,
)

from app.specs import catalog as vendor
from app.specs.record import DriveKey
from ui.window import theme
from ui.window.background import Background
from ui.window.folders import PathDialog, open_folder
from ui.window.plain import plain_tip
from ui.window.report import export_place
from ui.window.report.export_action import RunExporter
from ui.window.report.figures_view import RunFiguresModel
from ui.window.report.report_details import ReportDetails
from ui.window.report.run_figures import VendorStatus, drive_vendor_status
from ui.window.report.vendor_spec_dialog import VendorSpecDialog
from ui.window.widgets import ElidedLabel, PathLabel, em


def _save_spec(spec: dict[str, Any], run_dir: str | None) -> str:
    """Background job: the spec into the user's file, then into the ended run; what was done."""
    path = vendor.save_user_spec(spec)
    if run_dir is None:
        return f"saved the vendor spec in {path}"
    try:
        vendor.attach_spec_to_run(run_dir, spec)
    except ValueError as exc:
        return f"saved the vendor spec in {path}, not in the run: {exc}"
    return f"saved the vendor spec in {path} and in {Path(run_dir) / 'run.json'}"


class ReportBar(QWidget):
    """Emits ``log_line(text, level)`` for the log pane."""

    log_line = Signal(str, str)

    def __init__(self, figures: RunFiguresModel, background: Background,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.figures = figures
        self.background = background
        self.exporter = RunExporter(parent=self)
        self.last_export: str | None = None
        self._status_run: str | None = None     # the run the export status line is about
        self.spec_dialog: VendorSpecDialog | None = None
        self.folder_dialog: PathDialog | None = None      # shown when no file manager could open the export
        self.drive: VendorStatus | None = None   # the target's drive, before any run
        self._drive_model: tuple[DriveKey, str] | None = None
        self.choose_folder: Callable[[str, str], str] = lambda title, start: QFileDialog.getExistingDirectory(self, title, start)
        self.open_url = None           # None: the system's file manager (tests pass their own)

        self.export_action = QAction("Export report", self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.export_action.triggered.connect(lambda: self.export())
        self.export_to_action = QAction("Export report to...", self)
        self.export_to_action.triggered.connect(self.export_to)
        self.spec_action = QAction("Enter/edit vendor spec...", self)
        self.spec_action.triggered.connect(self.edit_spec)

        self.export_button = QPushButton("Export report  (Ctrl+E)")
        self.export_button.clicked.connect(self.export_action.trigger)
        self.export_to_button = QPushButton("Export to...")
        self.export_to_button.clicked.connect(self.export_to_action.trigger)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(9 * em(self))
        self.progress.setVisible(False)
        self.export_status = ElidedLabel()
        self.export_status.setMaximumWidth(7 * em(self))   # the whole text is its tooltip
        self.export_status.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.export_path = PathLabel("exports go to Documents/SSD Profiler/<run name>")
        self.export_path.setStyleSheet("font-size: small")   # whole, in two lines at most
        self.open_button = QPushButton("Open folder")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_export)
        self.vendor_status = ElidedLabel()   # one line; the whole text is its tooltip
        self.spec_button = QPushButton("Vendor spec...")
        self.spec_button.clicked.connect(self.spec_action.trigger)
        self.details = ReportDetails()   # title, author, course; interpretation on or off
        self.details_button = QToolButton()
        self.details_button.setText("Report details")
        self.details_button.setToolTip("The report's title, author and course, and whether it "
                                       "writes the interpretation")
        self.details_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        details_menu = QMenu(self.details_button)
        details_in_menu = QWidgetAction(details_menu)
        details_in_menu.setDefaultWidget(self.details)
        details_menu.addAction(details_in_menu)
        self.details_button.setMenu(details_menu)

        grid = QGridLayout(self)
        grid.setContentsMargins(4, 0, 4, 0)
        grid.setVerticalSpacing(2)
        export_row = QHBoxLayout()
        export_row.addWidget(self.export_button)
        export_row.addWidget(self.export_to_button)
        export_row.addWidget(self.progress)
        export_row.addWidget(self.export_status)   # short: the path gets the room
        export_row.addWidget(self.export_path, 1)   # the whole path: where the student looks
        export_row.addWidget(self.details_button)   # the fields in its menu: the path keeps room
        grid.addLayout(export_row, 0, 0)
        grid.addWidget(self.open_button, 0, 1)
        grid.addWidget(self.vendor_status, 1, 0)
        grid.addWidget(self.spec_button, 1, 1)
        grid.setColumnStretch(0, 1)

        self.exporter.progress.connect(self._on_progress)
        self.exporter.finished.connect(self._on_exported)
        self.exporter.failed.connect(self._on_failed)
        figures.changed.connect(self._update)
        figures.model.state_changed.connect(self._update)
        self._update()

    def menu_actions(self) -> tuple[QAction, ...]:
        return self.export_action, self.export_to_action, self.spec_action

    def focus_chain(self) -> list[QWidget]:
        return [self.export_button, self.export_to_button, self.details_button, self.open_button,
                self.spec_button]

    def set_drive(self, model: DriveKey | str | None, note: str = "") -> None:
        """The drive of the chosen target (its model, serial and volume; None: none known yet):
        its spec is looked up in the background, so the vendor spec can be checked or entered
        before a run, and one entered for this very drive is offered again."""
        key = model if isinstance(model, DriveKey) else DriveKey(model)
        if (key, note) == self._drive_model:
            return
        self._drive_model = (key, note)
        self.background.submit(lambda: drive_vendor_status(key, note),
                               lambda status: self._drive_looked_up(key, note, status))

    def _drive_looked_up(self, model: DriveKey, note: str, status: VendorStatus) -> None:
        if (model, note) == self._drive_model:
            self.drive = status
            self._update()

    # -- state ---------------------------------------------------------------------------------
    def _update(self) -> None:
        ready = self.figures.run_ready()
        busy = self.exporter.busy
        for widget in (self.export_action, self.export_to_action, self.export_button,
                       self.export_to_button):
            widget.setEnabled(ready and not busy)
        tip = ("report.md, report.html and report.pdf, tables and figures of the shown run"
               if ready else
               "No ended run is shown: run one, or reopen one from the Runs tab")
        self.export_button.setToolTip(tip)
        shown = self.figures.current
        if shown is not None:
            self.vendor_status.setText(shown.vendor.text)
        elif self.figures.loading:
            self.vendor_status.setText("Looking up the vendor spec of the drive...")
        elif self.drive is not None:
            self.vendor_status.setText(self.drive.text)
        else:
            self.vendor_status.setText("Vendor spec: choose a target folder to look up its "
                                       "drive's, or enter one (Vendor spec...).")
        run_dir = self.figures.model.run_dir if ready else None
        if not busy and run_dir != self._status_run:  # another run shown: forget the old export
            self._status_run, self.last_export = run_dir, None
            self._set_status("Export folder:" if run_dir else "", None,
                             str(export_place.default_export_dir(run_dir)) if run_dir else "")
        self._offer_open()

    def _set_status(self, text: str, tone: str | None, path: str) -> None:
        self.export_status.setText(text)
        first = text.split(" ")[0]
        self.export_status.set_shorter(f"{first} to:" if text.endswith(" to:") else f"{first}:")
        self.export_status.setStyleSheet(f"color: {theme.css(tone)}" if tone else "")
        self.export_status.setToolTip("")
        self.export_path.setText(path)

    def _offer_open(self) -> None:
        """Open folder beside the path, usable once that folder exists (an earlier export)."""
        path = self.export_path.text()
        there = bool(path) and Path(path).is_dir() and not self.exporter.busy
        self.open_button.setEnabled(there)
        self.open_button.setToolTip("Open this folder in the file manager" if there else
                                    "The folder is made by the export")

    # -- export --------------------------------------------------------------------------------
    def export(self, out_dir: str | None = None) -> None:
        """Export the shown run to ``out_dir`` (default: export_place.default_export_dir) in the
        background."""
        if not self.figures.run_ready() or self.exporter.busy:
            return
        run_dir = str(self.figures.model.run_dir)
        shown = self.figures.current
        total = len(shown.figures) if shown is not None and shown.run_dir == run_dir else 0
        self.last_export = None
        self.progress.setRange(0, total)   # 0..0: busy indicator when the count is unknown
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self._status_run = run_dir
        target = out_dir or str(export_place.default_export_dir(run_dir))
        self._set_status(f"Exporting 0 of {total} figures to:" if total else "Exporting to:",
                         None, target)
        self.exporter.start(run_dir, target, self.details.options())
        self._update()

    def export_to(self) -> None:
        run_dir = self.figures.model.run_dir
        if not self.figures.run_ready() or not run_dir:
            return
        folder = self.choose_folder("Export the report into this folder", str(Path(run_dir)))
        if folder:
            self.export(folder)

    def open_export(self) -> None:
        path = self.last_export or self.export_path.text()
        if path and Path(path).is_dir():
            self.folder_dialog = open_folder(self, path, "export folder", self.open_url)

    def _on_progress(self, drawn: int, title: str) -> None:
        if self.progress.maximum() >= drawn:
            self.progress.setValue(drawn)
        total = self.progress.maximum()
        self.export_status.setText(f"Exporting {drawn} of {total} figures to:" if total else
                                   f"Exporting ({drawn} figures drawn) to:")
        self.export_status.setToolTip(plain_tip(f"drew {title}"))

    def _on_exported(self, out_dir: str) -> None:
        self.progress.setVisible(False)
        self.last_export = out_dir
        self._set_status(f"Exported the report (.md, .html, .pdf), {self.exporter.drawn} figures "
                         "and tables to:", None,
                         out_dir)
        self.log_line.emit(f"exported the report to {out_dir} ({self.exporter.drawn} figures; "
                           "open report.html or report.pdf)", "info")
        self._update()

    def _on_failed(self, message: str) -> None:
        self.progress.setVisible(False)
        self._set_status("Export failed (see the Log tab):", "error", message)
        self.log_line.emit(f"export failed: {message}", "error")
        self._update()

    # -- vendor spec ---------------------------------------------------------------------------
    def edit_spec(self) -> None:
        """The shown run's spec when a run is shown, else the target drive's (or a blank one)."""
        shown = self.figures.current
        status = shown.vendor if shown is not None else self.drive
        self.spec_dialog = VendorSpecDialog(status, self.window())
        self.spec_dialog.accepted.connect(self._spec_entered)
        self.spec_dialog.open()  # window-modal, not blocking

    def _spec_entered(self) -> None:
        spec = self.spec_dialog.result_spec if self.spec_dialog else None
        if spec is None:
            return
        model = self.figures.model
        run_dir = model.run_dir if model.finished else None  # only an ended run is rewritten
        self.vendor_status.setText("Saving the vendor spec...")
        self.background.submit(lambda: _save_spec(spec, run_dir), self._spec_saved,
                               lambda exc: self.log_line.emit(f"vendor spec not saved: {exc}",
                                                              "error"))

    def _spec_saved(self, what: str) -> None:
        self.log_line.emit(what, "info")
        self.figures.reload()
        if self._drive_model is not None:   # the target drive's status reads the new spec
            model, note = self._drive_model
            self._drive_model = None
            self.set_drive(model, note)

    def shutdown(self) -> None:
        """The window closes: an export waiting for a figure gives up (report.md still written)."""
        self.exporter.cancel()
