"""Starting, cancelling and finishing one run from the window: owns the worker thread.

Why separate from the window: the worker's life cycle (start, cooperative cancel, bounded wait,
the thread's end) is the part that must be right for closing and cancelling to be clean, and it
is easier to see whole here than spread between buttons and dialogs.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ui.window.gc_policy import back_in_collections, outside_collections_during_run
from ui.window.run.run_model import RunModel

if TYPE_CHECKING:
    from jobs.run.session import RunSession
    from jobs.worker import RunWorker, WorkerEvent

log = logging.getLogger(__name__)


def command_line(names: list[str], settings: dict[str, str], target: str, runs_root: str,
                 engine: str | None = None, remote: str = "") -> list[str]:
    """The equivalent ``ssd-profiler run`` command, recorded in run.json and shown in the log,
    so a run started from the window can be repeated from a terminal. ``remote``: HOST:PORT of
    a fio server, ``target`` then being a folder there."""
    argv = ["ssd-profiler", "run", *names, *(["--remote", remote] if remote else []), "--target", target]
    if engine:
        argv += ["--engine", engine]
    for key, value in settings.items():
        argv += ["--set", f"{key}={value}"]
    return argv + ["--out", runs_root]


class RunControl(QObject):
    """``event`` re-emits every worker event after the model has seen it; ``ended`` fires when
    the worker thread has finished (after RunFinished or RunRefused)."""

    # the signal's name shadows QObject.event(): PySide calls a Python override of that virtual
    # only when it is a method, so Qt's own event handling is untouched; listeners use this name
    event = Signal(object)  # type: ignore[assignment]
    ended = Signal()

    def __init__(self, model: RunModel, parent: QObject | None = None):
        super().__init__(parent)
        self.model = model
        self.worker: RunWorker | None = None
        self._cancel = threading.Event()
        self._gui_nice: int | None = None   # the GUI thread's nice before the run lowered it

    @property
    def running(self) -> bool:
        return self.worker is not None

    @property
    def cancelling(self) -> bool:
        return self.worker is not None and self.worker.cancel_requested

    def start(self, names: list[str], settings: dict[str, str], target: str, runs_root: str,
              engine_path: str | None = None, engine: str | None = None, remote: str = "",
              pin_engine: bool = False) -> None:
        """``engine``: "fio" | "diskspd" (None: the per-OS default); ``engine_path`` where it is.
        ``remote``: HOST[:PORT] of a running fio server ("": this computer). ``pin_engine``:
        the engine on a CPU of its own (an opt-in, jobs/engine/quiet.py)."""
        if self.worker is not None:
            raise RuntimeError("a run is already going on")
        # the run's machinery (session, runner, monitor, worker thread) loads at the first Run,
        # not while the window opens
        from jobs.run.session import prepare_run
        from jobs.worker import RunWorker

        argv = command_line(names, settings, target, runs_root, engine, remote)
        from jobs.run.cancel import Cancel
        cancel = self._cancel = Cancel()   # a Stop wakes the trial loop at once

        def prepare() -> RunSession:  # runs in the worker thread: checks, `fio --version`, the run folder
            # the cancel reaches the checks too: cancelled before the run folder exists, nothing
            # is written (as on the command line), instead of an empty run recorded as cancelled
            return prepare_run(names, settings, target, runs_root=Path(runs_root),
                               command_line=argv, engine_path=engine_path, engine=engine,
                               cancel=cancel, remote=remote or None)

        self.model.begin(note="starting the equivalent of: " + " ".join(argv))
        outside_collections_during_run()   # before the worker thread exists (see gc_policy)
        from jobs.engine import quiet
        quiet.pin_engines(pin_engine and not remote)   # before the worker records the host block
        worker = RunWorker(prepare, self)
        worker.event.connect(self._on_event)
        worker.finished.connect(self._on_finished)
        self.worker = worker
        worker.start()
        self._gui_nice = quiet.lower_this_thread(only_if_restorable=True)

    def cancel(self) -> None:
        if self.worker is not None and not self.worker.cancel_requested:
            self.model.log_line.emit("cancelling: stopping the engine, keeping finished trials...",
                                     "warning")
            self._cancel.set()
            self.worker.cancel()

    def wait(self, ms: int) -> bool:
        """Bounded wait for the worker thread (used only when the app quits)."""
        return self.worker is None or self.worker.wait(ms)

    def _on_event(self, event: WorkerEvent) -> None:
        from jobs.worker import LiveBatch, RunRefused  # loaded by start()

        if isinstance(event, LiveBatch):   # samples that travelled together (jobs/worker.py)
            self.model.apply_live(event.events)
            for each in event.events:
                self.event.emit(each)
            return
        if isinstance(event, RunRefused) and self._cancel.is_set():
            self.model.cancelled_before_start()   # a cancel, not a refusal: nothing was written
        else:
            self.model.apply(event)
        self.event.emit(event)

    def _on_finished(self) -> None:
        worker, self.worker = self.worker, None
        back_in_collections()
        from jobs.engine import quiet  # the window painted below fio's priority: back to its own
        quiet.restore_this_thread(self._gui_nice)
        self._gui_nice = None
        if worker is not None:
            worker.deleteLater()
        self.ended.emit()
