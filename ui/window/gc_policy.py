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


def keep_out_of_collections() -> None:
    """After a big run was loaded and is shown (on the GUI thread): its objects leave the
    collector's generations (``gc.freeze``). A reopened run of 10,000 trials is a few million
    dicts and lists parsed from run.json; they hold no reference cycles, are freed by their
    reference counts when another run replaces them, and walking them again at every older-
    generation collection froze the window for a second or more each time (then every
    minute or so while the run is shown)."""
    import gc
    gc.freeze()
