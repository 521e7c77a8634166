"""A device whose truth is known, for tests and benchmarks that run as root on Linux: a loop device
with an ext4 file system, its image in RAM (/dev/shm, so neither the shared disk under it nor its
other users change the truth), throttled by the block cgroup (v2 ``io.max`` when the unified
hierarchy has the io controller, else v1 ``blkio.throttle.*``). A process joins the throttled
group with :meth:`ThrottledLoop.enter` (a ``preexec_fn``: the CLI and the fio it starts).

:class:`CliffSwitch` emulates a drive's fast (SLC) cache: writes are throttled to one rate until N
bytes have reached the device, then to another. It counts the sectors the loop device completed
(``/sys/block/loopX/stat``), not the cgroup's bytes: blk-throttle counts a bio when it is
submitted, while up to a queue of them still wait in the throttle, so that count runs ahead of
what was written by up to a queue depth of blocks. :func:`cliff_run` runs the CLI's slc-cache
experiment against one (tests/ui/cli/test_slc_cache_cliff.py, benchmarks/slc_cliff.py).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

RAM = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
V2 = Path("/sys/fs/cgroup/unified")
V1 = Path("/sys/fs/cgroup/blkio")
_V1_NAMES = {"riops": "read_iops_device", "wiops": "write_iops_device",
             "rbps": "read_bps_device", "wbps": "write_bps_device"}
SECTOR = 512
MB = 1_000_000
REPO = Path(__file__).resolve().parents[1]


def sh(*argv: str) -> str:
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()


def _has_v2_io() -> bool:
    controllers = V2 / "cgroup.controllers"
    return controllers.exists() and "io" in controllers.read_text().split()


def unavailable() -> str | None:
    """Why a throttled loop device cannot be built here (None: it can)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root (loop device, block cgroup)"
    if not Path("/dev/loop-control").exists():
        return "no loop device support (/dev/loop-control)"
    missing = [tool for tool in ("losetup", "mkfs.ext4", "mount", "lsblk") if not shutil.which(tool)]
    if missing:
        return f"missing {', '.join(missing)}"
    if not _has_v2_io() and not (V1 / "blkio.throttle.write_bps_device").exists():
        return "no block cgroup throttle (cgroup v2 io or v1 blkio.throttle)"
    return None


class ThrottledLoop:
    """A RAM-backed loop device with ext4 mounted at ``work/mnt``, in a cgroup throttled to
    ``limits`` (io.max keys: riops, wiops, rbps, wbps; bytes/s and I/Os per second)."""

    def __init__(self, work: Path, size: str = "2G", ram: Path | None = RAM,
                 limits: dict[str, int] | None = None, name: str = "ssd-profiler-throttle", *,
                 iops: int = 0, bps: int = 0) -> None:
        """``iops`` and ``bps`` (0: none) limit reads and writes alike; ``limits`` names each."""
        self.work, self.mnt, self.iops, self.bps = work, work / "mnt", iops, bps
        limits = {**({"riops": iops, "wiops": iops} if iops else {}),
                  **({"rbps": bps, "wbps": bps} if bps else {}), **(limits or {})}
        self.image = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=ram)) / "image" if ram \
            else work / "image"
        self.dev = ""
        self.group: Path | None = None
        try:
            sh("truncate", "-s", size, str(self.image))
            self.dev = sh("losetup", "-f", "--show", *([] if ram else ["--direct-io=on"]),
                          str(self.image))
            # inode tables and journal zeroed now: ext4lazyinit would otherwise write them in the
            # background after the mount, unthrottled, into the byte count of CliffSwitch
            sh("mkfs.ext4", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0", self.dev)
            self.mnt.mkdir()
            sh("mount", self.dev, str(self.mnt))
            self.majmin = sh("lsblk", "-dno", "MAJ:MIN", self.dev).strip()
            unique = f"{name}-{os.getpid()}-{Path(self.dev).name}"
            if _has_v2_io():
                self.group, self.how = V2 / unique, "cgroup v2 io.max"
            else:
                self.group, self.how = V1 / unique, "cgroup v1 blkio.throttle"
            self.group.mkdir(exist_ok=True)
            self.set_limits(**(limits or {}))
        except BaseException:
            self.close()
            raise

    def set_limits(self, **limits: int | None) -> None:
        """Change the named limits (None: no limit), leaving the others as they are."""
        assert self.group is not None
        if self.how.startswith("cgroup v2"):
            keys = " ".join(f"{k}={'max' if v is None else v}" for k, v in limits.items())
            (self.group / "io.max").write_text(f"{self.majmin} {keys}")
            return
        for key, value in limits.items():
            (self.group / f"blkio.throttle.{_V1_NAMES[key]}").write_text(f"{self.majmin} {value or 0}")

    def bytes_written(self) -> int:
        """Bytes the loop device has completed writing since it was set up (every writer's)."""
        fields = (Path("/sys/block") / Path(self.dev).name / "stat").read_text().split()
        return int(fields[6]) * SECTOR

    def truth_iops(self, bs_bytes: int) -> float:
        """The I/Os per second the ``iops``/``bps`` throttle lets through at ``bs_bytes``."""
        rates = [r for r in (self.iops, self.bps / bs_bytes if self.bps else 0) if r]
        return float(min(rates))

    def __enter__(self) -> ThrottledLoop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def enter(self) -> None:  # preexec: the CLI and its fio in the throttled group
        assert self.group is not None
        (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def close(self) -> None:
        if self.mnt.is_mount():
            subprocess.run(["umount", str(self.mnt)], check=False)
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], check=False)
        if self.group is not None:
            try:
                self.group.rmdir()
            except OSError:
                pass
        self.image.unlink(missing_ok=True)
        if self.image.parent != self.work:
            self.image.parent.rmdir()


