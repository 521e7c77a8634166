"""Vendor specs: curated 'up to' figures, matched to the tested drive; the comparison
with what was measured is app/specs/match.py.

Where specs come from, first hit wins: the run's own ``vendor_spec`` (what the user
entered for this drive, or ``--vendor-spec``, written into the run), then the user's edited specs
(:func:`user_specs_path`: one entered for this very drive by serial or volume first, see
:class:`app.specs.record.DriveKey`), then ``resources/vendor_specs.json`` (loaded with importlib.resources,
every record with its source). A record describes a model when one of its ``model_match``
patterns finds it, or it contains one of its part numbers: plain text compared normalized, never
a regular expression (app/specs/model_match.py says why).

The user's file lives in the config folder and is read like any input the app did not write
(app/store/config_file.py): a regular file of bounded size, so a named pipe or a link to
/dev/zero planted there is one line in the log, not a hang or a MemoryError.
"""
from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from app.model.info import RunInfo
from app.model.status import RunStatus
from app.paths.userdirs import user_config_dir
from app.specs.model_match import normalize, pattern_problems
from app.specs.record import DriveKey, VendorSpec, positive
from app.store.atomic_write import write_atomic
from app.store.config_file import ConfigUnreadable, read_config_bytes, read_config_json
from app.store.run_folder import load_run, write_json_atomic

log = logging.getLogger(__name__)

METRICS = (  # key, label, unit, workload rw, block size (None = any), measured field
    ("seq_read_mbps", "Sequential read", "MB/s", "read", None, "MBps"),
    ("seq_write_mbps", "Sequential write", "MB/s", "write", None, "MBps"),
    ("rand_read_iops", "4 KiB random read", "IOPS", "randread", 4096, "iops"),
    ("rand_write_iops", "4 KiB random write", "IOPS", "randwrite", 4096, "iops"),
)
REQUIRED = ("id", "source_url", "source_kind")
MAX_USER_SPECS_BYTES = 4 << 20   # thousands of records; a spec is a few KiB
_warned: set[str] = set()        # one log line per unreadable file and reason, not one per lookup


def load_specs() -> list[dict[str, Any]]:
    """The curated records shipped in resources/vendor_specs.json."""
    text = resources.files("resources").joinpath("vendor_specs.json").read_text(encoding="utf-8")
    specs: list[dict[str, Any]] = json.loads(text)["specs"]
    return specs


def user_specs_path() -> Path:
    """Per-user settings file for specs the user entered or edited."""
    return user_config_dir() / "vendor_specs.json"


class UserSpecsUnreadable(ValueError):
    """The user's specs file exists but cannot be read as specs: it is left exactly as it is."""


def read_user_specs(path: Path | None = None) -> list[dict[str, Any]]:
    """The user's specs; [] when there is no file yet. Raises :class:`UserSpecsUnreadable` (one
    line) for a file that exists but is not a specs file: what the user typed must never be
    taken for "no specs" and then overwritten by the next save."""
    path = path or user_specs_path()
    try:
        data = read_config_json(path, MAX_USER_SPECS_BYTES)
    except FileNotFoundError:
        return []
    except ConfigUnreadable as exc:
        raise UserSpecsUnreadable(f"{path} cannot be read ({exc}); it was left as it is: "
                                  "fix or move it, then save again") from None
    specs = data.get("specs") if isinstance(data, dict) else None
    if not isinstance(specs, list) or not all(isinstance(s, dict) for s in specs):
        raise UserSpecsUnreadable(f"{path} is not a vendor specs file (no list of specs); it was "
                                  "left as it is: fix or move it, then save again")
    return specs


def load_user_specs(path: Path | None = None) -> list[dict[str, Any]]:
    """The user's usable specs for matching a drive: an unreadable file counts as none here (a
    run or an export must not fail over it), and a hand-edited record that does not validate
    (a figure of NaN cannot even be written into run.json) is left out; each said once in the
    log. Saving refuses an unreadable file instead (:func:`save_user_spec`)."""
    try:
        specs = read_user_specs(path)
    except UserSpecsUnreadable as exc:
        _warn_once(f"vendor specs not used: {exc}")
        return []
    usable = []
    for spec in specs:
        problems = validate_spec(spec)
        if problems:
            _warn_once(f"vendor spec {str(spec.get('id'))[:80]!r} in {path or user_specs_path()} "
                       f"not used: {problems[0]}")
            continue
        note = VendorSpec.from_json(spec).pattern_note
        if note:
            _warn_once(f"vendor spec {str(spec.get('id'))[:80]!r}: {note}")
        usable.append(spec)
    return usable


