"""Where the app's CPU goes beside a QD1 trial, thread by thread: measured, not guessed.

Runs one QD1 4 KiB random-read trial through the command line or the window (``--way``) as a
separate process and reads, from outside, every thread's ``/proc/<pid>/task/<tid>/stat`` (nice,
policy), ``schedstat`` (CPU time on the CPU, time waiting for a CPU, time slices) and ``status``
(voluntary and involuntary context switches: wake-ups and preemptions), for the app's threads and
fio's, from the trial's first I/O to its end (the span fio's busiest thread, the job, is seen).
It also runs fio alone with the app's command line and counts the status documents' sizes and
the writes it makes of them (``--way documents``). Linux only. A poll every 0.25 s: the poller
costs the machine little, and the figures are differences between two polls inside the trial.

Run: ``.venv/bin/python benchmarks/qd1_threads.py --way cli|window|documents [--runtime 8] [--pin]``
(the window under ``xvfb-run -a`` or offscreen).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIELDS = ("run_ms", "wait_ms", "slices", "vol", "invol")


def tasks(pid: int) -> dict[str, dict]:
    out: dict[str, dict] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        base = f"/proc/{pid}/task/{tid}"
        try:
            stat = Path(f"{base}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            run, wait, slices = Path(f"{base}/schedstat").read_text().split()
            status = dict(line.split(":\t") for line in Path(f"{base}/status").read_text().splitlines()
                          if "ctxt_switches" in line or line.startswith("Name"))
        except (OSError, ValueError):
            continue
        out[tid] = {"name": status.get("Name", "?").strip(), "nice": int(fields[16]),
                    "policy": int(fields[38]), "run_ms": int(run) / 1e6, "wait_ms": int(wait) / 1e6,
                    "slices": int(slices), "vol": int(status["voluntary_ctxt_switches"]),
                    "invol": int(status["nonvoluntary_ctxt_switches"])}
    return out


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for tid in os.listdir(f"/proc/{parent}/task") if os.path.exists(f"/proc/{parent}") else ():
            try:
                kids = [int(c) for c in Path(f"/proc/{parent}/task/{tid}/children").read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def watch(argv: list[str], env: dict, repo: Path = REPO) -> str:
    proc = subprocess.Popen(argv, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    polls = []
    while proc.poll() is None:
        engines = {c: tasks(c) for c in descendants(proc.pid)}
        polls.append((time.monotonic(), tasks(proc.pid), engines))
        time.sleep(0.25)
    proc.communicate()
    job = max(((c, t) for _, _, e in polls for c, ts in e.items() for t in ts),
              key=lambda ct: max(p[2].get(ct[0], {}).get(ct[1], {}).get("slices", 0) for p in polls),
              default=None)
    inside = [p for p in polls if job and job[1] in p[2].get(job[0], {})]
    if job is None or len(inside) < 3:
        return "the trial was not seen long enough (raise --runtime)\n"
    a, b = inside[0], inside[-1]
    lines = [f"span {b[0] - a[0]:.2f} s of the trial (fio job thread {job[1]} of pid {job[0]})"]
    for label, before, after in (("app", a[1], b[1]), *(("fio", a[2][c], b[2][c]) for c in b[2] if c in a[2])):
        for tid, now in sorted(after.items(), key=lambda kv: -kv[1]["run_ms"]):
            if tid in before and now["slices"] > before[tid]["slices"]:
                d = {k: now[k] - before[tid][k] for k in FIELDS}
                lines.append(f"  {label} {tid:>7} {now['name']:15s} nice {now['nice']:3d} policy "
                             f"{now['policy']}: on CPU {d['run_ms']:8.1f} ms, waiting for a CPU "
                             f"{d['wait_ms']:7.1f} ms, {d['slices']:6d} slices, {d['vol']:6d} "
                             f"wake-ups, {d['invol']:5d} preemptions")
    return "\n".join(lines) + "\n"


def documents(runtime_s: float, interval_ms: int, folder: Path) -> str:
    """fio alone with the app's status options at QD1: how big its documents are, how many writes."""
    fio = shutil.which("fio") or "fio"
    test_file = folder / "qd1.dat"
    argv = [fio, "--name=qd1", f"--filename={test_file}", "--size=256MiB", "--rw=randread", "--bs=4096",
            "--iodepth=1", "--ioengine=libaio", "--thread", "--direct=1", "--time_based",
            f"--runtime={int(runtime_s * 1000)}ms", "--lat_percentiles=1", "--output-format=json+",
            f"--status-interval={interval_ms}ms"]
    if shutil.which("strace"):
        argv = ["strace", "-f", "-e", "trace=write", "-o", str(folder / "writes.txt"), *argv]
    text = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    docs = [d for d in text.split('{\n  "fio version"') if d.strip()]
    sizes = [len(d.encode()) for d in docs]
    writes = (sum(1 for line in (folder / "writes.txt").read_text().splitlines() if "write(1," in line)
              if (folder / "writes.txt").exists() else None)
    return (f"status documents at QD1, {interval_ms} ms interval, {runtime_s:g} s: {len(docs)} "
            f"documents, {min(sizes) / 1024:.1f}..{max(sizes) / 1024:.1f} KiB (they grow with the "
            f"histogram), {sum(sizes) / 1024:.0f} KiB in all"
            + (f", written in {writes} writes to stdout ({writes / len(docs):.0f} per document)"
               if writes else "") + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--way", choices=("cli", "window", "documents"), default="cli")
    parser.add_argument("--runtime", type=float, default=8.0)
    parser.add_argument("--interval", type=int, default=1000, help="status interval, ms (documents)")
    parser.add_argument("--pin", action="store_true",
                        help="the engine on the last CPU, the app's threads on the others "
                        "(--pin-engine; the window's Run menu)")
    parser.add_argument("--app-repo", type=Path, default=REPO,
                        help="the app's source to run (another checkout, to compare versions)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ssd-bench-threads-"))
    load = os.getloadavg()[0]
    try:
        if args.way == "documents":
            subprocess.run([shutil.which("fio") or "fio", "--name=fill", f"--filename={folder / 'qd1.dat'}",
                            "--size=256MiB", "--rw=write", "--bs=1M", "--direct=1",
                            "--output-format=json"], capture_output=True, check=True)
            out = documents(args.runtime, args.interval, folder)
        else:
            settings = ["--set", f"runtime={args.runtime}s", "--set", "queue_depths=1", "--set",
                        "size=256MiB", "--set", "repetitions=1", "--set", "warmup=false"]
            if args.way == "cli":
                argv = [sys.executable, "-m", "ui.main", "run", "queue-depth", "--target",
                        str(folder / "t"), "--out", str(folder / "runs"), *settings] + (
                            ["--pin-engine"] if args.pin else [])
            else:
                argv = [sys.executable, str(Path(__file__).with_name("qd1_window_once.py")),
                        str(folder / "t"), str(args.runtime)] + (["pin"] if args.pin else [])
            out = watch(argv, dict(os.environ), args.app_repo)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    sys.stdout.write(f"{args.way}: load average {load:.1f} -> {os.getloadavg()[0]:.1f}, display "
                     f"{os.environ.get('QT_QPA_PLATFORM') or os.environ.get('DISPLAY', '-')}\n{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
