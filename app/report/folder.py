"""The export folder: written only when it is new, empty, or an earlier export of the same run.

Why ("nothing the app did not create is ever overwritten, exports included"): an
``--out`` folder, or the window's "Export to...", can name a folder full of the user's own
files, among them a ``report.md`` or ``figures/`` of their own. So the app marks the folders it
exports into with :data:`MARKER`, a small JSON file holding the run's identity (its folder
name and ``started_at``: :func:`same_run`), written before any other file, and it writes into a
folder only when

- it does not exist yet (it is created), or is an empty folder, or
- it holds the marker of the *same* run (a re-export replaces the files an export writes and
  leaves every other file alone).

A folder that is a symlink, a file, a non-empty folder without the marker, or the export of
another run is refused with one line that says what to change. Nothing is followed: every file
is written under a new unpredictable name created exclusively (``O_EXCL``, ``O_NOFOLLOW``) and
renamed over its final name, which replaces a directory entry and never writes through a link;
an existing entry at a final name that is not a regular file (a symlink planted at
``report.md``, a folder, a FIFO) is refused before anything is written. The checks are made
on paths (portable); a local attacker who swaps ``tables/`` for a link *between* the check and
the rename is outside what this guards against.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.store.atomic_write import write_atomic

MARKER = ".ssd-profiler-export.json"
MARKER_FORMAT = 1
_CHOOSE = "export into a new or empty folder instead"


class ExportRefused(ValueError):
    """The export would write where it must not; the message is one line, fit for a user."""


def run_identity(started_at: str | None, run_dir: str | os.PathLike[str] | None) -> dict[str, Any]:
    """What the marker stores: the run folder's name and the run's start time."""
    name = Path(run_dir).resolve().name if run_dir else None
    return {"run_folder": name, "started_at": started_at}


def same_run(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The start time (milliseconds, UTC) identifies a run, so a renamed or copied run folder
    still owns its export; a run made by ``import`` has none, and then the folder name counts."""
    if a.get("started_at") or b.get("started_at"):
        return a.get("started_at") == b.get("started_at")
    return a.get("run_folder") == b.get("run_folder")


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

    def __init__(self, out_dir: str | os.PathLike[str], identity: Mapping[str, Any]) -> None:
        self.dir = Path(out_dir)
        self.identity = identity
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
        theirs = {k: marker.get(k) for k in identity}
        if not same_run(theirs, identity):
            started = f", started {theirs['started_at']}" if theirs.get("started_at") else ""
            raise ExportRefused(f"{self.dir} holds the export of another run "
                                f"({theirs.get('run_folder')}{started}); {_CHOOSE}")

    def _legacy_default(self, entries: list[str]) -> bool:
        """``<run folder>/export`` written by a version before the marker: the app's own folder
        inside the run folder, holding nothing but what an export writes."""
        here = self.dir.resolve()
        return (here.name == "export" and here.parent.name == self.identity.get("run_folder")
                and (here.parent / "run.json").is_file()
                and set(entries) <= {"report.md", "tables", "figures"})

    def check_names(self, names: list[str]) -> None:
        """Refuse when a file the export writes (``tables/x.csv``) sits on a non-file entry, or
        its folder is not a real folder: a link planted there is never followed or removed."""
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
        """Create the folder (and its parents) and write the marker, before any other file."""
        self.dir.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(self.dir)
        except FileExistsError:
            info = os.lstat(self.dir)  # appeared since the check: judge it again
            if not stat.S_ISDIR(info.st_mode):
                raise ExportRefused(f"{self.dir} is {_what(info.st_mode)}, not a folder; "
                                    f"{_CHOOSE}") from None
        marker = {"format": MARKER_FORMAT, "app": "ssd-profiler", **self.identity}
        self.write(MARKER, (json.dumps(marker, indent=2) + "\n").encode("utf-8"))

    def destination(self, name: str) -> Path:
        """The final path of ``name``, its folder created; refused when a non-file is there."""
        folder = (self.dir / name).parent
        if folder != self.dir:
            try:
                os.mkdir(folder)
            except FileExistsError:
                pass
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                raise ExportRefused(f"{folder} is not a real folder; {_CHOOSE}")
        dest = folder / Path(name).name
        info = _lstat(dest)
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise ExportRefused(f"{dest} is {_what(info.st_mode)} that the export did not "
                                f"write; remove it or {_CHOOSE}")
        return dest

    def write(self, name: str, data: bytes) -> Path:
        """``data`` as ``name`` (``report.md``, ``tables/x.csv``), never through a link."""
        dest = self.destination(name)
        write_atomic(dest, data)
        return dest

    def staging(self) -> Staging:
        """A private temp folder inside the export for files a renderer writes by path."""
        return Staging(self)


class Staging:
    """``with folder.staging() as s: render(s.path("x.png")); s.place("x.png", "figures/x.png")``;
    the temp folder (mode 0700, a new name) and anything left in it go away on exit."""

    def __init__(self, folder: ExportFolder):
        self.folder = folder
        self.dir = Path(tempfile.mkdtemp(prefix=".ssd-profiler-staging-", dir=folder.dir))

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name: str) -> Path:
        return self.dir / name

    def place(self, staged: str, name: str) -> None:
        os.replace(self.dir / staged, self.folder.destination(name))
