"""Saving a run record as a new run folder (``import --save``): only into a folder that is new
or empty and real, so a run folder is always the app's own.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from app.store.run_folder import write_json_atomic


def check_new_run_folder(folder: str | Path) -> None:
    """Raise ValueError (one line) unless ``folder`` is new or an empty real folder: a run
    folder is the app's own, so it is never made inside a symlink, over a file, or among
    someone's files."""
    folder = Path(folder)
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise ValueError(f"{folder}: a part of this path is a file, not a folder") from None
    if stat.S_ISLNK(info.st_mode):
        raise ValueError(f"{folder} is a symbolic link; give a new folder, not a link")
    if not stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{folder} exists and is not a folder; give a new folder")
    if os.listdir(folder):
        raise ValueError(f"{folder} exists and is not empty; give a new or empty folder")


def write_run_folder(record: dict[str, Any], folder: str | Path) -> Path:
    """Save a record (e.g. from :func:`run_from_measurements`) as a run folder's run.json.

    Refused (ValueError) by :func:`check_new_run_folder`; on a failed write the folder, when
    this call made it, is removed again, and no temp file is left."""
    folder = Path(folder)
    check_new_run_folder(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(folder, 0o755)   # the user's alone, whatever the umask (app/store/own_files.py)
        made = True
    except FileExistsError:
        made = False
        check_new_run_folder(folder)  # appeared meanwhile: judge it again
    try:
        write_json_atomic(folder / "run.json", {k: v for k, v in record.items() if k != "dir"})
    except BaseException:
        if made:
            try:
                folder.rmdir()
            except OSError:
                pass
        raise
    return folder
