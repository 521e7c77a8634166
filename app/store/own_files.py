"""The files the app writes in a run folder, opened so that no one else's file is ever written.

Why: a runs folder may be shared (a lab group's folder given as ``--out``, umask 002). Another
member could plant, under a name the app was about to write (``trials-since-save.jsonl``,
``commands.log``), a link to a file of the user's, and ``open(path, "a")`` followed it: the
run appended its trial records to the user's file and then emptied it. So every file of a run
folder is

- created exclusively and never through a link (``O_CREAT | O_EXCL | O_NOFOLLOW``) when the
  app makes it (:func:`create`), and
- opened without following a link when it is appended to or emptied (:func:`open_own`), then
  checked on the open descriptor: a regular file of this user with one name (a hard link to
  another of the user's files has two), else :class:`NotOwnFile` and nothing is written.

The run folder itself is made not writable by others (``RunStore.create``), so in a shared
runs folder nobody else can plant anything in it to begin with; these checks are what still
holds when the folder was made some other way (an older version, ``import --save``).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TextIO

_BASE = (os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
         | getattr(os, "O_BINARY", 0))
#: ``O_NONBLOCK`` only while opening: a FIFO planted under the name must not hang the run.
_OPEN = _BASE | getattr(os, "O_NONBLOCK", 0)
MODE = 0o644   # the run's files: readable by the group, written by the user alone


class NotOwnFile(OSError):
    """A name in the run folder is not the run's own regular file (a link, a FIFO, another
    user's file, a file with a second name); one line naming it. An OSError, so the runner
    ends the run as it does on a full disk, with this line as the reason."""


def create(path: Path, mode: int = MODE) -> int:
    """A new file at ``path`` for writing, its descriptor; FileExistsError when anything is
    there already (a link included: it is never followed)."""
    return os.open(path, _BASE | os.O_CREAT | os.O_EXCL, mode)


def open_own(path: Path, append: bool = True, make: bool = True) -> int:
    """A descriptor for writing the run's own file at ``path`` (appending with ``append``),
    made exclusively when it is not there and ``make``; NotOwnFile when the name is a link or
    anything but this user's regular file with a single name."""
    flags = _OPEN | (os.O_APPEND if append else 0)
    for _ in range(3):   # made or removed by someone else in between: look again
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            if not make:
                raise
            try:
                return create(path)
            except FileExistsError:
                continue
        except OSError as exc:   # ELOOP: a link; ENXIO: a FIFO without a reader
            raise NotOwnFile(f"{path} is not the run's own file ({exc.strerror or exc}): "
                             "a link or a special file was put there; not written") from None
        try:
            check(fd, path)
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd
    raise NotOwnFile(f"{path} keeps changing while the app opens it; not written")


def check(fd: int, path: Path) -> None:
    """NotOwnFile unless ``fd`` is a regular file of this user with one name."""
    info = os.fstat(fd)
    why = None
    if not stat.S_ISREG(info.st_mode):
        why = "it is not a regular file"
    elif info.st_nlink != 1:
        why = f"it has {info.st_nlink} names (a hard link to another file)"
    elif hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        why = f"it belongs to another user (uid {info.st_uid})"
    if why:
        raise NotOwnFile(f"{path} is not the run's own file: {why}; not written")


def text_file(path: Path, new: bool = False, newline: str | None = None) -> TextIO:
    """A UTF-8 text handle on the run's own file at ``path``: a file made now with ``new``
    (FileExistsError when anything is there), else appended to (made when missing)."""
    fd = create(path) if new else open_own(path)
    return os.fdopen(fd, "w" if new else "a", encoding="utf-8", newline=newline)


def append_text(path: Path, text: str) -> None:
    """Append ``text`` to the run's own file at ``path``, made when missing."""
    with text_file(path) as handle:
        handle.write(text)


def empty(path: Path) -> None:
    """Empty the run's own file at ``path`` when it is there (never through a link)."""
    try:
        fd = open_own(path, append=False, make=False)
    except FileNotFoundError:
        return
    try:
        os.ftruncate(fd, 0)
    finally:
        os.close(fd)
