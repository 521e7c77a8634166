"""Closing the window and remembering it: the part of MainWindow that decides when it may close.

A close during a run asks once (``confirm_close``, replaceable in tests; a signal answers yes),
cancels the run the bounded way (engine stopped, test file removed, finished trials kept) and
closes when the run has ended, or after CLOSE_GRACE_MS at the latest. Geometry, splitter sizes,
target (and its remote fio server), experiments and the runs folder are saved on close and restored on start; a window
remembered from a larger screen is fitted to this one.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox

log = logging.getLogger(__name__)

CLOSE_GRACE_MS = 15000     # longest a close waits for the run to stop before quitting anyway


if TYPE_CHECKING:  # what MainWindow, the one class this is mixed into, is and provides
    from collections.abc import Callable

    from ui.window.adaptive import SplitOrTabs
    from ui.window.background import Background
    from ui.window.report.report_bar import ReportBar
    from ui.window.report.runs_browser import RunsBrowser
    from ui.window.run.run_control import RunControl
    from ui.window.settings import AppSettings
    from ui.window.setup.drive_panel import DrivePanel
    from ui.window.setup.experiment_panel import ExperimentPanel
    _Window = QMainWindow
else:
    _Window = object


class ClosingAndSettings(_Window):
    """Mixed into MainWindow, which provides control, settings, the panels and the splitters."""

    settings: AppSettings
    control: RunControl
    background: Background
    report_bar: ReportBar
    runs_browser: RunsBrowser
    drive_panel: DrivePanel
    experiment_panel: ExperimentPanel
    main_area: SplitOrTabs
    run_area: SplitOrTabs
    confirm_close: Callable[[], bool]
    _closing: bool
    _force_close: bool
    _restored: bool
    _remembered_sizes: dict[str, list[int]]

    if TYPE_CHECKING:  # declared only: at run time MainWindow's and WindowLayout's are found
        def cancel_run(self) -> None: ...

        def fit_to_screen(self) -> None: ...

        def default_sizes(self) -> None: ...

    def _ask_close(self) -> bool:
        answer = QMessageBox.question(
            self, "Cancel the run?", "A run is going on. Close anyway? The run is cancelled "
            "(fio is stopped, the test file removed); finished trials are kept.")
        return answer == QMessageBox.StandardButton.Yes

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self.control.running and not self._force_close:
            event.ignore()
            if self._closing or not self.confirm_close():
                return
            self._closing = True
            if not self.control.running:  # the run ended while the question was open: now
                self._force_close = True
                QTimer.singleShot(0, self, self.close)
                return
            self.cancel_run()
            QTimer.singleShot(CLOSE_GRACE_MS, self, self._close_anyway)
            return
        self._save_settings()
        self.report_bar.shutdown()
        self.background.shutdown()
        event.accept()

    def _close_anyway(self) -> None:
        """The run did not stop within CLOSE_GRACE_MS: wait a little more (bounded), then quit."""
        if not self.control.wait(2000):
            log.error("the run did not stop in time; quitting anyway")
        self._force_close = True
        self.close()

    def _restore_geometry(self) -> None:
        geometry = self.settings.get_bytes("window/geometry")
        self._restored = geometry is not None and self.restoreGeometry(geometry)
        self.fit_to_screen()
        self._remembered_sizes = {}
        for key, _area in self._sized_areas():
            sizes = self.settings.get(key)
            if isinstance(sizes, list) and sizes and all(isinstance(v, int) and v > 0 for v in sizes):
                self._remembered_sizes[key] = sizes

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not getattr(self, "_sized", False):  # the first show: panes once the window has a size
            self._sized = True
            QTimer.singleShot(0, self, self._size_panes)   # not after the window is gone

    def _size_panes(self) -> None:
        self.default_sizes()
        for key, area in self._sized_areas():
            if key in self._remembered_sizes:
                area.set_sizes(self._remembered_sizes[key])

    def _sized_areas(self):
        return (("window/main_sizes", self.main_area), ("window/run_sizes", self.run_area))

    def _save_settings(self) -> None:
        s = self.settings
        s.target = self.drive_panel.target()
        s.remote = self.drive_panel.remote.address()
        s.experiments = self.experiment_panel.state()
        s.runs_root = self.runs_browser.runs_root
        s.set_bytes("window/geometry", self.saveGeometry())
        for key, area in self._sized_areas():
            sizes = area.sizes()
            if sizes and all(v > 0 for v in sizes):
                s.set(key, sizes)
        s.sync()
