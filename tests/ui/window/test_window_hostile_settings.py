"""The window started on a hand-edited or damaged settings file: wrong types, huge sizes, and
non-ASCII paths with a newline. It builds in its two steps, shows what it can use and says what
it cannot, with no traceback."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from ui.window.main_window import MainWindow  # noqa: E402
from ui.window.settings import AppSettings  # noqa: E402


def _window(qtbot, tmp_path, **values) -> MainWindow:
    settings = AppSettings(tmp_path / "settings.ini")
    for key, value in values.items():
        settings.set(key, value)
    settings.sync()
    window = MainWindow(settings=AppSettings(tmp_path / "settings.ini"),
                        runs_root=str(tmp_path / "runs"), load_later=True)
    qtbot.addWidget(window)
    window.ensure_built()   # every form made, with the values remembered for it
    return window


def test_settings_of_the_wrong_types_leave_the_defaults(qtbot, tmp_path):
    """'checked' as a string and a value of 5 or null made the form's text field raise a
    TypeError while the run half was built."""
    window = _window(qtbot, tmp_path, **{
        "run/experiments": {"checked": "block-size", "current": 7, "preset": ["x"],
                            "values": {"zero-queue": {"size": 5, "runtime": None,
                                                      "repetitions": "2"},
                                       "block-size": "oops"}},
        "run/target": 42, "window/main_sizes": [1e308, -5, "x"], "window/geometry": "!!",
        "run/engine_paths": {"fio": 5, "diskspd": None}})
    panel = window.experiment_panel
    assert window.built and panel.selected_ids() == ["zero-queue"]
    texts = panel.stack.form("zero-queue").texts()
    assert texts["size"] == "1GiB" and texts["repetitions"] == "2"   # the one usable value kept
    assert window.drive_panel.target() == ""
    assert window.engine_picker.overrides == {}   # not fio at '5': fio from PATH, as usual


def test_huge_values_and_unknown_experiments_are_named_not_run(qtbot, tmp_path):
    window = _window(qtbot, tmp_path, **{"run/experiments": {
        "checked": ["zero-queue", "no-such-experiment"],
        "values": {"zero-queue": {"size": "9" * 5000, "runtime": "10000h"}}}})
    blocker = window.run_blocker()
    assert window.experiment_panel.selected_ids() == ["zero-queue"]
    assert blocker and "10000h is above the maximum 24h" in blocker and "\n" not in blocker
