"""Engine adapters: fio (every OS) and, later, DiskSpd (Windows).

An engine adapter is pure: it builds argv lists and parses output. Running processes is jobs/.
What the runner (jobs/runner.py) asks of an engine object:

- ``name``, ``version``, ``path``; a classmethod ``locate(override=None)`` raising EngineNotFound;
- ``trial_argv(trial, test_file, stop_token) -> argv``;
- ``prepare_argv(test_file, size_bytes, stop_token, direct) -> argv | None``: fill the test file
  once before reads (None: the engine fills it itself);
- ``graceful_stop(stop_token) -> callable``: asks a running engine to end and print its result;
- ``live(trial, test_file) -> adapter`` with ``feed(stdout_text) -> list[Interval]`` called at least every 0.2 s
  (text may be empty), and optionally ``final_intervals(stdout_text) -> list[Interval] | None``
  whose series replaces the live one in samples.csv;
- ``parse_final(stdout_text, source) -> list[measurement]`` (DESIGN §3.2).
"""
from __future__ import annotations

import sys


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
