"""A run killed between two run.json saves, in the real window: opened from the menu before the
run half exists, it shows every trial trials.csv lists (run.json's and the journal's), and the
runs browser says what run.json's "running" can mean once nobody writes it any more."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import shutil  # noqa: E402

from app.store.journal import JOURNAL  # noqa: E402
from ui.window.main_window import MainWindow  # noqa: E402
from ui.window.settings import AppSettings  # noqa: E402

from conftest import FIXTURES  # noqa: E402

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def test_a_killed_run_opens_with_its_unsaved_trials_and_an_honest_status(qtbot, tmp_path):
    folder = shutil.copytree(RUN, tmp_path / "runs" / "20261126T100000Z_killed")
    record = json.loads((folder / "run.json").read_text())
    trials = record["trials"]
    record.update(status="running", ended_at=None, summary={}, trials=trials[:-3])
    (folder / "run.json").write_text(json.dumps(record))   # its last save, 3 trials before
    (folder / JOURNAL).write_text("".join(json.dumps(t) + "\n" for t in trials[-3:]))
    window = MainWindow(settings=AppSettings(tmp_path / "settings.ini"),
                        runs_root=str(tmp_path / "runs"), load_later=True)
    qtbot.addWidget(window)
    assert not window.built and not window.run_action.isEnabled()
    window.open_run(str(folder))   # from the menu, before the first paint built the run half
    qtbot.waitUntil(lambda: window.model.run_dir == str(folder), timeout=30000)
    assert window.statusBar().currentMessage().endswith("(running or interrupted)")
    assert len(window.model.trials) == len(trials)
    assert window.results.trials.rowCount() == len(trials)
    browser = window.runs_browser
    qtbot.waitUntil(lambda: browser.table.rowCount() == 1, timeout=10000)
    row = [browser.table.item(0, c).text() for c in range(browser.table.columnCount())]
    done = sum(t["status"] == "done" for t in trials)
    assert "running or interrupted" in row and f"{done} of {len(record['planned_trials'])}" in row
