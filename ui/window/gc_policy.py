"""Python's cycle collector runs on the GUI thread only, once a window exists.

Why: the collector runs in whichever thread happens to allocate when a threshold is crossed. If
that is the run's worker thread (parsing an engine's output) and the garbage holds a Qt widget
(a closed dialog, a menu, a window left in a reference cycle), the widget is destroyed on the
wrong thread: Qt forbids it, and here it deadlocked, the worker holding Qt's object lock while
waiting for the GIL and the GUI thread holding the GIL while waiting for that lock (seen in CI as
a window test that never ended). pyqtgraph's GarbageCollector is the ecosystem's answer:
automatic collection off, a timer on the GUI thread collects instead. Installed once per process.
pyqtgraph is loaded with the run column, after the window's first paint; until then automatic
collection is only paused (``pause_collections``), and the timer catches up when it starts.

While a run goes, what the window held when it started (modules, widgets, pyqtgraph's items:
a few hundred thousand objects) is kept out of the collected generations
(``outside_collections_during_run``): the timer's occasional full collection walked all of it,
10-20 ms of the GUI thread each time beside fio, to find the few cycles the run itself makes.
The timer then looks every ``RUN_COLLECT_EVERY_S``: each look is a wake-up of a thread that
otherwise sleeps between samples, and a wake-up costs more than the look (docs/performance.md).
"""
from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

COLLECT_EVERY_S = 1.0
RUN_COLLECT_EVERY_S = 5.0
_collector: object | None = None
_loads = [0]          # loads going on in the background (read by the timer, a plain int)
_loads_lock = threading.Lock()


def pause_collections() -> None:
    """No automatic collection from now on (in no thread) until collect_on_gui_thread."""
    gc.disable()


def collect_on_gui_thread() -> None:
    """Call on the GUI thread with a QApplication running (the window does, before it starts a
    run)."""
    global _collector
    if _collector is None:
        from pyqtgraph.util.garbage_collector import GarbageCollector

        class _Collector(GarbageCollector):  # type: ignore[misc]  # pyqtgraph: no types
            """pyqtgraph's timer collector, which skips its turn while a big load is going on."""

            def check(self) -> None:
                if not _loads[0]:
                    super().check()

        _collector = _Collector(interval=COLLECT_EVERY_S)


def outside_collections_during_run() -> None:
    """At a run's start: collect what is garbage now, then freeze the survivors (``gc.freeze``)
    so collections during the run walk only the objects made since. Undone at the run's end
    (``back_in_collections``), so what the window drops later (an earlier run's plots, in
    reference cycles) is still collected."""
    gc.collect()
    gc.freeze()
    _collect_every(RUN_COLLECT_EVERY_S)


def back_in_collections() -> None:
    """At a run's end: the frozen objects are collected again like any other."""
    gc.unfreeze()
    _collect_every(COLLECT_EVERY_S)


def _collect_every(seconds: float) -> None:
    timer = getattr(_collector, "timer", None)
    if timer is not None:
        timer.setInterval(int(seconds * 1000))


def load_outside_collections(load: Callable[[], T]) -> T:
    """``load()`` (a reopened run: run.json parsed on a background thread), its objects then
    kept out of the collector's generations (``gc.freeze``). A run of 10,000 trials is a few
    million dicts and lists: the timer's collections walked them while they were made and
    again at every older-generation collection while the run was shown, a second or more of
    the window's time each. They hold no reference cycles and are freed by their reference
    counts when another run replaces them; the timer waits while a load goes on."""
    with _loads_lock:
        _loads[0] += 1
    try:
        result = load()
        gc.freeze()
        return result
    finally:
        with _loads_lock:
            _loads[0] -= 1
