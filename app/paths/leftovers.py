"""Test files left by a crashed run: shown to the user, removed only under the folder's lock.

Listing writes nothing and follows no link; removal goes through :class:`OwnedFolder`, which
takes the data folder's lock first, so a file that a live run is using is never deleted.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from app.paths.lock import read_owner, try_lock
from app.paths.owned import LOCK_NAME, OwnedFolder, is_test_file_name, new_run_id
from app.paths.target import DATA_DIR, CheckedTarget

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def folder_in_use(folder: str | os.PathLike[str]) -> str | None:
    """Who holds ``<folder>/ssd-profiler-data`` now ("<run id> pid N"), or None."""
    lock = Path(folder) / DATA_DIR / LOCK_NAME
    try:
        fd = os.open(lock, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        return None if try_lock(fd) else read_owner(fd)  # closing the fd releases a probe lock
    finally:
        os.close(fd)


def leftover_test_files(folder: str | os.PathLike[str]) -> list[Path]:
    """Test files named like ours in a plain (not linked) data folder that no live run holds."""
    data_dir = Path(os.path.expanduser(os.fspath(folder))) / DATA_DIR
    if not os.fspath(folder).strip() or data_dir.is_symlink() or not data_dir.is_dir():
        return []
    if folder_in_use(data_dir.parent):
        return []
    out = []
    for name in sorted(os.listdir(data_dir)):
        path = data_dir / name
        if is_test_file_name(name) and stat.S_ISREG(os.stat(path, follow_symlinks=False).st_mode):
            out.append(path)
    return out


def remove_leftovers(target: CheckedTarget) -> list[tuple[Path, int]]:
    """Take the folder's lock (refused while a run holds it), remove leftovers, release."""
    owner = OwnedFolder(target, new_run_id())
    owner.acquire()
    try:
        return owner.remove_leftovers()
    finally:
        owner.release()
