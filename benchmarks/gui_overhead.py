"""How much the window costs beside fio. A benchmark that prints figures, not a test.

Three figures:
1. GUI CPU beside fio: the window runs zero-queue (4 workloads, 1 repetition, no warm-up,
   runtime chosen so the run lasts about ``--seconds``); the process's own CPU time (GUI thread,
   worker and output readers; fio's children excluded) over wall time, from the first trial's
   start to the last one's end (the one-off work after the run, tables and figures, is printed
   apart). Median of ``--repeat`` runs: the machine's noise is larger than one run shows.
2. Chart redraw with 100k points per series: the live charts hold 100,000 samples per series
   (and 200 labelled trial boundaries); each step appends one sample, redraws and paints what
   changed. p95 of the step, for data shaped like a real run and for white noise (every pixel
   column a full-height stroke, the worst case). Target <= 16 ms (one frame at 60 Hz).
3. Launch to first paint: the app's own start from source, as benchmarks/startup.py times it
   (the window paints its first screen, then builds the rest).
4. QD1 fidelity: QD1 latency (mean, p99) through the window with its live charts against the
   command line's and bare fio's, in alternating rounds (benchmarks/qd1_fidelity.py).

Run: ``.venv/bin/python benchmarks/gui_overhead.py`` (offscreen unless $DISPLAY is set; under
Xvfb: ``xvfb-run -a .venv/bin/python benchmarks/gui_overhead.py``).
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import psutil  # noqa: E402
from PySide6.QtCore import QEvent, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from ui.window.app import close_on_signals, paint_on_the_gui_thread  # noqa: E402
from ui.window.run.series import COLUMNS  # noqa: E402  (also applies the Qt refcount guard)

_MADE: list[Path] = []   # the benchmark's own folders, removed when it ends


def _scratch(prefix: str, parent: str | None = None) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    _MADE.append(folder)
    return folder


def _app() -> QApplication:
    paint_on_the_gui_thread()   # as the app starts (ui/window/app.py run_window)
    app = QApplication.instance()
    return app if isinstance(app, QApplication) else QApplication([])


def _window(tmp: Path):
    """The window as the app opens it on this display's screen (fitted to it: at 1280x720, as a
    student's laptop gives it; a fixed 1560x980 there would paint 1.7 times the pixels the
    screen shows); offscreen, which has no real screen, at 1560x980."""
    from ui.window.main_window import MainWindow
    from ui.window.settings import AppSettings
    window = MainWindow(settings=AppSettings(tmp / "settings.ini"), runs_root=str(tmp / "runs"))
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        window.resize(1560, 980)
    else:
        window.fit_to_screen()
    window.show()
    return window


def _wait(app: QApplication, condition, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("benchmark step did not finish in time")
        app.processEvents()
        time.sleep(0.01)


def cpu_during_run(seconds: float, target_parent: str | None, interval: str = "1s") -> dict:
    app = _app()
    tmp = _scratch("ssd-bench-", target_parent)
    window = _window(tmp)
    window.drive_panel.set_target(str(tmp / "target"))
    window.experiment_panel.set_checked(["zero-queue"])
    window.experiment_panel.set_values("zero-queue", {
        "runtime": f"{max(1.0, seconds / 4):g}s", "size": "256MiB", "repetitions": "1",
        "warmup": "false", "interval": interval})
    _wait(app, lambda: window.run_blocker() is None, 30)
    window.start_run()
    _wait(app, lambda: window.model.current is not None, 120)   # after the test file is written
    me = psutil.Process()
    cpu0, wall0 = sum(me.cpu_times()[:2]), time.monotonic()
    beside = [cpu0, wall0]   # CPU and wall when the last trial ended: fio ran until then

    def trial_ended(_record) -> None:
        beside[:] = [sum(me.cpu_times()[:2]), time.monotonic()]
    window.model.trial_ended.connect(trial_ended)
    # the event loop as the app runs it (sleeping between events, woken for a signal as the app
    # is), not a busy poll: the run's end quits it; a slow guard covers an end seen before exec
    previous = {getattr(signal, name): signal.getsignal(getattr(signal, name))
                for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)}
    close_on_signals(app, window)
    window.model.state_changed.connect(
        lambda: window.model.finished and QTimer.singleShot(0, app.quit))
    guard = QTimer()
    guard.timeout.connect(lambda: window.model.finished and app.quit())
    guard.start(5000)
    if not window.model.finished:
        app.exec()
    guard.stop()
    app._signal_wakeup.stop()  # type: ignore[attr-defined]  # set by close_on_signals
    for number, handler in previous.items():
        signal.signal(number, handler)
    cpu, wall = beside[0] - cpu0, beside[1] - wall0
    after = sum(me.cpu_times()[:2]) - beside[0]
    status, samples = window.model.status, window.model.series.samples
    window.close()
    _dispose(app, window)
    return {"gui_cpu_percent": 100 * cpu / wall, "cpu_s": cpu, "wall_s": wall,
            "after_s": after, "status": status, "samples": samples}


def _chart_data(points: int, trials: int, noise: str) -> tuple[np.ndarray, list[tuple[float, bool]]]:
    """Samples as a long run gives them: each trial reads or writes at its own level with ~8 %
    interval-to-interval noise (``noise='white'``: uniform 50..500 everywhere, the worst case for
    drawing, every pixel column a full-height stroke)."""
    rng = np.random.default_rng(1)
    t = np.arange(points, dtype=float)
    rows = [t]
    per_trial = points // trials
    reads = (np.arange(points) // per_trial) % 2 == 0
    for name in COLUMNS[1:-1]:
        if noise == "white":
            rows.append(rng.uniform(50, 500, points))
            continue
        level = np.repeat(rng.uniform(30, 900, trials + 1), per_trial)[:points]
        values = level * rng.normal(1.0, 0.08, points)
        mine = reads if name.startswith("read") else ~reads
        rows.append(np.where(mine, values, np.nan))
    rows.append(np.full(points, np.nan))
    return np.vstack(rows), [(i * per_trial, i % 2 == 0) for i in range(trials)]


def redraw_with_100k(points: int, steps: int, noise: str = "trials") -> dict:
    """p95 of one redraw step: append a sample, hand the buffers over, paint what changed."""
    from jobs.events import Sample
    from ui.window.run.live_charts import LiveCharts
    from ui.window.run.planned import PlannedTrial
    from ui.window.run.run_model import RunModel
    from ui.window.run.run_state import RunState
    app = _app()
    model = RunModel()
    charts = LiveCharts(model)
    charts.resize(1100, 600)
    charts.show()
    block, starts = _chart_data(points, 200, noise)
    model.series.extend(block, points)
    model.status, model.live = RunState.RUNNING, True      # the charts follow a live run
    for i, (t_s, reads) in enumerate(starts):
        trial = PlannedTrial(i, "zero-queue", "RND4K Q32T1 " + ("read" if reads else "write"), 1,
                             False, 1.0, reads, not reads)
        model.planned[i] = trial
        model.boundaries.append((float(t_s), trial))
    model.reset.emit()
    for _ in range(5):
        app.processEvents()
    times = []
    for k in range(steps):
        app.processEvents()    # whatever else is pending is not part of the step
        start = time.perf_counter()
        model.apply(Sample(trial=199, t_s=float(points + k), read_MBps=300.0, read_iops=9000.0,
                           read_lat_us=110.0, read_p99_us=240.0, write_MBps=0.0, write_iops=0.0,
                           write_lat_us=None))
        charts.redraw()        # what the 10 Hz timer does when samples arrived
        app.processEvents()    # the paint that follows (only the regions that changed)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    result = {"p95_ms": times[int(0.95 * (len(times) - 1))], "median_ms": statistics.median(times),
              "max_ms": times[-1], "points_per_series": model.series.samples}
    charts.close()
    _dispose(app, charts, model)
    return result


def _dispose(app: QApplication, *objects) -> None:
    """Gone before the next figure is measured: ``processEvents()`` alone leaves deferred
    deletions for the loop's next turn, and the charts with their 100k-point curves stayed
    alive beside the measured runs (Qt's paint threads woke twice as often)."""
    for obj in objects:
        obj.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


def launch_to_first_paint() -> dict:
    """The app's own launch (``python -m ui.main``, its window in two steps) as
    benchmarks/startup.py times it: one start to fill the bytecode cache, then one timed."""
    from startup import REPO, first_paint_s
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(_scratch("ssd-bench-pycache-"))
    argv = [sys.executable, "-m", "ui.main"]
    first_paint_s(argv, REPO, env)
    return {"first_paint_s": first_paint_s(argv, REPO, env)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the measured run")
    parser.add_argument("--target-parent", help="folder on the drive to test (default: temp)")
    parser.add_argument("--interval", default="1s,0.1s",
                        help="sampling intervals of the measured runs (json+ status documents)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per interval (median shown)")
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--fidelity-rounds", type=int, default=8,
                        help="rounds of the QD1 comparison, paired with bare fio (0: none)")
    parser.add_argument("--fidelity-runtime", type=float, default=4.0)
    args = parser.parse_args()
    paint = launch_to_first_paint()
    redraw = redraw_with_100k(args.points, args.steps)
    worst = redraw_with_100k(args.points, args.steps, noise="white")
    for interval in args.interval.split(","):
        runs = [cpu_during_run(args.seconds, args.target_parent, interval) for _ in range(args.repeat)]
        cpu = sorted(runs, key=lambda r: r["gui_cpu_percent"])[len(runs) // 2]
        each = ", ".join(f"{r['gui_cpu_percent']:.2f}" for r in runs)
        sys.stdout.write(
            f"GUI CPU beside fio, a {cpu['wall_s']:.0f} s run at a {interval} interval (json+ "
            f"status documents): {cpu['gui_cpu_percent']:.2f} % of one core, median of "
            f"{len(runs)} runs ({each}; "
            f"{cpu['cpu_s']:.2f} s CPU, {cpu['samples']} samples, run {cpu['status']}; "
            f"target <= {'2' if float(interval.rstrip('s')) < 1 else '1'} %, trials' bookkeeping "
            f"included); then {cpu['after_s']:.2f} s CPU once after the run (tables, figures)\n")
    if args.fidelity_rounds:
        from qd1_fidelity import compare
        tmp = _scratch("ssd-bench-qd1-window-")
        window = _window(tmp)
        window.show_run_view(window.charts)
        sys.stdout.write(compare(_app(), window, args.fidelity_rounds, args.fidelity_runtime,
                                 args.target_parent, _wait))
        window.close()
    sys.stdout.write(
        f"Chart redraw with {redraw['points_per_series']:,} points per series: p95 "
        f"{redraw['p95_ms']:.1f} ms (median {redraw['median_ms']:.1f}, max {redraw['max_ms']:.1f}; "
        f"white-noise worst case p95 {worst['p95_ms']:.1f}; target <= 16 ms)\n"
        f"Launch to first paint: {paint['first_paint_s']:.2f} s\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for made in _MADE:
            shutil.rmtree(made, ignore_errors=True)
