"""What a first-time student trips over, at 1280x720: help that names the window's own
controls, a Runs tab that sees a run made from the command line, exports where a student looks,
a live chart that comes back from a look at a finished experiment, and the slc-cache "So far"
note. Settings shared by experiments and presets: test_window_shared_settings.py.
"""
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QListWidget, QTabWidget  # noqa: E402

from ui.window import help_dialog  # noqa: E402
from ui.window.layout import SETUP_TITLES  # noqa: E402

import gui_support  # noqa: E402
from conftest import needs_fio  # noqa: E402

make_window = gui_support.make_window
LAPTOP = (1280, 720)
RUN = next((Path(__file__).parents[2] / "fixtures" / "runs").glob("*_zero-queue+*"))


def _plain(text: str) -> str:
    text = re.sub(r"<br\s*/?>", " ", text)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).replace("&", "").split())


def window_names(window) -> set[str]:
    """Every text the window shows on a control: tabs, buttons, labels, group titles, list
    items, and menu items as "Menu → Item"."""
    names = set()
    for tabs in window.findChildren(QTabWidget):
        names |= {tabs.tabText(i) for i in range(tabs.count())}
    names |= {b.text() for b in window.findChildren(QAbstractButton)}
    names |= {label.text() for label in window.findChildren(QLabel)}
    names |= {g.title() for g in window.findChildren(QGroupBox)}
    for lst in window.findChildren(QListWidget):
        names |= {lst.item(i).text() for i in range(lst.count())}
    for title, menu in window.menus.by_title.items():
        names |= {f"{title} \u2192 {a.text()}" for a in menu.actions() if not a.isSeparator()}
    return {_plain(n) for n in names if n}


def test_every_control_help_names_is_in_the_window_with_that_text(make_window):
    window = make_window(size=LAPTOP)       # tabbed set-up: "1. Target", "2. Experiments"
    names = window_names(window) | set(SETUP_TITLES)   # the boxes' titles on a wide screen
    named = {_plain(n) for n in re.findall(r"<i>(.*?)</i>", help_dialog.HOW_TO, re.S)}
    assert {"1. Target", "2. Experiments", "Vendor spec...", "Back to live", "Open folder"} <= named
    missing = sorted(n for n in named if n not in names)
    assert not missing, f"help names what the window does not show: {missing}"
    wide = make_window()                   # and side by side, the boxes carry those titles
    assert set(SETUP_TITLES) <= {_plain(g.title()) for g in wide.findChildren(QGroupBox)}


@needs_fio
def test_the_runs_tab_lists_a_run_made_from_the_command_line_within_seconds(make_window, qtbot,
                                                                            tmp_path):
    window = make_window(size=LAPTOP)
    browser = window.runs_browser
    qtbot.waitUntil(lambda: "No runs yet" in browser.status.text(), timeout=10000)
    runs = Path(browser.runs_root)
    assert not runs.exists()    # a first start: the folder is made by the first run
    target = tmp_path / "target"
    target.mkdir()
    cli = [sys.executable, "-m", "ui.main", "run", "zero-queue", "--target", str(target),
           "--out", str(runs), "--set", "runtime=1s", "--set", "size=16MiB",
           "--set", "repetitions=1", "--set", "warmup=false"]
    done = subprocess.run(cli, capture_output=True, text=True, timeout=240,
                          cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr[-2000:]
    made = [p for p in runs.iterdir() if (p / "run.json").exists()]
    assert len(made) == 1
    # nobody pressed Refresh: the watcher lists it
    qtbot.waitUntil(lambda: len(browser.listings) == 1, timeout=8000)
    assert browser.listings[0].run_dir == str(made[0])
    assert browser.table.rowCount() == 1 and "1 run(s)" in browser.status.text()
    # a second one, copied in, is listed too, and a selection survives the new listing
    browser.table.selectRow(0)
    shutil.copytree(RUN, runs / RUN.name)
    qtbot.waitUntil(lambda: len(browser.listings) == 2, timeout=8000)
    assert browser.selected_runs() == [str(made[0])]


def test_an_export_goes_to_documents_shown_whole_with_open_folder_beside_it(make_window, qtbot,
                                                                            tmp_path):
    window = make_window(size=LAPTOP)
    run_dir = tmp_path / "runs" / RUN.name
    shutil.copytree(RUN, run_dir)
    window.open_run(str(run_dir))
    bar = window.report_bar
    qtbot.waitUntil(bar.export_action.isEnabled, timeout=20000)
    expected = tmp_path / "Documents" / "SSD Profiler" / RUN.name
    assert bar.export_path.text() == str(expected)      # said before the export, in full
    assert not bar.open_button.isEnabled()              # the folder is made by the export
    opened = []
    bar.open_url = lambda url: opened.append(url.toLocalFile()) or True
    bar.export_action.trigger()
    qtbot.waitUntil(lambda: bar.last_export is not None or "failed" in bar.export_status.text(),
                    timeout=120000)
    assert bar.last_export == str(expected) and (expected / "report.md").exists()
    assert not (run_dir / "export").exists()
    gui_support.settle(qtbot, 50)
    # the whole path, never elided: every character is in the label, which is tall enough
    label = bar.export_path
    assert label.isVisible() and label.text() == str(expected)
    shown = QLabel.text(label).replace("\u200b", "")
    assert shown == str(expected) and "\u2026" not in shown
    assert label.height() >= label.heightForWidth(label.width())
    assert bar.open_button.isVisible() and bar.open_button.isEnabled()
    bar.open_button.click()
    assert opened == [str(expected)]


def test_the_slc_so_far_note_promises_no_warm_ups(qtbot):
    import json

    from app.model.experiment_entry import ExperimentEntry
    from app.model.info import PlannedEntry
    from jobs.events import TrialStarted
    from ui.window.report.results_so_far import ResultsSoFar
    from ui.window.run.planned import planned_from_entry
    from ui.window.run.run_model import RunModel
    from ui.window.run.run_state import RunState
    record = json.loads((RUN / "run.json").read_text())   # a run without warm-ups: give
    first = next(t for t in record["planned_trials"] if t["experiment"] == "zero-queue")
    first["warmup"] = True                                    # zero-queue one, as by default
    model = RunModel()
    model.experiments = [ExperimentEntry.of(x) for x in record["experiments"]]
    model.planned = {t.index: t for t in (planned_from_entry(PlannedEntry.from_json(t, "planned"))
                                          for t in record["planned_trials"])}
    model.status, model.live, model.run_dir = RunState.RUNNING, True, "/tmp/run"
    model.reset.emit()
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.resize(300, 500)
    view.show()
    slc = next(t for t in record["planned_trials"] if t["experiment"] == "slc-cache")
    model.apply(TrialStarted(slc["index"], "slc-cache", slc["label"], slc["repetition"],
                             slc["warmup"], ("fio",), 0.0, 1.0))
    view.show_experiment("slc-cache")
    qtbot.waitUntil(lambda: "appears here" in view.message.text(), timeout=5000)
    assert "Warm-up" not in view.message.text()
    view.show_experiment("zero-queue")   # an experiment with warm-ups still says so
    qtbot.waitUntil(lambda: "Warm-ups run first" in view.message.text(), timeout=5000)
