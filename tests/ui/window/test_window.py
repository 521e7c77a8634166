"""The desktop window end to end: offscreen Qt, real fio, tiny parameters.

Each test drives the window the way a student would (target, experiment, parameters, Run,
Cancel, Runs tab) and then checks what a student would see (table rows, chart samples, labels)
against the run folder on disk. Dialogs are replaced or inspected, never left blocking.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import csv  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import psutil  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402

from jobs.run.session import prepare_run  # noqa: E402

import gui_support  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402

TINY = {"runtime": "1s", "size": "32MiB", "repetitions": "2"}
from conftest import needs_fio  # noqa: E402

make_window = gui_support.make_window  # the shared window factory fixture


def choose(qtbot, window, target: Path, values: dict) -> None:
    """Target folder, only zero-queue, its parameters; wait until Run is enabled."""
    window.drive_panel.set_target(str(target))
    window.experiment_panel.set_checked(["zero-queue"])
    window.experiment_panel.set_values("zero-queue", values)
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=10000)
    assert window.run_button.isEnabled()


def fio_children() -> list:
    out = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.name() == "fio":
                out.append(proc)
        except psutil.NoSuchProcess:
            pass
    return out


def data_files(target: Path) -> list:
    data = target / "ssd-profiler-data"
    return sorted(data.iterdir()) if data.exists() else []


def csv_rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@needs_fio
def test_run_fills_charts_table_and_run_folder(qtbot, make_window, tmp_path):
    window = make_window()
    target = tmp_path / "target"
    choose(qtbot, window, target, TINY)
    assert "12 trials" in window.experiment_panel.summary.text()
    qtbot.mouseClick(window.run_button, Qt.MouseButton.LeftButton)
    # mid-run a workload with all its repetitions gets its row, but no findings yet
    # ("(p99/p50 = n/a)" appeared mid-run)
    qtbot.waitUntil(lambda: window.results.workloads.rowCount() >= 1 or window.model.finished,
                    timeout=60000)
    if not window.model.finished:
        assert "n/a" not in window.results.findings.toPlainText()
        assert "when the run ends" in window.results.findings.toPlainText()
    qtbot.waitUntil(lambda: window.model.finished and not window.control.running, timeout=60000)

    assert window.model.status == "done", window.model.error
    run_dir = Path(window.model.run_dir)
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "done" and len(record["trials"]) == 12
    # table: every trial, then mean ± std (n=2) per workload, findings beneath
    assert window.results.trials.rowCount() == 12
    assert window.results.workloads.rowCount() == 4
    labels = {window.results.workloads.item(r, 1).text() for r in range(4)}
    assert labels == {"RND4K Q1T1 read", "RND4K Q1T1 write", "SEQ128K Q1T1 read",
                      "SEQ128K Q1T1 write"}
    for r in range(4):
        assert window.results.workloads.item(r, 2).text() == "2"
        assert "±" in window.results.workloads.item(r, 3).text()
    assert "tail amplification p99.9/p50" in window.results.findings.toPlainText()
    # charts: every sample of samples.csv, per direction, with a labelled boundary per trial
    samples = csv_rows(run_dir / "samples.csv")
    assert len(samples) >= 12 and window.model.series.samples == len(samples)
    # a trial with fewer than two samples also draws its final result (one or two rows)
    per_trial = {t["index"]: sum(s["trial"] == str(t["index"]) for s in samples)
                 for t in record["trials"]}
    short = {i: 2 - n for i, n in per_trial.items() if n < 2}
    extra = {d: sum(rows for t in record["trials"] if (rows := short.get(t["index"]))
                    and d in t["workload"]["rw"].replace("rand", "")) for d in ("read", "write")}
    assert window.model.series.results == sum(short.values())
    # + one line break per trial
    assert len(window.model.series) == len(samples) + 12 + sum(short.values())
    for curve, column in (("read_lat_us", "read_lat_us"), ("write_lat_us", "write_lat_us"),
                          ("read_tp", "read_MBps"), ("write_tp", "write_MBps")):
        # every interval of the direction a trial runs is drawn (0 MB/s of the other is not)
        drawn = sum(1 for s in samples if s[column] not in ("", "0")
                    or (column.endswith("MBps") and s[column.replace("MBps", "lat_us")]))
        drawn += extra[column.split("_")[0]]
        assert window.charts.points(curve) == drawn > 0, curve
    captions = window.charts.boundary_labels()
    assert len(captions) == 12 and "RND4K Q1T1 read #1" in captions
    assert sum("(warm-up)" in c for c in captions) == 4
    assert window.charts.temp_note.isVisible()  # no temperature source yet
    window.charts.iops_box.setChecked(True)      # the IOPS toggle redraws from the same buffers
    assert window.charts.tp_plot.getAxis("left").labelText.startswith("IOPS")  # or (thousands)
    assert window.charts.points("read_tp") == sum(1 for s in samples if s["read_lat_us"]) + extra["read"]
    window.charts.iops_box.setChecked(False)
    # log: the commands exactly as run
    log_text = window.log_pane.plain_text()
    assert "$ " in log_text and "--rw=randread" in log_text and "--status-interval" in log_text
    assert data_files(target) == []
    assert window.run_button.isEnabled()
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "window_after_run.png"
    assert window.grab().save(str(shot))
    assert shot.stat().st_size > 10000


@needs_fio
def test_cancel_mid_run_stops_fio_and_keeps_the_run(qtbot, make_window, tmp_path):
    window = make_window()
    target = tmp_path / "target"
    choose(qtbot, window, target, {"runtime": "20s", "size": "32MiB", "repetitions": "1",
                                   "warmup": "false"})
    assert window.cancel_action.shortcut() == QKeySequence(Qt.Key.Key_Escape)
    assert window.run_action.shortcut() == QKeySequence("Ctrl+R")
    window.run_action.trigger()
    qtbot.waitUntil(lambda: window.model.series.samples >= 1, timeout=30000)
    assert fio_children()
    window.cancel_action.trigger()
    started = time.monotonic()
    qtbot.waitUntil(lambda: not fio_children(), timeout=10000)
    assert time.monotonic() - started < 3.0
    qtbot.waitUntil(lambda: not window.control.running, timeout=10000)

    assert data_files(target) == []
    record = json.loads((Path(window.model.run_dir) / "run.json").read_text())
    assert record["status"] == "cancelled"
    assert [t["status"] for t in record["trials"]] == ["cancelled"]
    assert window.model.status == "cancelled"
    assert window.results.trials.rowCount() == 1
    # one way to say it everywhere: cancelled, neither done nor failed, not counted
    assert window.results.trials.item(0, 4).text() == "cancelled (not counted)"
    words = "0 of 4 trials done, 1 cancelled (not counted)"
    assert window.statusBar().currentMessage().startswith(f"Run cancelled: {words}")
    assert window.progress.run_label.text() == f"Run cancelled: {words}."
    assert words in window.results.caption.text()
    assert f"Run cancelled: {words}" in window.log_pane.plain_text()
    # the listing asked for when the run ended is the one shown (an earlier one may still land)
    table = window.runs_browser.table
    qtbot.waitUntil(lambda: table.rowCount() == 1 and table.item(0, 2).text() == "cancelled",
                    timeout=10000)
    assert window.runs_browser.table.item(0, 3).text() == "0 of 4"


@needs_fio
def test_cancel_while_preparing_writes_nothing_like_the_command_line(qtbot, make_window, tmp_path,
                                                                     monkeypatch):
    """A cancel before the run folder exists ends the run with nothing written (the
    window used to record an empty cancelled run where the command line writes nothing)."""
    import jobs.run.session
    real = jobs.run.session.describe_drive
    monkeypatch.setattr(jobs.run.session, "describe_drive",
                        lambda folder: (time.sleep(0.5), real(folder))[1])  # a slow smartctl
    window = make_window()
    choose(qtbot, window, tmp_path / "target", {"runtime": "1s", "size": "32MiB"})
    window.run_action.trigger()
    window.cancel_action.trigger()
    qtbot.waitUntil(lambda: not window.control.running, timeout=15000)
    assert window.model.status == "cancelled" and window.model.run_dir is None
    runs = tmp_path / "runs"
    assert not runs.exists() or not any(runs.iterdir())
    said = "Run cancelled before it started; nothing was written."
    assert window.statusBar().currentMessage() == said
    assert window.progress.run_label.text() == said and said in window.log_pane.plain_text()
    assert "RunCancelledEarly" not in window.log_pane.plain_text()
    assert window.run_button.isEnabled()


def test_missing_fio_disables_run_and_says_how_to_install(qtbot, make_window, tmp_path):
    window = make_window(engine_path=str(tmp_path / "no-such-fio"))
    window.drive_panel.set_target(str(tmp_path / "target"))
    qtbot.waitUntil(lambda: window.engine_error is not None, timeout=10000)
    assert not window.run_button.isEnabled()
    assert "install" in window.run_button.toolTip()
    assert window.engine_dialog is not None and window.engine_dialog.isVisible()
    assert "install" in window.engine_dialog.informativeText()
    if os.uname().sysname == "Linux":
        assert "apt install fio" in window.engine_dialog.informativeText()
    assert "not found" in window.engine_label.text()
    window.start_run()  # Ctrl+R does nothing either
    assert not window.control.running
    window.engine_dialog.close()


@needs_fio
def test_a_refused_target_is_explained_and_nothing_is_written(qtbot, make_window, tmp_path):
    window = make_window()
    window.drive_panel.set_target("/dev/null")
    qtbot.waitUntil(lambda: window.drive_panel.report is not None
                    and window.drive_panel.report.path == "/dev/null", timeout=10000)
    assert "device" in window.drive_panel.verdict.text()
    assert not window.run_button.isEnabled() and "device" in window.run_button.toolTip()
    # the same refusal when a run is started anyway (prepare_run checks again, in the worker)
    window.control.start(["zero-queue"], {}, "/dev/null", str(tmp_path / "runs"))
    qtbot.waitUntil(lambda: not window.control.running, timeout=10000)
    assert window.model.status == "refused" and "device" in window.model.error
    assert "not started" in window.log_pane.plain_text()
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@needs_fio
def test_runs_browser_reopens_a_past_run(qtbot, make_window, tmp_path):
    session = prepare_run(["zero-queue"], {**TINY, "warmup": "false"}, str(tmp_path / "target"),
                          runs_root=tmp_path / "runs")
    events = list(session.runner.events())
    assert events[-1].status == "done"
    run_dir = Path(events[-1].run_dir)

    window = make_window()
    browser = window.runs_browser
    qtbot.waitUntil(lambda: browser.table.rowCount() == 1, timeout=10000)
    assert browser.table.item(0, 2).text() == "done"
    browser.open_row(0)
    qtbot.waitUntil(lambda: window.model.run_dir == str(run_dir), timeout=10000)

    samples = csv_rows(run_dir / "samples.csv")
    assert window.model.series.samples == len(samples)
    assert len(window.model.series) == len(samples) + 8
    assert window.charts.points("read_lat_us") == sum(1 for s in samples if s["read_lat_us"])
    assert len(window.charts.boundary_labels()) == 8
    assert window.results.trials.rowCount() == 8
    assert window.results.workloads.rowCount() == 4
    assert all("±" in window.results.workloads.item(r, 3).text() for r in range(4))
    assert "done" in window.results.caption.text()


@needs_fio
def test_closing_during_a_run_cancels_keeps_trials_and_settings(qtbot, make_window, tmp_path):
    window = make_window()
    target = tmp_path / "target"
    choose(qtbot, window, target, {"runtime": "2s", "size": "32MiB", "repetitions": "1",
                                   "warmup": "false"})
    window.run_action.trigger()
    qtbot.waitUntil(lambda: len(window.model.trials) >= 1 and window.model.series.samples >= 3,
                    timeout=30000)
    asked = []
    window.confirm_close = lambda: asked.append(True) or True
    window.close()
    assert asked and window.control.running  # still stopping: the close waits for it
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10000)
    assert not window.control.running and not fio_children()
    assert data_files(target) == []
    run_dir = Path(window.model.run_dir)
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "cancelled"
    statuses = [t["status"] for t in record["trials"]]
    assert statuses.count("done") >= 1 and statuses[-1] == "cancelled"

    again = make_window()  # settings kept between launches; the runs browser reopens the run
    assert again.drive_panel.target() == str(target)
    assert again.experiment_panel.forms["zero-queue"].texts()["runtime"] == "2s"
    qtbot.waitUntil(lambda: again.runs_browser.table.rowCount() == 1, timeout=10000)
    assert again.runs_browser.table.item(0, 2).text().startswith("cancelled")
    again.runs_browser.open_row(0)
    qtbot.waitUntil(lambda: again.model.run_dir == str(run_dir), timeout=10000)
    assert again.model.status == "cancelled"
    assert again.results.trials.rowCount() == len(statuses)
    assert again.results.workloads.rowCount() == statuses.count("done")
