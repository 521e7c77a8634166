"""QD1 latency measured four ways: bare fio, fio alone with the app's command line, the command
line, the window with its live charts.

Part of benchmarks/gui_overhead.py (``--fidelity-rounds``): if the window cost fio CPU time at
the moment an I/O completes, QD1 latency (one I/O in flight, each waiting for the last) is where
it shows first. Each round runs the same 4 KiB random-read QD1 workload once per way, in the
order above, then reversed in the next round (ABCD DCBA ...) so drift hits all alike. Mean and
p99 are fio's *total* latency (``lat_ns``; ``--lat_percentiles=1``, as the app asks), per run;
the figures printed are medians over the rounds and the ratios to bare fio (target: within
2 %), with the spread of bare fio alone as the noise floor.

"fio, app's options" is fio alone with the command line the app gives it (live json+ status
documents, ``--clocksource=cpu``, ``--thread``; a CLI run's run.json ``argv``). Against bare fio
it is what the app's way of running fio costs; the CLI and the window against it are what the
app's process beside fio costs. Because the spread between rounds (a shared VM drifts by 10-20 %
within minutes) is larger than the 2 % to judge, each way is also compared with the others of
its own round (paired ratios, next to each other in time).

What judges the target is the 95 % interval of each paired ratio (benchmarks/paired_ratio.py: t
on the log-ratios, a bootstrap beside it): within 2 % for the mean and 5 % for p99 when the whole
interval lies inside, "undecided" (with the rounds that would likely decide it) otherwise. Every
way reads a test file written just before its trial, the same way (the app writes its own before
each run, and a file read right after its writing meets another cache state than one written
minutes before). Run on its own, this script measures under Xvfb and offscreen in turn:
``.venv/bin/python benchmarks/qd1_fidelity.py --rounds 30 --runtime 2`` (``--displays current``:
only the display it was started with; ``--ways options,cli,window``: the three the target names,
each round a quarter shorter). Each output states its sitting: display, load average
before and after, and whether the CPU frequency could be pinned.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
MEAN_BOUND, P99_BOUND = 0.02, 0.05   # the targets: QD1 mean within 2 %, p99 within 5 %


#: ``--pin``: every way's fio on the last CPU (the app's ``--pin-engine``; bare fio by affinity).
PIN: list[bool] = [False]


def _pinned() -> None:
    """Pre-exec hook of the benchmark's own fio runs: the last CPU only, as ``--pin-engine``."""
    if PIN[0] and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[-1:]))


def fill(fio: str, test_file: Path) -> None:
    """The test file written whole, as the app writes its own before a run's first trial."""
    subprocess.run([fio, "--name=fill", f"--filename={test_file}", "--size=256MiB", "--rw=write",
                    "--bs=1M", "--iodepth=8", "--direct=1", "--output-format=json"],
                   capture_output=True, check=True, preexec_fn=_pinned)


def filled(fio: str, test_file: Path, way: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    """``way`` run on a test file written just before it, as the app's runs read theirs."""
    fill(fio, test_file)
    return way()


def bare(fio: str, test_file: Path, runtime_s: float) -> tuple[float, float]:
    from app.engines.fio import ioengine_for
    argv = [fio, "--name=qd1", f"--filename={test_file}", "--size=256MiB", "--rw=randread",
            "--bs=4096", "--iodepth=1", "--numjobs=1", f"--ioengine={ioengine_for()}",
            "--direct=1", "--time_based", f"--runtime={int(runtime_s * 1000)}ms",
            "--refill_buffers", "--randrepeat=0", "--norandommap", "--lat_percentiles=1",
            "--output-format=json"]
    job = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True,
                                    preexec_fn=_pinned).stdout)
    lat = job["jobs"][0]["read"]["lat_ns"]
    return lat["mean"] / 1000, lat["percentile"]["99.000000"] / 1000


_APP_ONLY = ("--trigger-file=", "--exec_prerun=", "--exec_postrun=")   # the held start's


def as_app(fio: str, test_file: Path, argv: list[str]) -> tuple[float, float]:
    """fio alone with the command line the app gave it (a CLI run's run.json ``argv``): the
    app's options (live json+ status documents, ``--clocksource=cpu``, ``--thread``) without
    the app's process beside it, read by the app's own parser."""
    from app.engines.fio.result import parse_fio_text
    argv = [fio] + [f"--filename={test_file}" if a.startswith("--filename=") else a
                    for a in argv[1:] if not a.startswith(_APP_ONLY)]
    text = subprocess.run(argv, capture_output=True, text=True, check=True,
                          preexec_fn=_pinned).stdout
    lat = parse_fio_text(text)[0]["read"]["lat_us"]
    return lat["mean"], lat["p99"]


def _trial(run_dir: Path) -> dict:
    record = json.loads((run_dir / "run.json").read_text())
    (trial,) = [t for t in record["trials"] if not t["warmup"]]
    return trial


