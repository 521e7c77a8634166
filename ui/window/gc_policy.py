"""Python's cycle collector runs on the GUI thread only, once a window exists.

Why: the collector runs in whichever thread happens to allocate when a threshold is crossed. If
that is the run's worker thread (parsing an engine's output) and the garbage holds a Qt widget
(a closed dialog, a menu, a window left in a reference cycle), the widget is destroyed on the
wrong thread: Qt forbids it, and here it deadlocked, the worker holding Qt's object lock while
waiting for the GIL and the GUI thread holding the GIL while waiting for that lock (seen in CI as
a window test that never ended). pyqtgraph's GarbageCollector is the ecosystem's answer:
automatic collection off, a timer on the GUI thread collects instead. Installed once per process.
"""
from __future__ import annotations

from pyqtgraph.util.garbage_collector import GarbageCollector

COLLECT_EVERY_S = 1.0
_collector: GarbageCollector | None = None


def collect_on_gui_thread() -> None:
    """Call on the GUI thread with a QApplication running (the window's constructor does)."""
    global _collector
    if _collector is None:
        _collector = GarbageCollector(interval=COLLECT_EVERY_S)
