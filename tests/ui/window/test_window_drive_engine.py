"""The window parts (know the drive) and (DiskSpd engine), offscreen Qt.

The drive is this machine's, but SMART comes from the fake smartctl serving fixture files (only
tests/fakes/smartctl is put first on PATH, never the whole folder, which also holds a fake fio).
DiskSpd is the fake one (tests/fakes/diskspd) at $SSD_PROFILER_DISKSPD. Each test checks what a
student would see: the drive panel's lines, the status bar, Run's state, table rows, chart data.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app.drive.facts import DriveFacts, PcieLink  # noqa: E402
from app.model.trial import TrialResult  # noqa: E402
from jobs.events import TrialFinished, TrialStarted  # noqa: E402
from ui.window.setup import drive_text  # noqa: E402
from ui.window.setup.engine_picker import retry_advice  # noqa: E402

import gui_support  # noqa: E402
from conftest import (
    ARTIFACTS,  # noqa: E402
    FAKES,  # noqa: E402
)

NVME_TEXT = "smartctl-7.4-linux-nvme-wd-black-sn850-a.txt"
NVME_JSON = "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json"
from conftest import needs_fio  # noqa: E402

posix_only = pytest.mark.skipif(sys.platform.startswith("win"),
                                reason="the fakes are Python scripts run through their #! line")
ONE_PASS = {"runtime": "2s", "size": "32MiB", "repetitions": "1", "warmup": "false",
            "zero-queue.seq_bs": "64k"}
make_window = gui_support.make_window  # the shared window factory fixture


@pytest.fixture
def fake_smartctl(tmp_path, monkeypatch) -> Path:
    """The fake smartctl (only it) first on PATH, serving an NVMe drive; returns its call log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "smartctl").symlink_to(FAKES / "smartctl")
    calls = tmp_path / "smartctl-calls.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_SMARTCTL_FIXTURE", NVME_TEXT)
    monkeypatch.setenv("FAKE_SMARTCTL_JSON", NVME_JSON)
    monkeypatch.setenv("FAKE_SMARTCTL_LOG", str(calls))
    return calls


