"""A device whose truth is known: a loop device, its image in RAM, throttled by the block cgroup.

Used by benchmarks/precision.py and by the tests that check the app's rates against a throttle
(docs/precision.md, "Proof"). The image lives in /dev/shm so neither the shared disk under it
nor other users of that disk change the truth; the cgroup (v2 ``io.max`` when the unified
hierarchy has the io controller, else v1 ``blkio.throttle.*``) limits the loop device to the
given read/write IOPS and bytes/s. Processes enter the group with :meth:`ThrottledLoop.enter`
(a ``preexec_fn``). Needs root, losetup and a block cgroup: :func:`unavailable` says why not.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

RAM = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
_V1 = Path("/sys/fs/cgroup/blkio")
_V2 = Path("/sys/fs/cgroup/unified")


def sh(*argv: str) -> str:
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()


def _v2_io() -> bool:
    controllers = _V2 / "cgroup.controllers"
    return controllers.exists() and "io" in controllers.read_text().split()


def unavailable() -> str | None:
    """Why a throttled loop device cannot be built here, or None when it can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root (a loop device and a block cgroup)"
    if RAM is None:
        return "needs /dev/shm for the loop device's image"
    for tool in ("losetup", "lsblk", "mkfs.ext4", "mount", "umount", "truncate"):
        if shutil.which(tool) is None:
            return f"needs {tool}"
    if not _v2_io() and not (_V1 / "blkio.throttle.write_bps_device").exists():
        return "needs the block cgroup (v1 blkio.throttle or v2 io.max)"
    try:
        free = sh("losetup", "-f")
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"no free loop device ({exc})"
    return None if free else "no free loop device"


class ThrottledLoop:
    """A throttled loop device; ``filesystem``: ext4 on it, mounted at ``work/mnt`` (else the
    raw device ``dev`` is the target). Limits of 0 are left unthrottled."""

    def __init__(self, work: Path, size: str = "2G", *, iops: int = 0, bps: int = 0,
                 filesystem: bool = True, name: str = "ssd-profiler-throttle", ram: Path | None = RAM):
        self.work, self.mnt, self.iops, self.bps = work, work / "mnt", iops, bps
        self.image = Path(tempfile.mkdtemp(prefix="throttled-loop-", dir=ram)) / "image" if ram \
            else work / "image"
        sh("truncate", "-s", size, str(self.image))
        self.dev = sh("losetup", "-f", "--show", *([] if ram else ["--direct-io=on"]), str(self.image))
        self.mounted = filesystem
        if filesystem:
            sh("mkfs.ext4", "-q", self.dev)
            self.mnt.mkdir()
            sh("mount", self.dev, str(self.mnt))
        majmin = sh("lsblk", "-dno", "MAJ:MIN", self.dev).strip()
        if _v2_io():
            self.group = _V2 / name
            self.group.mkdir(exist_ok=True)
            limits = {"riops": iops, "wiops": iops, "rbps": bps, "wbps": bps}
            (self.group / "io.max").write_text(
                f"{majmin} " + " ".join(f"{k}={v or 'max'}" for k, v in limits.items()))
            self.how = "cgroup v2 io.max"
        else:
            self.group = _V1 / name
            self.group.mkdir(exist_ok=True)
            for key, value in (("read_iops_device", iops), ("write_iops_device", iops),
                               ("read_bps_device", bps), ("write_bps_device", bps)):
                if value:
                    (self.group / f"blkio.throttle.{key}").write_text(f"{majmin} {value}")
            self.how = "cgroup v1 blkio.throttle"

    def truth_iops(self, bs_bytes: int) -> float:
        """The I/Os per second the throttle lets through at block size ``bs_bytes``."""
        rates = [r for r in (self.iops, self.bps / bs_bytes if self.bps else 0) if r]
        return float(min(rates))

    def enter(self) -> None:  # preexec: the process and its children in the throttled group
        (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", str(self.mnt)], check=False)
        subprocess.run(["losetup", "-d", self.dev], check=False)
        try:
            self.group.rmdir()
        except OSError:
            pass
        self.image.unlink(missing_ok=True)
        if self.image.parent != self.work:
            self.image.parent.rmdir()

    def __enter__(self) -> ThrottledLoop:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
