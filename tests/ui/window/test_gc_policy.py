"""Garbage holding a Qt widget is collected on the GUI thread, never on a worker thread (the CI
deadlock of stop 23: a run's worker thread collected a menu left by an earlier window)."""
from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtWidgets import QMenu

import gui_support  # offscreen platform before the QApplication exists

make_window = gui_support.make_window


class _Cycle:
    """A widget in a reference cycle: only the cycle collector can free it."""

    def __init__(self):
        self.me = self
        self.menu = QMenu()


def test_a_worker_thread_allocating_never_collects_a_widget(qtbot, make_window):
    make_window(size=None)
    assert not gc.isenabled()
    freed_on = []
    cycle = _Cycle()
    weakref.finalize(cycle, lambda: freed_on.append(threading.current_thread().name))
    del cycle

    kept = []

    def allocate():   # crosses gc's thresholds many times over, as parsing an engine's output does
        kept.extend([{}] for _ in range(20_000))

    worker = threading.Thread(target=allocate, name="worker")
    worker.start()
    worker.join(30)
    assert freed_on == []
    qtbot.waitUntil(lambda: bool(freed_on), timeout=5000)   # the GUI thread's timer collects it
    assert freed_on == [threading.main_thread().name]


def test_the_collector_looks_less_often_while_a_run_goes_on(qtbot, make_window):
    """Each look is a wake-up of the GUI thread beside fio: every 5 s during a run, every second
    otherwise (ui/window/gc_policy.py)."""
    from ui.window import gc_policy
    make_window(size=None)
    timer = gc_policy._collector.timer
    assert timer.interval() == 1000
    gc_policy.outside_collections_during_run()
    try:
        assert timer.interval() == 5000 and timer.isActive()
    finally:
        gc_policy.back_in_collections()
    assert timer.interval() == 1000 and timer.isActive()
