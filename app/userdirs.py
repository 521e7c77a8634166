"""Per-user folders, the one place that knows each OS's convention.

Data (run folders) goes where the OS keeps application data; settings-like files (the user's
vendor specs) where it keeps configuration. Environment overrides (XDG_*, APPDATA,
LOCALAPPDATA) are honoured, so tests and users can move them.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR = "ssd-profiler"


def _base(kind: str) -> Path:
    home = Path.home()
    if os.name == "nt":
        var, fallback = {"data": ("LOCALAPPDATA", home / "AppData" / "Local"),
                         "config": ("APPDATA", home / "AppData" / "Roaming")}[kind]
        return Path(os.environ.get(var, fallback))
    if sys.platform == "darwin":
        return home / "Library" / "Application Support"
    var, fallback = {"data": ("XDG_DATA_HOME", home / ".local" / "share"),
                     "config": ("XDG_CONFIG_HOME", home / ".config")}[kind]
    return Path(os.environ.get(var, fallback))


def user_data_dir() -> Path:
    return _base("data") / APP_DIR


def user_config_dir() -> Path:
    return _base("config") / APP_DIR
