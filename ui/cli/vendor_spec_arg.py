"""A vendor spec named on the command line (``--vendor-spec MODEL-ID|FILE`` on run and export):
the same records the window offers, so a CLI run of a drive the curated list does not know gets
its comparison too. Where specs live and how they match a drive is app/specs/catalog.py.

A name that exists on disk is a file, whatever kind: a named pipe, a device or a link that
leads nowhere is refused with what it is (never "no such file", which sent users looking for a
typo), and the file is read capped, without waiting on a pipe (app/store/input_files.py).
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from app.specs.catalog import load_specs, load_user_specs, validate_spec
from app.store.input_files import InputRefused, read_input_text

MAX_BYTES = 1 << 20  # a spec record is a few KiB; anything far larger is not one


def _link_note(path: Path) -> str:
    """'is a symbolic link to T, which ' for a link (what follows says what T is), else ''."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return ""
        target = os.readlink(path)
    except OSError:
        return ""
    return f"is a symbolic link to {target[:200]}, which "


def _read_json(value: str, path: Path) -> object:
    link = _link_note(path)
    try:
        return json.loads(read_input_text(path, MAX_BYTES))  # capped, no FIFO or device
    except FileNotFoundError:  # only a dangling link gets here: the name itself exists
        raise ValueError(f"--vendor-spec {value}: {link or 'is a link that '}does not exist") from None
    except RecursionError:
        raise ValueError(f"--vendor-spec {value}: cannot be read as JSON (nested too deeply for "
                         "a spec record)") from None
    except InputRefused as exc:   # what the name is: a pipe, a device, a folder, too big
        raise ValueError(f"--vendor-spec {value}: cannot be read ({link}{exc})") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ValueError(f"--vendor-spec {value}: cannot be read ({link}{reason})") from None
    except ValueError as exc:
        reason = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise ValueError(f"--vendor-spec {value}: cannot be read as JSON ({reason})") from None


def spec_from_argument(value: str, user_specs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``--vendor-spec MODEL-ID|FILE``: a record of the built-in list or of the user's specs by
    its id, or a JSON file holding one record (or ``{"specs": [one]}``). ValueError (one line
    saying what to change) for anything else."""
    path = Path(value).expanduser()
    if os.path.lexists(path):
        data = _read_json(value, path)
        specs = data.get("specs") if isinstance(data, dict) and "specs" in data else [data]
        if not isinstance(specs, list) or len(specs) != 1 or not isinstance(specs[0], dict):
            raise ValueError(f"--vendor-spec {value}: expected one spec record (an object with "
                             "id, source_url, source_kind, model_match and the 'up to' figures)")
        spec = {"source_kind": "user", **specs[0]}
        problems = validate_spec(spec)
        if problems:
            raise ValueError(f"--vendor-spec {value}: " + "; ".join(problems))
        return spec
    known = (load_user_specs() if user_specs is None else user_specs) + load_specs()
    found = next((s for s in known if s.get("id") == value), None)
    if found is None:
        raise ValueError(f"--vendor-spec {value}: no such file and no spec with this id "
                         "(ids: resources/vendor_specs.json, e.g. samsung-pm9a1-512gb)")
    return found