def _warn_once(line: str) -> None:
    if line not in _warned:
        _warned.add(line)
        log.warning("%s", line)


def validate_spec(spec: dict[str, Any]) -> list[str]:
    """Problems that make a record unusable (empty list = fine)."""
    problems = [f"missing {k}" for k in REQUIRED if not spec.get(k)]
    problems += pattern_problems(spec.get("model_match"))
    for key, *_ in METRICS:
        value = spec.get(key)
        if value is not None and not positive(value):
            problems.append(f"{key} must be a finite positive number or null, not {str(value)[:20]}")
    return problems


def user_spec(model: str, **values: object) -> dict[str, Any]:
    """A record for a drive the user describes: matches its exact model string."""
    spec = {"id": "user-" + re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-"),
            "vendor": None, "family": model, "model_match": ["^" + model.strip() + "$"],
            "part_numbers": [], "capacity_gb": None, "interface": None,
            "test_conditions": {"note": "entered by the user"},
            "source_url": "entered by the user", "source_kind": "user", **values}
    for key, *_ in METRICS:
        spec.setdefault(key, None)
    return spec


def save_user_spec(spec: dict[str, Any], path: Path | None = None) -> Path:
    """Add or replace (same id) a user record; raises ValueError on an unusable one, and
    :class:`UserSpecsUnreadable` (a ValueError) when the existing file cannot be read, which is
    then left untouched. The previous file is kept as ``vendor_specs.json.bak``."""
    problems = validate_spec(spec)
    if problems:
        raise ValueError("; ".join(problems))
    path = path or user_specs_path()
    specs = [s for s in read_user_specs(path) if s.get("id") != spec["id"]] + [spec]
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():  # the last good file, one step back, in case the user regrets a save
        write_atomic(path.with_name(path.name + ".bak"), read_config_bytes(path, MAX_USER_SPECS_BYTES))
    write_atomic(path, (json.dumps({"specs": specs}, indent=2) + "\n").encode("utf-8"))
    return path