class CliffSwitch(threading.Thread):
    """Switches ``loop``'s write throttle to ``after_bps`` once ``at_bytes`` more bytes have been
    written to it than when the switch was started. ``switched_at`` then holds the byte count
    (since the start) it saw when it switched: blk-throttle lets bios through in bursts (about a
    tenth of a second's worth here), so that is past ``at_bytes`` by up to one burst, and the
    throttle charges that burst to the slower rate (the device pauses after it). ``trace`` keeps
    (monotonic s, bytes since the start) at every poll for :meth:`equivalent_step`."""

    def __init__(self, loop: ThrottledLoop, at_bytes: int, after_bps: int, poll_s: float = 0.002):
        super().__init__(daemon=True)
        self.loop, self.at_bytes, self.after_bps, self.poll_s = loop, at_bytes, after_bps, poll_s
        self.start_bytes = loop.bytes_written()
        self.switched_at: int | None = None
        self.switched_t: float | None = None
        self.trace: list[tuple[float, int]] = []
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            done = self.loop.bytes_written() - self.start_bytes
            now = time.monotonic()
            self.trace.append((now, done))
            if self.switched_at is None and done >= self.at_bytes:
                self.loop.set_limits(wbps=self.after_bps)
                self.switched_at, self.switched_t = done, now
            time.sleep(self.poll_s)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=5)

    def equivalent_step(self, settle_s: float = 1.0) -> tuple[float, float, float] | None:
        """The device's own cliff, as the app defines it: (bytes, rate before, rate after in B/s)
        where the least-squares lines of bytes against time before and after the switch cross,
        each fitted on whole seconds of writing away from the switch and the ends (the bursts'
        staircase averages out); None when either side has too little of it."""
        if self.switched_t is None:
            return None
        # from the first tenth of the cliff written: the app's own small writes come earlier
        writing = [(t, b) for t, b in self.trace if b >= self.at_bytes / 10]
        last_change = max((t for (t, b), (_, b0) in zip(writing[1:], writing) if b != b0), default=0.0)
        first = writing[0][0] if writing else 0.0
        before = [(t, b) for t, b in writing if first + settle_s / 2 <= t <= self.switched_t - settle_s / 4]
        after = [(t, b) for t, b in writing if self.switched_t + settle_s <= t <= last_change - settle_s]
        if len(before) < 50 or len(after) < 50:
            return None
        (a, ca), (b, cb) = _line(before), _line(after)
        if a <= b:
            return None
        t_cross = (cb - ca) / (a - b)
        return a * t_cross + ca, a, b


def _line(points: list[tuple[float, int]]) -> tuple[float, float]:
    """Least-squares slope and intercept of bytes against time."""
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mb = sum(b for _, b in points) / n
    slope = sum((t - mt) * (b - mb) for t, b in points) / sum((t - mt) ** 2 for t, _ in points)
    return slope, mb - slope * mt


@dataclass(frozen=True)
class CliffRun:
    """One slc-cache run against the emulated cliff: the truth and the app's finding."""

    at_bytes: int               # the cliff asked for (the switch fires once this is written)
    switched_bytes: int         # the device's bytes written when the throttle switched
    device_step: tuple[float, float, float] | None   # the device's own (bytes, B/s before, after)
    finding: dict               # the trial's cache_exhaustion entry from run.json's summary
    run_dir: Path
    wall_s: float

    def cliff_error(self, truth: float | None = None) -> float | None:
        gb = self.finding.get("gb_before_drop")
        truth = self.at_bytes if truth is None else truth
        return None if gb is None else gb * 1e9 / truth - 1

    def after_error(self, after_bps: int) -> float | None:
        after = self.finding.get("MBps_after")
        return None if after is None else after * MB / after_bps - 1


def cliff_run(work: Path, before_bps: int, at_bytes: int, after_bps: int, runtime_s: float,
              interval_s: float, size: str = "256MiB", extra: tuple[str, ...] = ()) -> CliffRun:
    """The CLI's slc-cache run on a fresh emulated cliff under ``work`` (removed after)."""
    work.mkdir(parents=True, exist_ok=True)
    loop = ThrottledLoop(work, size="2G", limits={"wbps": before_bps}, name="ssd-profiler-cliff")
    switch = None
    try:
        switch = CliffSwitch(loop, at_bytes, after_bps)
        switch.start()
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "ui.main", "-q", "run", "slc-cache", "--target", str(loop.mnt),
             "--out", str(work / "runs"), "--json", "--set", f"slc-cache.runtime={runtime_s:g}s",
             "--set", f"slc-cache.size={size}", "--set", f"interval={interval_s:g}s", *extra],
            cwd=REPO, capture_output=True, text=True, preexec_fn=loop.enter, timeout=runtime_s + 120)
        wall = time.monotonic() - started
    finally:
        if switch is not None:
            switch.stop()
        loop.close()

    if proc.returncode != 0:
        raise RuntimeError(f"slc-cache run failed (rc {proc.returncode}): {proc.stderr[-1500:]}")
    if switch.switched_at is None:
        raise RuntimeError(f"the run wrote less than the cliff ({at_bytes / MB:g} MB): no cliff")
    doc = json.loads(proc.stdout)
    found = doc["summary"]["slc-cache"]["findings"]["cache_exhaustion"]
    return CliffRun(at_bytes, switch.switched_at, switch.equivalent_step(), found[0],
                    Path(doc["run_dir"]), wall)
