"""Launch to first paint, for the built executable and from source, and the built folder's size.

The app honours SSD_PROFILER_EXIT_AFTER_PAINT=1: once the main window has painted it prints
``first-paint`` and quits. We time from process start to that line, several runs each, and print
medians (targets: first paint <= 3 s, folder <= 300 MB).

Usage: python benchmarks/startup.py [--runs 5] [--dist dist/ssd-profiler]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def first_paint_s(argv: list[str], cwd: Path) -> float:
    env = {**os.environ, "SSD_PROFILER_EXIT_AFTER_PAINT": "1"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    for line in proc.stdout:
        if line.startswith("first-paint"):
            elapsed = time.monotonic() - start
            proc.wait(timeout=30)
            return elapsed
    proc.wait(timeout=30)
    raise RuntimeError(f"{argv[0]} exited ({proc.returncode}) without painting")


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dist", type=Path, default=REPO / "dist" / "ssd-profiler")
    args = parser.parse_args()
    cases = {"from source": [sys.executable, "-m", "ui.main"]}
    exe = args.dist / ("ssd-profiler.exe" if os.name == "nt" else "ssd-profiler")
    if exe.exists():
        cases["built executable"] = [str(exe)]
    else:
        print(f"no built executable at {exe} (run packaging/build.sh first)")
    for name, argv in cases.items():
        times = [first_paint_s(argv, REPO) for _ in range(args.runs)]
        print(f"first paint, {name}: median {statistics.median(times):.2f} s "
              f"(min {min(times):.2f}, max {max(times):.2f}, n={len(times)}; target <= 3 s)")
    if exe.exists():
        print(f"built folder {args.dist}: {folder_bytes(args.dist) / 1e6:.0f} MB (target <= 300 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
