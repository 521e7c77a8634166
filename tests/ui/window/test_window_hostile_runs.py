"""Shared run folders in the real window: markup shown as text, one bad run listed on its own,
an export that stays in its folder, and a 10,000-trial run that opens whole.

The runs folder holds copies of a real run (tests/fixtures/runs): one whose error is
``<img src="/dev/zero">`` (rich text would make Qt read /dev/zero on hover until memory ran
out), one whose run.json is type-confused, one whose experiment id walks out of the export.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import copy  # noqa: E402
import csv  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QPoint, Qt  # noqa: E402
from PySide6.QtGui import QHelpEvent, QTextDocument  # noqa: E402
from PySide6.QtWidgets import QApplication, QToolTip  # noqa: E402

import gui_support  # noqa: E402
from conftest import FIXTURES, needs_fio  # noqa: E402
from safety_support import snapshot  # noqa: E402

make_window = gui_support.make_window
(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
MARKUP = '<img src="/dev/zero"> <b>bold</b>'


def _copy(runs: Path, name: str, change) -> Path:
    folder = shutil.copytree(RUN, runs / name)
    record = json.loads((folder / "run.json").read_text())
    change(record)
    (folder / "run.json").write_text(json.dumps(record))
    return folder


def _set_error(record: dict) -> None:
    record["status"], record["error"] = "failed", MARKUP


def _confused(record: dict) -> None:
    record["experiments"] = ["not an object", 3]
    record["trials"] = [None]


def _as_shown(tip: str) -> str:
    """What Qt shows for a tooltip: rich text rendered when it looks like markup."""
    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText()


@pytest.fixture
def runs(tmp_path) -> Path:
    runs = tmp_path / "runs"
    runs.mkdir()
    _copy(runs, "20261201T000000Z_good", lambda r: None)
    _copy(runs, "20261202T000000Z_markup", _set_error)
    _copy(runs, "20261203T000000Z_confused", _confused)
    return runs


def test_one_bad_run_is_one_line_and_markup_is_shown_as_text(qtbot, make_window, runs):
    window = make_window()
    window.show_run_view(window.runs_browser)
    browser = window.runs_browser
    qtbot.waitUntil(lambda: "3 run(s)" in browser.status.text(), timeout=10000)
    rows = {browser.table.item(r, 5).text(): r for r in range(browser.table.rowCount())}
    bad = browser.table.item(rows["20261203T000000Z_confused"], 2).text()
    assert bad.startswith("unreadable: ") and "\n" not in bad
    assert browser.table.item(rows["20261201T000000Z_good"], 2).text() == "done"
    row = rows["20261202T000000Z_markup"]
    item = browser.table.item(row, 2)
    assert item.text() == f"failed: {MARKUP}"
    assert _as_shown(item.toolTip()) == f"failed: {MARKUP}"  # the text, not an image
    rect = browser.table.visualItemRect(item)
    QApplication.sendEvent(browser.table.viewport(), QHelpEvent(
        QEvent.Type.ToolTip, rect.center(), browser.table.viewport().mapToGlobal(rect.center())))
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=10000)  # hovered: no abort
    assert "dev/zero" in _as_shown(QToolTip.text())
    QToolTip.showText(QPoint(0, 0), "")


def test_the_windows_export_of_a_traversing_id_stays_in_its_folder(qtbot, make_window, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()

    def evil(record: dict) -> None:
        old = record["experiments"][-1]["id"]
        record["experiments"][-1]["id"] = "../../victim/chapter3"
        for t in record["trials"] + record.get("planned_trials", []):
            if t.get("experiment") == old:
                t["experiment"] = "../../victim/chapter3"
        record["summary"] = {}
    run_dir = _copy(runs, "20261204T000000Z_evil", evil)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "chapter3.md").write_bytes(b"# Chapter 3\nmy own words\n")
    before = snapshot(victim)
    window = make_window()
    window.open_run(str(run_dir))
    figures = window.report_bar.figures
    qtbot.waitUntil(lambda: figures.run_ready() and not figures.loading, timeout=30000)
    out = tmp_path / "exp"
    window.report_bar.export(str(out))
    bar = window.report_bar
    qtbot.waitUntil(lambda: bar.last_export is not None or "failed" in bar.export_status.text(),
                    timeout=120000)
    assert snapshot(victim) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exp", "runs", "victim"]
    if bar.last_export:  # written under a safe name, inside the export
        assert [p.name for p in (out / "tables").iterdir() if "victim" in p.name]


def _many(runs: Path, n: int) -> Path:
    """The real run grown to ``n`` trials (its own records, re-indexed), one sample each."""
    def grow(record: dict) -> None:
        base = record["trials"]
        record["trials"] = [dict(copy.deepcopy(base[i % len(base)]), index=i,
                                 repetition=i // len(base) + 1) for i in range(n)]
        record["planned_trials"] = [{k: t[k] for k in ("index", "experiment", "workload", "label",
                                                       "repetition", "warmup") if k in t}
                                    for t in record["trials"]]
    folder = _copy(runs, "20261205T000000Z_many", grow)
    with open(folder / "samples.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(folder / "samples.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for i in range(n):
            writer.writerow({**rows[i % len(rows)], "trial": i, "t_s": f"{i * 1.1:.3f}"})
    return folder


def test_reopening_ten_thousand_trials_shows_every_trial(qtbot, make_window, tmp_path):
    """A run of 10,000 trials opens whole; how long it takes is a benchmark's figure
    (benchmarks/open_many_trials.py), not a test's bound: on a loaded machine any bound is noise."""
    folder = _many(tmp_path / "runs", 10_000) if (tmp_path / "runs").mkdir() is None else None
    window = make_window()
    window.open_run(str(folder))
    qtbot.waitUntil(lambda: window.model.run_dir == str(folder), timeout=120000)
    assert window.results.trials.rowCount() == 10_000
    assert window.results.trials.item(9_999, 0).text() == "10000"


