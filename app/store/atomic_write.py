"""The one way the app replaces a file: whole or not at all, and still there after a power cut.

The new bytes go to a fresh, unpredictable name beside the file (created exclusively, never
through a link), are fsynced, renamed over the file, and the folder is fsynced so the rename
itself is durable (POSIX; Windows has no folder fsync and its rename is already journalled by
NTFS). On any failure the temp file is removed: no half-written file and no ``.tmp`` is left.
Used for run.json, export files and the user's vendor specs.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

NEW_FILE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            | getattr(os, "O_BINARY", 0))


def write_atomic(dest: Path, data: bytes) -> None:
    dest = Path(dest)
    tmp = dest.with_name(f".{dest.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, NEW_FILE, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_folder(dest.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new name in ``folder`` durable; a no-op where folders cannot be opened."""
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems (a FUSE mount) refuse: the file itself is already synced
    finally:
        os.close(fd)
