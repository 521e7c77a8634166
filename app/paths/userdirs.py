"""Per-user folders, through platformdirs (the library the ecosystem uses for this): data (run
folders), config (the user's vendor specs), cache and log, each OS's own convention.

On Linux the XDG variables move them; the XDG spec says a variable that is empty or holds a
relative path is to be ignored, and platformdirs ignores only the empty one. A relative one
would put a user's runs wherever the app was started, so it is dropped here and the default
(``~/.local/share`` and friends) used instead.
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_DIR = "ssd-profiler"
_XDG = {"data": "XDG_DATA_HOME", "config": "XDG_CONFIG_HOME", "cache": "XDG_CACHE_HOME",
        "log": "XDG_STATE_HOME"}  # platformdirs puts the Linux log folder under state


def _folder(kind: str) -> Path:
    var = _XDG[kind]
    saved = os.environ.get(var)
    ignore = saved is not None and not os.path.isabs(saved.strip())
    if ignore:
        del os.environ[var]
    try:
        getter = getattr(platformdirs, f"user_{kind}_dir")
        return Path(getter(APP_DIR, appauthor=False))
    finally:
        if ignore and saved is not None:
            os.environ[var] = saved


def user_data_dir() -> Path:
    return _folder("data")


def user_config_dir() -> Path:
    return _folder("config")


def user_cache_dir() -> Path:
    return _folder("cache")


def user_log_dir() -> Path:
    return _folder("log")
