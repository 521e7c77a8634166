"""Closing the window and remembering it: two objects MainWindow holds.

CloseGuard decides when the window may close. A close during a run asks once (the window's
``confirm_close``, replaceable in tests; a signal answers yes), cancels the run the bounded way
(engine stopped, test file removed, finished trials kept) and closes when the run has ended, or
after CLOSE_GRACE_MS at the latest.

WindowMemory saves geometry, splitter sizes, target (and its remote fio server), experiments and
the runs folder on close and restores them on start; a window remembered from a larger screen is
fitted to this one.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent

    from ui.window.adaptive import SplitOrTabs
    from ui.window.layout import WindowLayout
    from ui.window.run.run_control import RunControl
    from ui.window.settings import AppSettings

log = logging.getLogger(__name__)

CLOSE_GRACE_MS = 15000     # longest a close waits for the run to stop before quitting anyway


def ask_close(parent: QMainWindow) -> bool:
    """The question a close during a run asks: yes closes (and cancels the run)."""
    answer = QMessageBox.question(
        parent, "Cancel the run?", "A run is going on. Close anyway? The run is cancelled "
        "(fio is stopped, the test file removed); finished trials are kept.")
    return answer == QMessageBox.StandardButton.Yes


class CloseGuard:
    """The window's closeEvent: close now, or cancel the run first and close when it has ended.

    ``confirm`` asks the user, ``cancel_run`` cancels, ``shut_down`` runs once the close is
    accepted (settings saved, background work stopped)."""

    def __init__(self, window: QMainWindow, control: RunControl, confirm: Callable[[], bool],
                 cancel_run: Callable[[], None], shut_down: Callable[[], None]) -> None:
        self.window = window
        self.control = control
        self.confirm = confirm
        self.cancel_run = cancel_run
        self.shut_down = shut_down
        self.closing = False    # the user said yes: the window closes when the run has ended
        self._force = False

    def close_event(self, event: QCloseEvent) -> None:
        if self.control.running and not self._force:
            event.ignore()
            if self.closing or not self.confirm():
                return
            self.closing = True
            if not self.control.running:  # the run ended while the question was open: now
                self._force = True
                QTimer.singleShot(0, self.window, self.window.close)
                return
            self.cancel_run()
            QTimer.singleShot(CLOSE_GRACE_MS, self.window, self._close_anyway)
            return
        self.shut_down()
        event.accept()

    def _close_anyway(self) -> None:
        """The run did not stop within CLOSE_GRACE_MS: wait a little more (bounded), then quit."""
        if not self.control.wait(2000):
            log.error("the run did not stop in time; quitting anyway")
        self._force = True
        self.window.close()


class WindowMemory:
    """The window's geometry and pane sizes between launches, and the panels' state (read from
    ``remember``, which writes it into the settings) on close."""

    def __init__(self, window: QMainWindow, settings: AppSettings, layout: WindowLayout,
                 remember: Callable[[AppSettings], None]) -> None:
        self.window = window
        self.settings = settings
        self.layout = layout
        self.remember = remember
        self.restored = False   # the geometry came from the settings (else: fitted to the screen)
        self._remembered_sizes: dict[str, list[int]] = {}
        self._sized = False

    def restore(self) -> None:
        geometry = self.settings.get_bytes("window/geometry")
        self.restored = geometry is not None and self.window.restoreGeometry(geometry)
        self.layout.fit_to_screen(self.restored)
        for key in ("window/main_sizes", "window/run_sizes"):   # those of _sized_areas
            sizes = self.settings.get(key)
            if isinstance(sizes, list) and sizes and all(isinstance(v, int) and v > 0 for v in sizes):
                self._remembered_sizes[key] = sizes

    def shown(self) -> None:
        """The window's showEvent: on the first show, size the panes once the window has a size."""
        if not self._sized:
            self._sized = True
            QTimer.singleShot(0, self.window, self.size_panes)   # not after the window is gone

    def size_panes(self) -> None:
        """The default, then the remembered sizes of the areas laid out so far (called again
        when the run column is filled after the first paint)."""
        self.layout.default_sizes()
        for key, area in self._sized_areas():
            if key in self._remembered_sizes:
                area.set_sizes(self._remembered_sizes[key])

    def _sized_areas(self) -> tuple[tuple[str, SplitOrTabs], ...]:
        run = self.layout.run
        return (("window/main_sizes", self.layout.main_area),
                *((("window/run_sizes", run.area),) if run else ()))

    def save(self) -> None:
        s = self.settings
        self.remember(s)
        s.set_bytes("window/geometry", self.window.saveGeometry())
        for key, area in self._sized_areas():
            sizes = area.sizes()
            if sizes and all(v > 0 for v in sizes):
                s.set(key, sizes)
        s.sync()
