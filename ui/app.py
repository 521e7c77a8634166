"""Starting the desktop application (QApplication, window, event loop)."""
from __future__ import annotations

import sys

from app import APP_NAME, __version__


def run_window() -> int:
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    window = QMainWindow()
    window.setWindowTitle(f"{APP_NAME} {__version__}")
    window.setCentralWidget(QLabel("SSD Profiler: the window arrives with issue 3; use `ssd-profiler run` for now."))
    window.resize(900, 600)
    window.show()
    return app.exec()
