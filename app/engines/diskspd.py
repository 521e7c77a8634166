"""DiskSpd command lines, live OS counters and result parsing (DESIGN §4, engines.md §2).

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
direct=1               -Sh                        no OS cache *and* write-through (DESIGN §4)
refill_buffers         -Z<size>                   random write source, max(1 MiB, 2 x bs)
lat_percentiles=1      -L                         DiskSpd latency is total latency
status-interval        -D<ms>                     a per-interval IOPS series, in the XML only
output-format=json     -Rxml                      parsed after the run (diskspd_xml)
trigger-file           -yp<event>                 named event; Windows only (graceful_stop)
size (file creation)   -c<size>                   CREATE_ALWAYS: only when the file is missing
=====================  =========================  =============================================

Choices, with reasons:

- Multi-threaded sequential uses ``-si`` (threads share one interlocked offset): the drive sees
  one sequential stream with T x Q in flight, as in CrystalDiskMark. fio's numjobs instead runs T
  independent streams; plain ``-s -tT`` would match that, but T streams that each start at
  offset 0 read the same blocks and flatter the cache.
- ``-c`` recreates an existing file (CREATE_ALWAYS, engines.md §2.1), so a trial passes it only
  when the test file does not exist yet: the first trial of a write-only experiment (the runner
  pre-fills only when a trial reads). Then DiskSpd prepares the file before it measures:
  instantly when elevated (SetFileValidData), else by writing it once, which takes time from the
  runner's watchdog grace and, for the SLC-cache test, writes the file once before measuring.
- Filling the file before reads (``prepare_argv``): elevated, ``-c`` alone leaves never-written
  blocks that an SSD answers without touching flash (53.7 GB/s "reads", microsoft/diskspd#228).
  DiskSpd has no size-bounded run, and a time-bounded write at full speed would rewrite the file
  many times. So the fill is one sequential write pass throttled with ``-g`` to
  ``PREPARE_RATE_MiBps`` for as long as one pass of the file takes at that rate (plus a second):
  one pass of random data on any drive that sustains that rate. Unelevated (the app's normal
  mode, DESIGN §5), ``-c`` itself has already written every block.
- Live charts: DiskSpd prints nothing while it runs (engines.md §2.4), so :class:`DiskSpdLive`
  samples psutil's counters of the disk holding the test file ("OS-observed"), and the XML's
  ``-D`` series replaces them after the trial (``final_intervals``).
- Cancel: ``-yp<event>`` + ``SetEvent`` is the path Ctrl+C takes inside DiskSpd (results are
  kept, rc 0). Elsewhere (the fake DiskSpd on Linux) the stop is a no-op and process control
  falls through to terminate, then kill.
"""
from __future__ import annotations

import hashlib
import itertools
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from app.engines import EngineNotFound, install_hint
from app.engines.diskspd_text import looks_like_diskspd, parse_diskspd_output  # noqa: F401 (API)
from app.engines.diskspd_xml import xml_intervals
from app.engines.fio_live import Interval
from app.plan import Trial
from app.units import MB, MiB, block_label

log = logging.getLogger(__name__)

EXECUTABLES = ("diskspd", "diskspd.exe", "diskspd64", "diskspd64.exe")
PREPARE_BS, PREPARE_QD = MiB, 8
PREPARE_RATE_MiBps = 100
EVENT_MODIFY_STATE = 0x0002


# -- argv (pure) -----------------------------------------------------------------------------------
def size_arg(n_bytes: int) -> str:
    """DiskSpd size text: 4096 -> '4K', 1048576 -> '1M', 1073741824 -> '1G', else bytes
    (DiskSpd reads K/M/G as binary, the same spelling as the CrystalDiskMark-style labels)."""
    return block_label(n_bytes)


def write_buffer_bytes(bs_bytes: int) -> int:
    """``-Z`` source buffer: random data, larger than one block so that writes picked from it
    at different offsets differ (a deduplicating controller sees no repeats)."""
    return max(MiB, 2 * bs_bytes)


def write_percent(workload) -> int:
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


# -- which disk holds the test file ------------------------------------------------------------------
_PARTITION = (re.compile(r"^(nvme\d+n\d+)p\d+$"), re.compile(r"^(mmcblk\d+)p\d+$"),
              re.compile(r"^(disk\d+)s\d+$"), re.compile(r"^((?:sd|vd|hd|xvd)[a-z]+)\d+$"))


def disk_key_for(device: str, keys) -> str | None:
    """The psutil per-disk key of the *disk* behind a partition device (``/dev/nvme0n1p2`` ->
    ``nvme0n1``, ``/dev/disk3s1`` -> ``disk3``), else of the device itself (``dm-0``)."""
    names = [os.path.basename(os.path.realpath(device)), os.path.basename(device)]
    for name in names:
        parents = [m.group(1) for m in (p.match(name) for p in _PARTITION) if m]
        for candidate in (*parents, name):
            if candidate in keys:
                return candidate
    return None


