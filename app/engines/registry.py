"""Which engine runs a trial: fio everywhere, DiskSpd on Windows (DESIGN §4)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

from app.engines import EngineNotFound

ENGINES = ("fio", "diskspd")


def engine_class(name: str):
    if name == "fio":
        from app.engines.fio import FioEngine
        return FioEngine
    if name == "diskspd":
        from app.engines.diskspd import DiskSpdEngine
        return DiskSpdEngine
    raise EngineNotFound(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")


def default_engine(platform: str = sys.platform) -> str:
    """DiskSpd by default on Windows when it is installed (on PATH, set by the user, or bundled
    with the Windows build), fio elsewhere."""
    if platform.startswith("win"):
        from app.engines.diskspd import DiskSpdEngine
        if any(Path(c).is_file() or shutil.which(c) for c in DiskSpdEngine.candidates()):
            return "diskspd"
    return "fio"


def locate_engine(name: str | None = None, override: str | None = None):
    """The engine object for ``name`` (default per OS), found at ``override`` or on PATH."""
    return engine_class(name or default_engine()).locate(override)
