"""A Stop wakes the trial loop at once (jobs/run/cancel.py): the loop waits up to a second for
an engine's output instead of looking at the flag five times a second, so a silent engine must
not make a cancel wait for that second; from a signal handler too (the command line's Ctrl+C)."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from jobs.engine.process import EngineProcess
from jobs.run.cancel import Cancel, waking

SILENT = "import time\ntime.sleep(30)"


@pytest.fixture
def silent_engine():
    proc = EngineProcess([sys.executable, "-c", SILENT])
    yield proc
    proc.stop("test over")


def test_a_cancel_ends_the_wait_for_a_silent_engines_output(silent_engine):
    cancel = Cancel()
    threading.Timer(0.3, cancel.set).start()
    with waking(cancel, silent_engine.wake):
        started = time.monotonic()
        assert silent_engine.read_text(10.0) == ""
        waited = time.monotonic() - started
    assert cancel.is_set() and waited < 3.0   # not the 10 s asked for


def test_a_cancel_set_before_the_wait_is_not_lost(silent_engine):
    cancel = Cancel()
    cancel.set()
    with waking(cancel, silent_engine.wake):
        started = time.monotonic()
        silent_engine.read_text(10.0)
        assert time.monotonic() - started < 3.0


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="POSIX signals")
def test_a_cancel_from_a_signal_handler_wakes_the_same_thread(silent_engine):
    cancel = Cancel()
    previous = signal.signal(signal.SIGUSR1, lambda *_: cancel.set())
    try:
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGUSR1)).start()
        with waking(cancel, silent_engine.wake):
            started = time.monotonic()
            silent_engine.read_text(10.0)
            assert time.monotonic() - started < 3.0
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert cancel.is_set()


def test_outside_the_block_a_cancel_wakes_nothing():
    woken = []
    cancel = Cancel()
    with waking(cancel, lambda: woken.append(1)):
        pass
    cancel.set()
    assert woken == [] and cancel.is_set()
