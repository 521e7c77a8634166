"""An uncaught error in the window shows one line and the log path, and the traceback is in the
rotating log: forced here through the hook the app installs."""
from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMainWindow


def test_a_forced_crash_shows_the_dialog_and_logs_the_traceback(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    from ui import log_file
    monkeypatch.setattr(log_file, "_handler", None)
    import sys
    import threading
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    from ui.window.crash import CrashReporter
    window = QMainWindow()
    qtbot.addWidget(window)
    reporter = CrashReporter(window)
    try:
        raise RuntimeError("boom\nsecond line")
    except RuntimeError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=10000)
    text = reporter.dialog.informativeText()
    assert text.startswith("RuntimeError: boom\\nsecond line")
    log = tmp_path / "state" / "ssd-profiler" / "log" / "ssd-profiler.log"
    assert str(log) in text
    assert "Traceback" in log.read_text() and "boom" in log.read_text()
    copy = next(b for b in reporter.dialog.buttons() if b.text() == "Copy details")
    copy.click()
    assert "RuntimeError: boom" in QApplication.clipboard().text()
    assert reporter.dialog.isVisible()  # copying keeps the box open
    reporter.dialog.close()
    log_file._handler.close()
