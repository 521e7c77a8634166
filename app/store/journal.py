"""The trials a run kept since its last run.json save, one JSON line each, so a crash loses none.

Why: run.json is written at most every few seconds while trials end (``RunStore.save_soon``),
and longer apart when its writes are slow (a 45 MiB file, a busy disk). A ``kill -9`` or a power
cut in between left run.json trials behind trials.csv and raw/ (2 against 8 after a kill in
one test run), so the report said "only 2 of 72 planned trials ran" beside a trials.csv listing
8. Each kept trial's line is appended here at once (flushed like trials.csv, not fsynced), the
file is emptied whenever run.json is saved and removed when a run ends, so a finished run's
folder is what it was; reading a run (``load_run``) lays the records found here over run.json's,
unless run.json says the run has ended. It is written only as the run's own file, never through
a link another user planted (app/store/own_files.py).
docs/architecture.md: the run folder.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from app.model.trial import TrialResult
from app.store import own_files

JOURNAL = "trials-since-save.jsonl"


def append(run_dir: Path, line: str) -> None:
    """Keep one trial's record (its run.json line) until the next save holds it."""
    own_files.append_text(run_dir / JOURNAL, line.strip() + "\n")


def clear(run_dir: Path, remove: bool = False) -> None:
    """run.json now holds every kept trial: empty the journal (or remove it at a run's end)."""
    path = run_dir / JOURNAL
    if remove:
        path.unlink(missing_ok=True)
    else:
        own_files.empty(path)


def merged(trials: list[object], data: bytes) -> list[object]:
    """run.json's ``trials`` with the journal's records over them, by index, in order.

    A journal line is newer than run.json's record of the same trial (the journal is emptied at
    every save), and a later line newer than an earlier one: a record completed after it was
    kept (a remote trial's job argv) is appended again. A line cut by the crash itself (the
    last one, half written) or anything not a trial record is left out: the journal completes
    run.json, it never makes it unreadable (a bad line would be reported as a damaged run.json)."""
    out = list(trials)
    at = {t.get("index"): i for i, t in enumerate(out) if isinstance(t, dict)}
    for line in data.splitlines():
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(record, dict) or not _is_trial(record):
            continue
        if record["index"] in at:
            out[at[record["index"]]] = record
        else:
            at[record["index"]] = len(out)
            out.append(record)
    return out


def _is_trial(record: dict[str, Any]) -> bool:
    """A record the typed run accepts as a trial, with a whole-number index (not ``true``)."""
    if type(record.get("index")) is not int:
        return False
    try:
        TrialResult.from_json(record)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return False
    return True
