"""The run folder: self-describing files written while the run goes on.

``run.json`` is rewritten atomically (temp file + rename) as trials end, at most every
:data:`SAVE_EVERY_S` seconds and at most :data:`SAVE_BYTES_PER_S` on average, and at every end of
a run, and the file left always opens. The trials kept since its last save are appended at once
to ``trials-since-save.jsonl`` (app/store/journal.py), which reading a run adds back: a crash
loses none of them (it lost up to the last seconds' trials, while trials.csv listed them). Each
trial's line is serialised once (app/store/run_json.py), so a save costs the same at trial
10,000 as at trial 100 but for writing the bytes. ``trials.csv`` and ``samples.csv`` are
appended and flushed after every trial; ``raw/`` keeps each engine output byte for byte;
``commands.log`` every command with a time stamp. Loading a run reads data only, never code.
"""
from __future__ import annotations

import codecs
import csv
import json
import os
import re
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from app.engines.shell_quote import command_line
from app.model.interval import SAMPLE_COLUMNS
from app.model.percentiles import LAT_KEYS
from app.model.run import Run
from app.model.status import RunStatus
from app.model.trial import TrialResult
from app.paths.direct_io import direct_in_effect
from app.paths.userdirs import user_data_dir
from app.store import journal
from app.store.atomic_write import write_atomic
from app.store.run_json import LineCache, json_text

