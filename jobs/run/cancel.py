"""A run's cancel flag that wakes the trial loop the moment it is set.

Why: the trial loop waits for the engine's output, and without a wake-up it had to look at the
flag on its own, five times a second, for the whole run (each look a wake-up of the worker
thread beside fio, on a GUI thread's core; docs/performance.md). Output, the engine's exit and
its end of I/O wake the loop anyway; a cancel now does too (``waking``), so the loop waits up to
a second for output and a Stop still acts at once. Safe from a signal handler: ``set`` takes no
lock of its own, and the wake-up it calls puts into a ``queue.SimpleQueue``, which is reentrant.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Cancel(threading.Event):
    """A threading.Event whose ``set`` also calls the wake-ups registered with ``waking``."""

    def __init__(self) -> None:
        super().__init__()
        self._wakers: list[Callable[[], None]] = []

    def set(self) -> None:
        super().set()
        for wake in tuple(self._wakers):
            wake()


@contextmanager
def waking(cancel: threading.Event, wake: Callable[[], None]) -> Iterator[None]:
    """While the block runs, setting ``cancel`` calls ``wake`` (a plain Event: nothing to do,
    its loop sees the flag within its poll)."""
    if not isinstance(cancel, Cancel):
        yield
        return
    cancel._wakers.append(wake)
    try:
        if cancel.is_set():
            wake()
        yield
    finally:
        try:
            cancel._wakers.remove(wake)
        except ValueError:
            pass
