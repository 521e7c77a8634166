"""Launch to first paint, for the built executable and from source, and the built folder's size.

The app honours SSD_PROFILER_EXIT_AFTER_PAINT=1: once the main window has painted it prints
``first-paint`` and quits. We time from process start to that line, several rounds, the cases
taking turns within a round (so a busy machine slows them alike), and print medians (targets:
first paint <= 0.5 s, folder <= 180 MB), then the folder's biggest parts.

From source, Python's bytecode cache is on, as on any machine after the first start: the
environment's PYTHONDONTWRITEBYTECODE is dropped and the cache goes to a temporary folder
(PYTHONPYCACHEPREFIX, so the checkout stays clean), filled by one untimed start.
``--no-bytecode-cache`` keeps the environment as it is (every start compiles the app's modules).

Usage: python benchmarks/startup.py [--runs 5] [--dist dist/ssd-profiler] [--no-bytecode-cache]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_PAINT_S = 0.5
TARGET_FOLDER_MB = 180


def first_paint_s(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    env = {**env, "SSD_PROFILER_EXIT_AFTER_PAINT": "1"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("first-paint"):
            elapsed = time.monotonic() - start
            proc.wait(timeout=30)
            return elapsed
    proc.wait(timeout=30)
    raise RuntimeError(f"{argv[0]} exited ({proc.returncode}) without painting")


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def biggest_parts(folder: Path, count: int = 12) -> list[tuple[int, str]]:
    """The largest files and first-level folders (PySide6 split into its Qt libs, plugins and
    the rest), largest first."""
    inner = folder / "_internal" if (folder / "_internal").is_dir() else folder
    parts: list[tuple[int, str]] = []
    entries = [*folder.iterdir(), *(inner.iterdir() if inner != folder else [])]
    for entry in entries:
        if entry == inner or entry.is_symlink():
            continue
        if entry.name == "PySide6" and entry.is_dir():
            qt = entry / "Qt" if (entry / "Qt").is_dir() else entry
            subs = [qt / "lib", qt / "plugins", qt / "translations"]
            for sub in subs:
                if sub.is_dir():
                    parts.append((folder_bytes(sub), str(sub.relative_to(folder))))
            rest = folder_bytes(entry) - sum(folder_bytes(s) for s in subs if s.is_dir())
            parts.append((rest, f"{entry.relative_to(folder)} (bindings, the rest)"))
        elif entry.is_dir():
            parts.append((folder_bytes(entry), f"{entry.relative_to(folder)}/"))
        elif entry.is_file():
            parts.append((entry.stat().st_size, str(entry.relative_to(folder))))
    return sorted(parts, reverse=True)[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dist", type=Path, default=REPO / "dist" / "ssd-profiler")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="from source, keep the environment's PYTHONDONTWRITEBYTECODE")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ssd-profiler-pyc-") as pycache:
        return measure(args, pycache)


def measure(args: argparse.Namespace, pycache: str) -> int:
    source_env = dict(os.environ)
    if not args.no_bytecode_cache:
        source_env.pop("PYTHONDONTWRITEBYTECODE", None)
        source_env["PYTHONPYCACHEPREFIX"] = pycache
    cases = {"from source": ([sys.executable, "-m", "ui.main"], source_env)}
    exe = args.dist / ("ssd-profiler.exe" if os.name == "nt" else "ssd-profiler")
    if exe.exists():
        cases["built executable"] = ([str(exe)], dict(os.environ))
    else:
        print(f"no built executable at {exe} (run packaging/build.sh first)")
    for argv, env in cases.values():  # untimed: fills the bytecode cache and the disk cache
        first_paint_s(argv, REPO, env)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, (argv, env) in cases.items():
            times[name].append(first_paint_s(argv, REPO, env))
    for name, got in times.items():
        print(f"first paint, {name}: median {statistics.median(got):.2f} s "
              f"(min {min(got):.2f}, max {max(got):.2f}, n={len(got)}; target <= {TARGET_PAINT_S} s)")
    if exe.exists():
        size = folder_bytes(args.dist)
        print(f"built folder {args.dist}: {size / 1e6:.0f} MB (target <= {TARGET_FOLDER_MB} MB)")
        for part_bytes, name in biggest_parts(args.dist):
            print(f"  {part_bytes / 1e6:6.1f} MB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
