"""The engine's private working folder (its cwd, its stop triggers), and those killed runs left.

Why: a run ends by removing its folder, but a run killed with ``kill -9`` (or a power cut)
cannot, and each such run left an ``ssd-profiler-engine-*`` folder in the temp folder (fio's
state files, a stop trigger) that nothing named or removed. A run holds a lock on a file in its
folder for as long as it lives (the OS releases it with the process, as for the target's lock:
app/paths/lock.py); a new run removes the folders whose lock it can take. A folder without a
lock file (an earlier version's) or only seconds old (its run may be about to lock it) is left.
"""
from __future__ import annotations

import logging
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

from app.paths.lock import try_lock

log = logging.getLogger(__name__)

PREFIX = "ssd-profiler-engine-"
LOCK = "run.lock"
YOUNG_S = 60.0   # a folder this new may belong to a run between making it and locking it
_OPEN = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def make_workdir() -> tuple[Path, int]:
    """A new private folder (0700) and the descriptor holding its lock (close it at the end)."""
    folder = Path(tempfile.mkdtemp(prefix=PREFIX))
    fd = os.open(folder / LOCK, _OPEN | os.O_CREAT | os.O_EXCL, 0o600)
    try_lock(fd)
    return folder, fd


def remove_workdir(folder: Path, fd: int) -> list[str]:
    """Remove a run's own folder at its end; a line saying so when it cannot be removed."""
    os.close(fd)   # before the folder goes: Windows keeps a folder with an open file
    shutil.rmtree(folder, ignore_errors=True)
    if folder.exists():
        return [f"the engine's private folder {folder} could not be removed; delete it by hand"]
    return []


def _mine(info: os.stat_result) -> bool:
    """Only this user's folders: in a shared temp folder another user's look-alike (made to be
    writable, holding links) is theirs to remove, never ours (Windows: the temp folder is
    per user)."""
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


def remove_dead_workdirs(root: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove the private folders of runs that are gone (their lock is free); those removed."""
    removed = []
    for folder in Path(root or tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            info = folder.lstat()
            if not stat.S_ISDIR(info.st_mode) or not _mine(info) \
                    or time.time() - info.st_mtime < YOUNG_S:
                continue
            fd = os.open(folder / LOCK, _OPEN)
        except OSError:
            continue   # no lock file, not ours, gone meanwhile
        try:
            free = try_lock(fd)
        finally:
            os.close(fd)
        if free:
            shutil.rmtree(folder, ignore_errors=True)
            if not folder.exists():
                log.info("removed %s, left by a run that was killed", folder)
                removed.append(folder)
    return removed
