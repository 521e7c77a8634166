"""Paths as the report's body may show them: never an absolute local path (a report is handed
in, and a path names the student's machine and account). A path under the home folder is
written from ``~``; any other keeps only its last part, after an ellipsis."""
from __future__ import annotations

import os
from pathlib import PurePath


def shown_path(path: str | os.PathLike[str] | None) -> str | None:
    if path is None or str(path) == "":
        return None
    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "/", "~") and (text == home or text.startswith(home.rstrip("/\\") + os.sep)):
        return "~" + text[len(home.rstrip("/\\")):]
    if not PurePath(text).is_absolute():
        return text
    return "…/" + PurePath(text).name if PurePath(text).name else text


def folder_name(path: str | os.PathLike[str] | None) -> str | None:
    """A run folder as the report names it: its own name only."""
    return PurePath(str(path)).name or None if path else None
