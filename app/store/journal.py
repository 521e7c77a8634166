"""The trials a run kept since its last run.json save, one JSON line each, so a crash loses none.

Why: run.json is written at most every few seconds while trials end (``RunStore.save_soon``),
and longer apart when its writes are slow (a 45 MiB file, a busy disk). A ``kill -9`` or a power
cut in between left run.json trials behind trials.csv and raw/ (2 against 8 after a kill in
one test run), so the report said "only 2 of 72 planned trials ran" beside a trials.csv listing
8. Each kept trial's line is appended here at once (flushed like trials.csv, not fsynced), the
file is emptied whenever run.json is saved and removed when a run ends, so a finished run's
folder is what it was; reading a run (``load_run``) adds the records found here that run.json
does not hold yet. docs/architecture.md: the run folder.
"""
from __future__ import annotations

from pathlib import Path

import orjson

JOURNAL = "trials-since-save.jsonl"


def append(run_dir: Path, line: str) -> None:
    """Keep one trial's record (its run.json line) until the next save holds it."""
    with open(run_dir / JOURNAL, "a", encoding="utf-8") as handle:
        handle.write(line.strip() + "\n")


def clear(run_dir: Path, remove: bool = False) -> None:
    """run.json now holds every kept trial: empty the journal (or remove it at a run's end)."""
    path = run_dir / JOURNAL
    if remove:
        path.unlink(missing_ok=True)
    elif path.exists():
        path.write_bytes(b"")


def merged(trials: list, data: bytes) -> list:
    """run.json's ``trials`` followed by the journal's records it lacks (by index), in order.

    A line cut by the crash itself (the last one, half written) or anything not a trial record
    is left out: the journal completes run.json, it never replaces it."""
    known = {t.get("index") for t in trials if isinstance(t, dict)}
    out = list(trials)
    for line in data.splitlines():
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("index"), int) \
                and record["index"] not in known:
            known.add(record["index"])
            out.append(record)
    return out