def resolve_disk(path: Path | str) -> tuple[str | None, str]:
    """(psutil per-disk key, how it was found) for the disk holding ``path``.

    psutil's partitions give the device (Linux, macOS); Windows names disks PhysicalDriveN,
    which only the OS inventory in :func:`app.drives.volume_for` maps to a volume. When neither
    works the key is None and :class:`DiskSpdLive` falls back to the system-wide counters (every
    disk summed), which the note says."""
    keys = set((psutil.disk_io_counters(perdisk=True) or {}).keys())
    real = os.path.realpath(path if os.path.exists(path) else os.path.dirname(str(path)) or ".")
    best = None
    for part in psutil.disk_partitions(all=False):
        mount = part.mountpoint
        if (real == mount or real.startswith(mount.rstrip(os.sep) + os.sep)) and \
                (best is None or len(mount) > len(best.mountpoint)):
            best = part
    if best is not None and (key := disk_key_for(best.device, keys)):
        return key, f"disk {key} ({best.device} at {best.mountpoint})"
    try:
        from app.drives import volume_for
        name = (volume_for(real) or {}).get("disk_name")
    except Exception as exc:  # identity is best effort; live charts must not stop a run
        log.info("volume lookup for %s failed: %s", real, exc)
        name = None
    if name in keys:
        return name, f"disk {name}"
    return None, f"system-wide counters (all disks): no disk found for {real}"


class DiskSpdLive:
    """OS-observed live values while DiskSpd runs; DiskSpd's own series afterwards.

    ``feed`` is called about every 0.2 s (text ignored: DiskSpd prints nothing useful while it
    runs); once ``interval_s`` has passed it reads psutil's counters of the test file's disk and
    returns one :class:`Interval` of deltas. Latency is the OS's mean service time per I/O
    (Δread_time / Δread_count), not DiskSpd's. These counters include any other I/O on that
    disk, and with ``disk=None`` every disk (system-wide), which ``note`` says.
    """

    def __init__(self, disk: str | None, interval_s: float = 1.0, note: str = "",
                 counters: Callable | None = None, clock: Callable[[], float] = time.time):
        self.disk, self.interval_s, self.note = disk, max(0.1, float(interval_s)), note
        self._counters = counters or psutil.disk_io_counters
        self._clock = clock
        self._prev: tuple[float, object] | None = None

    def _read(self):
        try:
            if self.disk is None:
                return self._counters(perdisk=False)
            return (self._counters(perdisk=True) or {}).get(self.disk)
        except (OSError, RuntimeError) as exc:  # e.g. no disks visible in a container
            log.debug("disk counters unavailable: %s", exc)
            return None

    def feed(self, text: str) -> list[Interval]:
        now = self._clock()
        if self._prev is None:
            self._prev = (now, self._read())
            return []
        then, before = self._prev
        if now - then < 0.95 * self.interval_s:
            return []
        after = self._read()
        self._prev = (now, after)
        if before is None or after is None:
            return []
        dt = now - then
        values = []
        for kind in ("read", "write"):
            n = max(0, getattr(after, f"{kind}_count") - getattr(before, f"{kind}_count"))
            b = max(0, getattr(after, f"{kind}_bytes") - getattr(before, f"{kind}_bytes"))
            busy = getattr(after, f"{kind}_time", None)
            lat = None
            if n and busy is not None:
                lat = max(0, busy - getattr(before, f"{kind}_time")) / n * 1000.0  # ms -> µs
            values += [b / dt / MB, n / dt, lat]
        return [Interval(now, dt, *values)]

    def final_intervals(self, text: str) -> list[Interval] | None:
        """DiskSpd's ``-D`` series from the XML, ending now (the process has just exited)."""
        return xml_intervals(text, self._clock())


# -- cancel ----------------------------------------------------------------------------------------
class NamedEventStop:
    """Callable that sets DiskSpd's ``-yp`` event (Windows): DiskSpd stops as on Ctrl+C, prints
    its results and exits 0. If DiskSpd has not created the event yet, it is created already set
    and our handle kept until this object goes, so DiskSpd finds it set when it opens it.
    Failures raise OSError, which the process control logs before it terminates."""

    def __init__(self, name: str):
        self.name = name
        self._handle = None
        self._kernel32 = None

    @staticmethod
    def _api():
        import ctypes
        from ctypes import wintypes as wt
        k32 = ctypes.WinDLL("kernel32", use_last_error=True)
        for name, args, res in (("OpenEventW", (wt.DWORD, wt.BOOL, wt.LPCWSTR), wt.HANDLE),
                                ("CreateEventW", (wt.LPVOID, wt.BOOL, wt.BOOL, wt.LPCWSTR), wt.HANDLE),
                                ("SetEvent", (wt.HANDLE,), wt.BOOL), ("CloseHandle", (wt.HANDLE,), wt.BOOL)):
            getattr(k32, name).argtypes, getattr(k32, name).restype = args, res
        return ctypes, k32

    def __call__(self) -> None:
        ctypes, k32 = self._api()
        self._kernel32 = k32
        handle = k32.OpenEventW(EVENT_MODIFY_STATE, False, self.name)
        if handle:
            try:
                if not k32.SetEvent(handle):
                    raise ctypes.WinError(ctypes.get_last_error())
            finally:
                k32.CloseHandle(handle)
            return
        handle = k32.CreateEventW(None, True, True, self.name)  # manual reset, initially set
        if not handle:
            raise ctypes.WinError(ctypes.get_last_error())
        self._handle = handle

    def __del__(self):
        if self._handle and self._kernel32 is not None:
            self._kernel32.CloseHandle(self._handle)


