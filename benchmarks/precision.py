"""A precision target against fixed time, on a device whose truth is known (docs/precision.md).

Run as root on Linux. A loop device with an ext4 file system, its image in RAM (/dev/shm, so
neither the shared disk under it nor other users of that disk change the truth), is throttled
with the block cgroup (v2 io.max when the unified hierarchy has the io controller, else v1
blkio.throttle.*; tests/throttle_support.py builds it): IOPS_LIMIT read and write IOPS and BPS_LIMIT bytes/s, so every workload's
truth is min(IOPS_LIMIT, BPS_LIMIT / block size) I/Os per second (read-only or write-only
workloads: rw-mix is left out, its truth depends on the mix). The app's CLI runs in that cgroup,
once with the fixed-time defaults and once with ``--precision 2%``, alternated (--rounds times)
in one sitting; then the same pair on the plain (unthrottled, noisy) virtual disk
(--plain-experiments). The experiments default to zero-queue (the course's QD1 baselines): the
whole course suite takes over an hour per fixed-time run.

Prints per run: wall time and the load average at its start and end; per workload: IOPS, its
error against the truth, its stated ± (the fixed-time run's ± is the 95 % t-interval over its
repetitions), the repetitions and the outcome. Then the two verdicts the precision target
promises (docs/precision.md, "Proof"):

1. throttled: the precision run takes at most a third of the fixed-time run's wall time, and
   every workload's truth lies within its stated ±;
2. plain virtual disk: the precision run takes at most the fixed-time run's wall time, and every
   workload states a numeric achieved ±.

    sudo .venv/bin/python benchmarks/precision.py [--experiments zero-queue queue-depth] [--rounds 1]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from throttle_support import ThrottledLoop  # noqa: E402

IOPS_LIMIT = 120
BPS_LIMIT = 40_000_000
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}
CLI = [str(Path(sys.executable).with_name("ssd-profiler"))]


def truth_iops(workload: dict) -> float:
    return min(IOPS_LIMIT, BPS_LIMIT / workload["bs_bytes"])


SAVE = Path(tempfile.gettempdir()) / "precision-bench-results"


def run(target: Path, experiments: list[str], extra: list[str], preexec=None) -> tuple[float, dict]:
    out = target.parent / "runs"
    t0 = time.monotonic()
    proc = subprocess.run([*CLI, "-q", "run", *experiments, "--target", str(target), "--json",
                           "--out", str(out), "--set", "size=64MiB", *extra],
                          capture_output=True, text=True, preexec_fn=preexec)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        SAVE.mkdir(exist_ok=True)
        for folder in out.glob("*"):  # the failed run's records outlive the temporary folder
            shutil.copytree(folder, SAVE / folder.name, dirs_exist_ok=True)
        raise SystemExit(f"run failed (rc {proc.returncode}): {proc.stderr[-2000:]}")
    SAVE.mkdir(exist_ok=True)  # each run's --json kept, whatever happens to this script
    stem = SAVE / f"{time.strftime('%H%M%S')}-{'precision' if extra else 'fixed'}"
    Path(f"{stem}.json").write_text(proc.stdout)
    doc = json.loads(proc.stdout)
    Path(f"{stem}.run.json").write_bytes((Path(doc["run_dir"]) / "run.json").read_bytes())
    return wall, doc


def rows(doc: dict):
    for eid, exp in doc["summary"].items():
        for w in exp["workloads"]:
            yield eid, w


def stated(w: dict) -> tuple[float | None, str]:
    """The ± a run states for its mean IOPS (relative), and the precision outcome."""
    p = w.get("precision")
    if p:
        got = None if p["iops"] is None else max(p["iops"], p["MBps"] or 0)
        outcome = ("reached" if p["reached"] else "out of reach" if p.get("out_of_reach")
                   else "NOT reached")
        return got, f"{p['repetitions']} reps, {outcome}" + (
            f" ({p['method']})" if p.get("method") else "")
    s = w["total_iops"]
    if not s["std"] or s["n"] < 2:
        return None, "fixed time"
    return (T975.get(s["n"] - 1, 2.0) * s["std"] / math.sqrt(s["n"]) / s["mean"],
            f"{s['n']} reps, fixed time")


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() \
        else f"{os.getloadavg()[0]:.2f}"


def report(name: str, wall: float, doc: dict, truth: bool, loads: tuple[str, str]) -> list[bool]:
    """The run's table; per workload with a known truth: its truth inside its stated ±."""
    print(f"\n{name}: wall time {wall:.0f} s (load average {loads[0]} at its start, "
          f"{loads[1]} at its end)")
    print(f"  {'workload':28} {'IOPS':>9} {'error':>8} {'stated ±':>9}  outcome")
    ok = []
    for eid, w in rows(doc):
        mean = w["total_iops"]["mean"]
        rel, outcome = stated(w)
        err = (mean / truth_iops(w["workload"]) - 1) if truth else None
        inside = err is not None and rel is not None and abs(err) <= rel
        if truth:
            ok.append(inside)
        print(f"  {eid + ' ' + w['label']:28} {mean:9.1f} "
              f"{'' if err is None else f'{err * 100:+7.2f}%':>8} "
              f"{'n/a' if rel is None else f'±{rel * 100:.2f}%':>9}  {outcome}"
              + ("" if not truth else "  within ±" if inside else "  OUTSIDE ±"))
    return ok


