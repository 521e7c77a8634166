"""Starting the desktop application (QApplication, window, event loop)."""
from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import MutableMapping
from types import FrameType
from typing import TYPE_CHECKING

from app import APP_NAME, __version__

if TYPE_CHECKING:   # Qt and the window load in run_window, after the environment is set
    import socket

    from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSocketNotifier, QTimer

    from ui.window.main_window import MainWindow

log = logging.getLogger(__name__)


def paint_on_the_gui_thread(environ: MutableMapping[str, str] = os.environ) -> None:
    """Before Qt first paints: its raster engine hands every fill of 96 rows or more to a pool
    of threads and waits for them. For the window's chart-sized fills the hand-off costs more
    than the fill, and each second of a run woke two more threads beside fio
    (docs/performance.md). Qt reads ``QT_NO_GUI_THREADPOOL`` once, when it would make the pool."""
    environ.setdefault("QT_NO_GUI_THREADPOOL", "1")


def run_window() -> int:
    """Open the window and run until it closes; the exit code of the event loop."""
    paint_on_the_gui_thread()
    from PySide6.QtWidgets import QApplication

    from ui.window.main_window import MainWindow

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from ui import log_file
    log_file.install()   # the log Help > Open the log folder shows (a windowed app has no stderr)
    from PySide6.QtGui import QGuiApplication

    from ui import APP_ID
    QGuiApplication.setDesktopFileName(APP_ID)  # before the first window: Wayland's app id
    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName("ssd-profiler")
    window = MainWindow(load_later=True)   # paints the set-up column, then loads the rest
    from ui.window.crash import CrashReporter
    window.crash_reporter = CrashReporter(window)
    from PySide6.QtGui import QIcon

    from ui.resources_path import icon_path
    window.setWindowIcon(QIcon(str(icon_path())))
    window.show()
    if os.environ.get("SSD_PROFILER_EXIT_AFTER_PAINT"):
        _exit_after_first_paint(app)
    caught = close_on_signals(app, window)
    code = app.exec()
    if window.built and not window.control.wait(5000):  # bounded: logged, not awaited
        log.error("the run thread did not stop; exiting anyway")
    return 128 + caught[0] if caught else code


def close_on_signals(app: QCoreApplication, window: MainWindow) -> list[int]:
    """SIGTERM, SIGHUP and SIGINT (logout, ``kill``, a closed terminal, Ctrl+C) end like closing
    the window without the question: the run is cancelled (engine stopped, test file removed,
    finished trials kept), then the app quits. Returns the list the caught signal goes into."""
    from PySide6.QtCore import QTimer

    caught: list[int] = []

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        if not caught:
            caught.append(signum)
        window.confirm_close = lambda: True
        QTimer.singleShot(0, window.close)

    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), on_signal)
    setattr(app, "_signal_wakeup", SignalWakeup(app))  # noqa: B010 - kept alive by the app; tests stop it
    return caught


class SignalWakeup:
    """Wakes Qt's event loop for a signal, and only then.

    Python runs a signal handler only when it gets control, and Qt's loop is C++: the C-level
    handler writes to a socket (``signal.set_wakeup_fd``) that a QSocketNotifier watches, and
    the notifier's slot gives Python control. So the GUI thread sleeps until an event comes
    (docs/performance.md); a polling timer, four wake-ups a second, is only the fallback where a
    wakeup socket cannot be set. ``stop()`` undoes it (tests)."""

    def __init__(self, app: QCoreApplication) -> None:
        import socket

        from PySide6.QtCore import QSocketNotifier, QTimer
        self._timer: QTimer | None = None
        self._notifier: QSocketNotifier | None = None
        self._sockets: tuple[socket.socket, ...] = ()
        try:
            reader, writer = socket.socketpair()
            reader.setblocking(False)
            writer.setblocking(False)
            self._previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except (OSError, ValueError, AttributeError):   # no sockets, or not the main thread
            self._timer = QTimer(app)
            self._timer.timeout.connect(lambda: None)
            self._timer.start(250)
            return
        self._sockets = (reader, writer)
        self._notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, app)
        self._notifier.activated.connect(self._drain)

    def _drain(self) -> None:
        try:
            while self._sockets[0].recv(256):
                pass
        except OSError:   # nothing more to read (BlockingIOError) or closed
            pass

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            return
        if self._notifier is not None:
            self._notifier.setEnabled(False)
            signal.set_wakeup_fd(self._previous)
            for sock in self._sockets:
                sock.close()
            self._notifier = None


def _exit_after_first_paint(app: QCoreApplication) -> None:
    """For benchmarks/startup.py: print ``first-paint`` once the window has painted, then quit."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
            if event.type() == QEvent.Type.Paint and not getattr(self, "seen", False):
                self.seen = True
                QTimer.singleShot(0, lambda: (print("first-paint", flush=True), app.quit()))
            return False

    first_paint = FirstPaint()
    setattr(app, "_first_paint", first_paint)  # noqa: B010 - kept alive by the application
    app.installEventFilter(first_paint)
