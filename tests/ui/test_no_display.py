"""No display: `ssd-profiler` alone exits 2 with one line saying how to use the command line,
instead of Qt's abort (exit 134 and a core file), and QT_QPA_PLATFORM=offscreen still works."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ui.display import missing_display

from conftest import REPO

NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")


def _start_window(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in NO_DISPLAY}
    return subprocess.run([sys.executable, "-m", "ui.main"], cwd=REPO, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is Linux's")
@pytest.mark.parametrize("env", [{}, {"QT_QPA_PLATFORM": "xcb"}, {"QT_QPA_PLATFORM": "wayland;xcb"}])
def test_no_display_is_one_line_and_exit_2(env):
    done = _start_window(**env)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("ssd-profiler: no display to open the window on")
    assert "`ssd-profiler run quick --target DIR`" in lines[0] and "--help" in lines[0]


@pytest.mark.parametrize("env, platform, refused", [
    ({}, "linux", True),
    ({"DISPLAY": ":0"}, "linux", False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
    ({"DISPLAY": "", "WAYLAND_DISPLAY": ""}, "linux", True),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
    ({"QT_QPA_PLATFORM": "eglfs"}, "linux", False),
    ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
    ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":1"}, "linux", True),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":1"}, "linux", False),
    ({"QT_QPA_PLATFORM": "xcb:nograb"}, "linux", True),
    ({}, "win32", False),
    ({}, "darwin", False),
])
def test_which_environments_have_no_display(env, platform, refused):
    assert (missing_display(env, platform) is not None) == refused


def test_offscreen_still_opens_the_window():
    done = subprocess.run([sys.executable, "-m", "ui.main"], cwd=REPO, timeout=120,
                          env={**{k: v for k, v in os.environ.items() if k not in NO_DISPLAY},
                               "QT_QPA_PLATFORM": "offscreen", "SSD_PROFILER_EXIT_AFTER_PAINT": "1"},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "first-paint" in done.stdout