def _from_run(run_dir: Path) -> tuple[float, float]:
    lat = _trial(run_dir)["measurement"]["read"]["lat_us"]
    return lat["mean"], lat["p99"]


SETTINGS = {"queue_depths": "1", "size": "256MiB", "repetitions": "1", "warmup": "false"}


def cli_run(target: Path, runs: Path, runtime_s: float) -> Path:
    argv = [sys.executable, "-m", "ui.main", "run", "queue-depth", "--target", str(target),
            "--set", f"runtime={runtime_s}s", "--out", str(runs)] + (["--pin-engine"] if PIN[0] else [])
    for key, value in SETTINGS.items():
        argv += ["--set", f"{key}={value}"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=True)
    return Path(done.stdout.strip().splitlines()[-1])


def cli(target: Path, runs: Path, runtime_s: float) -> tuple[float, float]:
    return _from_run(cli_run(target, runs, runtime_s))


def window_run(app, window, target: Path, runtime_s: float, wait) -> tuple[float, float]:
    """One run in the open window, its live charts in view (as a user watches one)."""
    window.settings.pin_engine = PIN[0]
    window.drive_panel.set_target(str(target))
    window.experiment_panel.set_checked(["queue-depth"])
    window.experiment_panel.set_values("queue-depth", {**SETTINGS, "runtime": f"{runtime_s}s"})
    wait(app, lambda: window.run_blocker() is None, 60)
    window.start_run()
    _until_finished(app, window)
    wait(app, lambda: window.model.finished and not window.control.running, 300)
    return _from_run(Path(window.model.run_dir))


def _until_finished(app, window) -> None:
    """The event loop as the app runs it while the run lasts: asleep between events. A loop of
    ``processEvents()`` and 10 ms sleeps (as this benchmark waited before) woke the GUI thread
    90 times a second beside the trial (benchmarks/qd1_threads.py), which the app never does."""
    from PySide6.QtCore import QTimer
    quit_when_done = lambda: window.model.finished and QTimer.singleShot(0, app.quit)  # noqa: E731
    window.model.state_changed.connect(quit_when_done)
    guard = QTimer()
    guard.timeout.connect(lambda: window.model.finished and app.quit())
    guard.start(5000)
    try:
        if not window.model.finished:
            app.exec()
    finally:
        guard.stop()
        window.model.state_changed.disconnect(quit_when_done)


ALL_WAYS = ("bare fio", "fio, app's options", "CLI", "window")
WAY_KEYS = dict(zip(("bare", "options", "cli", "window"), ALL_WAYS))   # --ways spells them so


def compare(app, window, rounds: int, runtime_s: float, target_parent: str | None, wait,
            chosen: tuple[str, ...] = ALL_WAYS) -> str:
    fio = shutil.which("fio")
    if not fio:
        return "QD1 fidelity: fio is not installed\n"
    scratch = Path(tempfile.mkdtemp(prefix="ssd-bench-qd1-", dir=target_parent))
    target, test_file = scratch / "target", scratch / "bare.dat"
    target.mkdir()
    app_argv = _trial(cli_run(target, scratch / "runs", runtime_s))["argv"]   # not counted
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    ways = {"bare fio": lambda: filled(fio, test_file, lambda: bare(fio, test_file, runtime_s)),
            "fio, app's options": lambda: filled(fio, test_file,
                                                 lambda: as_app(fio, test_file, app_argv)),
            "CLI": lambda: cli(target, scratch / "runs", runtime_s),
            "window": lambda: window_run(app, window, target, runtime_s, wait)}
    ways = {name: way for name, way in ways.items() if name in chosen}   # each round: faster
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
    try:
        for i in range(rounds):
            order = list(ways) if i % 2 == 0 else list(ways)[::-1]
            for name in order:
                got[name].append(ways[name]())
                time.sleep(0.5)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    mean = {n: statistics.median(r[0] for r in v) for n, v in got.items()}
    p99 = {n: statistics.median(r[1] for r in v) for n, v in got.items()}
    alone = next(iter(ways))   # the first way run: fio alone (bare, or with the app's options)
    spread = [r[0] for r in got[alone]]
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [f"QD1 fidelity (4 KiB random read, {runtime_s:g} s per run, {rounds} rounds "
             f"of {len(ways)} ways, forward then back (ABC/CBA); total latency, medians over "
             "rounds):",
             f"  sitting: {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, display "
             f"{_display()}, load average {load_before:.1f} before / {load_after:.1f} after, "
             f"{os.cpu_count()} CPUs, CPU frequency: {_frequency()}, "
             + ("every way's fio pinned to the last CPU" if PIN[0] else "fio not pinned")]
    for name in ways:
        lines.append(f"  {name:18s} mean {mean[name]:8.1f} µs ({mean[name] / mean[alone]:.3f}"
                     f" of {alone}), p99 {p99[name]:8.1f} µs ({p99[name] / p99[alone]:.3f} of "
                     f"{alone}); each round's mean: "
                     + ", ".join(f"{r[0]:.1f}" for r in got[name]))
    lines.append(f"  noise floor: {alone}'s own means ranged {min(spread):.1f}..{max(spread):.1f} µs"
                 f" (max/min {max(spread) / min(spread):.3f}); target: window and CLI within 2 %")
    pairs = [(name, base) for name, base in (
        ("fio, app's options", "bare fio"), ("CLI", "bare fio"), ("window", "bare fio"),
        ("CLI", "fio, app's options"), ("window", "fio, app's options"), ("window", "CLI"))
        if name in got and base in got]
    for name, base in pairs:
        lines.append(f"  {name} against {base} of the same round: " + ", ".join(
            f"{label} {_paired(got[name], got[base], k)}"
            for k, label in ((0, "mean"), (1, "p99"))))
    from paired_ratio import paired_ratio
    lines.append("  paired ratio, geometric mean [95 % interval]; the target asks the whole "
                 "interval inside (mean ±2 %, p99 ±5 %):")
    for name, base in pairs:
        for k, label, bound in ((0, "mean", MEAN_BOUND), (1, "p99", P99_BOUND)):
            ratio = paired_ratio([r[k] for r in got[name]], [r[k] for r in got[base]])
            lines.append(f"    {name} / {base}, {label}: "
                         + (ratio.text(bound) if ratio else "fewer than 3 rounds"))
    return "\n".join(lines) + "\n"


