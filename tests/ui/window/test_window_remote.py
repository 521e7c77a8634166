"""The window's remote target, with a real ``fio --server`` on loopback: the remote
field, a run through the server from the Run button to the table, and a hostile remote folder
refused inline before Run. Each job through a server costs ~1.3 s, so the run is one trial."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
import remote_support  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from ui.window.settings import AppSettings  # noqa: E402

import gui_support  # noqa: E402
from conftest import needs_fio  # noqa: E402

make_window = gui_support.make_window  # the shared window factory fixture
ONE = {"queue_depths": "1", "runtime": "2s", "size": "16MiB", "repetitions": "1",
       "warmup": "false"}


server = remote_support.server   # a real fio --server on a free loopback port
folder = remote_support.folder   # a shallow folder under /tmp (each remote job probes its path)


def choose_remote(window, remote: str, target: str) -> None:
    window.drive_panel.remote.set_address(remote)
    window.drive_panel.set_target(target)
    window.experiment_panel.set_checked(["tail-latency"])
    window.experiment_panel.set_values("tail-latency", ONE)


@needs_fio
def test_a_run_through_a_loopback_fio_server_from_the_window(qtbot, make_window, tmp_path,
                                                             server, folder):
    window = make_window()
    choose_remote(window, server.address, str(folder))
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=10000)
    panel = window.drive_panel
    assert not panel.choose_button.isEnabled() and not panel.table.isEnabled()
    assert "not available remotely" in panel.info.identity.text()
    assert "not available remotely" in panel.info.temperature.text()
    assert "not available remotely" in panel.space.text()
    # a window tabbed for its size puts the Experiments tab in front once the target is ready:
    # the student clicks back to the target tab to read the help
    window.show_setup_page("target")
    assert panel.remote.help.isVisibleTo(window) and "fio --server=ip:127.0.0.1,8765" in panel.remote.help.text()
    assert "no password" in panel.remote.edit.toolTip()

    qtbot.mouseClick(window.run_button, Qt.MouseButton.LeftButton)
    # while the trial runs: live throughput arrives, latency does not, and the chart says why
    qtbot.waitUntil(lambda: window.model.series.samples > 0 or window.model.finished, timeout=30000)
    assert window.model.remote and window.remote_note.visible, "the remote note was not shown"
    assert "latency (mean)" in window.remote_note.text and "not available remotely" in window.remote_note.text.lower()
    qtbot.waitUntil(lambda: window.charts.points("read_tp") > 0, timeout=10000)  # the next redraw
    assert window.model.live and window.charts.points("read_lat_us") == 0
    qtbot.waitUntil(lambda: window.model.finished and not window.control.running, timeout=60000)

    assert window.model.status == "done", window.model.error
    record = json.loads((Path(window.model.run_dir) / "run.json").read_text())
    assert record["status"] == "done"
    assert record["target"]["remote"]["port"] == server.port
    assert record["command_line"][:5] == ["ssd-profiler", "run", "tail-latency", "--remote", server.address]
    assert window.results.trials.rowCount() == 1 and window.results.workloads.rowCount() == 1
    qtbot.waitUntil(lambda: "not available remotely" in window.charts.temp_note.text(), timeout=10000)
    assert window.charts.points("read_tp") > 0 and window.remote_note.visible
    window.open_run(window.model.run_dir)   # reopened: fio's per-interval series has latency
    qtbot.waitUntil(lambda: window.charts.points("read_lat_us") > 0, timeout=5000)
    assert window.model.remote and not window.remote_note.visible
    assert sorted(p.name for p in folder.iterdir()) == []   # the data folder removed too
    window.close()
    assert AppSettings(tmp_path / "settings.ini").remote == server.address


@pytest.mark.parametrize("target,why", [("/tmp/a:b", "':'"), ("/dev/x", "device node"),
                                        ("tmp/relative", "not an absolute path")])
def test_a_bad_remote_folder_says_why_inline_and_keeps_run_disabled(qtbot, make_window, target, why):
    window = make_window()
    choose_remote(window, "127.0.0.1:9", target)
    qtbot.waitUntil(lambda: "Run would be refused" in window.drive_panel.verdict.text(), timeout=5000)
    assert why in window.drive_panel.verdict.text()
    assert not window.run_button.isEnabled() and why in window.run_blocker()
    window.drive_panel.remote.set_address("host:port")
    qtbot.waitUntil(lambda: "not a port number" in window.drive_panel.verdict.text(), timeout=5000)
    assert not window.run_button.isEnabled()
    window.drive_panel.remote.set_address("")   # this computer again: the local check answers
    qtbot.waitUntil(lambda: "remote" not in window.drive_panel.verdict.text(), timeout=5000)
    assert window.drive_panel.choose_button.isEnabled()