def calls(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def shown(window) -> bool:
    info = window.drive_panel.info
    return info.summary is not None and info.summary.path == window.drive_panel.target()


# -- the drive ------------------------------------------------------------------------------
def link_text(record):
    return drive_text.link_text(PcieLink.from_json(record))


def summarize(path, record):
    return drive_text.summarize(path, DriveFacts.from_json(record))


def test_link_and_drive_lines_from_describe_drive_dicts():
    assert link_text({"speed_gts": 16.0, "width": 4, "max_speed_gts": 16.0, "max_width": 4}) == "PCIe 4.0 x4"
    assert link_text({"speed_gts": 8.0, "width": 2, "max_speed_gts": 16.0, "max_width": 4}) == \
        "PCIe 3.0 x2 (capable of 4.0 x4)"
    assert link_text(None) is None
    usb = summarize("/media/stick", {
        "mountpoint": "/media/stick", "device": "/dev/sdb1", "bus": "USB", "rotational": False,
        "model": None, "serial": "ab******yz", "smart": None,
        "smart_reason": "USB bridge: SMART commands do not pass through to /dev/sdb",
        "temperature_c": None, "temperature_reason": "temperature unavailable: USB drive; smartctl: x"})
    assert usb.interface == "USB, SSD" and usb.identity.startswith("unknown model (/dev/sdb1)")
    assert usb.health == "unknown: USB bridge: SMART commands do not pass through to /dev/sdb"
    assert usb.health_state == "unknown" and usb.temperature.startswith("temperature unavailable: USB")
    failing = summarize("/x", {"bus": "SATA", "link": None, "rotational": True, "model": "HDD",
                               "smart": {"assessment": "FAIL", "power_on_hours": 41000},
                               "temperature_c": 44.0, "temperature_source": "hwmon",
                               "warning_temp_c": 60.0})
    assert failing.interface == "SATA, HDD" and failing.health_state == "fail"
    assert failing.health == "SMART FAIL · 41,000 h powered on"
    assert failing.temperature == "44 °C now, read by hwmon (drive warns at 60 °C)"
    missing = summarize("/x", {"smart": None, "smart_reason": "smartctl not found (smartctl): "
                               "install smartmontools"})
    assert "smartctl is not installed" in missing.health


@posix_only
def test_drive_panel_shows_identity_health_and_polls_temperature_while_idle(
        qtbot, make_window, tmp_path, fake_smartctl):
    window = make_window()
    info = window.drive_panel.info
    info.timer.setInterval(150)  # instead of every 5 s
    window.drive_panel.set_target(str(tmp_path / "target"))
    qtbot.waitUntil(lambda: shown(window), timeout=15000)
    identity = info.identity.text()
    assert "Samsung SSD 970 EVO 500GB" in identity and "firmware 2B2QEXE7" in identity
    assert "serial " in identity and "******" in identity   # masked (this disk's, or SMART's)
    assert info.interface.text()   # this machine's bus (a virtual disk here)
    health = info.health.text()
    assert "SMART PASS" in health and "3 % of rated wear used" in health
    assert "12,798 h powered on" in health and "7 media errors" in health
    assert "35 °C now, read by" in info.temperature.text()
    # polled while idle, in the background, without describing the drive again
    described = info.describes
    qtbot.waitUntil(lambda: info.polls >= 2, timeout=10000)
    assert info.last_reading.celsius == 35.0 and info.describes == described
    # another folder on the same volume: no second SMART snapshot (-x) for it
    snapshots = sum("-x" in line for line in fake_smartctl.read_text().splitlines())
    window.drive_panel.set_target(str(tmp_path / "elsewhere"))
    qtbot.waitUntil(lambda: shown(window), timeout=15000)
    assert sum("-x" in line for line in fake_smartctl.read_text().splitlines()) == snapshots
    # a run stops the poll (its sampler reads the sensor); the panel is locked
    window.drive_panel.set_running(True)
    assert not info.polling and not window.drive_panel.isEnabled()
    before = calls(fake_smartctl)
    qtbot.wait(600)
    # at most the one poll already in flight; a poll that has to find its sensor again (its
    # last read failed, e.g. timed out under load) calls smartctl twice
    assert calls(fake_smartctl) <= before + 2
    window.drive_panel.set_running(False)
    assert info.polling


@posix_only
def test_without_smart_the_panel_says_why_in_words(qtbot, make_window, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "smartctl").symlink_to(FAKES / "smartctl")   # no fixture: "Unable to detect"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("FAKE_SMARTCTL_FIXTURE", raising=False)
    monkeypatch.delenv("FAKE_SMARTCTL_JSON", raising=False)
    window = make_window()
    window.drive_panel.set_target(str(tmp_path))
    qtbot.waitUntil(lambda: shown(window), timeout=15000)
    summary = window.drive_panel.info.summary
    if summary.temperature_source is None:      # a virtual disk (CI): every reason is stated
        assert summary.health.startswith("unknown: ")
        assert "temperature unavailable: " in window.drive_panel.info.temperature.text()
        assert not window.drive_panel.info.polling


@needs_fio
@posix_only
def test_temperature_chart_draws_the_drive_temperature_of_a_run(qtbot, make_window, tmp_path,
                                                                 fake_smartctl):
    window = make_window()
    info = window.drive_panel.info
    info.timer.setInterval(150)
    target = tmp_path / "target"
    window.drive_panel.set_target(str(target))
    window.experiment_panel.set_checked(["zero-queue"])
    window.experiment_panel.set_values("zero-queue", ONE_PASS)
    qtbot.waitUntil(lambda: window.run_blocker() is None and shown(window), timeout=15000)
    qtbot.waitUntil(lambda: info.polls >= 1, timeout=10000)
    window.run_action.trigger()
    qtbot.waitUntil(lambda: window.model.series.samples >= 2, timeout=30000)
    assert window.control.running and not info.polling
    polls = info.polls
    qtbot.waitUntil(lambda: window.model.finished and not window.control.running, timeout=60000)
    assert window.model.status == "done", window.model.error
    assert info.polls == polls and info.polling   # none during the run; again after it

    record = json.loads((Path(window.model.run_dir) / "run.json").read_text())
    assert record["temperature"]["source"] == "smartctl"
    assert window.model.series.has_temperature
    assert window.charts.points("temperature_c") >= window.model.series.samples // 2 > 0
    assert not window.charts.temp_note.isVisible()
    y = window.charts.curves["temperature_c"].dataset()[1]
    assert {float(v) for v in y if v == v} == {35.0}
    window.charts.redraw()
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window_drive_temperature.png"))


def test_a_throttled_trial_is_marked_in_the_table_and_on_the_charts(qtbot, make_window):
    window = make_window()
    model = window.model
    model.begin()
    throttle = {"throttled": True, "signals": ["above_warning", "drop_with_temp_rise"],
                "max_temp_c": 82.0, "warning_temp_c": 80.0,
                "throughput_drop": {"drop_pct": 45.0, "from_MBps": 3000.0, "to_MBps": 1650.0,
                                    "temp_from_c": 70.0, "temp_to_c": 82.0}}
    for index, hot in ((0, False), (1, True)):
        model.apply(TrialStarted(index, "slc-cache", "SEQ1M Q32T1 write", 1, False, (), index * 5.0, 5.0))
        record = {"index": index, "experiment": "slc-cache", "label": "SEQ1M Q32T1 write",
                  "repetition": 1, "warmup": False, "status": "done", "measurement": None,
                  "throttled": hot, "throttle": throttle if hot else {"throttled": False, "signals": []}}
        model.apply(TrialFinished(index, "SEQ1M Q32T1 write", TrialResult.from_json(record)))
    table = window.results.trials
    assert table.item(0, 4).text() == "done"
    assert table.item(1, 4).text() == "done \u26a0 throttled"
    tip = table.item(1, 4).toolTip()
    assert "82.0 °C" in tip and "80.0 °C" in tip and "fell 45.0 %" in tip
    assert "1 \u26a0 throttled" in window.results.caption.text()
    labels = window.charts.boundary_labels()
    assert labels == ["SEQ1M Q32T1 write #1", "SEQ1M Q32T1 write #1 \u26a0 throttled"]
    model.reset.emit()  # a reopened run rebuilds the views from the records: same marks
    assert window.charts.boundary_labels() == labels
    assert table.item(1, 4).text().endswith("\u26a0 throttled")


# -- the engine -----------------------------------------------------------------------------
@posix_only
def test_engine_switch_detects_in_background_and_is_remembered(qtbot, make_window, monkeypatch):
    monkeypatch.setenv("SSD_PROFILER_DISKSPD", str(FAKES / "diskspd"))
    window = make_window()
    picker = window.engine_picker
    assert picker.name == "fio" and [picker.combo.itemText(i) for i in range(2)] == ["fio", "DiskSpd"]
    qtbot.waitUntil(lambda: window.engine is not None or window.engine_error is not None, timeout=10000)
    picker.set_name("diskspd")
    assert window.engine is None and "looking for DiskSpd" in window.engine_label.text()
    qtbot.waitUntil(lambda: window.engine is not None, timeout=10000)
    assert window.engine.name == "diskspd" and window.engine.path == str(FAKES / "diskspd")
    picker.combo.activated.emit(picker.combo.currentIndex())  # picking it again looks again
    assert window.engine is None
    qtbot.waitUntil(lambda: window.engine is not None, timeout=10000)
    assert window.engine_label.text() == f"Engine: DiskSpd 2.2 ({FAKES / 'diskspd'})"
    assert window.settings.engine == "diskspd"
    window.close()
    again = make_window()
    assert again.engine_picker.name == "diskspd"
    qtbot.waitUntil(lambda: again.engine is not None, timeout=10000)
    assert again.engine.name == "diskspd"


def test_missing_diskspd_disables_run_with_the_install_hint(qtbot, make_window, tmp_path,
                                                           monkeypatch):
    monkeypatch.delenv("SSD_PROFILER_DISKSPD", raising=False)
    window = make_window()
    window.drive_panel.set_target(str(tmp_path / "target"))
    window.engine_picker.set_name("diskspd")
    qtbot.waitUntil(lambda: window.engine_error is not None, timeout=10000)
    assert not window.run_button.isEnabled()
    assert "github.com/microsoft/diskspd" in window.run_button.toolTip()
    assert "DiskSpd not found" in window.engine_label.text()
    dialog = window.engine_dialog
    assert dialog.isVisible() and "github.com/microsoft/diskspd" in dialog.informativeText()
    if not sys.platform.startswith("win"):
        assert "choose fio in the Engine box" in dialog.informativeText()
    assert "SSD_PROFILER_DISKSPD" in retry_advice("diskspd", "win32")
    assert "SSD_PROFILER_FIO" in retry_advice("fio", "linux")
    window.start_run()
    assert not window.control.running
    window.engine_picker.set_name("fio")   # choosing again closes the dialog and looks again
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: window.engine is not None or window.engine_error is not None, timeout=10000)
    if shutil.which("fio"):
        assert window.engine.name == "fio" and window.engine_error is None