def timed(target: Path, experiments: list[str], mode: str, preexec=None
          ) -> tuple[float, dict, tuple[str, str]]:
    before = load()
    wall, doc = run(target, experiments, ["--precision", "2%"] if mode == "precision" else [],
                    preexec)
    return wall, doc, (before, load())


def numeric(doc: dict) -> list[bool]:
    """Per workload: a numeric achieved ± (the precision run's)."""
    return [(w.get("precision") or {}).get("iops") is not None for _, w in rows(doc)]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiments", nargs="+", default=["zero-queue"])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--plain-experiments", nargs="*", default=["zero-queue"],
                    help="on the plain virtual disk, fixed and with the target (none: skip)")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("run as root (loop device, cgroup)", file=sys.stderr)
        return 2
    walls: dict[str, list[float]] = {"fixed": [], "precision": []}
    plain_walls: dict[str, list[float]] = {"fixed": [], "precision": []}
    inside: list[bool] = []
    plain_numeric: list[bool] = []
    with tempfile.TemporaryDirectory(prefix="precision-bench-") as tmp:
        loop = ThrottledLoop(Path(tmp), name="ssd-profiler-precision",
                             limits={"riops": IOPS_LIMIT, "wiops": IOPS_LIMIT,
                                     "rbps": BPS_LIMIT, "wbps": BPS_LIMIT})
        try:
            print(f"throttle: {loop.how} on {loop.dev} (image in {loop.image.parent}): "
                  f"{IOPS_LIMIT} IOPS and {BPS_LIMIT / 1e6:g} MB/s each way; experiments "
                  f"{' '.join(args.experiments)}; load average {load()} "
                  f"(the machine's other users share its cores)")
            for k in range(args.rounds):   # alternated: fixed, precision, fixed, ...
                for mode in ("fixed", "precision"):
                    wall, doc, loads = timed(loop.mnt, args.experiments, mode, loop.enter)
                    walls[mode].append(wall)
                    got = report(f"throttled, {mode} (round {k + 1})", wall, doc, True, loads)
                    if mode == "precision":
                        inside += got
        finally:
            loop.close()
        if args.plain_experiments:
            plain = Path(tmp) / "plain"
            plain.mkdir()
            for k in range(args.rounds):
                for mode in ("fixed", "precision"):
                    wall, doc, loads = timed(plain, args.plain_experiments, mode)
                    plain_walls[mode].append(wall)
                    report(f"plain virtual disk, {mode} (round {k + 1})", wall, doc, False, loads)
                    if mode == "precision":
                        plain_numeric += numeric(doc)
    fixed, prec = statistics.median(walls["fixed"]), statistics.median(walls["precision"])
    print(f"\n(1) throttled: median wall fixed {fixed:.0f} s, precision {prec:.0f} s, ratio "
          f"{prec / fixed:.2f} (at most 0.33): {verdict(prec <= fixed / 3)}; every workload "
          f"within its stated ± of the truth: {sum(inside)} of {len(inside)}: "
          f"{verdict(all(inside))}")
    if args.plain_experiments:
        fixed, prec = (statistics.median(plain_walls["fixed"]),
                       statistics.median(plain_walls["precision"]))
        print(f"(2) plain virtual disk: median wall fixed {fixed:.0f} s, precision {prec:.0f} s "
              f"(at most the fixed): {verdict(prec <= fixed)}; every workload with a numeric "
              f"achieved ±: {sum(plain_numeric)} of {len(plain_numeric)}: "
              f"{verdict(all(plain_numeric))}")
    print(f"load average at the end {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
