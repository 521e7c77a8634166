"""samples.csv of a run folder, opened without trusting it: the one opener every reader uses.

Why: a run folder from someone else can hold anything at that name. A FIFO blocks ``open()``
forever (the window could then only be killed), a link to /dev/zero or a multi-GiB file grows
memory until the system gives out, and a header of five million columns takes minutes and
gigabytes to parse. So samples.csv must be a regular file in the folder itself (not a link,
which could lead anywhere), it is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked again on
the open descriptor, reading stops with a refusal past :data:`MAX_SAMPLES_BYTES` (a file that
grows while read included), and a header of more than :data:`MAX_COLUMNS` names is refused
before a row is read. A refusal is :class:`SamplesRefused`, a ValueError with one line that
names the file: the export goes on without the live figures, ``load_runs`` and ``compare``
refuse the folder, the window says why it cannot chart the run.

The cap: the app writes about 110 bytes a row; 256 MiB is some 2.4 million samples, 67 hours at
the shortest interval (0.1 s), far more than any chart shows usefully.
"""
from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from app.store.input_files import file_kind
from app.units import MiB

if TYPE_CHECKING:  # typeshed's name for what io's readinto is given
    from _typeshed import WriteableBuffer

NAME = "samples.csv"
MAX_SAMPLES_BYTES = 256 * MiB
MAX_COLUMNS = 64            # the app writes 15
MAX_HEADER_CHARS = 4096
_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class SamplesRefused(ValueError):
    """samples.csv is not something the app reads; the message is one line naming the file."""


def _kind(mode: int) -> str | None:
    """Why samples.csv of this mode is refused (a link here, unlike a file the user names:
    it could lead anywhere), or None for a regular file."""
    if stat.S_ISLNK(mode):
        return "is a link (it could lead anywhere); the app reads only its own regular file"
    return file_kind(mode)


class _Capped(io.RawIOBase):
    """The descriptor's bytes, refused once more than ``limit`` have been read."""

    def __init__(self, fd: int, limit: int, path: Path):
        self.fd, self.limit, self.path, self.total = fd, limit, path, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")  # any writable buffer, counted in bytes
        data = os.read(self.fd, min(len(view), 1 << 20))
        self.total += len(data)
        if self.total > self.limit:
            raise SamplesRefused(f"{self.path} grew past {self.limit // MiB} MiB while being read; "
                                 "not read")
        view[:len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def open_samples(run_dir: str | os.PathLike[str],
                 limit: int = MAX_SAMPLES_BYTES) -> tuple[list[str], io.TextIOBase] | None:
    """(the header's column names, a text handle at the first row) of ``run_dir``'s
    samples.csv, None when there is none; SamplesRefused (one line) for anything else than a
    regular file of at most ``limit`` bytes with a sane header. The caller closes the handle."""
    path = Path(run_dir) / NAME
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SamplesRefused(f"{path} cannot be read ({exc.strerror})") from None
    why = _kind(info.st_mode) or (f"is {info.st_size / MiB:.0f} MiB, over the "
                                  f"{limit // MiB} MiB a run's samples take; not read"
                                  if info.st_size > limit else None)
    if why:
        raise SamplesRefused(f"{path} {why}")
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise SamplesRefused(f"{path} cannot be opened as a plain file ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        why = _kind(info.st_mode)
        if why:
            raise SamplesRefused(f"{path} {why} (it changed while being opened)")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        raw = _Capped(fd, limit, path)
    except BaseException:
        os.close(fd)
        raise
    handle = io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8", newline="")
    try:
        header = handle.readline(MAX_HEADER_CHARS)
        if len(header) >= MAX_HEADER_CHARS and not header.endswith("\n"):
            raise SamplesRefused(f"{path} has a header line longer than {MAX_HEADER_CHARS} "
                                 "characters; it is not the app's samples file")
        names = header.strip().split(",") if header.strip() else []
        if len(names) > MAX_COLUMNS:
            raise SamplesRefused(f"{path} has {len(names)} columns, more than the "
                                 f"{MAX_COLUMNS} a samples file has; not read")
    except BaseException:
        handle.close()
        raise
    return names, handle


def read_samples_text(run_dir: str | os.PathLike[str]) -> tuple[list[str], str] | None:
    """(column names, the rows as text) of samples.csv, read whole through :func:`open_samples`."""
    opened = open_samples(run_dir)
    if opened is None:
        return None
    names, handle = opened
    with handle:
        return names, handle.read()
