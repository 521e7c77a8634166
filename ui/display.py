"""Whether the window can open here, asked before Qt is loaded.

Qt's xcb and wayland platforms abort the whole process (SIGABRT, exit 134, maybe a core file)
when no display server answers. Someone who started ``ssd-profiler`` over ssh or on a server
gets one line instead, saying how to use the command line, which needs no display at all.
Only the environment is read: a DISPLAY that is set but dead still reaches Qt.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping

HOW = ("run a command instead, e.g. `ssd-profiler run quick --target DIR` "
       "(`ssd-profiler --help` lists them)")


def missing_display(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why the window cannot open, or None when it can (or when this cannot be told)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):  # Windows and macOS always have their own display
        return None
    has_x, has_wayland = bool(environ.get("DISPLAY")), bool(environ.get("WAYLAND_DISPLAY"))
    # QT_QPA_PLATFORM is a ';' list of fallbacks, each 'name' or 'name:options'
    wanted = [part.split(":", 1)[0].strip().lower()
              for part in environ.get("QT_QPA_PLATFORM", "").split(";") if part.strip()]
    if not wanted:
        if has_x or has_wayland:
            return None
        return "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset)"
    for name in wanted:
        if (name == "xcb" and has_x) or (name.startswith("wayland") and has_wayland):
            return None
        if name != "xcb" and not name.startswith("wayland"):
            return None  # offscreen, eglfs, linuxfb, vnc...: asked for, and no display server needed
    return (f"no display to open the window on (QT_QPA_PLATFORM={environ['QT_QPA_PLATFORM']}, "
            "DISPLAY and WAYLAND_DISPLAY are unset)")
