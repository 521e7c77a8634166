"""Does the target's file system really do direct I/O? Asked once, before the first trial.

Why: with ``direct=true`` a result is meant to bypass the OS's page cache. Some file systems
refuse O_DIRECT (ramfs, some FUSE programs, tmpfs before Linux 6.6): fio then fails every trial,
or a tool falls back to buffered I/O and reports RAM speed. Others accept O_DIRECT and buffer
anyway (ZFS before 2.3, ext4 mounted with data=journal, compressed btrfs files). So before
measuring, the app opens a probe file of its own (created like a test file in
``ssd-profiler-data/``, so a crash leaves nothing it would not clean up) with O_DIRECT, writes
one aligned block, reads it back, asks the kernel whether that block now sits in the page cache
(mincore(2); direct I/O leaves nothing there), and removes the file. Refused or buffered while a trial asked for direct I/O: the run stops with one
line and the choice (``--set direct=false`` measures through the page cache, knowingly), never a
silently buffered run. A folder in memory (allowed with ``--allow-medium ram``) is not asked about
the cache: it is the cache. The mode in effect is kept in
run.json (``direct_io`` for the run, ``direct_in_effect`` per trial: True, False, or None where
it could not be told, e.g. on Windows and macOS, which have no O_DIRECT to ask about; their
engines ask for unbuffered I/O themselves).
"""
from __future__ import annotations

import errno
import mmap
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.paths.data_dir import FileSwapped
from app.paths.target import TargetRefused, shown

if TYPE_CHECKING:
    from app.experiments.base import Experiment
    from app.paths.owned import OwnedFolder

