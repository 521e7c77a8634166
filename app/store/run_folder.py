"""The run folder: self-describing files written while the run goes on.

``run.json`` is rewritten atomically (temp file + rename) as trials end, at most every
:data:`SAVE_EVERY_S` seconds and at most :data:`SAVE_BYTES_PER_S` on average, and at every end of
a run, and the file left always opens. The trials kept since its last save are appended at once
to ``trials-since-save.jsonl`` (app/store/journal.py), which reading a run adds back: a crash
loses none of them (it lost up to the last seconds' trials, while trials.csv listed them). Each
trial's line is serialised once (app/store/run_json.py), so a save costs the same at trial
10,000 as at trial 100 but for writing the bytes. ``trials.csv`` and ``samples.csv`` are
appended and flushed after every trial; ``raw/`` keeps each engine output byte for byte;
``commands.log`` every command with a time stamp. Every file is written as the run's own,
never through a link (app/store/own_files.py), in a folder only its user can write, even inside
a runs folder a group shares. Loading a run (app/store/read_run.py) reads data only, never code.
"""
from __future__ import annotations

import csv
import json
import os
import re
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.engines.shell_quote import command_line
from app.model.interval import SAMPLE_COLUMNS
from app.model.percentiles import LAT_KEYS
from app.model.run import Run
from app.model.status import RunStatus
from app.model.trial import TrialResult
from app.paths.direct_io import direct_in_effect
from app.paths.userdirs import user_data_dir
from app.store import journal, own_files
from app.store.atomic_write import write_atomic
from app.store.read_run import RUN_JSON_MAX_BYTES, SCHEMA_VERSION, load_run, open_run, typed_run
from app.store.run_json import LineCache, json_text
from app.text import csv_text

if TYPE_CHECKING:
    from app.experiments.plan import Trial

__all__ = ["RUN_JSON_MAX_BYTES", "SCHEMA_VERSION", "load_run", "open_run", "typed_run",  # readers'
           "RunStore", "default_runs_root", "trial_row", "utc_now", "write_json_atomic"]
SAVE_EVERY_S = 2.0      # run.json at most this often while trials end (and at every end of a run),
SAVE_BYTES_PER_S = 2e6  # ... writing on average at most 2 MB/s of it (a 45 MiB one every 24 s)
WRITE_SHARE = 0.05      # ... and spending at most 5 % of the time writing it (a slow disk)
FOLDER_MODE = 0o755     # a run folder and its raw/: written by the user alone, whatever the umask
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


