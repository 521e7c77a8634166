"""Exit codes and the one-line error every command prints, in one place.

Why shared: export, import --save and compare --out all write files the same way and must fail
the same way: a refusal (ValueError: a folder the app must not write, a damaged run) is exit 2
with one line saying what to change; a write the system refused (OSError: full disk, no
permission) is exit 1 with the system's reason. Never a traceback.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from app import params
from ui.cli.terminal import terminal_text

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2  # cancelled runs: 128 + the signal
MAX_REASON = 400   # characters; a parser may quote a whole line of a file in its message


def one_line(text: str) -> str:
    """app.params.one_line with the longer limit a file's reason needs (a quoted line), and
    nothing in it that a terminal would take for a command (it may quote a file)."""
    return terminal_text(params.one_line(text, MAX_REASON))


def error(message: str) -> None:
    print(f"ssd-profiler: error: {one_line(message)}", file=sys.stderr)


def write_or_exit(write: Callable[[], Any], refused: str = "", failed: str = "cannot write the "
                  "export") -> tuple[Any, int | None]:
    """(what ``write`` returned, None), or (None, the exit code) after printing the one line:
    ``refused`` prefixes a refusal's reason, ``failed`` the system's."""
    try:
        return write(), None
    except ValueError as exc:
        error(f"{refused}{exc}")
        return None, EXIT_BAD_INPUT
    except OSError as exc:
        error(f"{failed}: {exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else ""))
        return None, EXIT_FAILED
