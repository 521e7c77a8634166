"""An error nothing else caught, in the window: one line, where the details are, and a button
that copies them. The windowed executable has no stderr, so without this a crash in a
slot or a thread would vanish; the traceback goes to the rotating log (ui/log_file.py) first.
"""
from __future__ import annotations

import sys
import threading
import traceback
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.params import one_line
from ui import log_file


class CrashReporter(QObject):
    """Installs itself as sys.excepthook and threading.excepthook; a thread's error is shown on
    the GUI thread through a queued signal."""

    shown = Signal(str, str)  # the one line, the details

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.window = parent
        self.dialog: QMessageBox | None = None
        self.shown.connect(self._show, Qt.ConnectionType.QueuedConnection)
        sys.excepthook = self.report
        threading.excepthook = lambda args: self.report(args.exc_type, args.exc_value, args.exc_traceback)

    def report(self, exc_type: type[BaseException], exc: BaseException | None,
               tb: TracebackType | None) -> None:
        if exc_type in (SystemExit, KeyboardInterrupt) or exc is None:
            return
        path = log_file.record_exception(exc, "unexpected error in the window")
        where = f"The details are in {path}." if path else "No log file could be written."
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        self.shown.emit(f"{one_line(f'{exc_type.__name__}: {exc}', 200)}\n\n{where}", details)

    def _show(self, line: str, details: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Critical, "SSD Profiler: unexpected error",
                          "Something went wrong inside SSD Profiler. A run in progress goes on; "
                          "you can keep working, or restart the app.", parent=self.window)
        box.setInformativeText(line)
        box.setTextFormat(Qt.TextFormat.PlainText)  # both labels: the error may quote a file
        copy = box.addButton("Copy details", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Close)
        copy.clicked.disconnect()  # keep the box open after copying
        copy.clicked.connect(lambda: QApplication.clipboard().setText(details))
        self.dialog = box
        box.open()
