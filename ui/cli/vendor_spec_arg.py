"""A vendor spec named on the command line (``--vendor-spec MODEL-ID|FILE`` on run and export):
the same records the window offers, so a CLI run of a drive the curated list does not know gets
its comparison too. Where specs live and how they match a drive is app/vendor/specs.py."""
from __future__ import annotations

import json
from pathlib import Path

from app.store.input_files import read_input_text
from app.vendor.specs import load_specs, load_user_specs, validate_spec

MAX_BYTES = 1 << 20  # a spec record is a few KiB; anything far larger is not one


def spec_from_argument(value: str, user_specs: list[dict] | None = None) -> dict:
    """``--vendor-spec MODEL-ID|FILE``: a record of the built-in list or of the user's specs by
    its id, or a JSON file holding one record (or ``{"specs": [one]}``). ValueError (one line
    saying what to change) for anything else."""
    path = Path(value).expanduser()
    if path.is_file():
        try:
            data = json.loads(read_input_text(path, MAX_BYTES))  # capped, no FIFO or device
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
            raise ValueError(f"--vendor-spec {value}: cannot be read as JSON ({reason})") from None
        specs = data.get("specs") if isinstance(data, dict) and "specs" in data else [data]
        if not isinstance(specs, list) or len(specs) != 1 or not isinstance(specs[0], dict):
            raise ValueError(f"--vendor-spec {value}: expected one spec record (an object with "
                             "id, model_regex, source_url, source_kind and the 'up to' figures)")
        spec = {"source_kind": "user", "model_regex": "", **specs[0]}
        problems = [p for p in validate_spec(spec) if p != "missing model_regex"]
        if problems:
            raise ValueError(f"--vendor-spec {value}: " + "; ".join(problems))
        return spec
    known = (load_user_specs() if user_specs is None else user_specs) + load_specs()
    found = next((s for s in known if s.get("id") == value), None)
    if found is None:
        raise ValueError(f"--vendor-spec {value}: no such file and no spec with this id "
                         "(ids: resources/vendor_specs.json, e.g. samsung-pm9a1-512gb)")
    return found
