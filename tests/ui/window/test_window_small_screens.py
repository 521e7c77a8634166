"""The window on the common student laptop screens: 1280x720 and 1366x768.

The window gets what such a screen leaves it (a taskbar and the window frame off the height) and
must fit there, with every field of every experiment's form reachable by scrolling the form
(never sideways), live charts at least 150 px tall, nothing moving when a tab is chosen, and a
first window sized for the screen it opens on. No run is started here (fast); the flow with a
real run is in test_window.py, and screenshots of the real app at these sizes are taken by
benchmarks-style scripts, not asserted.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QSize  # noqa: E402

from app.experiments import CATALOG  # noqa: E402
from app.model.experiment_entry import ExperimentEntry  # noqa: E402
from ui.window.layout import fitted_size  # noqa: E402
from ui.window.run.run_state import RunState
from ui.window.run.series import break_row, sample_row  # noqa: E402

import gui_support  # noqa: E402
from conftest import ARTIFACTS, REPO  # noqa: E402

make_window = gui_support.make_window

TASKBAR, FRAME = QSize(0, 40), QSize(8, 32)     # what a laptop desktop takes off the screen
SCREENS = {"1280x720": QSize(1280, 720), "1366x768": QSize(1366, 768)}
MIN_CHART_PX = 150


def client_size(screen: QSize) -> QSize:
    """The inside of a window that fills the screen but for the taskbar, frame included."""
    return screen - TASKBAR - FRAME


@pytest.fixture(params=list(SCREENS), ids=list(SCREENS))
def laptop(request, make_window, qtbot):
    """A window filling a laptop screen's free area, with a target set (as a student would)."""
    size = client_size(SCREENS[request.param])
    window = make_window(size=(size.width(), size.height()))
    window.drive_panel.set_target(str(window.runs_browser.runs_root) + "-target")
    checked(window, qtbot)
    window.screen_name = request.param
    return window


def checked(window, qtbot) -> None:
    """The target's check and the drive's description are in: nothing changes on its own."""
    panel = window.drive_panel
    qtbot.waitUntil(lambda: panel.report is not None and panel.report.path == panel.target()
                    and (panel.info.summary is not None or not panel.target()), timeout=15000)
    gui_support.settle(qtbot, 60)


def test_the_window_fits_and_its_charts_are_tall_enough(laptop, qtbot):
    window, size = laptop, client_size(SCREENS[laptop.screen_name])
    assert window.size() == size, "the layout's minimum made the window larger than the screen"
    hint = window.minimumSizeHint()
    assert hint.width() <= size.width() and hint.height() <= size.height(), hint
    for column in (window.panes.left_column, window.panes.right_column):
        assert column.minimumSizeHint().width() <= size.width() // 2 + 100
    # the live charts: tabbed with the results here, each chart at least 150 px tall
    window.show_run_view(window.charts)
    gui_support.settle(qtbot)
    assert window.charts.isVisible()
    heights = window.charts.chart_heights()
    assert set(heights) == {"throughput", "latency"}      # no sensor here: one line instead
    assert all(h >= MIN_CHART_PX for h in heights.values()), heights
    assert window.charts.temp_note.isVisible()
    assert window.charts.temp_note.height() <= 2 * window.charts.fontMetrics().height() + 8
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / f"window_{window.screen_name}.png"))
    # a drive that reports its temperature: three charts, the two main ones still 150 px
    series = window.model.series
    series.append(break_row(0.0), real=False)
    for t in range(1, 30):
        series.append(sample_row({"t_s": t, "read_MBps": 500.0, "read_iops": 1e5,
                                  "read_lat_us": 90.0, "read_p99_us": 300.0,
                                  "temperature_c": 40.0 + t / 10}))
    window.charts.redraw()
    gui_support.settle(qtbot)
    heights = window.charts.chart_heights()
    assert heights["throughput"] >= MIN_CHART_PX and heights["latency"] >= MIN_CHART_PX, heights
    assert heights["temperature"] >= 6 * window.charts.fontMetrics().height(), heights
    assert not window.charts.temp_note.isVisible()


