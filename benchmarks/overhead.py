"""A tool's own cost per trial, beside bench-fio. A benchmark that prints figures.

The same 4 KiB random-read queue-depth sweep (1 s trials, direct I/O, a file in one folder) runs
through the app (``ssd-profiler run queue-depth``) and through bench-fio (fio-plot's sweep tool,
installed by this script into its own virtual environment, never the project's), in alternated
rounds, at two sweep lengths: 4 and 8 queue depths. The marginal cost per trial is the
difference of the two walls divided by the 4 extra trials, minus the 1 s runtime, so start-up,
the file's layout and the app's pre-fill cancel. Medians over the rounds; the ratio app/bench-fio.

Run: ``.venv/bin/python benchmarks/overhead.py [--rounds 3] [--folder DIR]`` (the folder should
be on the drive to test; default: a temp folder). Needs fio and network access to PyPI once.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHORT, LONG = (1, 2, 4, 8), (1, 2, 4, 8, 16, 32, 64, 128)
RUNTIME_S, SIZE = 1, "64M"


def bench_fio() -> str:
    """bench-fio in its own venv under the user's cache folder (made once)."""
    venv = Path.home() / ".cache" / "ssd-profiler-bench" / "venv"
    exe = venv / "bin" / "bench-fio"
    if not exe.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "fio-plot"], check=True)
    return str(exe)


def _wall(argv: list[str]) -> float:
    start = time.monotonic()
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {done.stderr.strip()[-400:]}")
    return wall


def app_wall(folder: Path, depths: tuple[int, ...]) -> float:
    out = Path(tempfile.mkdtemp(dir=folder))
    try:
        return _wall([sys.executable, "-m", "ui.main", "run", "queue-depth", "--target",
                      str(folder / "app"), "--set", f"queue_depths={','.join(map(str, depths))}",
                      "--set", f"runtime={RUNTIME_S}s", "--set", "repetitions=1", "--set",
                      "warmup=false", "--set", f"size={SIZE}iB", "--out", str(out)])
    finally:
        shutil.rmtree(out, ignore_errors=True)


def bench_wall(exe: str, folder: Path, depths: tuple[int, ...]) -> float:
    out = Path(tempfile.mkdtemp(dir=folder))
    try:
        return _wall([exe, "-d", str(folder / "bench.dat"), "-t", "file", "-s", SIZE, "-o", str(out),
                      "-m", "randread", "-b", "4k", "--iodepth", *map(str, depths), "--numjobs", "1",
                      "--runtime", str(RUNTIME_S), "--direct", "1", "--quiet", "--create",
                      "--time-based"])
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", help="a folder on the drive to test (default: temp)")
    args = parser.parse_args()
    exe = bench_fio()
    folder = Path(tempfile.mkdtemp(prefix="ssd-overhead-", dir=args.folder))
    (folder / "app").mkdir()
    walls: dict[str, list[float]] = {k: [] for k in ("app4", "app8", "bench4", "bench8")}
    try:
        for r in range(args.rounds):   # alternated: a slow moment of the machine hits both
            steps = [("app4", lambda: app_wall(folder, SHORT)), ("app8", lambda: app_wall(folder, LONG)),
                     ("bench4", lambda: bench_wall(exe, folder, SHORT)),
                     ("bench8", lambda: bench_wall(exe, folder, LONG))]
            for key, step in (steps if r % 2 == 0 else steps[::-1]):
                walls[key].append(step())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    extra = len(LONG) - len(SHORT)
    cost = {tool: (statistics.median(walls[f"{tool}8"]) - statistics.median(walls[f"{tool}4"]))
            / extra - RUNTIME_S for tool in ("app", "bench")}
    sys.stdout.write(
        f"Marginal cost per trial beyond its {RUNTIME_S} s runtime (medians of {args.rounds} "
        f"alternated rounds, 4 vs 8 queue depths):\n"
        f"  app       {cost['app']:.3f} s (walls: 4 trials {statistics.median(walls['app4']):.2f} s, "
        f"8 trials {statistics.median(walls['app8']):.2f} s)\n"
        f"  bench-fio {cost['bench']:.3f} s (walls: 4 trials {statistics.median(walls['bench4']):.2f} s, "
        f"8 trials {statistics.median(walls['bench8']):.2f} s)\n"
        f"  ratio app/bench-fio {cost['app'] / cost['bench']:.2f} (target: app <= 0.10 s and below bench-fio)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
