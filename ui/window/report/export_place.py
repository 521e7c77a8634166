"""Where the window exports a run by default: a folder a student looks in.

Why not the run folder's ``export`` (the command line's default, kept there): the runs live in the
app's data folder (``~/.local/share/ssd-profiler/runs/<long id>``), which file managers hide, so
the report was "somewhere". The window exports into the user's Documents, one folder per run
named after it (``Documents/SSD Profiler/<run folder name>``): a re-export of the same run
replaces its files there, another run gets its own folder (app.report.export_folder checks both).
Where the system names no Documents folder (or only the home itself), the run's ``export``.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths

from app import APP_NAME


def documents_dir() -> Path | None:
    """The user's Documents folder, None where the system knows none."""
    where = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not where or Path(where) == Path.home():
        return None
    return Path(where)


def default_export_dir(run_dir: str | Path) -> Path:
    docs = documents_dir()
    if docs is None:
        return Path(run_dir) / "export"
    return docs / APP_NAME / Path(run_dir).name
