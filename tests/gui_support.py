"""Shared window fixture for the offscreen-Qt window tests (not a test module).

Each window test module sets QT_QPA_PLATFORM=offscreen before importing this, then registers the
fixture under its own name with ``make_window = gui_support.make_window`` (pytest finds fixtures
by module attribute; a plain assignment, unlike an unused import, keeps pyflakes quiet).
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from ui.window.main_window import MainWindow  # noqa: E402
from ui.window.settings import AppSettings  # noqa: E402

DESKTOP = (1560, 980)     # a desktop-sized window: every pane side by side (ui/window/layout.py)


def settle(qtbot, ms: int = 30) -> None:
    """Let resizes, the deferred split-or-tabs decisions and the layout run."""
    qtbot.wait(ms)


@pytest.fixture
def make_window(qtbot, tmp_path, monkeypatch):
    """Windows sharing one settings file and the runs folder in tmp_path, DESKTOP-sized unless
    ``size`` says otherwise (the offscreen screen is 800x600, smaller than any laptop), their
    default export folder in tmp_path/Documents. At the
    end a run still going is cancelled (bounded) before Qt tears the window down, and an open
    engine dialog is closed."""
    made = []
    # the default export folder (the user's Documents) in tmp_path, never the real one
    from ui.window.report import export_place
    monkeypatch.setattr(export_place, "documents_dir", lambda: tmp_path / "Documents")

    def make(engine_path=None, size=DESKTOP):
        window = MainWindow(settings=AppSettings(tmp_path / "settings.ini"),
                            engine_path=engine_path, runs_root=str(tmp_path / "runs"))
        window.confirm_close = lambda: True
        window.open_url = lambda _url: True   # never start the system's file manager
        window.report_bar.open_url = window.runs_browser.open_url = window.open_url
        qtbot.addWidget(window)
        window.show()
        if size:
            window.resize(*size)
        settle(qtbot)
        made.append(window)
        return window

    yield make
    for window in made:
        if window.control.running:
            window.control.cancel()
            window.control.wait(10000)
        if window.engine_dialog is not None:
            window.engine_dialog.close()


@pytest.fixture
def live_charts(qtbot):
    """The live charts of a run model that is running, shown at 800x600, fed with samples
    directly by the test (no engine)."""
    from ui.window.run.live_charts import LiveCharts
    from ui.window.run.run_model import RunModel
    from ui.window.run.run_state import RunState
    view = LiveCharts(RunModel())
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    view.model.status = RunState.RUNNING
    return view