SCHEMA_VERSION = 1
SAVE_EVERY_S = 2.0      # run.json at most this often while trials end (and at every end of a run),
SAVE_BYTES_PER_S = 2e6  # ... writing on average at most 2 MB/s of it (a 45 MiB one every 24 s)
RUN_JSON_MAX_BYTES = 160 * 2**20  # the largest run the app plans (10,100 trials of up to ~14 KB
# each, a full-lab trial with both directions' histograms) is ~140 MB; the 64 MiB cap for engine
# outputs would refuse a run the app itself wrote. Reading one that big peaks near 1.4 GB.
WRITE_SHARE = 0.05      # ... and spending at most 5 % of the time writing it (a slow disk)
STATUSES = tuple(RunStatus)  # run.json "status": see app.model.status
TRIAL_COLUMNS = (
    "index", "experiment", "label", "rw", "bs_bytes", "iodepth", "numjobs", "rwmixread",
    "repetition", "warmup", "status", "runtime_s", "total_iops", "total_MBps",
    *(f"{d}_{m}" for d in ("read", "write") for m in ("iops", "MBps", "io_bytes")),
    "lat_kind", *(f"{d}_lat_{k}_us" for d in ("read", "write") for k in LAT_KEYS), "error",
)


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON so that a reader sees the old file or the new one, never half.

    The text is made first (a NaN raises ValueError before any file exists), written under a
    new unpredictable temp name created exclusively without following links, fsynced and
    renamed over ``path``; on any failure the temp file is removed, so no ``.tmp`` is left."""
    text = json_text(data) + "\n"
    write_atomic(Path(path), text.encode("utf-8"))


def default_runs_root() -> Path:
    """Per-user data folder: XDG on Linux, Application Support on macOS, LOCALAPPDATA on Windows."""
    return user_data_dir() / "runs"


def trial_row(record: dict) -> dict:
    """Flatten one trial record of run.json into a trials.csv row (units in column names)."""
    t = TrialResult.from_json(record)
    m = t.measurement
    row = {"index": t.index, "experiment": t.experiment, "label": t.label,
           **{k: t.workload.get(k) for k in ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")},
           "repetition": t.repetition, "warmup": t.warmup, "status": t.status,
           "runtime_s": t.runtime_s, "total_iops": m.total_iops if m else None,
           "total_MBps": m.total_MBps if m else None, "lat_kind": m.lat_kind if m else None,
           "error": t.error}
    for d in ("read", "write"):
        side = m.side(d) if m else None
        row.update({f"{d}_iops": side and side.iops, f"{d}_MBps": side and side.MBps,
                    f"{d}_io_bytes": side and side.io_bytes})
        row.update({f"{d}_lat_{k}_us": side.lat(k) if side else None for k in LAT_KEYS})
    return row


class RunStore:
    """One run folder; created by :meth:`create`, reopened read-only by :func:`load_run`."""

    def __init__(self, run_dir: Path, record: dict, clock: Callable[[], float] = time.monotonic):
        self.dir = run_dir
        self.record = record
        self._lines = LineCache()
        self._clock = clock
        self._written_at = -float("inf")
        self._write_s = 0.0
        self._size = 0
        (run_dir / "raw").mkdir(exist_ok=True)

    @classmethod
    def create(cls, runs_root: Path, experiment_ids: list[str], record: dict,
               clock: Callable[[], float] = time.monotonic) -> RunStore:
        runs_root.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        name = f"{stamp}_{'+'.join(experiment_ids)}"
        if len(name) > 120:
            name = f"{stamp}_{len(experiment_ids)}-experiments"
        run_dir, n = runs_root / name, 1
        while True:
            try:
                run_dir.mkdir()
                break
            except FileExistsError:
                n += 1
                run_dir = runs_root / f"{name}-{n}"
        full = {"schema_version": SCHEMA_VERSION, "status": RunStatus.RUNNING, "started_at": utc_now(),
                "ended_at": None, **record, "trials": [], "summary": {}}
        store = cls(run_dir, full, clock)
        store.save()
        with open(run_dir / "trials.csv", "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerow(TRIAL_COLUMNS)
        with open(run_dir / "samples.csv", "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerow(SAMPLE_COLUMNS)
        return store

    def run(self) -> Run:
        """The run as typed so far (its record is what run.json holds)."""
        return Run.from_json(self.record)

    def save(self) -> None:
        """Write run.json now, whole and atomically, from the lines kept and the new records."""
        start = self._clock()
        data = (json_text(self.record, self._lines) + "\n").encode("utf-8")
        write_atomic(self.dir / "run.json", data)
        journal.clear(self.dir)   # run.json holds every kept trial now
        self._written_at, self._size = self._clock(), len(data)
        self._write_s = self._written_at - start

    def save_soon(self) -> None:
        """Write run.json if its last write is old enough (:data:`SAVE_EVERY_S`,
        :data:`SAVE_BYTES_PER_S`, :data:`WRITE_SHARE`); else the next save does, at the latest
        the run's end. Why: a 10,000-trial run.json is 45 MiB; written after every 1 s trial
        (with its fsync, beside the drive being measured) it was 220 GB over the run, and its
        serialising most of the app's cost per trial by the end. Now a trial costs the same
        bytes and time at trial 10,000 as at trial 100 (``benchmarks/run_json_saves.py``)."""
        wait = max(SAVE_EVERY_S, self._size / SAVE_BYTES_PER_S, self._write_s / WRITE_SHARE)
        if self._clock() - self._written_at >= wait:
            self.save()

    def log_command(self, argv: list[str], note: str = "") -> None:
        line = command_line(argv)
        with open(self.dir / "commands.log", "a", encoding="utf-8") as handle:
            handle.write(f"{utc_now()} {note + ': ' if note else ''}{line}\n")

    def raw_paths(self, name: str) -> tuple[Path, Path, dict]:
        """Where a trial's engine output is streamed byte for byte (stdout, stderr), and the
        run.json entry naming them relative to the run folder."""
        safe = re.sub(r"[^A-Za-z0-9._+-]", "_", name)
        rel = {"stdout": f"raw/{safe}.out.json", "stderr": f"raw/{safe}.stderr.txt"}
        return self.dir / rel["stdout"], self.dir / rel["stderr"], rel

    def append_samples(self, rows: Iterable[dict]) -> None:
        with open(self.dir / "samples.csv", "a", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, SAMPLE_COLUMNS)
            for row in rows:
                writer.writerow({k: _cell(row.get(k)) for k in SAMPLE_COLUMNS})

    def add_trial(self, record: dict) -> None:
        """Keep a finished (or failed) trial: one trials.csv row appended, run.json saved soon.
        Runs that probed direct I/O (app/paths/direct_io.py) stamp the mode in effect on it."""
        if "direct_io" in self.record:
            record.setdefault("direct_in_effect", direct_in_effect(record, self.record["direct_io"]))
        self.record["trials"].append(record)
        # the whole record first, until run.json has it: a full disk then refuses the csv row
        # too, not the record alone (trials.csv listed a trial no reader of the run could show)
        journal.append(self.dir, json.dumps(record, allow_nan=False))
        with open(self.dir / "trials.csv", "a", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, TRIAL_COLUMNS)
            writer.writerow({k: _cell(v) for k, v in trial_row(record).items()})
        self.save_soon()

    def trial_completed(self) -> None:
        """The last trial's record gained a field after it was kept (a remote trial's job
        argv): the journal keeps it again, so a crash before the next save loses it neither."""
        journal.append(self.dir, json.dumps(self.record["trials"][-1], allow_nan=False))
        self.save_soon()

    def finish(self, status: RunStatus, summary: dict | None = None, error: str | None = None) -> None:
        assert status in STATUSES
        self.record.update(status=status, ended_at=utc_now(), summary=summary or {})
        if error:
            self.record["error"] = error
        self._lines = LineCache()   # the file a run ends with is made from the records as they are
        self.save()
        journal.clear(self.dir, remove=True)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.10g}"
    return value


def load_run(run_dir: str | os.PathLike) -> dict:
    """run.json of a run folder, with ``dir`` added; raises ValueError (one line) on a folder
    that is not one, or whose run.json is unreadable or damaged.

    run.json is read like any file a user names (app.store.input_files: a regular file, size-capped,
    never a FIFO that would hang), and its top-level shape is checked here so that every
    reader (export, the window, the vendor spec) fails with this one message, not a KeyError."""
    from app.store.input_files import InputRefused, os_reason, read_input_bytes
    path = Path(run_dir) / "run.json"
    if not Path(run_dir).is_dir():
        what = "it is a file" if Path(run_dir).exists() else "it does not exist"
        raise ValueError(f"{run_dir} is not a run folder ({what})")

    # the trials kept after run.json's last save (a run killed before its next), read before
    # run.json: a save between the two reads then holds them, never neither of the two
    since_save = _since_save(Path(run_dir) / journal.JOURNAL)
    try:
        data = read_input_bytes(path, RUN_JSON_MAX_BYTES)
    except FileNotFoundError:
        raise ValueError(f"{run_dir} is not a run folder (no run.json)") from None
    except InputRefused as exc:
        raise ValueError(f"{path} {exc}") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read it: {os_reason(exc)}") from None
    try:  # orjson: a 10,000-trial run.json (45 MiB) parses in 0.45 s instead of 0.75 s
        record = orjson.loads(data.removeprefix(codecs.BOM_UTF8))  # an editor's BOM, as json did
    except orjson.JSONDecodeError as exc:  # not JSON or not UTF-8, NaN, 1e400, nested too deeply
        raise ValueError(f"{path} is damaged: {str(exc).splitlines()[0]}") from None
    if not isinstance(record, dict):
        raise ValueError(f"{path} is damaged: not a JSON object")
    if record.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"{path}: unsupported schema version {record.get('schema_version')!r}")
    for key in ("trials", "experiments"):
        items = record.get(key, [])
        if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
            raise ValueError(f"{path} is damaged: {key} is not a list of objects")
    if since_save:
        record["trials"] = journal.merged(record.get("trials", []), since_save)
    record["dir"] = str(Path(run_dir))
    return record


def _since_save(path: Path) -> bytes:
    from app.store.input_files import InputRefused, read_input_bytes
    try:
        return read_input_bytes(path, RUN_JSON_MAX_BYTES)
    except (OSError, InputRefused):
        return b""  # none (the usual case), or unreadable: run.json alone, as before the journal


def open_run(run_dir: str | os.PathLike) -> Run:
    """A run folder's run.json as the typed :class:`Run` (its descriptive blocks in ``extra``);
    ValueError, one line naming the file and what is wrong, for anything that is not a run."""
    return typed_run(load_run(run_dir), run_dir)


def typed_run(record: dict, run_dir: str | os.PathLike) -> Run:
    """A loaded run.json as the typed :class:`Run`; ValueError naming the file when its shape
    is not a run's."""
    try:
        run = Run.from_json(record)
        run.info  # noqa: B018 - the descriptive blocks are checked here, where a bad file is named
        return run
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        raise ValueError(f"{Path(run_dir) / 'run.json'} is damaged: {type(exc).__name__}: "
                         f"{exc}".splitlines()[0]) from None
