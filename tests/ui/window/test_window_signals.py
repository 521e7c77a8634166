"""A signal to the windowed app (logout, ``kill``, a closed terminal) ends like closing the
window during a run: engine stopped, test file removed, run.json cancelled; nobody is asked."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import signal  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from ui.window.app import close_on_signals  # noqa: E402

import gui_support  # noqa: E402
from safety_support import data_files, engines_on, needs_fio  # noqa: E402

make_window = gui_support.make_window


@needs_fio
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_run_closes_the_window_like_a_cancel(qtbot, make_window, tmp_path, signum):
    window = make_window()
    target = tmp_path / "target"
    window.drive_panel.set_target(str(target))
    window.experiment_panel.set_checked(["zero-queue"])
    window.experiment_panel.set_values("zero-queue", {"runtime": "3s", "size": "32MiB",
                                                      "repetitions": "1", "warmup": "false"})
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=10000)
    app = QApplication.instance()
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    asked = []
    try:
        caught = close_on_signals(app, window)
        window.run_action.trigger()
        qtbot.waitUntil(lambda: window.model.series.samples >= 1, timeout=30000)
        window.confirm_close = lambda: asked.append(True) or False  # the signal never asks
        os.kill(os.getpid(), signum)
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=10000)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        app._signal_wakeup.stop()   # the socket and the handlers back as they were
    assert caught == [signum] and not asked
    assert not window.control.running and not engines_on(target) and data_files(target) == []
    record = json.loads((Path(window.model.run_dir) / "run.json").read_text())
    assert record["status"] == "cancelled"