def _size_or_zero(path: Path | str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _no_stop() -> None:
    """Outside Windows there is no named event to set; terminate and kill follow."""


# -- the engine ------------------------------------------------------------------------------------
class DiskSpdEngine:
    """DiskSpd found on this machine: its path and version, and the adapter functions above.

    ``version`` reads "DiskSpd 2.2" (from ``-?``) so that progress lines and reports name the
    tool, as fio's "fio-3.33" does; measurements keep the XML's ``<Version>`` text as it is.

    ``trial_argv``/``prepare_argv`` remember the event name they put into ``-yp`` (per stop
    token) for ``graceful_stop``, and the test file and interval for ``live()``: the runner
    always asks for the argv first, then for the live adapter and the stop callable."""

    name = "diskspd"

    def __init__(self, path: str, version: str | None):
        self.path = path
        self.version = version
        self._events: dict[str, str] = {}
        self._nonce = itertools.count(1)
        self._disks: dict[str, tuple[str | None, str]] = {}

    @staticmethod
    def candidates(override: str | None = None) -> list[str]:
        """Where DiskSpd may be. A path the user set (``override`` from settings, else
        $SSD_PROFILER_DISKSPD) is the only candidate, so a wrong one is reported, not bypassed;
        otherwise PATH (diskspd, diskspd64) and the copy bundled with the Windows build."""
        chosen = override or os.environ.get("SSD_PROFILER_DISKSPD")
        if chosen:
            return [chosen]
        found = [shutil.which(name) for name in EXECUTABLES]
        bundle = getattr(sys, "_MEIPASS", None)  # packaging/ssd-profiler.spec puts it in bin/
        if bundle:
            found.append(str(Path(bundle) / "bin" / "diskspd.exe"))
        return [c for c in found if c]

    @classmethod
    def locate(cls, override: str | None = None) -> DiskSpdEngine:
        """DiskSpd that answers ``-?`` with its usage (version, ``-R<text|xml>``)."""
        chosen = next((c for c in cls.candidates(override)
                       if shutil.which(c) or Path(c).is_file()), None)
        if chosen is None:
            where = override or os.environ.get("SSD_PROFILER_DISKSPD")
            raise EngineNotFound(f"DiskSpd was not found{f' at {where}' if where else ''}; "
                                 f"{install_hint('diskspd')}")
        try:
            done = subprocess.run(version_argv(chosen), capture_output=True, text=True,
                                  timeout=15, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise EngineNotFound(f"DiskSpd at {chosen} does not run ({exc}); "
                                 f"{install_hint('diskspd')}") from None
        usage = (done.stdout or "") + (done.stderr or "")
        if "usage" not in usage.lower():
            raise EngineNotFound(f"{chosen} does not answer like DiskSpd to -?; {install_hint('diskspd')}")
        if "xml" not in usage.lower():
            raise EngineNotFound(f"{chosen} has no XML output (-Rxml); it looks like the Linux port "
                                 "of DiskSpd, which SSD Profiler does not use: use fio on Linux")
        version = parse_version(usage)
        return cls(chosen, f"DiskSpd {version}" if version else "DiskSpd")

    def _event(self, stop_token: Path) -> str:
        name = event_name(stop_token, next(self._nonce))
        self._events[str(stop_token)] = name
        return name

    def trial_argv(self, trial: Trial, test_file: Path, stop_token: Path) -> list[str]:
        """``-c`` only when the test file is not yet written (the app creates it empty, see
        app.paths: it is missing or shorter than the trial's size; module docstring)."""
        return trial_argv(self.path, trial, test_file, self._event(stop_token),
                          create=_size_or_zero(test_file) < trial.size_bytes)

    def prepare_argv(self, test_file: Path, size_bytes: int, stop_token: Path,
                     direct: bool = True) -> list[str]:
        return prepare_argv(self.path, test_file, size_bytes, self._event(stop_token), direct)

    def graceful_stop(self, stop_token: Path) -> Callable[[], None]:
        name = self._events.get(str(stop_token)) or event_name(stop_token)
        return NamedEventStop(name) if sys.platform.startswith("win") else _no_stop

    def live(self, trial: Trial, test_file: Path) -> DiskSpdLive:
        """Counters of the disk holding ``test_file``, looked up once per folder because the
        Windows lookup asks PowerShell."""
        folder = str(Path(test_file).parent)
        if folder not in self._disks:
            self._disks[folder] = resolve_disk(test_file)
            log.info("DiskSpd live charts from %s", self._disks[folder][1])
        disk, note = self._disks[folder]
        return DiskSpdLive(disk, trial.interval_s, note)

    def parse_final(self, text: str, source: str | None = None) -> list[dict]:
        return parse_diskspd_output(text, source)
