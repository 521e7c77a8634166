"""The window and specs or settings from places the app does not control: a shared run whose own
spec carries a backtracking regular expression (matched on a pool thread, it held the GIL and
froze the window), a config folder whose vendor_specs.json is a named pipe or a link to
/dev/zero, a settings file that is a named pipe (the window never opened), and one huge
unreadable setting (logged whole: a 20 MB log line). The user's folders are in tmp_path."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import logging  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402
from spec_support import EVIL_MODEL, EVIL_SPEC, hostile_config, hostile_run  # noqa: E402

from ui.window.main_window import MainWindow  # noqa: E402
from ui.window.settings import AppSettings  # noqa: E402

import gui_support  # noqa: E402

make_window = gui_support.make_window
#: The longest the GUI thread may go without running its event loop. The regex held the GIL for
#: hours; reading this real run itself blocks the loop for up to about 2 s on a loaded 2-core
#: machine (json and results on the pool thread), so the bound leaves room for that.
GAP_S = 5.0


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))


class Heartbeat:
    """A 20 ms timer on the GUI thread: the longest gap between its ticks is how long the
    event loop was blocked."""

    def __init__(self):
        self.last, self.longest = time.monotonic(), 0.0
        self.timer = QTimer()
        self.timer.timeout.connect(self.tick)
        self.timer.start(20)

    def tick(self):
        now = time.monotonic()
        self.longest, self.last = max(self.longest, now - self.last), now


def test_opening_and_exporting_a_shared_runs_regex_never_blocks_the_window(qtbot, make_window,
                                                                          tmp_path):
    run_dir = hostile_run(tmp_path / "shared", EVIL_MODEL, EVIL_SPEC)
    window = make_window()
    beat = Heartbeat()
    window.open_run(str(run_dir))
    bar, figures = window.report_bar, window.report_bar.figures
    qtbot.waitUntil(lambda: figures.run_ready() and not figures.loading, timeout=60000)
    qtbot.waitUntil(lambda: "Vendor spec: shared-spec" in bar.vendor_status.toolTip()
                    + bar.vendor_status.text(), timeout=30000)
    bar.export(str(tmp_path / "out"))
    qtbot.waitUntil(lambda: bar.last_export is not None or "failed" in bar.export_status.text(),
                    timeout=120000)
    beat.tick()
    beat.timer.stop()
    assert bar.last_export is not None, bar.export_status.text()
    assert "never run" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert beat.longest < GAP_S, f"the GUI thread was blocked for {beat.longest:.1f} s"


@pytest.mark.parametrize("kind, says", [("fifo", "named pipe"), ("zero", "a device")])
def test_a_hostile_vendor_specs_file_is_one_warning_and_the_window_works(
        qtbot, make_window, tmp_path, caplog, kind, says):
    hostile_config(tmp_path / "xdg_config_home", kind)
    run_dir = hostile_run(tmp_path / "runs" / "20261201T000000Z_acme", "ACME FooDrive 1TB", None)
    with caplog.at_level(logging.WARNING):
        window = make_window()
        window.open_run(str(run_dir))
        bar = window.report_bar
        qtbot.waitUntil(lambda: "No vendor spec for ACME FooDrive 1TB" in bar.vendor_status.text(),
                        timeout=60000)
    lines = [r.getMessage() for r in caplog.records if "vendor_specs.json" in r.getMessage()]
    assert len(lines) == 1 and says in lines[0] and "\n" not in lines[0]


def test_a_named_pipe_as_the_settings_file_does_not_keep_the_window_from_opening(
        qtbot, tmp_path, caplog):
    """QSettings blocks for ever opening a FIFO; the default path and a named one alike."""
    default = tmp_path / "xdg_config_home" / "ssd-profiler" / "SSD Profiler.conf"
    default.parent.mkdir(parents=True)
    os.mkfifo(default)
    named = tmp_path / "settings.ini"
    os.mkfifo(named)
    with caplog.at_level(logging.WARNING):
        assert AppSettings().target == ""
        settings = AppSettings(named)
    assert [r.getMessage().count("named pipe") for r in caplog.records] == [1, 1]
    window = MainWindow(settings=settings, runs_root=str(tmp_path / "runs"), load_later=True)
    qtbot.addWidget(window)
    window.ensure_built()
    assert window.built
    settings.target = "/mnt/x"        # kept for this session, the pipe left as it is
    settings.sync()
    assert settings.target == "/mnt/x" and named.exists() and not named.is_file()


def test_a_huge_unreadable_setting_is_logged_as_an_excerpt(tmp_path, caplog):
    path = tmp_path / "settings.ini"
    path.write_text("[run]\ntarget=" + "{" * 20_000_000 + "\n")
    with caplog.at_level(logging.WARNING):
        assert AppSettings(path).target == ""
    (line,) = [r.getMessage() for r in caplog.records]
    assert "run/target" in line and "20,000,000 characters" in line and len(line) < 400