BLOCKS = (4096, 65536)                   # one aligned block; 64 KiB for large-sector devices
_REFUSED = {errno.EINVAL, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", errno.EOPNOTSUPP)}
CHOICE = ("set direct=false (`--set direct=false`) to measure through the page cache, knowing "
          "the numbers then include the OS's memory cache and not only the drive, or pick a "
          "folder on another file system")


class DirectIORefused(TargetRefused):
    """The file system cannot do the direct I/O a trial asked for (exit 2, one line)."""


def probe_direct_io(owner: OwnedFolder, experiments: Iterable[Experiment], fs_type: str | None,
                    sys_root: str = "/sys") -> dict[str, Any]:
    """run.json's ``direct_io``; raises DirectIORefused when a trial asks for direct I/O the
    file system refuses or silently buffers. ``owner`` is the run's OwnedFolder (locked)."""
    asked = sorted({e.id for e in experiments if getattr(e, "direct", False)})
    if not asked:
        return {"requested": False, "in_effect": False,
                "how": "direct=false: every trial measures through the OS page cache"}
    if not hasattr(os, "O_DIRECT"):
        return {"requested": True, "in_effect": None,
                "how": "not probed: this OS has no O_DIRECT; the engine asks for unbuffered I/O "
                       "itself (fio F_NOCACHE on macOS, FILE_FLAG_NO_BUFFERING on Windows)"}
    zfs = _zfs_buffers(fs_type, sys_root)
    if zfs:
        raise DirectIORefused(f"{shown(owner.target.folder)} is on {zfs}, so direct=true would silently "
                              f"measure its cache ({', '.join(asked)}); {CHOICE}")
    memory = bool(owner.target.medium and owner.target.medium.kind in ("ram", "zram"))
    refusal, how = _probe(owner, check_cache=not memory)
    fs = fs_type or "its file system"
    if refusal == "buffered":
        raise DirectIORefused(f"{shown(owner.target.folder)} is on a file system that accepts direct "
                              f"I/O but buffers it anyway ({fs}: {how}), so {', '.join(asked)} "
                              f"would measure the page cache; {CHOICE}")
    if refusal:
        raise DirectIORefused(f"{shown(owner.target.folder)} is on a file system that refuses direct "
                              f"I/O ({fs}: {refusal}), which {', '.join(asked)} asked for; {CHOICE}")
    if memory:
        how += "; the medium is memory, so there is no cache to bypass"
    return {"requested": True, "in_effect": True if how.startswith("bypasses") else None,
            "how": how}


def direct_in_effect(trial: Mapping[str, Any], direct_io: Mapping[str, Any] | None) -> bool | None:
    """True, False or None (unknown) for one trial record, from the run's probe."""
    if not isinstance(direct_io, dict):
        return None
    if not trial.get("direct", True):
        return False
    in_effect = direct_io.get("in_effect")
    return in_effect if isinstance(in_effect, bool) else None


def _probe(owner: OwnedFolder, check_cache: bool = True) -> tuple[str, str]:
    """('' | why it was refused | 'buffered', what was found). Other errors leave the mode
    unknown."""
    path = owner.new_test_file("direct-probe", max(BLOCKS))
    try:
        try:
            owner.verify(path)
            fd = owner.reopen(path, os.O_RDWR | os.O_DIRECT)  # the app's own inode, not a path
        except FileSwapped as exc:  # another program is at work in the folder: say so, stop
            raise TargetRefused(f"{exc}; the direct I/O check was stopped before the run and "
                                "nothing of yours was deleted; choose a folder no other "
                                "program changes") from None
        except OSError as exc:
            if exc.errno in _REFUSED:
                return f"opening a file with O_DIRECT failed: {exc.strerror}", ""
            return "", f"unknown: the O_DIRECT probe could not open its file ({exc.strerror})"
        try:
            refusal, how = _write_read(fd)
        finally:
            os.close(fd)
        if refusal or not check_cache or not how.startswith("accepted"):
            return refusal, how
        return _in_page_cache(owner, path, how)
    finally:
        owner.remove(path)


def _in_page_cache(owner: OwnedFolder, path: Path, how: str) -> tuple[str, str]:
    """Did the O_DIRECT write land in the page cache? mincore(2) on a mapping of the file says
    which of its pages are cached, without reading them (a buffered read would start
    readahead and fill the cache itself). Direct I/O leaves nothing cached; ext4 data=journal,
    ZFS before 2.3 and compressed btrfs files do leave the block there."""
    cached = _page_cached(owner, path)
    if isinstance(cached, str):
        return "", how + f" (whether it bypassed the page cache could not be checked: {cached})"
    if cached:
        return "buffered", "the block written with O_DIRECT was found in the page cache"
    return "", ("bypasses the page cache: " + how.removeprefix("accepted: ")
                + ", and the block was not left in the page cache")


def _page_cached(owner: OwnedFolder, path: Path) -> bool | str:
    """Whether the file's first page is in the page cache, or why that cannot be told."""
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype, libc.mmap.argtypes = ctypes.c_void_p, [
            ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
            ctypes.c_long]
        libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    except (OSError, AttributeError) as exc:
        return f"no mincore here ({exc})"
    size = mmap.PAGESIZE
    try:
        fd = owner.reopen(path, os.O_RDONLY)
    except (OSError, FileSwapped) as exc:
        return f"the probe file could not be opened again ({exc})"
    try:
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    finally:
        os.close(fd)
    if addr in (None, ctypes.c_void_p(-1).value):
        return f"mmap failed: {os.strerror(ctypes.get_errno())}"
    try:
        vec = (ctypes.c_ubyte * 1)()
        if libc.mincore(addr, size, vec) != 0:
            return f"mincore failed: {os.strerror(ctypes.get_errno())}"
        return bool(vec[0] & 1)
    finally:
        libc.munmap(addr, size)


def _write_read(fd: int) -> tuple[str, str]:
    last = None
    for size in BLOCKS:
        buf = mmap.mmap(-1, size)                      # page-aligned, as O_DIRECT needs
        try:
            buf.write(b"\xa5" * size)
            if os.pwrite(fd, buf, 0) == size and os.preadv(fd, [buf], 0) == size:
                return "", f"accepted: O_DIRECT probe wrote and read back {size // 1024} KiB"
        except OSError as exc:
            if exc.errno not in _REFUSED:
                return "", f"unknown: the O_DIRECT probe failed ({exc.strerror})"
            last = exc
        finally:
            buf.close()
    reason = os.strerror(last.errno) if last and last.errno is not None else "short transfer"
    return f"an aligned O_DIRECT write or read failed: {reason}", ""


def _zfs_buffers(fs_type: str | None, sys_root: str) -> str:
    """'ZFS 2.1.5, which before 2.3 accepts O_DIRECT but buffers it' when that is the case."""
    if fs_type != "zfs":
        return ""
    try:
        text = Path(sys_root, "module", "zfs", "version").read_text().strip()
    except OSError:
        return ""
    match = re.match(r"(\d+)\.(\d+)", text)
    if match and (int(match.group(1)), int(match.group(2))) < (2, 3):
        return f"ZFS {text}, which before 2.3 accepts O_DIRECT but buffers it anyway"
    return ""


def method_text(direct_io: Mapping[str, Any] | None) -> str | None:
    """One report line on the mode in effect, or None for runs made before the probe."""
    if not isinstance(direct_io, dict):
        return None
    state = {True: "yes", False: "no", None: "not known"}.get(direct_io.get("in_effect"), "not known")
    return f"Direct I/O in effect: {state} ({direct_io.get('how') or 'not recorded'})."
