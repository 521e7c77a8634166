"""A folder held open, every name looked up in it: what an export writes cannot land elsewhere.

Why: a path is looked up again at every use, so a folder renamed, or a part of its path swapped
for a link, between a check and a write redirects the write, and a name taken from a shared
file (``../../thesis``) walks out of the folder. Here the folder is opened once without
following a link (``O_NOFOLLOW | O_DIRECTORY``), and every later create, rename, stat and
unlink is made relative to that open folder (``*at`` system calls through ``dir_fd``) with a
single plain name: no separator, no ``.`` or ``..``, no link followed at the last step. A
name that is not plain is refused (:class:`UnsafeName`, a ValueError) before any system call.

Where the OS has no ``dir_fd`` (Windows) the same calls go by path, after the same name
check; the folder is then judged by ``lstat`` before each write, not held.
"""
from __future__ import annotations

import os
import re
import secrets
import stat
import sys
from pathlib import Path

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
DIRECTORY = getattr(os, "O_DIRECTORY", 0)
HELD = ({os.open, os.stat, os.unlink, os.mkdir, os.rename, os.rmdir} <= os.supports_dir_fd
        and os.listdir in os.supports_fd and os.name == "posix")
#: ``/proc/self/fd/N/name`` reaches a name inside the held folder N for a program (Qt, a PNG
#: writer) that only takes a path; Linux only (macOS's /dev/fd does not lead into folders).
PROC_FD = Path("/proc/self/fd")
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC | getattr(os, "O_BINARY", 0)
_SEPARATORS = re.compile(r"[/\\\x00]")


class UnsafeName(ValueError):
    """A name that is not one plain entry of the folder."""


def check_plain(name: str) -> str:
    """``name`` if it names one entry of a folder (no separator, not ``.``/``..``, not empty)."""
    if not isinstance(name, str) or not name or name in (".", "..") or _SEPARATORS.search(name) \
            or (os.altsep and os.altsep in name) or len(name.encode("utf-8", "surrogateescape")) > 255:
        raise UnsafeName(f"{name!r} is not a plain file name")
    return name


class HeldDir:
    """One folder, opened once; :meth:`sub` opens (creating) a folder inside it the same way."""

    def __init__(self, path: Path, fd: int | None):
        self.path, self.fd = Path(path), fd

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> HeldDir:
        """The folder at ``path`` (its last component must not be a link). OSError otherwise:
        ELOOP/ENOTDIR for a link or a file."""
        path = Path(path)
        if not HELD:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                raise NotADirectoryError(20, "not a plain folder", str(path))
            return cls(path, None)
        fd = os.open(path, os.O_RDONLY | DIRECTORY | NOFOLLOW | CLOEXEC)
        return cls(path, fd)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> HeldDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _at(self, name: str) -> tuple[str, dict[str, int]]:
        check_plain(name)
        return (name, {"dir_fd": self.fd}) if self.fd is not None else (str(self.path / name), {})

    def lstat(self, name: str) -> os.stat_result | None:
        where, kw = self._at(name)
        try:
            return os.stat(where, follow_symlinks=False, **kw)
        except FileNotFoundError:
            return None

    def names(self) -> list[str]:
        return os.listdir(self.fd if self.fd is not None else self.path)

    def sub(self, name: str, create: bool = True, mode: int = 0o777) -> HeldDir:
        """The folder ``name`` inside this one, created when missing; OSError (ELOOP, ENOTDIR)
        when the entry is a link or not a folder."""
        where, kw = self._at(name)
        if create:
            try:
                os.mkdir(where, mode, **kw)
            except FileExistsError:
                pass
        if self.fd is None:
            return HeldDir.open(where)
        fd = os.open(where, os.O_RDONLY | DIRECTORY | NOFOLLOW | CLOEXEC, **kw)
        return HeldDir(self.path / name, fd)

    def path_for(self, name: str) -> Path:
        """A path that reaches ``name`` in this very folder (``/proc/self/fd/N/name`` on Linux),
        for a writer that takes only a path; the plain path elsewhere."""
        check_plain(name)
        if self.fd is not None and sys.platform.startswith("linux") and PROC_FD.is_dir():
            return PROC_FD / str(self.fd) / name
        return self.path / name

    def create(self, name: str, mode: int = 0o666) -> int:
        """A new file ``name`` (exclusive, no link followed): its descriptor, opened for writing."""
        where, kw = self._at(name)
        return os.open(where, NEW_FILE, mode, **kw)

    def read(self, name: str) -> bytes:
        """The bytes of the regular file ``name`` here (no link followed; OSError otherwise)."""
        where, kw = self._at(name)
        fd = os.open(where, os.O_RDONLY | NOFOLLOW | CLOEXEC, **kw)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise OSError(f"{name} is not a regular file")
            return handle.read()

    def unlink(self, name: str) -> None:
        where, kw = self._at(name)
        os.unlink(where, **kw)

    def rmdir(self, name: str) -> None:
        where, kw = self._at(name)
        os.rmdir(where, **kw)

    def rename_to(self, name: str, other: HeldDir, new_name: str) -> None:
        """Rename ``name`` here to ``new_name`` in ``other`` (replacing a file there)."""
        src, skw = self._at(name)
        dst, dkw = other._at(new_name)
        if self.fd is not None:
            os.replace(src, dst, src_dir_fd=self.fd, dst_dir_fd=other.fd)
        else:
            os.replace(src, dst)

    def replace_file(self, name: str, data: bytes) -> None:
        """``data`` as ``name``, whole or not at all: a new unpredictable name, written,
        fsynced, renamed over ``name`` (a directory entry is replaced, never written through),
        and the folder fsynced; the temp file is removed on any failure."""
        tmp = f".{name}.{secrets.token_hex(6)}.tmp"
        fd = self.create(tmp)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            self.rename_to(tmp, self, name)
        except BaseException:
            try:
                self.unlink(tmp)
            except OSError:
                pass
            raise
        self.sync()

    def sync(self) -> None:
        if self.fd is None:
            return
        try:
            os.fsync(self.fd)
        except OSError:
            pass  # some file systems (a FUSE mount) refuse: the file itself is synced