@posix_only
def test_zero_queue_run_with_the_fake_diskspd_fills_the_table(qtbot, make_window, tmp_path,
                                                             monkeypatch):
    monkeypatch.setenv("SSD_PROFILER_DISKSPD", str(FAKES / "diskspd"))
    monkeypatch.setenv("FAKE_DISKSPD_MODE", "ok")
    window = make_window()
    window.engine_picker.set_name("diskspd")
    target = tmp_path / "target"
    window.drive_panel.set_target(str(target))
    window.experiment_panel.set_checked(["zero-queue"])
    window.experiment_panel.set_values("zero-queue", {"runtime": "1s", "size": "32MiB",
                                                      "repetitions": "1", "warmup": "false"})
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=15000)
    assert window.engine.name == "diskspd"
    qtbot.mouseClick(window.run_button, Qt.MouseButton.LeftButton)
    assert not window.engine_picker.isEnabled()   # no switching during a run
    qtbot.waitUntil(lambda: window.model.finished and not window.control.running, timeout=90000)

    assert window.model.status == "done", window.model.error
    record = json.loads((Path(window.model.run_dir) / "run.json").read_text())
    assert record["engine"]["name"] == "diskspd" and record["engine"]["version"] == "DiskSpd 2.2"
    assert "--engine" in record["command_line"] and "diskspd" in record["command_line"]
    assert window.results.trials.rowCount() == 4 == len(record["trials"])
    assert all(window.results.trials.item(r, 4).text() == "done" for r in range(4))
    assert window.results.workloads.rowCount() == 4
    assert window.model.engine_version == "DiskSpd 2.2"
    assert "-Rxml" in window.log_pane.plain_text()
    assert not (target / "ssd-profiler-data").exists() or not any((target / "ssd-profiler-data").iterdir())
    assert window.engine_picker.isEnabled() and window.run_button.isEnabled()
