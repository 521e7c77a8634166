"""Can run folders be made in the runs root? Asked before anything of a run is written.

Why a check of its own: RunStore.create makes the runs root (with its parents) and then the run
folder, after the target is locked and the drive described. When that fails (a read-only home,
``--out`` naming a file or a read-only folder) the user got a traceback instead of a sentence, and
only after work had begun. ``prepare_run`` calls :func:`check_runs_root` first, so a runs root
that cannot work is refused like a bad parameter: one line that says what to change.

Why a probe as well as ``os.access``: access() answers from permission bits, which root, ACLs,
special file systems (/sys) and Windows folders do not follow. The probe is an empty folder with
an unpredictable name, made and removed at once in the nearest folder that exists, so the tree
is the same afterwards; the runs root itself is not created here.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from app.params import one_line
from app.paths import TargetRefused
from app.paths.target import NOT_TEXT, not_text
from app.store.run_folder import default_runs_root

ADVICE = "choose a writable folder for runs (--out DIR, or the Runs tab in the window)"


class RunsRootRefused(TargetRefused):
    """The folder for run folders cannot be used. A TargetRefused, so the command line exits 2
    and the window shows it as a refusal, like any other place the user pointed at."""

    def __init__(self, message: str):
        super().__init__(one_line(message, 400))


def check_runs_root(runs_root: str | os.PathLike[str] | None) -> Path:
    """The absolute runs root (``None``: the per-user default) once run folders can be made in
    it; raises RunsRootRefused, naming the folder and what to change, otherwise."""
    default = runs_root is None
    advice = ADVICE + ("; or set XDG_DATA_HOME to a writable folder"
                       if default and os.name == "posix" else "")
    try:
        chosen = default_runs_root() if runs_root is None else runs_root
        root = Path(os.path.abspath(os.fspath(chosen)))
    except (ValueError, TypeError, OSError) as exc:
        raise RunsRootRefused(f"the runs folder {runs_root!r} is not a usable path ({exc}); "
                              f"{advice}") from None
    where = f"the {'default ' if default else ''}runs folder {_shown(root)}"
    if not_text(root):
        raise RunsRootRefused(f"{where} {NOT_TEXT}")
    existing, info = _nearest_existing(root, where, advice)
    limit = _path_max(existing)
    if len(os.fsencode(root)) + RUN_PATHS > limit:
        raise RunsRootRefused(f"{where} is {len(os.fsencode(root))} bytes long: the files of a run "
                              f"folder inside it would pass the system's limit of {limit} bytes "
                              "for a path; choose a shorter folder for runs (--out DIR)")
    if not stat.S_ISDIR(info.st_mode):
        part = "is a file" if existing == root else f"cannot be made: {_shown(existing)} is a file"
        raise RunsRootRefused(f"{where} {part}, not a folder; {advice}")
    problem = _cannot_write(existing)
    if problem:
        raise RunsRootRefused(f"cannot create {where}: {problem}; {advice}")
    return root


#: What a run adds below the runs root: its folder (at most 120 characters and a "-N"), raw/,
#: and the longest file name it writes there (a trial's engine output, ~100 characters).
RUN_PATHS = 320


def _path_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_PATH_MAX"))
    except (AttributeError, ValueError, OSError):
        return 260 if os.name == "nt" else 4096


def _shown(path: Path) -> str:
    """A path for a one-line message: escaped, and shortened in the middle when very long."""
    text = one_line(str(path), 10_000)
    return text if len(text) <= 120 else f"{text[:60]}...{text[-50:]}"


def _nearest_existing(root: Path, where: str, advice: str) -> tuple[Path, os.stat_result]:
    for candidate in (root, *root.parents):
        try:
            return candidate, candidate.stat()
        except (FileNotFoundError, NotADirectoryError):
            continue
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RunsRootRefused(f"cannot use {where}: {reason}; {advice}") from None
    raise RunsRootRefused(f"cannot use {where}: no part of it exists; {advice}")


def _cannot_write(folder: Path) -> str | None:
    """Why nothing can be created in ``folder`` (None: it can)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{_shown(folder)} is not writable (no permission, or a read-only file system)"
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".ssd-profiler-probe-", dir=folder))
    except OSError as exc:
        return f"{_shown(folder)} is not writable ({exc.strerror or exc})"
    return None
