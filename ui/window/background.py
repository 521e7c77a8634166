"""Short jobs off the GUI thread: engine detection, drive listing, target checks, run loading.

Why not one QThread each: these calls are short and many (a target check on every keystroke),
so a small thread pool runs them and one queued signal brings each result back to the GUI thread,
where the callback runs. Results are handed over once and never touched again by the pool.
A result that arrives after :meth:`Background.shutdown` is dropped.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

log = logging.getLogger(__name__)

#: A job as submitted: the work, what gets its value, what gets its exception (None: logged).
_Job = tuple[Callable[[], Any], Callable[[Any], None], Callable[[BaseException], None] | None]


class Background(QObject):
    """``submit(fn, on_done, on_error)``: fn runs in a pool thread, the callbacks on this one.

    ``held``: jobs wait until ``release()`` (the window's first paint: on two cores the target,
    volume and engine checks took a third of the time the set-up column needs to paint)."""

    _finished = Signal(object, object, object)   # callback, value, is_error

    def __init__(self, parent: QObject | None = None, workers: int = 3, held: bool = False):
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ssd-bg")
        self._closed = False
        self._held: list[_Job] | None = [] if held else None
        self._finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def submit(self, fn: Callable[[], Any], on_done: Callable[[Any], None],
               on_error: Callable[[BaseException], None] | None = None) -> None:
        if self._closed:
            return
        if self._held is not None:
            self._held.append((fn, on_done, on_error))
            return
        self._pool.submit(self._call, fn, on_done, on_error)

    def release(self) -> None:
        """Start the held jobs, in the order they came, and every later one at once."""
        held, self._held = self._held or [], None
        for job in held:
            self.submit(*job)

    def _call(self, fn: Callable[[], Any], on_done: Callable[[Any], None],
              on_error: Callable[[BaseException], None] | None) -> None:
        try:
            value = fn()
        except Exception as exc:  # noqa: BLE001 - handed to on_error, or logged
            if on_error is None:
                log.exception("background job failed")
                return
            self._emit(on_error, exc, True)
            return
        self._emit(on_done, value, False)

    def _emit(self, callback: Callable[[Any], None], value: object, is_error: bool) -> None:
        if self._closed:
            return
        try:
            self._finished.emit(callback, value, is_error)
        except RuntimeError:  # the QObject is gone (window closed while a job ran)
            pass

    def _deliver(self, callback: Callable[[Any], None], value: object, _is_error: bool) -> None:
        if not self._closed:
            callback(value)

    def shutdown(self) -> None:
        """Stop delivering; drop queued jobs; never wait on a running one."""
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
