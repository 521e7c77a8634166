"""The app as launched (``python -m ui.main``): idle, its GUI thread sleeps until something
happens, and a signal still closes it at once. A signal wakes Qt's loop through a socket
(ui/window/app.py SignalWakeup) instead of a timer waking the thread four times a second to
look for one; its paints stay on the GUI thread. Linux: the test reads the thread's sleeps,
names and handlers from /proc."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _status(pid: int, field: str) -> str:
    for line in Path(f"/proc/{pid}/task/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(field)


def _handles(pid: int, signum: int) -> bool:
    return bool(int(_status(pid, "SigCgt"), 16) >> (signum - 1) & 1)


def test_the_idle_window_sleeps_and_a_sigterm_still_closes_it(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp_path / var.lower())
    proc = subprocess.Popen([sys.executable, "-m", "ui.main"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not _handles(proc.pid, signal.SIGTERM):   # set right before the event loop
            assert proc.poll() is None and time.monotonic() < deadline, "the window did not start"
            time.sleep(0.1)
        time.sleep(4)                  # the first screen's checks and the deferred build end
        before = int(_status(proc.pid, "voluntary_ctxt_switches"))
        time.sleep(3)
        wakeups = int(_status(proc.pid, "voluntary_ctxt_switches")) - before
        # the collector's 1 s timer: 3; the old signal timer alone added 12
        assert wakeups <= 8, f"the idle GUI thread woke {wakeups} times in 3 s"
        # painted without Qt's GUI thread pool (ui/window/app.py paint_on_the_gui_thread)
        threads = [p.read_text().strip() for p in Path(f"/proc/{proc.pid}/task").glob("*/comm")]
        assert "Thread (pooled)" not in threads, threads
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=15)
        assert code == 128 + signal.SIGTERM, proc.stderr.read().decode(errors="replace")[-2000:]
        assert time.monotonic() - sent < 10
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
