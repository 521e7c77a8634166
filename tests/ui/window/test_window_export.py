"""The window's report features: Figures tab, Export (Ctrl+E), vendor spec dialog.

A real tiny fio run is made from the window, then checked the way a student would use it: the
Figures tab shows the report's figures, Export writes the PNGs (report width) and report.md in
the background and offers the folder, and entering a vendor spec for the drive makes the
comparison appear and is written into the run. User settings and the vendor user-spec file live
in tmp_path (XDG_CONFIG_HOME/APPDATA), so no test touches ~/.config.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import struct  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402

import jobs.run.session  # noqa: E402
from app.model.info import RunInfo  # noqa: E402
from app.specs import catalog as vendor  # noqa: E402
from jobs.events import TrialFinished  # noqa: E402
from jobs.run.session import prepare_run  # noqa: E402

import gui_support  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402

MODEL = "ACME TestDrive 1TB"
TINY = {"runtime": "1s", "size": "32MiB", "repetitions": "2", "warmup": "false"}
QD_FIGURES = {"zero-queue-latency", "queue-depth-tradeoff", "queue-depth-sweep"}
from conftest import needs_fio  # noqa: E402

make_window = gui_support.make_window  # the shared window factory fixture


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """User specs in tmp_path; the drive reports a model (the test VM's virtual disk has none)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))
    real = jobs.run.session.describe_drive
    monkeypatch.setattr(jobs.run.session, "describe_drive", lambda folder: {**real(folder),
                                                                         "model": MODEL})


@pytest.fixture
def window(make_window):
    w = make_window()
    yield w
    w.report_bar.exporter.cancel()
    w.report_bar.exporter.wait(10)


def png_width(path: Path) -> int:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", head[16:20])[0]


def wait_export(qtbot, window) -> Path:
    bar = window.report_bar
    qtbot.waitUntil(lambda: bar.last_export is not None or "failed" in bar.export_status.text(),
                    timeout=60000)
    assert bar.last_export, bar.export_status.text()
    return Path(bar.last_export)


def shoot(widget, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    assert widget.grab().save(str(ARTIFACTS / name))


@needs_fio
def test_figures_export_and_vendor_spec_after_a_run(qtbot, window, tmp_path):
    bar, figures = window.report_bar, window.figures
    assert "No run shown" in figures.message.text()
    assert not bar.export_button.isEnabled()
    assert bar.spec_button.isEnabled() and bar.spec_action.isEnabled()  # a spec before any run
    assert bar.export_action.shortcut() == QKeySequence("Ctrl+E")
    window.drive_panel.set_target(str(tmp_path / "target"))
    window.experiment_panel.set_checked(["zero-queue", "queue-depth"])
    window.experiment_panel.set_values("zero-queue", TINY)
    window.experiment_panel.set_values("queue-depth", {**TINY, "queue_depths": "1,4"})
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=10000)
    assert "12 trials" in window.experiment_panel.summary.text()
    window.run_action.trigger()
    qtbot.waitUntil(lambda: window.model.status == "running", timeout=30000)
    assert "when the run ends" in figures.message.text()
    assert not bar.export_action.isEnabled()
    qtbot.waitUntil(lambda: window.model.finished and not window.control.running, timeout=120000)
    assert window.model.status == "done", window.model.error
    run_dir = Path(window.model.run_dir)

    # Figures tab: the report's figures, drawn by figure_widget, one selectable at a time
    qtbot.waitUntil(lambda: window.run_figures.current is not None, timeout=30000)
    assert set(figures.figure_ids()) == QD_FIGURES
    window.tabs.setCurrentWidget(figures)
    for i, fig_id in enumerate(figures.figure_ids()):
        figures.selector.setCurrentIndex(i)
        plot = figures.current_plot()
        assert plot is not None and plot.isVisible()
        assert plot.getPlotItem().titleLabel.text == window.run_figures.current.figures[i].title
        assert plot.getPlotItem().vb.addedItems, fig_id  # data items were drawn
    assert figures.count.text() == "3 of 3"
    status = bar.vendor_status.text()
    assert f"No vendor spec for {MODEL}: enter one" in status

    # Export (Ctrl+E): background thread, figures drawn on the GUI thread, folder offered
    opened = []
    bar.open_url = lambda url: opened.append(url) or True   # the file manager took it
    # enabled by the run's end signals: under load the last of them can trail the figures
    qtbot.waitUntil(bar.export_action.isEnabled, timeout=10000)
    bar.export_action.trigger()
    assert not bar.export_action.isEnabled()  # one export at a time
    out = wait_export(qtbot, window)
    assert out == tmp_path / "Documents" / "SSD Profiler" / run_dir.name   # where students look
    pngs = sorted((out / "figures").glob("*.png"))
    assert {p.stem for p in pngs} == QD_FIGURES
    assert all(png_width(p) >= 1600 for p in pngs)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "figures/queue-depth-sweep.png" in report
    assert bar.export_path.text() == str(out) and bar.open_button.isVisible()
    assert bar.export_status.text().startswith("Exported the report (.md, .html, .pdf), 3 figures")
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF-")   # printed on the GUI thread
    assert (out / "report.html").read_text().count("data:image/svg+xml;base64,") == 3
    bar.open_button.click()
    assert [u.toLocalFile() for u in opened] == [str(out)]
    assert f"exported the report to {out}" in window.log_pane.plain_text()
    assert bar.export_action.isEnabled()

    # vendor spec: a useless record is refused in place; a matching one is saved and compared
    bar.spec_button.click()
    dialog = bar.spec_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.model_edit.text() == MODEL
    dialog.save()
    assert dialog.isVisible() and "at least one" in dialog.problem.text()
    dialog.model_edit.setText("acme testdrive")  # a part of the model, any case
    dialog.name_edit.setText("ACME TestDrive 1 TB")
    dialog.numbers["seq_read_mbps"].setValue(3500)
    dialog.numbers["rand_read_iops"].setValue(500000)
    dialog.conditions["rand_qd"].setValue(32)
    dialog.conditions["rand_threads"].setValue(4)   # each row has its own
    dialog.conditions["seq_threads"].setValue(1)
    dialog.interface.setCurrentText("PCIe 3.0 x4")
    dialog.source_edit.setText("https://example.com/acme-datasheet.pdf")
    shoot(dialog, "window_vendor_spec_dialog.png")
    dialog.save()
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: "vendor-comparison" in figures.figure_ids(), timeout=30000)
    status = bar.vendor_status.text()
    assert "Vendor spec: ACME TestDrive 1 TB" in status and "run.json" in status
    assert "4 KiB random read:" in status and "% of 500,000 IOPS" in status
    saved = json.loads((run_dir / "run.json").read_text())["vendor_spec"]
    assert saved["rand_read_iops"] == 500000 and saved["test_conditions"]["rand_qd"] == 32
    assert saved["test_conditions"]["rand_threads"] == 4
    assert saved["test_conditions"]["seq_threads"] == 1
    assert saved["test_conditions"]["threads"] is None  # not one number for both rows
    assert saved["source_url"] == "https://example.com/acme-datasheet.pdf"
    users = vendor.load_user_specs()
    assert vendor.user_specs_path().is_relative_to(tmp_path) and len(users) == 1
    assert vendor.match_spec(MODEL, users)["id"] == saved["id"]
    assert "saved the vendor spec" in window.log_pane.plain_text()
    figures.selector.setCurrentIndex(figures.figure_ids().index("vendor-comparison"))
    shoot(window, "window_figures_tab.png")

    bar.export_action.trigger()  # the export now holds the comparison too
    out = wait_export(qtbot, window)
    assert png_width(out / "figures" / "vendor-comparison.png") >= 1600
    assert "no vendor spec" not in (out / "report.md").read_text(encoding="utf-8")