def _display() -> str:
    platform = os.environ.get("QT_QPA_PLATFORM") or ("xcb" if os.environ.get("DISPLAY") else "?")
    return f"{platform} (DISPLAY={os.environ.get('DISPLAY', '')})" if platform == "xcb" else platform


def _frequency() -> str:
    governor = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    try:
        return f"governor {governor.read_text().strip()}"
    except OSError:
        return "not adjustable here (no cpufreq: a VM's host decides it)"


def _paired(way: list[tuple[float, float]], bare_runs: list[tuple[float, float]], k: int) -> str:
    """Median of the per-round ratios way/bare, with their middle half (quartiles)."""
    ratios = sorted(w[k] / b[k] for w, b in zip(way, bare_runs))
    if len(ratios) < 4:
        return f"median {statistics.median(ratios):.3f} (n = {len(ratios)})"
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    return f"median {statistics.median(ratios):.3f}, middle half {q1:.3f}..{q3:.3f} (n = {len(ratios)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--runtime", type=float, default=2.0, help="seconds per run")
    parser.add_argument("--target-parent", help="folder on the drive to test (default: temp)")
    parser.add_argument("--displays", default="xvfb,offscreen",
                        help="xvfb, offscreen, or current (the display it was started with)")
    parser.add_argument("--ways", default=",".join(WAY_KEYS),
                        help="the ways each round runs, comma-separated: bare (fio alone), "
                        "options (fio alone with the app's options), cli, window; the target "
                        "compares cli and window with options: leaving bare out makes a round "
                        "a quarter shorter")
    parser.add_argument("--pin", action="store_true",
                        help="every way's fio on the last CPU (the app's --pin-engine)")
    args = parser.parse_args()
    PIN[0] = args.pin
    keys = [w.strip() for w in args.ways.split(",")]
    unknown = [w for w in keys if w not in WAY_KEYS]
    if unknown or len(set(keys)) < 2:
        sys.stderr.write(f"--ways: two or more of {', '.join(WAY_KEYS)}"
                         + (f"; not {', '.join(unknown)}\n" if unknown else "\n"))
        return 2
    chosen = tuple(WAY_KEYS[k] for k in keys)
    if args.displays != "current":
        return _each_display(args)
    import gui_overhead as gui  # the window and its event loop as benchmarks/gui_overhead.py has them
    app = gui._app()
    window = gui._window(gui._scratch("ssd-bench-qd1-window-"))
    window.show_run_view(window.charts)
    try:
        sys.stdout.write(compare(app, window, args.rounds, args.runtime, args.target_parent,
                                 gui._wait, chosen))
    finally:
        window.close()
        for made in gui._MADE:
            shutil.rmtree(made, ignore_errors=True)
    return 0


def _each_display(args) -> int:
    """This script again, once per display: under Xvfb (``xvfb-run``) and offscreen."""
    me = [sys.executable, str(Path(__file__).resolve()), "--rounds", str(args.rounds), "--runtime",
          str(args.runtime), "--displays", "current", "--ways", args.ways] + (["--pin"] if args.pin else [])
    me += ["--target-parent", args.target_parent] if args.target_parent else []
    worst = 0
    for display in args.displays.split(","):
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
        if display == "xvfb":
            if not shutil.which("xvfb-run"):
                sys.stdout.write("Xvfb: xvfb-run is not installed\n")
                continue
            argv = ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", *me]
        else:
            env["QT_QPA_PLATFORM"] = "offscreen"
            argv = me
        sys.stdout.flush()
        worst = max(worst, subprocess.run(argv, env=env).returncode)
    return worst


if __name__ == "__main__":
    sys.exit(main())
