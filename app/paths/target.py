"""Which folder may be written: the target resolved and judged by what it is, not how it is spelt.

The target is a folder on the drive under test. Links in its parents are resolved (``realpath``)
and the resolved folder is what is checked and used, so ``//dev/shm/x``, a parent that is a link
into /dev, or a bind mount of /dev are judged as the system trees they are: by the file-system
type of the mount that holds them and by device identity, never by comparing strings. Device
paths (``\\\\.\\``, ``\\\\?\\``, Windows device names), device nodes, existing files, a target that
is itself a link, read-only mounts, too little free space and names too long for the file system
are refused with one line that says what to change. The checks write nothing.
"""
from __future__ import annotations

import os
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from app.paths.medium import Medium, classify, mount_fs_type
from app.units import GiB, human_bytes

DATA_DIR = "ssd-profiler-data"
# Kernel and device file systems: writing there reaches devices or kernel state, never a drive.
SYSTEM_FS_TYPES = frozenset({
    "devtmpfs", "devfs", "proc", "sysfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
    "securityfs", "configfs", "bpf", "pstore", "efivarfs", "mqueue", "fusectl", "binfmt_misc",
    "hugetlbfs", "autofs", "rpc_pipefs", "nsfs", "selinuxfs"})
SYSTEM_TREES = ("/dev", "/proc", "/sys")
_WINDOWS_DEVICES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                    *(f"lpt{i}" for i in range(1, 10))}
NAME_MAX_BYTES = 255          # one path component, on every common file system
PATH_MAX_BYTES = 3800         # leaves room below Linux's 4096 for the data folder and file names


class TargetRefused(ValueError):
    """The target cannot be used; the message is one line that names the problem."""


@dataclass(frozen=True)
class CheckedTarget:
    folder: Path          # the resolved folder (may not exist yet; its parent does)
    data_dir: Path        # <folder>/ssd-profiler-data, the only place the app writes
    free_bytes: int
    total_bytes: int
    fs_type: str | None = None
    requested: str = ""   # the target as the user spelt it
    medium: Medium | None = None  # what the folder really sits on (app/paths/medium.py)


def shown(path: str | os.PathLike[str]) -> str:
    """A path as one printable line: a newline or other control character in a folder name is
    written as its escape (``\\n``), so every refusal stays one line."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in str(path))


def not_text(path: str | os.PathLike[str]) -> bool:
    """Whether a path holds bytes that are not UTF-8 text (Python keeps them as lone
    surrogates): run.json, commands.log, the export and the window record paths as text, so
    such a name is refused before anything is written rather than failing half-way."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


NOT_TEXT = ("has bytes in its name that are not UTF-8 text (shown as \\udcXX); rename it or "
            "choose another folder")


