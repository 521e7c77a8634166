"""Engine adapters, pure: fio (every OS, app/engines/fio/) and DiskSpd (Windows,
app/engines/diskspd/) build argv lists and parse output; running processes, probing versions and
reading OS counters is jobs/ (jobs/engine/factory.py, jobs/engine/diskspd_live.py).

What the runner asks of an engine object is :class:`app.engines.base.Engine`.
"""
from __future__ import annotations

import sys

ENGINES = ("fio", "diskspd")  # the names users pick from (CLI --engine, the window, settings)


class EngineNotFound(RuntimeError):
    """The engine executable is missing; the message says how to install it on this OS."""


def install_hint(engine: str, platform: str = sys.platform) -> str:
    """One sentence telling a student how to get ``engine`` on this OS."""
    if engine == "fio":
        if platform.startswith("linux"):
            return ("install fio with your package manager: `sudo apt install fio` (Debian, Ubuntu), "
                    "`sudo dnf install fio` (Fedora), `sudo pacman -S fio` (Arch)")
        if platform == "darwin":
            return "install fio with Homebrew: `brew install fio`"
        if platform.startswith("win"):
            return ("install fio for Windows (the MSI from https://github.com/axboe/fio/releases), "
                    "then reopen the app so it is on PATH")
        return "install fio (https://github.com/axboe/fio) and put it on PATH"
    if engine == "diskspd":
        return ("download DiskSpd from https://github.com/microsoft/diskspd/releases and put "
                "diskspd.exe on PATH")
    return f"install {engine} and put it on PATH"
