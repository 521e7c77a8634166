"""Reading the per-user config folder's files (the vendor specs, the window's settings) with the
same checks as any input the app did not write (app/store/input_files.py).

Why: the config folder is the user's, but what sits there is not always what the app wrote: a
settings sync tool, a dotfile manager or another account with write access can leave a named
pipe (reading it waits for ever), a link to /dev/zero (read until memory runs out) or a huge
file. A link to a regular file is read (dotfile managers make those); anything else is refused
with one line saying what the file is, and the caller goes on without it.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.store.input_files import decode_text, file_kind, os_reason, read_input_bytes


class ConfigUnreadable(ValueError):
    """The file exists but cannot be read as what it should be; one line, without the path."""


def config_file_problem(path: str | os.PathLike[str], limit: int) -> str | None:
    """Why the file must not be opened (not a regular file, over ``limit`` bytes, no access), or
    None when it is fine or absent: for a reader, such as QSettings, that opens files itself."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "is a link to a missing file" if os.path.islink(path) else None
    except OSError as exc:
        return os_reason(exc)
    if file_kind(info.st_mode):
        return file_kind(info.st_mode)
    if info.st_size > limit:
        return f"is {info.st_size:,} bytes, over the {limit:,} bytes this file may be"
    return None


def read_config_bytes(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; FileNotFoundError when there is
    none, ConfigUnreadable otherwise."""
    try:
        return read_input_bytes(path, limit)
    except FileNotFoundError:
        if os.path.islink(path):
            raise ConfigUnreadable("is a link to a missing file") from None
        raise
    except OSError as exc:
        raise ConfigUnreadable(os_reason(exc)) from None
    except ValueError as exc:
        raise ConfigUnreadable(str(exc)) from None


def read_config_json(path: Path, limit: int) -> Any:
    """The JSON value of the file (see :func:`read_config_bytes`); nesting too deep for the
    parser is a ConfigUnreadable too, never a RecursionError."""
    data = read_config_bytes(path, limit)
    try:
        return json.loads(decode_text(data))
    except RecursionError:
        raise ConfigUnreadable("JSON nested too deeply") from None
    except ValueError as exc:
        raise ConfigUnreadable((str(exc).splitlines() or [type(exc).__name__])[0]) from None
