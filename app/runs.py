"""Run folders as pandas DataFrames, for comparing runs and for a student's own notebook.

    from app.runs import load_runs
    tables = load_runs(["runs/20261123T121013Z_zero-queue", "runs/20261124T090000Z_zero-queue"])
    tables.workloads.pivot_table(index="workload", columns="run", values="iops_mean")

Four tidy tables, one row per thing, units in the column names (MB/s = 10^6 B/s, latency µs,
``lat_kind`` says completion or total latency):

- ``runs``: one row per run (drive model, engine, status, start time, folder);
- ``trials``: one row per trial and direction that moved data (warm-ups and failed trials
  included and marked, so nothing is silently dropped; ``start_s``: when the trial started, in
  seconds into the run, the clock of the samples' ``t_s``; beside each percentile the I/Os of
  that trial beyond it and a ``..._too_few_ios`` flag, app/model/percentiles.py);
- ``workloads``: one row per workload summary and direction: mean, sample std and n of the
  repetitions, and the pooled percentiles from fio's histograms with their 95 % interval and
  the number of I/Os they rest on where the run has them; beside each percentile a
  ``..._too_few_ios`` flag: True when fewer than 10 I/Os lie beyond it, so it is not to be
  stated (app/model/percentiles.py);
- ``samples``: samples.csv of every run, with a ``run`` column.

Every row names its ``run`` (the folder's name; "NAME (2)" for a second folder of the same name,
so a run and its copy stay apart) and ``experiment``. Reading never writes.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from app.model.info import Drive, Engine
from app.model.measurement import DIRECTIONS
from app.model.percentiles import LAT_KEYS, PERCENTILE_KEYS, ios_beyond, too_few
from app.model.run import Run
from app.results.load import load_results
from app.results.run_results import RunResults
from app.store.samples import read_sample_table

WORKLOAD_KEYS = ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")


@dataclass(frozen=True)
class RunTables:
    runs: pd.DataFrame
    trials: pd.DataFrame
    workloads: pd.DataFrame
    samples: pd.DataFrame


def load_runs(folders: Iterable[str | os.PathLike[str]]) -> RunTables:
    """The four tables of the run folders (app.store.run_folder.load_run's one-line ValueError for a folder
    that is not one)."""
    return run_tables([(Path(f), load_results(f, strict=True).results) for f in folders])


def run_tables(loaded: Iterable[tuple[Path, RunResults]]) -> RunTables:
    """The four tables of runs whose results are loaded already (compare reads each run once)."""
    runs: list[dict[str, Any]] = []
    trials: list[dict[str, Any]] = []
    workloads: list[dict[str, Any]] = []
    samples: list[pd.DataFrame] = []
    for folder, results in loaded:
        run = results.run
        name = _unique(folder.name, [r["run"] for r in runs])
        runs.append(_run_row(name, results))
        trials += _trial_rows(name, run, run.info.started_at)
        workloads += _workload_rows(name, results)
        table = read_sample_table(folder)
        if len(table):
            frame = pd.DataFrame(table.values, columns=list(table.names))
            frame["trial"] = frame["trial"].astype(int)
            frame.insert(0, "run", name)
            samples.append(frame)
    return RunTables(pd.DataFrame(runs), pd.DataFrame(trials), pd.DataFrame(workloads),
                     pd.concat(samples, ignore_index=True) if samples else pd.DataFrame())


def _unique(name: str, taken: list[str]) -> str:
    k, out = 2, name
    while out in taken:
        out, k = f"{name} ({k})", k + 1
    return out


def _run_row(name: str, results: RunResults) -> dict[str, Any]:
    run, info = results.run, results.run.info
    drive, engine = info.drive or Drive(), info.engine or Engine()
    folder = str(results.folder) if results.folder is not None else info.dir
    return {"run": name, "status": str(run.status), "started_at": info.started_at,
            "experiments": ",".join(e.id for e in run.experiments),
            "drive_model": drive.model, "engine": engine.name,
            "engine_version": engine.version, "folder": folder}


def _trial_rows(name: str, run: Run, run_started: str | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for t in run.trials:
        base = {"run": name, "experiment": t.experiment, "trial": t.index, "workload": t.label,
                **{k: t.workload.get(k) for k in WORKLOAD_KEYS}, "outstanding": t.outstanding,
                "repetition": t.repetition, "warmup": t.warmup, "status": str(t.status),
                "runtime_s": t.runtime_s,
                "start_s": _seconds_between(run_started, t.started_at)}
        sides = t.measurement.sides() if t.measurement else []
        if not sides:
            rows.append({**base, "direction": None})
        for direction, side in sides:
            ios = t.ios(direction)   # a trial's own percentile rests on its own I/Os
            rows.append({**base, "direction": direction, "iops": side.iops, "MBps": side.MBps,
                         "io_bytes": side.io_bytes, "lat_kind": _text(side.lat_kind),
                         **{f"lat_{k}_us": side.lat(k) for k in LAT_KEYS},
                         **{f"lat_{k}_us_ios_beyond": None if ios is None else ios_beyond(k, ios)
                            for k in PERCENTILE_KEYS},
                         **{f"lat_{k}_us_too_few_ios": too_few(k, ios) for k in PERCENTILE_KEYS}})
    return rows


def _workload_rows(name: str, results: RunResults) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for part in results.parts:
        eid = part.id
        for w in part.workloads:
            for direction in DIRECTIONS:
                side = getattr(w, direction)
                if side is None:
                    continue
                row = {"run": name, "experiment": eid, "workload": w.label,
                       **{k: w.workload_json.get(k) for k in WORKLOAD_KEYS}, "outstanding": w.outstanding,
                       "direction": direction, "n": w.n, "lat_kind": _text(side.lat_kind)}
                for metric, stat in (("iops", side.iops), ("MBps", side.MBps),
                                     *((f"lat_{k}_us", s) for k, s in side.lat_us.items())):
                    row.update({f"{metric}_mean": stat.mean, f"{metric}_std": stat.std})
                    if metric.startswith("lat_p"):   # the value only beside its too-few flag
                        row[f"{metric}_too_few_ios"] = stat.too_few is not None
                if side.pooled:
                    row["pooled_ios"] = side.pooled.ios
                    for key, value in side.pooled.values.items():
                        ci = side.pooled.ci95.get(key) or (None, None)
                        row.update({f"pooled_{key}_us": value, f"pooled_{key}_ci95_low_us": ci[0],
                                    f"pooled_{key}_ci95_high_us": ci[1],
                                    f"pooled_{key}_too_few_ios": key in side.pooled.too_few})
                rows.append(row)
    return rows


def _seconds_between(start: str | None, end: str | None) -> float | None:
    """When a trial started, in seconds into the run: samples.csv's ``t_s`` clock."""
    if start is None or end is None:
        return None
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):  # TypeError: one time with a zone, the other without
        return None


def _text(value: object) -> str | None:
    return None if value is None else str(value)