@pytest.mark.parametrize("eid", list(CATALOG))
def test_every_field_of_every_form_is_reachable(laptop, qtbot, eid):
    window = laptop
    panel = window.experiment_panel
    window.show_setup_page("experiments")
    panel.select(eid)
    gui_support.settle(qtbot)
    scroll = panel.form_scroll
    assert scroll.verticalScrollBar().value() == 0
    viewport = scroll.viewport()
    form = panel.forms[eid]
    assert form.width() <= viewport.width(), "the form would need sideways scrolling"
    for name, editor in form.editors.items():
        scroll.ensureWidgetVisible(editor)
        gui_support.settle(qtbot, 5)
        assert editor.isVisible() and editor.height() > 0, name
        top_left = editor.mapTo(viewport, editor.rect().topLeft())
        bottom_right = editor.mapTo(viewport, editor.rect().bottomRight())
        assert viewport.rect().contains(top_left) and viewport.rect().contains(bottom_right), name
        note = form._notes[name]
        assert note.height() >= note.heightForWidth(note.width()), f"{name}: the note is cut"
    # several fields at once, not one at a time
    scroll.verticalScrollBar().setValue(0)
    gui_support.settle(qtbot, 5)
    shown = [n for n, e in form.editors.items()
             if 0 <= e.mapTo(viewport, e.rect().bottomLeft()).y() < viewport.height()]
    assert len(shown) >= min(3, len(form.editors)), shown


def test_choosing_a_tab_or_an_experiment_moves_nothing(laptop, qtbot):
    tabs_move_nothing(laptop, qtbot)


def test_on_a_desktop_too_tabs_move_nothing(make_window, qtbot):
    window = make_window()
    checked(window, qtbot)
    assert window.panes.area_modes() == {"main": "split", "setup": "split", "run": "split"}
    tabs_move_nothing(window, qtbot)


def tabs_move_nothing(window, qtbot) -> None:
    window.show_setup_page("experiments")
    gui_support.settle(qtbot)

    def places():
        return (window.size(), window.panes.left_column.geometry(), window.panes.right_column.geometry(),
                window.tabs.geometry(), window.report_bar.geometry(),
                window.experiment_panel.stack.geometry())

    before = places()
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        gui_support.settle(qtbot)
        assert places() == before, window.tabs.tabText(index)
    window.runs_browser.status.setText("12 run(s) in " + "/very/long/runs/folder" * 20)
    gui_support.settle(qtbot)
    assert places() == before
    # another experiment: its form from the top
    panel = window.experiment_panel
    panel.select("queue-depth")
    panel.form_scroll.verticalScrollBar().setValue(panel.form_scroll.verticalScrollBar().maximum())
    panel.select("block-size")
    panel.select("queue-depth")
    assert panel.form_scroll.verticalScrollBar().value() == 0
    assert places() == before


def test_tab_goes_the_way_of_the_work(make_window):
    window = make_window()
    order, widget = [], window.drive_panel.edit
    for _ in range(600):
        order.append(widget)
        widget = widget.nextInFocusChain()
        if widget is window.drive_panel.edit:
            break
    landmarks = [window.drive_panel.edit, window.drive_panel.choose_button,
                 window.experiment_panel.preset, window.experiment_panel.catalog,
                 window.experiment_panel.forms["zero-queue"].editors["random_bs"],
                 window.run_button, window.cancel_button, window.charts.iops_box,
                 window.report_bar.export_button]
    positions = [order.index(w) for w in landmarks]
    assert positions == sorted(positions)


def test_a_first_window_is_sized_for_its_screen():
    unit = 14
    for screen in SCREENS.values():
        available = screen - TASKBAR
        size = fitted_size(available, FRAME, unit)
        assert size.width() + FRAME.width() <= available.width()
        assert size.height() + FRAME.height() <= available.height()
    assert fitted_size(QSize(3840, 2120), FRAME, unit) == QSize(112 * unit, 70 * unit)


