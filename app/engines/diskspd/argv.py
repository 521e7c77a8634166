"""DiskSpd command lines: pure functions from a trial to an argv list.

Workloads are named like fio's; this table is how each setting becomes a DiskSpd option. The
load is per target and there is always exactly one target (the test file), so the outstanding
I/O a drive sees is the same in both engines: **fio iodepth x numjobs = DiskSpd -o x -t**.

=====================  =========================  =============================================
fio                    DiskSpd                    note
=====================  =========================  =============================================
bs=N                   -bN                        K/M/G suffixes are binary in both
iodepth=Q              -oQ                        outstanding I/O per thread (per target)
numjobs=T              -tT                        threads per target
rw=randread/randwrite  -r -w0 / -r -w100          -r aligns to the block size (Windows DiskSpd)
rw=read/write          -s -w0 / -s -w100          -si when T > 1 (below)
rw=randrw/rw, mix=R    -r / -s, -w(100-R)         -w is the write share
runtime                -d                         whole seconds, rounded up
ramp_time              -W                         whole seconds; -W0 (DiskSpd's default is 5 s)
direct=1               -Sh                        no OS cache *and* write-through
refill_buffers         -Z<size>                   random write source, max(1 MiB, 2 x bs)
lat_percentiles=1      -L                         DiskSpd latency is total latency
status-interval        -D<ms>                     a per-interval IOPS series, in the XML only
output-format=json     -Rxml                      parsed after the run (xml.py)
trigger-file           -yp<event>                 named event; Windows only (graceful_stop)
size (file creation)   -c<size>                   CREATE_ALWAYS: only when the file is missing
=====================  =========================  =============================================

Choices, with reasons:

- Multi-threaded sequential uses ``-si`` (threads share one interlocked offset): the drive sees
  one sequential stream with T x Q in flight, as in CrystalDiskMark. fio's numjobs instead runs T
  independent streams; plain ``-s -tT`` would match that, but T streams that each start at
  offset 0 read the same blocks and flatter the cache.
- ``-c`` recreates an existing file (CREATE_ALWAYS), so a trial passes it only
  when the test file does not exist yet: the first trial of a write-only experiment (the runner
  pre-fills only when a trial reads). Then DiskSpd prepares the file before it measures:
  instantly when elevated (SetFileValidData), else by writing it once, which takes time from the
  runner's watchdog grace and, for the SLC-cache test, writes the file once before measuring.
- Filling the file before reads (``prepare_argv``): elevated, ``-c`` alone leaves never-written
  blocks that an SSD answers without touching flash (53.7 GB/s "reads", a known DiskSpd behaviour).
  DiskSpd has no size-bounded run, and a time-bounded write at full speed would rewrite the file
  many times. So the fill is one sequential write pass throttled with ``-g`` to
  ``PREPARE_RATE_MiBps`` for as long as one pass of the file takes at that rate (plus a second):
  one pass of random data on any drive that sustains that rate. Unelevated (the app's normal
  mode), ``-c`` itself has already written every block.
- Live charts: DiskSpd prints nothing while it runs, so jobs/engine/diskspd_live.py
  samples psutil's counters of the disk holding the test file ("OS-observed"), and the XML's
  ``-D`` series replaces them after the trial (``final_intervals``).
- Cancel: ``-yp<event>`` + ``SetEvent`` is the path Ctrl+C takes inside DiskSpd (results are
  kept, rc 0); the event is set by jobs/engine/diskspd_live.py. Elsewhere (the fake DiskSpd on Linux)
  the stop is a no-op and process control falls through to terminate, then kill.
"""
from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path

from app.experiments.plan import Trial
from app.model.workload import Workload
from app.units import MiB, block_label

EXECUTABLES = ("diskspd", "diskspd.exe", "diskspd64", "diskspd64.exe")
PREPARE_BS, PREPARE_QD = MiB, 8
PREPARE_RATE_MiBps = 100


def size_arg(n_bytes: int) -> str:
    """DiskSpd size text: 4096 -> '4K', 1048576 -> '1M', 1073741824 -> '1G', else bytes
    (DiskSpd reads K/M/G as binary, the same spelling as the CrystalDiskMark-style labels)."""
    return block_label(n_bytes)


def write_buffer_bytes(bs_bytes: int) -> int:
    """``-Z`` source buffer: random data, larger than one block so that writes picked from it
    at different offsets differ (a deduplicating controller sees no repeats)."""
    return max(MiB, 2 * bs_bytes)


def write_percent(workload: Workload) -> int:
    if workload.rwmixread is not None:
        return 100 - workload.rwmixread
    return 0 if workload.direction == "read" else 100


def trial_argv(exe: str, trial: Trial, test_file: Path | str, event: str,
               create: bool = False) -> list[str]:
    """The argv that runs one trial (mapping in the module docstring); XML on stdout."""
    w = trial.workload
    pattern = "-r" if w.random else ("-si" if w.numjobs > 1 else "-s")
    argv = [exe, f"-b{size_arg(w.bs_bytes)}", f"-o{w.iodepth}", f"-t{w.numjobs}", pattern,
            f"-w{write_percent(w)}", f"-d{max(1, math.ceil(trial.runtime_s))}",
            f"-W{math.ceil(trial.ramp_s)}", "-C0"]
    if trial.direct:
        argv.append("-Sh")
    argv += ["-L", f"-D{max(100, round(trial.interval_s * 1000))}",
             f"-Z{size_arg(write_buffer_bytes(w.bs_bytes))}", f"-yp{event}", "-Rxml"]
    if create:
        argv.append(f"-c{size_arg(trial.size_bytes)}")
    return argv + [str(test_file)]


def prepare_seconds(size_bytes: int) -> int:
    """How long one throttled pass over the file takes, plus a second for the start."""
    return math.ceil(size_bytes / (PREPARE_RATE_MiBps * MiB)) + 1


def prepare_argv(exe: str, test_file: Path | str, size_bytes: int, event: str,
                 direct: bool = True) -> list[str]:
    """Create the file and write it once with random data (see "Filling the file" above)."""
    rate = PREPARE_RATE_MiBps * MiB // 1000  # -g is bytes per millisecond per thread
    argv = [exe, f"-c{size_arg(size_bytes)}", f"-b{size_arg(PREPARE_BS)}", f"-o{PREPARE_QD}", "-t1",
            "-s", "-w100", f"-g{rate}", f"-d{prepare_seconds(size_bytes)}", "-W0", "-C0"]
    if direct:
        argv.append("-Sh")
    return argv + [f"-Z{size_arg(write_buffer_bytes(PREPARE_BS))}", f"-yp{event}", "-Rxml",
                   str(test_file)]


def version_argv(exe: str) -> list[str]:
    return [exe, "-?"]


def parse_version(usage: str) -> str | None:
    """'2.2' from DiskSpd's usage text (``version 2.2 (2024/6/3)``)."""
    match = re.search(r"\bversion\s+(\d[\w.]*)", usage)
    return match.group(1) if match else None


def event_name(stop_token: Path | str, nonce: int = 0) -> str:
    """A name for DiskSpd's ``-yp`` event, unique per process started: a set event lives on as
    long as any handle to it, and must never stop the next trial on the same test file."""
    digest = hashlib.sha1(str(stop_token).encode("utf-8")).hexdigest()[:12]
    return f"ssd-profiler-stop-{os.getpid()}-{digest}-{nonce}"
