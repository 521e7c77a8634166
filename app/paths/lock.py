"""The data folder's advisory lock: one run per folder, and who holds it.

flock on POSIX, msvcrt on Windows; both go with the descriptor, so a crashed run's lock is
released by the OS and the next run may take it.
"""
from __future__ import annotations

import os
import sys


def try_lock(fd: int) -> bool:
    try:
        if sys.platform.startswith("win"):
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def read_owner(fd: int) -> str:
    """Who holds the lock, as written into the lock file (lseek + read: Windows has no pread)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 200).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "another run"