def trial_row(record: dict[str, Any]) -> dict[str, Any]:
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

    def __init__(self, run_dir: Path, record: dict[str, Any], clock: Callable[[], float] = time.monotonic):
        self.dir = run_dir
        self.record = record
        self._lines = LineCache()
        self._clock = clock
        self._written_at = -float("inf")
        self._write_s = 0.0
        self._size = 0
        try:  # not writable by others (own_files.py): no one else can plant a name in it
            os.mkdir(run_dir / "raw", FOLDER_MODE)
        except FileExistsError:
            pass

    @classmethod
    def create(cls, runs_root: Path, experiment_ids: list[str], record: dict[str, Any],
               clock: Callable[[], float] = time.monotonic) -> RunStore:
        runs_root.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        name = f"{stamp}_{'+'.join(experiment_ids)}"
        if len(name) > 120:
            name = f"{stamp}_{len(experiment_ids)}-experiments"
        run_dir, n = runs_root / name, 1
        while True:
            try:
                os.mkdir(run_dir, FOLDER_MODE)
                break
            except FileExistsError:
                n += 1
                run_dir = runs_root / f"{name}-{n}"
        full = {"schema_version": SCHEMA_VERSION, "status": RunStatus.RUNNING, "started_at": utc_now(),
                "ended_at": None, **record, "trials": [], "summary": {}}
        store = cls(run_dir, full, clock)
        store.save()
        with own_files.text_file(run_dir / "trials.csv", new=True, newline="") as handle:
            csv.writer(handle).writerow(TRIAL_COLUMNS)
        with own_files.text_file(run_dir / "samples.csv", new=True, newline="") as handle:
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
        with own_files.text_file(self.dir / "commands.log") as handle:
            handle.write(f"{utc_now()} {note + ': ' if note else ''}{line}\n")

    def raw_paths(self, name: str) -> tuple[Path, Path, dict[str, str]]:
        """Where a trial's engine output is streamed byte for byte (stdout, stderr), and the
        run.json entry naming them relative to the run folder."""
        safe = re.sub(r"[^A-Za-z0-9._+-]", "_", name)
        rel = {"stdout": f"raw/{safe}.out.json", "stderr": f"raw/{safe}.stderr.txt"}
        return self.dir / rel["stdout"], self.dir / rel["stderr"], rel

    def append_samples(self, rows: Iterable[dict[str, Any]]) -> None:
        with own_files.text_file(self.dir / "samples.csv", newline="") as handle:
            writer = csv.DictWriter(handle, SAMPLE_COLUMNS)
            for row in rows:
                writer.writerow({k: _cell(row.get(k)) for k in SAMPLE_COLUMNS})

    def add_trial(self, trial: TrialResult) -> None:
        """Keep a finished (or failed) trial: its record in run.json (saved soon), one trials.csv
        row appended. Runs that probed direct I/O (app/paths/direct_io.py) stamp the mode in
        effect on the record."""
        record = trial.to_json()
        if "direct_io" in self.record:
            record.setdefault("direct_in_effect", direct_in_effect(record, self.record["direct_io"]))
        self.record["trials"].append(record)
        _add_app_cpu(self.record.get("host"), record)
        # the whole record first, until run.json has it: a full disk then refuses the csv row
        # too, not the record alone (trials.csv listed a trial no reader of the run could show)
        journal.append(self.dir, json.dumps(record, allow_nan=False))
        with own_files.text_file(self.dir / "trials.csv", newline="") as handle:
            writer = csv.DictWriter(handle, TRIAL_COLUMNS)
            writer.writerow({k: _cell(v) for k, v in trial_row(record).items()})
        self.save_soon()

    def note_experiment(self, experiment: str, **fields: Any) -> None:
        """Add to the experiment's entry in run.json's ``experiments`` what the run decided
        while it went on (a followed plan, how preconditioning ended); saved with the next save."""
        for entry in self.record.get("experiments") or []:
            if entry.get("id") == experiment:
                entry.update(fields)

    def replan(self, trials: Iterable[Trial]) -> None:
        """Replace these trials' entries of run.json's ``planned_trials`` (their workloads
        followed an earlier experiment's findings, jobs/run/follow.py)."""
        changed = {t.index: t for t in trials}
        self.record["planned_trials"] = [changed[p["index"]].to_json() if p.get("index") in changed
                                         else p for p in self.record.get("planned_trials", [])]

    def trial_completed(self, **fields: Any) -> None:
        """Add ``fields`` to the last trial's record after it was kept (a remote trial's job
        argv): the journal keeps it again, so a crash before the next save loses it neither."""
        self.record["trials"][-1].update(fields)
        journal.append(self.dir, json.dumps(self.record["trials"][-1], allow_nan=False))
        self.save_soon()

    def finish(self, status: RunStatus, summary: dict[str, Any] | None = None,
               error: str | None = None) -> None:
        assert status in STATUSES
        self.record.update(status=status, ended_at=utc_now(), summary=summary or {})
        if error:
            self.record["error"] = error
        self._lines = LineCache()   # the file a run ends with is made from the records as they are
        self.save()
        journal.clear(self.dir, remove=True)


def _cell(value: Any) -> Any:
    """A trials.csv or samples.csv cell: numbers as numbers, text as a spreadsheet must show it
    (a label or error from a remote host or an edited plan never starts a formula)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.10g}"
    if isinstance(value, str):
        return csv_text(value)
    return value


def _add_app_cpu(host: object, trial: dict[str, Any]) -> None:
    """The host block sums the app's own CPU time while each trial ran (jobs/engine/process.py)."""
    cpu = trial.get("app_cpu_s")
    if isinstance(host, dict) and isinstance(cpu, (int, float)):
        host["app_cpu_s"] = round((host.get("app_cpu_s") or 0.0) + cpu, 3)
        host["app_trials_s"] = round((host.get("app_trials_s") or 0.0) + (trial.get("elapsed_s") or 0.0), 3)
