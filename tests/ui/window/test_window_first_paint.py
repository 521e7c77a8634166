"""The window as the app opens it (``load_later``): the set-up column paints before the run half
(charts, result tabs, runs browser, export bar) is imported and built, right after the first
paint; Run waits for it. The other window tests build both at once (gui_support)."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from ui.window.main_window import MainWindow  # noqa: E402
from ui.window.panel_state import PanelState  # noqa: E402
from ui.window.settings import AppSettings  # noqa: E402

import gui_support  # noqa: E402

HEAVY = ("numpy", "pandas", "pyqtgraph", "jobs.worker", "jobs.run.session", "app.report",
         "ui.render", "ui.window.run.live_charts", "ui.window.report.report_bar")


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """The log folder in tmp_path, never in the real home."""
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))


def lazy_window(qtbot, tmp_path) -> MainWindow:
    window = MainWindow(settings=AppSettings(tmp_path / "settings.ini"),
                        runs_root=str(tmp_path / "runs"), load_later=True)
    window.confirm_close = lambda: True
    qtbot.addWidget(window)
    return window


def test_the_set_up_column_comes_first_and_run_waits_for_the_rest(qtbot, tmp_path):
    window = lazy_window(qtbot, tmp_path)
    assert not window.built and not hasattr(window, "charts")
    assert window.run_blocker().startswith("loading")
    assert not window.run_button.isEnabled() and not window.run_action.isEnabled()
    assert not window.run_hint.isVisible()   # a moment's wait, not an error to read
    window.start_run()                        # a shortcut pressed this early starts nothing
    assert not window.built
    qtbot.wait(200)
    assert window.engine is None and window.drive_panel.report is None   # held for the paint
    panel = window.experiment_panel
    assert panel.current_id() == "zero-queue" and set(panel.forms) == {"zero-queue"}

    window.show()
    window.resize(*gui_support.DESKTOP)
    qtbot.waitUntil(lambda: window.built, timeout=10000)   # after the first paint, unasked
    assert set(panel.forms) == set(panel.scrolls) and len(panel.forms) == panel.catalog.count()
    assert window.tabs.count() >= 5 and window.panes.right_column.isAncestorOf(window.charts)
    file_menu = [a.text() for a in window.menus.by_title["File"].actions()]
    assert file_menu.index("Export report") < file_menu.index("&Quit")
    assert window.panes.area_modes()["run"] in ("split", "tabs")
    assert not (window.run_blocker() or "").startswith("loading")
    # the engine and target checks, held for the first paint, then ran
    qtbot.waitUntil(lambda: window.engine is not None or window.engine_error, timeout=15000)
    qtbot.waitUntil(lambda: window.drive_panel.report is not None, timeout=15000)


def test_restored_values_reach_forms_made_later(qtbot, tmp_path):
    settings = AppSettings(tmp_path / "settings.ini")
    settings.experiments = PanelState(("zero-queue",), "zero-queue", "custom",
                                      {"block-size": {"runtime": "7s"}})
    settings.sync()
    window = lazy_window(qtbot, tmp_path)
    assert "block-size" not in window.experiment_panel.forms
    window.ensure_built()
    assert window.experiment_panel.forms["block-size"].texts()["runtime"] == "7s"
    assert window.experiment_panel.state().values["block-size"] == {"runtime": "7s"}


def test_closed_before_the_run_half_exists(qtbot, tmp_path):
    window = lazy_window(qtbot, tmp_path)
    window.show()
    window.close()   # e.g. a signal at launch: settings saved, nothing to cancel
    assert not window.isVisible() and not window.built
    assert AppSettings(tmp_path / "settings.ini").get_bytes("window/geometry") is not None


def test_the_first_screen_imports_none_of_the_run_machinery(tmp_path):
    """What the set-up column imports, in a fresh interpreter (this one has loaded everything)."""
    code = ("import sys\n"
            "from PySide6.QtWidgets import QApplication\n"
            "app = QApplication([])\n"
            "import ui.window.app\n"
            "from ui.window.main_window import MainWindow\n"
            "from ui.window.settings import AppSettings\n"
            "window = MainWindow(settings=AppSettings(sys.argv[1]), load_later=True)\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "settings.ini")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
