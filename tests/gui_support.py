"""Shared window fixture for the offscreen-Qt window tests (not a test module).

Each window test module sets QT_QPA_PLATFORM=offscreen before importing this, then registers the
fixture under its own name with ``make_window = gui_support.make_window`` (pytest finds fixtures
by module attribute; a plain assignment, unlike an unused import, keeps pyflakes quiet).
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from ui.settings import AppSettings  # noqa: E402
from ui.window import MainWindow  # noqa: E402


@pytest.fixture
def make_window(qtbot, tmp_path):
    """Windows sharing one settings file and the runs folder in tmp_path. At the end a run still
    going is cancelled (bounded) before Qt tears the window down, and an open engine dialog is
    closed."""
    made = []

    def make(engine_path=None):
        window = MainWindow(settings=AppSettings(tmp_path / "settings.ini"),
                            engine_path=engine_path, runs_root=str(tmp_path / "runs"))
        window.confirm_close = lambda: True
        qtbot.addWidget(window)
        window.show()
        made.append(window)
        return window

    yield make
    for window in made:
        if window.control.running:
            window.control.cancel()
            window.control.wait(10000)
        if window.engine_dialog is not None:
            window.engine_dialog.close()