SCRIPT = textwrap.dedent("""
    import json, sys, tempfile
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from ui.window.main_window import MainWindow
    from ui.window.settings import AppSettings
    folder = tempfile.mkdtemp()
    out = {}
    for name, screen in zip(("first", "remembered"), app.screens()):
        settings = AppSettings(folder + "/settings.ini")
        window = MainWindow(settings=settings, runs_root=folder + "/runs")
        if name == "remembered":   # a window saved on a 4K screen, now on a small one
            window.setGeometry(screen.geometry().x(), 0, 3000, 2000)
            settings.set_bytes("window/geometry", window.saveGeometry())
            window.close()
            window = MainWindow(settings=settings, runs_root=folder + "/runs")
        window.setScreen(screen)
        window.fit_to_screen()
        window.show()
        for _ in range(20):
            app.processEvents()
        g, a = window.frameGeometry(), screen.availableGeometry()
        out[name] = {"frame": [g.x(), g.y(), g.width(), g.height()],
                     "available": [a.x(), a.y(), a.width(), a.height()],
                     "min": [window.minimumSizeHint().width(), window.minimumSizeHint().height()]}
        window.confirm_close = lambda: True
        window.close()
    print(json.dumps(out))
""")


def test_the_app_opens_inside_a_small_screen(tmp_path):
    """A real (virtual) 1280x720 screen and a 1366x768 one: a fresh window and one remembered
    from a much larger screen both open inside the screen's available area."""
    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"screens": [
        {"name": "a", "x": 0, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96,
         "logicalBaseDpi": 96, "dpr": 1},
        {"name": "b", "x": 1280, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96,
         "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, text=True,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for name, got in result.items():
        x, y, w, h = got["frame"]
        ax, ay, aw, ah = got["available"]
        assert ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah, (name, got)
        assert got["min"][0] <= aw and got["min"][1] <= ah - 40, (name, got)


def test_no_text_of_the_run_area_is_cut_mid_run(laptop, qtbot):
    """Mid-run, with a long trial label: every one-line text of the run column is shown whole or
    in a shorter wording, never cut with '…'; plain labels get the width they ask for."""
    from PySide6.QtWidgets import QLabel

    from jobs.events import TrialStarted
    from ui.window.run.planned import PlannedTrial
    from ui.window.widgets import ElidedLabel

    window, m = laptop, laptop.model
    m.planned = {i: PlannedTrial(i, "tail-latency", "RND4K Q32T1 read", 3, False, 120.0, True,
                                 False) for i in range(149)}
    m.experiments = [ExperimentEntry.of({"id": "tail-latency", "title": "Tail latency",
                                         "params": {"repetitions": 3}, "workload_keys": []})]
    m.status, m.live, m.run_dir = RunState.RUNNING, True, "/tmp/a-run"
    m.reset.emit()
    m.apply(TrialStarted(147, "tail-latency", "RND4K Q32T1 read", 3, False, ("fio",), 1.0, 120.0))
    m.state_changed.emit()
    window.show_run_view(window.charts)
    gui_support.settle(qtbot, 100)
    cut = []
    for label in window.panes.right_column.findChildren(QLabel):
        if not label.isVisible():
            continue
        if isinstance(label, ElidedLabel):
            if "\u2026" in label.shown_text():
                cut.append((label.text(), label.shown_text(), label.width()))
        elif not label.wordWrap() and label.text() and label.sizeHint().width() > label.width() + 1:
            cut.append((label.text(), label.width(), label.sizeHint().width()))
    assert not cut, (window.screen_name, cut)
    assert window.progress.trial_label.shown_text().split(" ")[0] in ("Trial", "148/149")
    assert window.charts.timeline.isVisible() and window.so_far.isVisible()
