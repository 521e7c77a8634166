"""Starting the desktop application (QApplication, window, event loop)."""
from __future__ import annotations

import logging
import os
import sys

from app import APP_NAME, __version__

log = logging.getLogger(__name__)


def run_window() -> int:
    """Open the window and run until it closes; the exit code of the event loop."""
    from PySide6.QtWidgets import QApplication

    from ui.window import MainWindow

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName("ssd-profiler")
    window = MainWindow()
    from PySide6.QtGui import QIcon
    from ui.resources_path import icon_path
    window.setWindowIcon(QIcon(str(icon_path())))
    window.show()
    if os.environ.get("SSD_PROFILER_EXIT_AFTER_PAINT"):
        _exit_after_first_paint(app)
    code = app.exec()
    if not window.control.wait(5000):  # bounded: a thread still running here is logged, not awaited
        log.error("the run thread did not stop; exiting anyway")
    return code


def _exit_after_first_paint(app) -> None:
    """For benchmarks/startup.py: print ``first-paint`` once the window has painted, then quit."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
            if event.type() == QEvent.Type.Paint and not getattr(self, "seen", False):
                self.seen = True
                QTimer.singleShot(0, lambda: (print("first-paint", flush=True), app.quit()))
            return False

    app._first_paint = FirstPaint()  # kept alive by the application
    app.installEventFilter(app._first_paint)
