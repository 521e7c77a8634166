"""Past runs from their folders alone: listing and reopening. No Qt.

These functions run in a background thread; what they return is handed to the GUI thread once
and never touched again (read-only numpy arrays inside a frozen value).
"""
from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from app.model.run import Run
from app.results.build import build_results, series_trials
from app.results.load import damage_named
from app.results.run_results import RunResults
from app.store.run_folder import load_run, typed_run
from app.store.run_headline import RunHeadline
from app.store.samples import SampleTable, read_sample_table
from ui.window.run.planned import PlannedTrial, planned_from_entry, planned_from_result
from ui.window.run.series import COLUMNS, break_row

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunListing:
    """One line of the runs browser."""

    run_dir: str
    started_at: str
    experiments: str
    status: str
    trials_done: int
    trials_planned: int
    target: str
    error: str | None


@dataclass(frozen=True)
class PastRun:
    """A reopened run: its record, chart columns and trial boundaries, ready to show."""

    record: Mapping[str, Any]
    block: np.ndarray                     # (len(COLUMNS), m), read-only
    samples: int
    boundaries: tuple[tuple[float, int], ...]   # (t_s, trial index)
    results: RunResults
    planned: Mapping[int, PlannedTrial]         # planned and finished trials, by index


UNREADABLE = "unreadable"


def scan_runs(root: str | os.PathLike[str]) -> tuple[RunListing, ...]:
    """Every run folder under ``root``, newest first. A folder without run.json is not a run
    and is skipped; a run whose run.json cannot be read or makes no sense (a shared folder,
    edited or damaged) is listed as unreadable with one line saying why, and never keeps the
    others from being listed."""
    root = Path(root)
    if not root.is_dir():
        return ()
    out = []
    for folder in sorted((p for p in root.iterdir() if p.is_dir()), reverse=True):
        try:
            out.append(_listing(folder))
        except FileNotFoundError:
            continue
        except Exception as exc:  # noqa: BLE001 - one bad folder is one line, not the tab
            if not os.path.lexists(folder / "run.json"):
                continue
            log.debug("unreadable run folder %s", folder, exc_info=True)
            reason = (str(exc).splitlines() or [""])[0][:300] or type(exc).__name__
            out.append(RunListing(str(folder), "", "", UNREADABLE, 0, 0, "", reason))
    return tuple(out)


def _listing(folder: Path) -> RunListing:
    if not os.path.lexists(folder / "run.json"):
        raise FileNotFoundError(folder / "run.json")
    head = RunHeadline.read(load_run(folder))
    return RunListing(str(folder), head.started_at[:19].replace("T", " "), ", ".join(head.experiments),
                      head.status, head.trials_done, head.trials_planned, head.target, head.error)


def _seconds_between(start: str | None, end: object) -> float | None:
    if start is None or not isinstance(end, str):
        return None
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None


def load_past_run(run_dir: str | os.PathLike[str]) -> PastRun:
    """run.json and samples.csv of a folder as chart data, its planned trials and its results,
    all made here, off the GUI thread; ValueError, one line naming the file, for a folder that
    is not a run (a shared run.json that parses but whose records are not a run's included:
    the window then says so instead of failing half-way through showing it)."""
    record = load_run(run_dir)
    run = typed_run(record, run_dir)
    table = read_sample_table(run_dir)   # a samples.csv it cannot read: one line, not a chart
    with damage_named(Path(run_dir)):
        results = build_results(run, table.samples(series_trials(run)), Path(run_dir))
        return _past(record, run, table, results)


def _past(record: dict[str, Any], run: Run, table: SampleTable, results: RunResults) -> PastRun:
    if not run.summary and run.trials:  # a crashed run never wrote one
        record["summary"] = results.summary_json()
    listed = [*map(planned_from_entry, run.info.planned_trials or ()),
              *map(planned_from_result, run.trials)]
    planned = {p.index: p for p in listed}
    names, values = list(table.names), table.values
    trial = values[:, names.index("trial")].astype(int) if len(values) else np.empty(0, int)
    t_s = values[:, names.index("t_s")] if len(values) else np.empty(0)
    firsts = np.flatnonzero(np.r_[True, trial[1:] != trial[:-1]]) if len(trial) else np.empty(0, int)
    starts = _starts(run, {int(trial[i]): float(t_s[i]) for i in firsts[::-1]})
    rows = np.full((len(values), len(COLUMNS)), np.nan)
    for j, name in enumerate(COLUMNS):
        if name in names:
            rows[:, j] = values[:, names.index(name)]
    # a direction the trial does not run: no line. Each trial's flags once, spread over its
    # rows by index (a mask per trial was quadratic: 10,000 trials took seconds)
    indexes, which = np.unique(trial, return_inverse=True)
    unknown = PlannedTrial(-1, "", "", 1, False, 0.0, True, True)
    flags = np.array([(p.reads, p.writes) for p in (planned.get(int(i), unknown) for i in indexes)],
                     bool).reshape(-1, 2)
    for j, name in enumerate(COLUMNS):
        for prefix, side in (("read_", 0), ("write_", 1)):
            if name.startswith(prefix):
                rows[~flags[which, side], j] = np.nan
    breaks = np.array([break_row(starts.get(int(trial[i]), float(t_s[i]))) for i in firsts])
    block = np.insert(rows, firsts, breaks, axis=0).T if len(rows) else np.empty((len(COLUMNS), 0))
    block = np.ascontiguousarray(block)
    block.flags.writeable = False
    boundaries = tuple(sorted((at, index) for index, at in starts.items()))
    return PastRun(record, block, len(values), boundaries, results, MappingProxyType(planned))


def _starts(run: Run, first_t: dict[int, float]) -> dict[int, float]:
    """Each trial's start on the run's clock: from run.json, else its first sample."""
    starts = {}
    for t in run.trials:
        at = _seconds_between(run.info.started_at, t.started_at)
        if at is None and t.index in first_t:
            at = first_t[t.index] - (t.interval_s or 1.0)
        if at is not None:
            starts[t.index] = max(0.0, at)
    return starts
