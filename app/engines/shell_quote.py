"""An engine command as one line the user can paste into their own shell: POSIX quoting
(``shlex.join``) on Linux and macOS, PowerShell quoting on Windows. commands.log, the window's
log pane and ``run --dry-run`` all write commands through :func:`command_line`, so the three
agree character for character.
"""
from __future__ import annotations

import os
import re
import shlex

_PS_SAFE = re.compile(r"[A-Za-z0-9_@%+=:,./\\-]+")


def powershell_quote(arg: str) -> str:
    """A PowerShell word: bare when it holds only safe characters, else single-quoted with ' doubled
    (single quotes are literal in PowerShell: no $ or ` expansion)."""
    if _PS_SAFE.fullmatch(arg):
        return arg
    return "'" + arg.replace("'", "''") + "'"


def command_line(argv: list[str] | tuple[str, ...], windows: bool | None = None) -> str:
    """``argv`` as one pasteable line for this OS's usual shell (``windows`` forces a choice)."""
    windows = os.name == "nt" if windows is None else windows
    if not windows:
        return shlex.join(argv)
    words = [powershell_quote(a) for a in argv]
    if words and words[0] != argv[0]:
        words.insert(0, "&")  # a quoted program path is a string to PowerShell until called with &
    return " ".join(words)
