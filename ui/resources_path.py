"""Where package data lives, from source and from the PyInstaller folder alike."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def icon_path() -> Path:
    return Path(str(resources.files("resources") / "icon.png"))
