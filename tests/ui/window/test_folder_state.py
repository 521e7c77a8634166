"""The target's state is always true: a folder another run holds says so within seconds of the
run starting, and says it is free again once that run's process is gone, with nobody touching
the path (the lock is the kernel's: it ends with its holder)."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import subprocess  # noqa: E402
import sys  # noqa: E402

from gui_support import make_window  # noqa: E402,F401

HOLD = """import fcntl, os, sys, time
d = os.path.join(sys.argv[1], "ssd-profiler-data")
os.makedirs(d, exist_ok=True)
fd = os.open(os.path.join(d, "ssd-profiler.lock"), os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.write(fd, b"20261126T000000Z_zero-queue pid %d" % os.getpid())
print("held", flush=True)
time.sleep(60)
"""


def test_in_use_then_free_without_touching_the_path(make_window, qtbot, tmp_path):  # noqa: F811
    target = tmp_path / "bench"
    target.mkdir()
    window = make_window()
    panel = window.drive_panel
    panel._watch.setInterval(200)
    panel.set_target(str(target))
    qtbot.waitUntil(lambda: "Ready" in panel.verdict.text(), timeout=10_000)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(target)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        qtbot.waitUntil(lambda: "in use by run" in panel.verdict.text(), timeout=10_000)
        assert not panel.is_ready()
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    qtbot.waitUntil(lambda: "Ready" in panel.verdict.text(), timeout=10_000)
    assert panel.is_ready() and panel.target() == str(target)


def test_a_refused_run_keeps_the_shown_run(make_window, qtbot):  # noqa: F811
    """A Run refused by its checks (the folder is in use, a bad value) says why in the log and
    leaves the results, figures and progress of the run on screen as they were."""
    from jobs.worker import RunRefused
    from ui.window.run.past_runs import load_past_run

    from conftest import FIXTURES
    (run_dir,) = [p for p in (FIXTURES / "runs").iterdir() if p.name.startswith("2026")]
    window = make_window()
    model = window.model
    model.load_past(load_past_run(run_dir))
    shown = (model.status, model.run_dir, len(model.trials), model.results, dict(model.summary))
    lines = []
    model.log_line.connect(lambda text, level: lines.append(text))
    model.begin()
    model.apply(RunRefused("the folder is in use by run x pid 1", "target"))
    assert (model.status, model.run_dir, len(model.trials), model.results, dict(model.summary)) == shown
    assert any("not started: " in line for line in lines)
    assert window.results.workloads.rowCount() > 0