@needs_fio
def test_a_cancelled_past_run_exports_what_finished_to_a_chosen_folder(qtbot, window, tmp_path):
    session = prepare_run(["zero-queue"], {**TINY, "repetitions": "1"}, str(tmp_path / "target"),
                          runs_root=tmp_path / "runs")
    for event in session.runner.events():
        if isinstance(event, TrialFinished) and event.record.status == "done":
            session.cancel.set()  # the next trial is cancelled: a partial run
    run_dir = session.store.dir
    assert json.loads((run_dir / "run.json").read_text())["status"] == "cancelled"

    window.open_run(str(run_dir))
    qtbot.waitUntil(lambda: window.run_figures.current is not None, timeout=20000)
    assert window.figures.figure_ids() == ["zero-queue-latency"]
    bar = window.report_bar
    chosen = tmp_path / "chosen"
    bar.choose_folder = lambda _title, start: str(chosen)
    bar.export_to_button.click()
    out = wait_export(qtbot, window)
    assert out == chosen and png_width(chosen / "figures" / "zero-queue-latency.png") >= 1600
    assert (chosen / "report.md").exists() and not (run_dir / "export").exists()

    # a spec entered for a drive that did not finish is still written into the ended run
    bar.edit_spec()
    bar.spec_dialog.numbers["seq_write_mbps"].setValue(2000)
    bar.spec_dialog.save()
    qtbot.waitUntil(lambda: json.loads((run_dir / "run.json").read_text()).get("vendor_spec")
                    is not None, timeout=20000)


def test_attach_spec_to_run_rewrites_only_an_ended_run(tmp_path):
    spec = vendor.entered_spec(" ACME  Foo ", {"seq_read_mbps": 3000, "rand_read_iops": 0},
                               {"rand_qd": 32, "threads": 0}, "SATA III", "", None)
    assert spec["model_match"] == ["ACME Foo"] and vendor.validate_spec(spec) == []
    assert spec["rand_read_iops"] is None and spec["test_conditions"]["rand_qd"] == 32
    assert spec["test_conditions"]["threads"] is None and spec["source_url"] == "entered by the user"
    assert vendor.match_spec("acme foo 1TB", [spec]) is spec
    folder = tmp_path / "run"
    folder.mkdir()
    record = {"schema_version": 1, "status": "done", "drive": {"model": "X"}, "trials": []}
    (folder / "run.json").write_text(json.dumps(record))
    vendor.attach_spec_to_run(folder, spec)
    stored = json.loads((folder / "run.json").read_text())
    assert stored["vendor_spec"] == spec and "dir" not in stored
    found, origin = vendor.spec_with_origin(RunInfo.read(stored), user_specs=[])
    assert (found.to_json(), origin) == (spec, "run")
    with pytest.raises(ValueError, match="source_url"):
        vendor.attach_spec_to_run(folder, {**spec, "source_url": ""})
    (folder / "run.json").write_text(json.dumps({**record, "status": "running"}))
    with pytest.raises(ValueError, match="still running"):
        vendor.attach_spec_to_run(folder, spec)
    assert vendor.spec_at_run_start({"model": "ACME Foo 2TB"}, [spec]) is spec
    assert vendor.spec_at_run_start({"model": None}, [spec]) is None


def test_an_export_is_over_when_its_outcome_is_signalled(qtbot, tmp_path):
    """The window re-enables Export on the outcome signal: the exporter must not still say busy
    then (its thread may still be ending; Export stayed disabled after an export)."""
    from ui.window.report.export_action import RunExporter
    exporter = RunExporter()
    seen: list[bool] = []
    exporter.failed.connect(lambda text: seen.append(exporter.busy))
    exporter.start(str(tmp_path / "no run here"))
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    assert seen == [False]