def free_space_margin(total_bytes: int) -> int:
    """Room left free beside the test file: max(1 GiB, 5 % of the volume)."""
    return max(GiB, total_bytes // 20)


MEMORY_KINDS = ("ram", "zram")


def check_target(path: str | os.PathLike[str], size_bytes: int, allow_media: tuple[str, ...] = ()) -> CheckedTarget:
    """Validate a target folder for a test file of ``size_bytes``; raise TargetRefused.
    A folder in memory (tmpfs, ramfs, zram) is refused unless ``allow_media`` holds "ram"."""
    raw = os.fspath(path)
    if not raw.strip():
        raise TargetRefused("no target folder given")
    if "\x00" in raw:
        raise TargetRefused("the target folder name contains a NUL character")
    if not_text(raw):
        raise TargetRefused(f"target {shown(raw)} {NOT_TEXT}")
    try:
        return _check(raw, size_bytes, allow_media)
    except (OSError, UnicodeError) as exc:  # whatever the OS says about a strange path: one line
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise TargetRefused(f"target {shown(raw)} cannot be used: {reason}") from None


def _check(raw: str, size_bytes: int, allow_media: tuple[str, ...] = ()) -> CheckedTarget:
    _refuse_device_spellings(raw)
    spelt = Path(os.path.abspath(os.path.expanduser(raw)))
    _refuse_long_names(spelt / DATA_DIR)
    if spelt.is_symlink():
        raise TargetRefused(f"target {shown(spelt)} is a symbolic link; choose the real folder "
                            f"({shown(os.path.realpath(spelt))}) instead")
    target = Path(os.path.realpath(spelt))
    _refuse_long_names(target / DATA_DIR)
    existing = _existing_folder(target)
    _refuse_system_tree(target, existing)
    medium = classify(existing)
    if medium.kind in MEMORY_KINDS and "ram" not in allow_media:
        raise TargetRefused(f"target {shown(target)} {medium.note}; pick a folder on the drive "
                            "(or allow it on purpose: --allow-medium ram)")
    _refuse_read_only(existing)
    data_dir = target / DATA_DIR
    if data_dir.is_symlink() or (data_dir.exists() and not data_dir.is_dir()):
        raise TargetRefused(f"{shown(data_dir)} exists and is not a plain folder; remove it or choose "
                            "another target")
    if data_dir.is_dir() and hasattr(os, "geteuid") and data_dir.stat().st_uid != os.geteuid():
        raise TargetRefused(f"{shown(data_dir)} belongs to another user; choose another target")
    usage = shutil.disk_usage(existing)
    margin = free_space_margin(usage.total)
    if usage.free < size_bytes + margin:
        raise TargetRefused(
            f"not enough free space on {shown(existing)}: the test file needs {human_bytes(size_bytes)} "
            f"plus a margin of {human_bytes(margin)}, but only {human_bytes(usage.free)} is free")
    return CheckedTarget(target, data_dir, usage.free, usage.total,
                         medium.fs_type or mount_fs_type(existing), raw, medium)


def _existing_folder(target: Path) -> Path:
    """The target if it is a folder, else its parent (the target is created there)."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise TargetRefused(f"target {shown(target)}: its parent folder {shown(target.parent)} does not exist") from None
        return target.parent
    except OSError as exc:
        raise TargetRefused(f"target {shown(target)} cannot be read: {exc.strerror}") from None
    if stat.S_ISBLK(mode) or stat.S_ISCHR(mode):
        raise TargetRefused(f"target {shown(target)} is a device node; choose a folder on the drive "
                            "(the app never writes to raw devices)")
    if stat.S_ISREG(mode):
        raise TargetRefused(f"target {shown(target)} is an existing file; choose a folder "
                            "(the app never writes over files)")
    if not stat.S_ISDIR(mode):
        raise TargetRefused(f"target {shown(target)} is not a folder")
    return target


def _refuse_device_spellings(raw: str) -> None:
    if raw.startswith(("\\\\.\\", "\\\\?\\", "//./", "//?/", "#")):
        # \\.\PhysicalDrive0 (raw disk), \\?\Volume{...}, #1 (a DiskSpd disk number)
        raise TargetRefused(f"target {shown(raw)} names a raw drive or volume; choose a folder on it")
    if sys.platform.startswith("win"):
        for part in Path(raw).parts:
            if part.split(".")[0].strip().lower() in _WINDOWS_DEVICES:
                raise TargetRefused(f"target {shown(raw)} names the Windows device {shown(part)}; choose a folder")


def _refuse_long_names(path: Path) -> None:
    encoded = os.fsencode(str(path))
    if len(encoded) > PATH_MAX_BYTES:
        raise TargetRefused(f"the target path is {len(encoded)} bytes long; choose a folder with "
                            f"a path under {PATH_MAX_BYTES} bytes")
    for part in path.parts:
        if len(os.fsencode(part)) > NAME_MAX_BYTES:
            raise TargetRefused(f"a folder name in the target is longer than {NAME_MAX_BYTES} "
                                f"bytes ({shown(part)[:40]}...); choose a shorter name")


def _refuse_system_tree(target: Path, existing: Path) -> None:
    """Refuse kernel and device trees however they are reached (resolved path, mount type,
    device identity: a bind mount of /dev has /dev's device number)."""
    message = (f"target {shown(target)} is a device node or system file (devices, kernel state), not a "
               "folder on a drive; choose a folder on the drive (the app never writes to raw devices)")
    text = str(target)
    if any(text == tree or text.startswith(tree + "/") for tree in SYSTEM_TREES):
        raise TargetRefused(message)
    fs_type = mount_fs_type(existing)
    if fs_type in SYSTEM_FS_TYPES:
        raise TargetRefused(message.replace("is a device node or system file", f"is on a {fs_type} mount"))
    try:
        dev = os.stat(existing).st_dev
    except OSError:
        return
    for tree in (*SYSTEM_TREES, "/dev/shm", "/dev/pts"):
        try:
            if os.stat(tree).st_dev == dev:
                raise TargetRefused(message.replace("is a device node or system file",
                                                    f"is on the same file system as {tree}"))
        except OSError:
            continue


def _refuse_read_only(folder: Path) -> None:
    """Refuse a read-only mount, a folder we may not write, or one with no write bits at all
    (root could write there, but the owner has said it is not to be written)."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            raise TargetRefused(f"target {shown(folder)} is on a read-only file system")
    except (AttributeError, OSError):
        pass  # statvfs is POSIX only
    mode = folder.stat().st_mode
    if not os.access(folder, os.W_OK | os.X_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise TargetRefused(f"target {shown(folder)} is read-only (no write permission)")
