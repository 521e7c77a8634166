"""DiskSpd's OS side: live charts from the OS disk counters, and the Win32 named-event stop.

DiskSpd prints nothing while it runs, so its live charts come from psutil's
counters of the disk that holds the test file ("OS-observed"); the XML's ``-D`` series replaces
them after the trial. Its graceful stop is the ``-yp`` named event, set through kernel32 with
ctypes. Both touch the OS, so they live in jobs/ and are handed to the pure
:class:`app.engines.diskspd.DiskSpdEngine` by jobs/engine/factory.py (``counter_live``, ``event_stop``).
"""
from __future__ import annotations

import logging
import os
import re
import sys
import time
from collections.abc import Callable, Container
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil

from app.engines.diskspd.xml import xml_intervals
from app.experiments.plan import Trial
from app.model.interval import Interval
from app.units import MB

if TYPE_CHECKING:
    import ctypes

log = logging.getLogger(__name__)

EVENT_MODIFY_STATE = 0x0002


# -- which disk holds the test file ------------------------------------------------------------------
_PARTITION = (re.compile(r"^(nvme\d+n\d+)p\d+$"), re.compile(r"^(mmcblk\d+)p\d+$"),
              re.compile(r"^(disk\d+)s\d+$"), re.compile(r"^((?:sd|vd|hd|xvd)[a-z]+)\d+$"))


def disk_key_for(device: str, keys: Container[str]) -> str | None:
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
    which only the OS inventory in :func:`app.drive.identity.volume_for` maps to a volume. When neither
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
        from app.drive.identity import volume_for
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
                 counters: Callable[..., Any] | None = None, clock: Callable[[], float] = time.time):
        self.disk, self.interval_s, self.note = disk, max(0.1, float(interval_s)), note
        self._counters = counters or psutil.disk_io_counters
        self._clock = clock
        self._prev: tuple[float, object] | None = None

    def _read(self) -> object | None:
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
        values = {}
        for kind in ("read", "write"):
            n = max(0, getattr(after, f"{kind}_count") - getattr(before, f"{kind}_count"))
            b = max(0, getattr(after, f"{kind}_bytes") - getattr(before, f"{kind}_bytes"))
            busy = getattr(after, f"{kind}_time", None)
            lat = None
            if n and busy is not None:
                lat = max(0, busy - getattr(before, f"{kind}_time")) / n * 1000.0  # ms -> µs
            values.update({f"{kind}_MBps": b / dt / MB, f"{kind}_iops": n / dt, f"{kind}_lat_us": lat})
        return [Interval(end_epoch_s=now, duration_s=dt, **values)]

    replaces_live_series = True
    feed_every_s: float | None = 0.2   # DiskSpd prints nothing: the OS counters are read on this clock

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
        self._handle: int | None = None
        self._kernel32: ctypes.CDLL | None = None

    @staticmethod
    def _api() -> ctypes.CDLL:
        if not sys.platform.startswith("win"):
            raise OSError("named events exist on Windows only")
        import ctypes
        from ctypes import wintypes as wt
        k32 = ctypes.WinDLL("kernel32", use_last_error=True)
        for name, args, res in (("OpenEventW", (wt.DWORD, wt.BOOL, wt.LPCWSTR), wt.HANDLE),
                                ("CreateEventW", (wt.LPVOID, wt.BOOL, wt.BOOL, wt.LPCWSTR), wt.HANDLE),
                                ("SetEvent", (wt.HANDLE,), wt.BOOL), ("CloseHandle", (wt.HANDLE,), wt.BOOL)):
            getattr(k32, name).argtypes, getattr(k32, name).restype = args, res
        return k32

    def __call__(self) -> None:
        if not sys.platform.startswith("win"):  # ctypes has no WinDLL there
            raise OSError("named events exist on Windows only")
        import ctypes
        k32 = self._api()
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

    def __del__(self) -> None:
        if self._handle and self._kernel32 is not None:
            self._kernel32.CloseHandle(self._handle)


def _no_stop() -> None:
    """Outside Windows there is no named event to set; terminate and kill follow."""


def event_stop(name: str) -> Callable[[], None]:
    """The ``stop`` DiskSpdEngine is given: sets the named event on Windows, nothing elsewhere."""
    return NamedEventStop(name) if sys.platform.startswith("win") else _no_stop


class CounterLive:
    """The ``live`` factory DiskSpdEngine is given: one :class:`DiskSpdLive` per trial, on the
    counters of the disk holding the test file, looked up once per folder because the Windows
    lookup asks PowerShell."""

    def __init__(self) -> None:
        self._disks: dict[str, tuple[str | None, str]] = {}

    def __call__(self, trial: Trial, test_file: Path) -> DiskSpdLive:
        folder = str(Path(test_file).parent)
        if folder not in self._disks:
            self._disks[folder] = resolve_disk(test_file)
            log.info("DiskSpd live charts from %s", self._disks[folder][1])
        disk, note = self._disks[folder]
        return DiskSpdLive(disk, trial.interval_s, note)
