"""Starting the desktop application (QApplication, window, event loop)."""
from __future__ import annotations

import logging
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
    window.show()
    code = app.exec()
    if not window.control.wait(5000):  # bounded: a thread still running here is logged, not awaited
        log.error("the run thread did not stop; exiting anyway")
    return code
