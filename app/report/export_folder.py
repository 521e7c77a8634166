"""The export folder: written only when it is new, empty, or an earlier export of the same run.

Why ("nothing the app did not create is ever overwritten, exports included"): an
``--out`` folder, or the window's "Export to...", can name a folder full of the user's own
files, among them a ``report.md`` or ``figures/`` of their own. So the app marks the folders it
exports into with :data:`MARKER`, a small JSON file holding the run's identity (its folder
name and ``started_at``: :meth:`RunIdentity.same_run`), written before any other file, and it
writes into a folder only when

- it does not exist yet (it is created), or is an empty folder, or
- it holds the marker of the *same* run (a re-export replaces the files an export writes and
  leaves every other file alone).

A folder that is a symlink, a file, a non-empty folder without the marker, or the export of
another run is refused with one line that says what to change. Nothing is followed: every file
is written under a new unpredictable name created exclusively (``O_EXCL``, ``O_NOFOLLOW``) and
renamed over its final name, which replaces a directory entry and never writes through a link;
an existing entry at a final name that is not a regular file (a symlink planted at
``report.md``, a folder, a FIFO) is refused before anything is written.

This class is the one owner of an export's writes, and names come from shared files (a run.json
from a lab partner names its experiments): a name is at most ``folder/file``, each part one
plain entry (:mod:`app.paths.held_dir`: no separator, no ``..``), or it is refused before anything is
written; ids that are not plain names become a slug (:func:`safe_stem`). Once claimed, the
folder, its ``tables/`` and ``figures/`` and the renderer's staging folder are held open and
every write is made relative to them (POSIX), so a folder swapped for a link after the checks
cannot redirect a write either.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any

from app.paths.held_dir import HeldDir, UnsafeName, check_plain
from app.report.export_marker import RunIdentity

MARKER = ".ssd-profiler-export.json"
MARKER_FORMAT = 1
_CHOOSE = "export into a new or empty folder instead"
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}\Z")


class ExportRefused(ValueError):
    """The export would write where it must not; the message is one line, fit for a user."""


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _what(mode: int) -> str:
    return ("a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a file" if stat.S_ISREG(mode) else "a special file")


def _read_marker(path: Path) -> dict[str, Any] | None:
    """The marker's content, or None when it is not a small regular JSON object."""
    info = _lstat(path)
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size > 64 * 1024:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            data = json.loads(handle.read(64 * 1024 + 1))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


