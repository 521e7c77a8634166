"""Target safety (DESIGN §5): what may be written, checked before anything is written.

The target is a folder on the drive under test. The app writes only inside its own subfolder
there, ``ssd-profiler-data/``, to test files it names itself. Everything that could touch user
data or a raw device is refused with a one-line reason, and the checks themselves write nothing.
"""
from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from app.units import GiB, human_bytes

DATA_DIR = "ssd-profiler-data"
TEST_FILE_PREFIX = "ssd-profiler-test-"
_SYSTEM_TREES = ("/dev", "/proc", "/sys")


class TargetRefused(ValueError):
    """The target cannot be used; the message is one line that names the problem."""


@dataclass(frozen=True)
class CheckedTarget:
    folder: Path          # the folder the user chose (may not exist yet; its parent does)
    data_dir: Path        # <folder>/ssd-profiler-data, the only place we write
    free_bytes: int
    total_bytes: int

    def test_file(self, tag: str) -> Path:
        return self.data_dir / f"{TEST_FILE_PREFIX}{tag}.dat"


def free_space_margin(total_bytes: int) -> int:
    """Room left free beside the test file: max(1 GiB, 5 % of the volume)."""
    return max(GiB, total_bytes // 20)


def check_target(path: str | os.PathLike, size_bytes: int) -> CheckedTarget:
    """Validate a target folder for a test file of ``size_bytes``; raise TargetRefused."""
    raw = os.fspath(path)
    if not raw.strip():
        raise TargetRefused("no target folder given")
    target = Path(os.path.abspath(os.path.expanduser(raw)))
    _refuse_devices(raw, target)
    if target.is_symlink():
        raise TargetRefused(f"target {target} is a symbolic link; choose the real folder "
                            f"({os.path.realpath(target)}) instead")
    if target.exists():
        if target.is_file():
            raise TargetRefused(f"target {target} is an existing file; choose a folder "
                                "(the app never writes over files)")
        if not target.is_dir():
            raise TargetRefused(f"target {target} is not a folder")
        existing = target
    else:
        if not target.parent.is_dir():
            raise TargetRefused(f"target {target}: its parent folder {target.parent} does not exist")
        existing = target.parent
    _refuse_read_only(existing)
    data_dir = target / DATA_DIR
    if data_dir.is_symlink() or (data_dir.exists() and not data_dir.is_dir()):
        raise TargetRefused(f"{data_dir} exists and is not a plain folder; remove it or choose "
                            "another target")
    usage = shutil.disk_usage(existing)
    margin = free_space_margin(usage.total)
    if usage.free < size_bytes + margin:
        raise TargetRefused(
            f"not enough free space on {existing}: the test file needs {human_bytes(size_bytes)} "
            f"plus a margin of {human_bytes(margin)}, but only {human_bytes(usage.free)} is free")
    return CheckedTarget(target, data_dir, usage.free, usage.total)


def _refuse_devices(raw: str, target: Path) -> None:
    for tree in _SYSTEM_TREES:
        if raw.startswith(tree + "/") or raw == tree or str(target).startswith(tree + "/"):
            raise TargetRefused(f"target {raw} is a device node or system file; choose a folder "
                                "on the drive (the app never writes to raw devices)")
    if raw.startswith(("\\\\.\\", "\\\\?\\", "#")):
        # \\.\PhysicalDrive0 (raw disk), #1 (a DiskSpd disk number)
        raise TargetRefused(f"target {raw} names a raw drive or volume; choose a folder on it")
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return
    if stat.S_ISBLK(mode) or stat.S_ISCHR(mode):
        raise TargetRefused(f"target {raw} is a device node; choose a folder on the drive")


def _refuse_read_only(folder: Path) -> None:
    """Refuse a read-only mount, a folder we may not write, or one with no write bits at all
    (root could write there, but the owner has said it is not to be written)."""
    try:
        vfs = os.statvfs(folder)
        if vfs.f_flag & os.ST_RDONLY:
            raise TargetRefused(f"target {folder} is on a read-only file system")
    except (AttributeError, OSError):
        pass  # statvfs is POSIX only
    mode = folder.stat().st_mode
    if not os.access(folder, os.W_OK | os.X_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise TargetRefused(f"target {folder} is read-only (no write permission)")


def leftover_test_files(folder: str | os.PathLike) -> list[Path]:
    """Test files left by a crashed run, recognized by name, for the user to clean up."""
    data_dir = Path(folder) / DATA_DIR
    if not data_dir.is_dir():
        return []
    return sorted(p for p in data_dir.glob(f"{TEST_FILE_PREFIX}*.dat") if p.is_file())