def test_a_fifo_samples_file_is_refused_not_waited_on(qtbot, make_window, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    folder = _copy(runs, "20261206T000000Z_fifo", lambda r: None)
    (folder / "samples.csv").unlink()
    os.mkfifo(folder / "samples.csv")
    window = make_window()
    window.open_run(str(folder))
    qtbot.waitUntil(lambda: "Cannot open" in window.statusBar().currentMessage(), timeout=10000)
    assert "named pipe" in window.statusBar().currentMessage()


@needs_fio
def test_a_run_that_ends_while_close_anyway_is_asked_closes_at_once(qtbot, make_window, tmp_path):
    window = make_window()
    window.drive_panel.set_target(str(tmp_path / "target"))
    window.experiment_panel.set_checked(["zero-queue"])
    window.experiment_panel.set_values("zero-queue", {"runtime": "1s", "size": "16MiB",
                                                      "repetitions": "1", "warmup": "false"})
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=10000)
    window.run_action.trigger()
    qtbot.waitUntil(lambda: window.model.series.samples >= 1, timeout=30000)

    def ask() -> bool:  # the question stays open until the run has ended by itself
        qtbot.waitUntil(lambda: not window.control.running, timeout=60000)
        return True
    window.confirm_close = ask
    window.close()
    answered = time.monotonic()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)
    assert time.monotonic() - answered < 2.0
    assert window.model.status == "done"


def test_results_so_far_shows_a_reopened_runs_titles_as_text(qtbot, make_window, tmp_path):
    """Its title, figure-selector and plot tooltips carry the run's own words (experiment
    titles, workload labels): shown as text, not rendered as markup."""
    runs = tmp_path / "runs"
    runs.mkdir()

    def titled(record: dict) -> None:
        for entry in record["experiments"]:
            entry["title"] = MARKUP
    run_dir = _copy(runs, "20261206T000000Z_titled", titled)
    window = make_window()
    window.open_run(str(run_dir))
    view = window.so_far
    qtbot.waitUntil(lambda: view.plot is not None, timeout=30000)
    tips = [view.title.toolTip(), view.plot.toolTip()] + [
        view.selector.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(view.selector.count())]
    assert MARKUP in _as_shown(tips[0])
    for tip in tips:
        assert "<b>" not in tip or "&lt;b&gt;" in tip, tip   # markup only as escaped text
    timeline = window.charts.timeline            # and the block of the run's timeline, hovered
    spot = timeline.block_rects()[0].center().toPoint()
    QApplication.sendEvent(timeline, QHelpEvent(QEvent.Type.ToolTip, spot,
                                                 timeline.mapToGlobal(spot)))
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=10000)
    assert MARKUP in _as_shown(QToolTip.text())
    QToolTip.showText(QPoint(0, 0), "")