class ExportFolder:
    """Checks on creation (raises ExportRefused, writes nothing); :meth:`claim` creates the
    folder and writes the marker; :meth:`write` and :meth:`staging` place files in it."""

    def __init__(self, out_dir: str | os.PathLike[str], identity: RunIdentity) -> None:
        self.dir = Path(out_dir)
        self.identity = identity
        self._held: HeldDir | None = None
        self._subs: dict[str, HeldDir] = {}
        try:
            info = _lstat(self.dir)
        except NotADirectoryError:
            raise ExportRefused(f"{self.dir}: a part of this path is a file, not a folder; "
                                f"{_CHOOSE}") from None
        self.exists = info is not None
        if info is None:
            return
        if not stat.S_ISDIR(info.st_mode):
            raise ExportRefused(f"{self.dir} is {_what(info.st_mode)}, not a folder; {_CHOOSE}")
        entries = os.listdir(self.dir)
        if not entries:
            return
        if MARKER not in entries and self._legacy_default(entries):
            return
        if MARKER not in entries:
            raise ExportRefused(f"{self.dir} is not empty and is not an export of this run; "
                                f"{_CHOOSE}")
        marker = _read_marker(self.dir / MARKER)
        if marker is None or marker.get("format") != MARKER_FORMAT:
            raise ExportRefused(f"{self.dir / MARKER} is damaged, so {self.dir} cannot be "
                                f"proven an export of this run; {_CHOOSE}")
        theirs = RunIdentity.from_marker(marker)
        if not theirs.same_run(identity):
            started = f", started {theirs.started_at}" if theirs.started_at else ""
            raise ExportRefused(f"{self.dir} holds the export of another run "
                                f"({theirs.run_folder}{started}); {_CHOOSE}")

    def _legacy_default(self, entries: list[str]) -> bool:
        """``<run folder>/export`` written by a version before the marker: the app's own folder
        inside the run folder, holding nothing but what an export writes."""
        here = self.dir.resolve()
        return (here.name == "export" and here.parent.name == self.identity.run_folder
                and (here.parent / "run.json").is_file()
                and set(entries) <= {"report.md", "tables", "figures"})

    def check_names(self, names: list[str]) -> None:
        """Refuse a name that is not ``file`` or ``folder/file`` of plain parts, and a file the
        export writes (``tables/x.csv``) that sits on a non-file entry, or whose folder is not a
        real folder: a link planted there is never followed or removed."""
        for name in names:
            _parts(name)
        if not self.exists:
            return
        for name in [MARKER, *names]:
            path = self.dir
            for part in Path(name).parts:
                path = path / part
                info = _lstat(path)
                wanted_dir = path != self.dir / name
                if info is None:
                    break
                if (stat.S_ISDIR(info.st_mode) if wanted_dir else stat.S_ISREG(info.st_mode)):
                    continue
                raise ExportRefused(f"{path} is {_what(info.st_mode)} that the export did not "
                                    f"write; remove it or {_CHOOSE}")

    def claim(self) -> None:
        """Create the folder (and its parents), hold it open and write the marker, before any
        other file."""
        self.dir.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(self.dir)
        except FileExistsError:
            info = os.lstat(self.dir)  # appeared since the check: judge it again
            if not stat.S_ISDIR(info.st_mode):
                raise ExportRefused(f"{self.dir} is {_what(info.st_mode)}, not a folder; "
                                    f"{_CHOOSE}") from None
        try:
            self._held = HeldDir.open(self.dir)
        except OSError as exc:
            raise ExportRefused(f"{self.dir} cannot be opened as a plain folder ({exc.strerror}); "
                                f"{_CHOOSE}") from None
        marker = {"format": MARKER_FORMAT, "app": "ssd-profiler", **self.identity.to_json()}
        self.write(MARKER, (json.dumps(marker, indent=2) + "\n").encode("utf-8"))

    def close(self) -> None:
        """Let go of the held folders (idempotent); the export is complete or abandoned."""
        for held in [*self._subs.values(), self._held]:
            if held is not None:
                held.close()
        self._subs, self._held = {}, None

    def destination(self, name: str) -> tuple[HeldDir, str]:
        """The held folder of ``name`` (created) and its file name there; refused when the
        name is not plain or a non-file is there."""
        parts = _parts(name)
        if self._held is None:
            raise ExportRefused(f"{self.dir} was not claimed before writing {name}")
        folder = self._held
        if len(parts) == 2:
            if parts[0] not in self._subs:
                try:
                    self._subs[parts[0]] = self._held.sub(parts[0])
                except OSError:
                    raise ExportRefused(f"{self.dir / parts[0]} is not a real folder; "
                                        f"{_CHOOSE}") from None
            folder = self._subs[parts[0]]
        info = folder.lstat(parts[-1])
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise ExportRefused(f"{self.dir / name} is {_what(info.st_mode)} that the export did "
                                f"not write; remove it or {_CHOOSE}")
        return folder, parts[-1]

    def write(self, name: str, data: bytes) -> Path:
        """``data`` as ``name`` (``report.md``, ``tables/x.csv``), never through a link, never
        outside the folder."""
        folder, base = self.destination(name)
        folder.replace_file(base, data)
        return self.dir / name

    def read(self, name: str) -> bytes | None:
        """A file the export wrote (``figures/x.png``), read back through the held folders (the
        HTML and PDF embed the figures); None when it is not a regular file there."""
        try:
            folder, base = self.destination(name)
            return folder.read(base)
        except (OSError, ExportRefused):
            return None

    def staging(self) -> Staging:
        """A private temp folder inside the export for files a renderer writes by path."""
        return Staging(self)


def _parts(name: str) -> tuple[str, ...]:
    """``name`` split into one or two plain parts, else ExportRefused."""
    parts = tuple(str(name).split("/"))
    try:
        if not 1 <= len(parts) <= 2:
            raise UnsafeName(name)
        for part in parts:
            check_plain(part)
    except UnsafeName:
        raise ExportRefused(f"{name!r} is not a file name an export writes (it would leave "
                            "the export folder); nothing was written") from None
    return parts


def safe_stem(identifier: object) -> str:
    """A file name stem for an id from a run (an experiment, a table, a figure): the id itself
    when it is a plain name of letters, digits and ``._+-``; otherwise a slug of it and 8 hex
    digits of its hash, so two ids never share a file and ``../../x`` stays inside."""
    text = str(identifier)
    if _PLAIN_ID.match(text):
        return text
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "item"
    return f"{slug}-{hashlib.sha256(text.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"


class Staging:
    """``with folder.staging() as s: render(s.path("x.png")); s.place("x.png", "figures/x.png")``;
    the temp folder (mode 0700, a new name, held open) and anything left in it go away on exit."""

    def __init__(self, folder: ExportFolder):
        if folder._held is None:
            raise ExportRefused(f"{folder.dir} was not claimed before drawing figures")
        self.folder = folder
        self.name = f".ssd-profiler-staging-{secrets.token_hex(6)}"
        self.held = folder._held.sub(self.name, mode=0o700)  # a new random name
        self.dir = folder.dir / self.name

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            for name in self.held.names():
                try:
                    self.held.unlink(name)
                except OSError:
                    pass
            if self.folder._held is not None:
                self.folder._held.rmdir(self.name)
        except OSError:
            pass
        finally:
            self.held.close()

    def path(self, name: str) -> Path:
        """Where a renderer writes ``name``: in this very folder, even if a path is swapped."""
        return self.held.path_for(name)

    def place(self, staged: str, name: str) -> None:
        folder, base = self.folder.destination(name)
        self.held.rename_to(staged, folder, base)
