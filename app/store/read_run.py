"""Reading a run folder's run.json (with the trials its journal kept since the last save) into
the record every reader starts from: export, the window, compare, the vendor comparison.

run.json is read like any file a user names (app/store/input_files.py: a regular file,
size-capped, never a FIFO that would hang); its top-level shape is checked here, its texts cut
to their bounds and its numbers checked (app/store/run_checks.py), so that every reader fails
with the same one line naming the file, not a KeyError, and none shows an impossible number.

The journal (app/store/journal.py) and run.json share one budget, :data:`RUN_JSON_MAX_BYTES`:
a folder cannot make the app read twice the limit by putting half of it in each. A journal
left in a run that has ended (run.json's ``status`` says so) is ignored, with a warning in the
log: the run's final save holds every trial, and a journal there is not the app's.
"""
from __future__ import annotations

import codecs
import logging
import os
import stat
from pathlib import Path
from typing import Any

import orjson

from app.model.run import Run
from app.model.status import RunStatus
from app.store import journal
from app.store.input_files import InputRefused, os_reason, read_input_bytes
from app.store.run_checks import bound_texts, number_trouble
from app.units import human_bytes

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
RUN_JSON_MAX_BYTES = 160 * 2**20  # the largest run the app plans (10,100 trials of up to ~14 KB
# each, a full-lab trial with both directions' histograms) is ~140 MB; the 64 MiB cap for engine
# outputs would refuse a run the app itself wrote. Reading one that big peaks near 1.4 GB.
# run.json and its journal together: one budget.
RUN_JSON_MAX_NESTS = 8_000_000  # objects and lists ('{' and '[', in text too): a genuine run has
# one per 80 to 200 bytes, so the largest the app plans holds under 2 million. A shared run.json
# of 131 MiB as 24 million small lists ran export past 300 s and 7 GB; refused in one line now.


def load_run(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """run.json of a run folder, with ``dir`` added; raises ValueError (one line) on a folder
    that is not one, or whose run.json is unreadable, damaged or holds an impossible number."""
    path = Path(run_dir) / "run.json"
    if not Path(run_dir).is_dir():
        what = "it is a file" if Path(run_dir).exists() else "it does not exist"
        raise ValueError(f"{run_dir} is not a run folder ({what})")

    # the trials kept after run.json's last save (a run killed before its next), read before
    # run.json: a save between the two reads then holds them, never neither of the two
    since_save = _since_save(Path(run_dir) / journal.JOURNAL)
    budget = RUN_JSON_MAX_BYTES - len(since_save)
    try:
        data = read_input_bytes(path, budget)
    except FileNotFoundError:
        raise ValueError(f"{run_dir} is not a run folder (no run.json)") from None
    except InputRefused as exc:
        if since_save and "limit" in str(exc):
            raise ValueError(f"{path} and {journal.JOURNAL} together are over the "
                             f"{human_bytes(RUN_JSON_MAX_BYTES)} a run may take; not read") from None
        raise ValueError(f"{path} {exc}") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read it: {os_reason(exc)}") from None
    nesting = data.count(b"{") + data.count(b"[") + since_save.count(b"{") + since_save.count(b"[")
    if nesting > RUN_JSON_MAX_NESTS:   # counted at C speed, before any is made
        raise ValueError(f"{path} holds {nesting:,} objects and lists, more than the "
                         f"{RUN_JSON_MAX_NESTS:,} a run may have; not read")
    try:  # orjson: a 10,000-trial run.json (45 MiB) parses in 0.45 s instead of 0.75 s
        record = orjson.loads(data.removeprefix(codecs.BOM_UTF8))  # an editor's BOM, as json did
    except orjson.JSONDecodeError as exc:  # not JSON or not UTF-8, NaN, 1e400, nested too deeply
        raise ValueError(f"{path} is damaged: {str(exc).splitlines()[0]}") from None
    del data
    if not isinstance(record, dict):
        raise ValueError(f"{path} is damaged: not a JSON object")
    if record.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"{path}: unsupported schema version "
                         f"{repr(record.get('schema_version'))[:60]}")
    for key in ("trials", "experiments"):
        items = record.get(key, [])
        if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
            raise ValueError(f"{path} is damaged: {key} is not a list of objects")
    if since_save and _ended(record):
        log.warning("%s ignored: run.json says the run ended (%s), so its trials are run.json's",
                    Path(run_dir) / journal.JOURNAL, record.get("status"))
    elif since_save:
        record["trials"] = journal.merged(record.get("trials", []), since_save)
    bound_texts(record)
    trouble = number_trouble(record)
    if trouble:
        raise ValueError(f"{path} is damaged: {trouble}; not a real result")
    record["dir"] = str(Path(run_dir))
    return record


def _ended(record: dict[str, Any]) -> bool:
    try:
        return RunStatus(str(record.get("status"))).final
    except ValueError:
        return False   # no status a run has: the typed run refuses it, naming the file


def _since_save(path: Path) -> bytes:
    """The journal's bytes: none when it is missing, unreadable, not the folder's own regular
    file (a link could lead anywhere) or alone over the budget: run.json alone, as before."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            log.warning("%s ignored: not a regular file", path)
            return b""
        return read_input_bytes(path, RUN_JSON_MAX_BYTES)
    except FileNotFoundError:
        return b""   # the usual case
    except (OSError, InputRefused) as exc:
        log.warning("%s ignored: %s", path, exc)
        return b""


def open_run(run_dir: str | os.PathLike[str]) -> Run:
    """A run folder's run.json as the typed :class:`Run` (its descriptive blocks in ``extra``);
    ValueError, one line naming the file and what is wrong, for anything that is not a run."""
    return typed_run(load_run(run_dir), run_dir)


def typed_run(record: dict[str, Any], run_dir: str | os.PathLike[str]) -> Run:
    """A loaded run.json as the typed :class:`Run`; ValueError naming the file when its shape
    is not a run's."""
    try:
        run = Run.from_json(record)
        run.info  # noqa: B018 - the descriptive blocks are checked here, where a bad file is named
        return run
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        raise ValueError(f"{Path(run_dir) / 'run.json'} is damaged: {type(exc).__name__}: "
                         f"{exc}".splitlines()[0]) from None