def match_spec(model: str | None, specs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first record whose model pattern finds ``model``, else whose part number it holds."""
    if not model:
        return None
    typed, normalized = [(s, VendorSpec.from_json(s)) for s in specs], normalize(model)
    found = next((s for s, t in typed if t.pattern_finds(normalized)), None)
    return found or next((s for s, t in typed if t.part_number_in(normalized)), None)


def attached_spec(drive: DriveKey, specs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The user's record entered for this very drive (serial, or volume without one)."""
    return next((s for s in specs if VendorSpec.from_json(s).attached_to_drive(drive)), None)


def drive_model(info: RunInfo) -> str | None:
    return (info.drive.model if info.drive else None) or None


def drive_key(info: RunInfo) -> DriveKey:
    """The run's drive as a spec sees it (:class:`DriveKey`)."""
    drive = info.drive
    if drive is None:
        return DriveKey()
    volume = drive.device or str(drive.extra.get("mountpoint") or "") or None
    return DriveKey(drive.model or None, drive.serial or None, volume)


def drive_key_of(drive: Mapping[str, Any] | None) -> DriveKey:
    """A drive as app.drive.identity describes it (a dict of the OS's answers) as a DriveKey."""
    d = drive or {}
    volume = d.get("device") or d.get("mountpoint") or None
    return DriveKey(d.get("model") or None, d.get("serial") or None, volume)


def spec_for_run(info: RunInfo, user_specs: list[dict[str, Any]] | None = None) -> VendorSpec | None:
    """The spec to compare against: the run's own, the user's, then the curated list."""
    return spec_with_origin(info, user_specs)[0]


def spec_with_origin(info: RunInfo, user_specs: list[dict[str, Any]] | None = None
                     ) -> tuple[VendorSpec | None, str | None]:
    """:func:`spec_for_run` and where the spec came from (see :func:`spec_for_drive`)."""
    return spec_for_drive(drive_key(info), info.vendor_spec, user_specs)


def spec_for_drive(drive: DriveKey, run_spec: Mapping[str, Any] | None = None,
                   user_specs: list[dict[str, Any]] | None = None
                   ) -> tuple[VendorSpec | None, str | None]:
    """The spec for a drive and where it came from: ``run`` (the run's ``vendor_spec``),
    ``user`` (the user's specs file: one entered for this very drive first, then one whose
    model text matches) or ``built-in``; the window names it so the user knows which record an
    edit replaces."""
    if run_spec:
        return VendorSpec.from_json(run_spec), "run"
    users = load_user_specs() if user_specs is None else user_specs
    mine = attached_spec(drive, users) or match_spec(drive.model, users)
    if mine:
        return VendorSpec.from_json(mine), "user"
    curated = match_spec(drive.model, load_specs())
    return (VendorSpec.from_json(curated), "built-in") if curated else (None, None)


def spec_at_run_start(drive: Mapping[str, Any] | None, user_specs: list[dict[str, Any]] | None = None
                      ) -> dict[str, Any] | None:
    """The user's spec for this drive, for ``record["vendor_spec"]`` when a run starts.

    Only the user's record is frozen into the run: it is what the user typed for this drive and
    may later be edited or lost with the settings; curated records ship with the app and are
    looked up again at export, so corrections to them reach old runs too."""
    key = drive_key_of(drive)
    users = load_user_specs() if user_specs is None else user_specs
    return attached_spec(key, users) or match_spec(key.model, users)


def entered_spec(model_match: str, values: Mapping[str, object], conditions: Mapping[str, object],
                 interface: str | None, source: str | None, name: str | None = None,
                 drive: DriveKey | None = None) -> dict[str, Any]:
    """A user record from the window's spec form (the same shape as :func:`user_spec`).

    ``model_match`` is found anywhere in the drive's model string, ignoring case, spaces, ``_``
    and ``-``, so "990 PRO" covers every capacity while the drive's full model string (the form's
    default) covers just that drive; ``drive`` is the drive the form was opened for, which the
    record is attached to when its model text does not find it. ``conditions`` holds the vendor's test conditions
    (seq_qd, rand_qd, threads); stating them is what makes the comparison fair."""
    text = " ".join(model_match.split())
    spec = user_spec(text, **{k: v for k, v in values.items() if v})
    spec["model_match"] = [text]
    spec["family"] = (name or "").strip() or text
    spec["vendor"] = ""  # part of the family/name text the user typed
    spec["interface"] = interface or None
    tc: dict[str, object] = {"seq_bs": None, "seq_qd": None, "rand_bs": "4KiB", "rand_qd": None,
                             "threads": None, "note": "entered by the user"}
    tc.update({k: v for k, v in conditions.items() if v})
    spec["test_conditions"] = tc
    if source and source.strip():
        spec["source_url"] = source.strip()
    if drive is not None and not (drive.model and spec_describes(spec, drive.model)) \
            and drive.to_json():
        # the drive reports no model, or one this text does not find: the record is attached
        # to the drive itself, so it is offered for it again and never typed twice
        spec["attached_to"] = drive.to_json()
    return spec


def spec_describes(spec: Mapping[str, Any], model: str) -> bool:
    return VendorSpec.from_json(spec).describes_model(model)


def attach_spec_to_run(run_dir: str | os.PathLike[str], spec: dict[str, Any]) -> Path:
    """Write ``spec`` into a finished run's run.json as ``vendor_spec`` (atomic rewrite).

    Why: a run folder must re-export the same comparison anywhere, without this user's settings
    file. Refused (ValueError) for an unusable spec or a run that still says ``running``: its
    own process rewrites run.json after every trial and would drop the spec (or race us)."""
    problems = validate_spec(spec)
    if problems:
        raise ValueError("; ".join(problems))
    record = load_run(run_dir)
    if record.get("status") == RunStatus.RUNNING:
        raise ValueError(f"{run_dir} is still running (or was interrupted); the spec is kept in "
                         "your settings only")
    record.pop("dir", None)
    record["vendor_spec"] = spec
    path = Path(run_dir) / "run.json"
    write_json_atomic(path, record)
    return path
