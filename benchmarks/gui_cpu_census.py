"""Where the window's own CPU goes while its trials run: by thread, and on the GUI thread by event.

benchmarks/gui_overhead.py gives one figure (the process's CPU over the trials' wall time);
this script says what it is made of, so a change is aimed at the largest part, not a guess:

1. each of the process's threads, its CPU time from the first trial's start to the last trial's
   end (``/proc/self/task/<tid>/stat``, in the kernel's 10 ms ticks);
2. on the GUI thread, the CPU time (``time.thread_time``) of each top-level event Qt delivers,
   grouped by event type and receiver class. A paint is not an event of its own here: Qt paints
   dirty widgets inside the event that flushes them (a graphics scene's queued update, or the
   window's UpdateRequest), so "MetaCall GraphicsScene" is the charts' frame with whatever else
   was due, and "MetaCall RunControl" is the worker's events handled (samples, trial ends).

The run is the one gui_overhead.py measures (zero-queue, 4 workloads, 1 repetition, no warm-up),
in the same window. Run: ``xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python
benchmarks/gui_cpu_census.py [--seconds 20] [--interval 1s]``. Overriding
``QApplication.notify`` costs a little itself: compare figures of this script with each other.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gui_overhead  # noqa: E402  (sets the platform, the repository on the path)
from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

Key = tuple[str, str]


def thread_cpu_ms() -> dict[tuple[str, str], int]:
    """Each thread of this process: (tid, name) -> user + system CPU in ms (10 ms ticks)."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            stat = Path(f"/proc/self/task/{tid}/stat").read_text()
            name = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        out[(tid, name)] = int((int(fields[11]) + int(fields[12])) * tick_ms)
    return out


class CensusApp(QApplication):
    """Counts the GUI thread's CPU per top-level event while ``on``."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.on = False
        self._depth = 0
        self.cpu_ns: collections.Counter[Key] = collections.Counter()
        self.count: collections.Counter[Key] = collections.Counter()

    def notify(self, receiver: QObject, event: QEvent) -> bool:  # noqa: D102 - Qt's
        if not self.on or self._depth:
            return super().notify(receiver, event)
        self._depth = 1
        started = time.thread_time_ns()
        try:
            return super().notify(receiver, event)
        finally:
            self._depth = 0
            key = (event.type().name, type(receiver).__name__)
            self.cpu_ns[key] += time.thread_time_ns() - started
            self.count[key] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the run")
    parser.add_argument("--interval", default="1s", help="sampling interval of the run")
    parser.add_argument("--most", type=int, default=12, help="event rows printed")
    args = parser.parse_args()
    app = CensusApp([])
    marks: dict[str, dict[tuple[str, str], int]] = {}
    make_window = gui_overhead._window

    def window(tmp: Path):  # the benchmark's window, watched from its first trial to its last
        w = make_window(tmp)

        def started(*_: object) -> None:
            if not app.on:
                marks["start"], app.on = thread_cpu_ms(), True

        def ended(*_: object) -> None:
            marks["end"] = thread_cpu_ms()
        w.model.trial_started.connect(started)
        w.model.trial_ended.connect(ended)
        w.model.state_changed.connect(lambda: setattr(app, "on", app.on and not w.model.finished))
        return w
    gui_overhead._window = window
    run = gui_overhead.cpu_during_run(args.seconds, None, args.interval)
    app.on = False
    if "start" not in marks or "end" not in marks:
        sys.stderr.write(f"gui_cpu_census: no trial ran to its end (run {run['status']}); is fio "
                         "installed?\n")
        return 2
    start, end = marks["start"], marks["end"]
    display = os.environ.get("QT_QPA_PLATFORM") or f"xcb (DISPLAY={os.environ.get('DISPLAY', '')})"
    load = os.getloadavg()[0]
    print(f"{run['wall_s']:.1f} s run at a {args.interval} interval, {run['samples']} samples, "
          f"display {display}, load average {load:.1f}: process {run['gui_cpu_percent']:.2f} % "
          f"of a core ({run['cpu_s'] * 1000:.0f} ms)")
    print("by thread (ms of CPU, first trial's start to last trial's end):")
    for key in sorted(end, key=lambda k: start.get(k, 0) - end[k]):
        if end[key] - start.get(key, 0):
            print(f"  {end[key] - start.get(key, 0):6d}  {key[1]}")
    total = sum(app.cpu_ns.values())
    print(f"GUI thread by top-level event ({total / 1e6:.1f} ms in all; count, ms, ms each):")
    for key, ns in app.cpu_ns.most_common(args.most):
        n = app.count[key]
        print(f"  {n:5d} {ns / 1e6:8.1f} {ns / 1e6 / n:6.2f}  {key[0]} {key[1]}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        import shutil
        for made in gui_overhead._MADE:
            shutil.rmtree(made, ignore_errors=True)
