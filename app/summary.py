"""A run's summary: repetitions aggregated per workload, and each experiment's findings
(derived by the experiment's own module, found in the registry).

Only measured trials that finished count (warm-ups, failed and cancelled trials are left out and
shown as such elsewhere). Every figure is mean ± sample std with n, from :mod:`app.analysis`.
"""
from __future__ import annotations

import csv
import math
from pathlib import Path

from app import analysis
from app.experiments.registry import results_for
from app.histogram import Histogram, enough_ios
from app.model.measurement import Measurement
from app.model.percentiles import LAT_KEYS, POOLED_PERCENTILES, percentile_key
from app.model.summary import DirectionSummary, Pooled, Stat, WorkloadSummary
from app.model.trial import TrialResult
from app.samples_file import SamplesRefused, open_samples


def _direction_summary(trials: list[TrialResult], direction: str) -> DirectionSummary | None:
    sides = [s for t in trials if (s := t.measurement.side(direction))]
    if not sides:
        return None
    return DirectionSummary(
        iops=Stat(**analysis.summarize([s.iops for s in sides])),
        MBps=Stat(**analysis.summarize([s.MBps for s in sides])),
        lat_kind=sides[0].lat_kind,
        lat_us={k: Stat(**analysis.summarize([s.lat(k) for s in sides])) for k in LAT_KEYS},
        pooled=pooled(sides))


def pooled(sides: list) -> Pooled | None:
    """Percentiles of all the I/Os of the repetitions, from their merged histograms; None unless
    every repetition has one (fio json+; DiskSpd and older runs keep mean ± std only)."""
    if not sides or any(s.hist is None for s in sides):
        return None
    merged = sum((s.hist for s in sides), Histogram())
    if not merged.ios:
        return None
    us = 1000.0
    values, ci95, too_few = {}, {}, []
    for p in POOLED_PERCENTILES:
        key = percentile_key(p)
        values[key] = merged.percentile(p) / us
        ci = merged.ci95(p)
        ci95[key] = (ci[0] / us, ci[1] / us) if ci else None
        if not enough_ios(merged.ios, p):
            too_few.append(key)
    maxima = [m for s in sides if (m := s.lat("max")) is not None]
    return Pooled(merged.ios, values, ci95, max(maxima) if maxima else merged.max_ns() / us,
                  tuple(too_few))


def with_pooled(measurement: dict) -> dict:
    """An imported json+ measurement with ``lat_us.pooled`` per direction that has bins (its
    own I/Os: percentiles with 95 % intervals and the I/O count), as a run's summary has them."""
    parsed = Measurement.from_json(measurement)
    out = dict(measurement)
    for direction, side in parsed.sides():
        got = pooled([side])
        if got is not None:
            out[direction] = {**out[direction],
                              "lat_us": {**(out[direction].get("lat_us") or {}),
                                         "pooled": got.to_json()}}
    return out


def workload_summary(trials: list[TrialResult]) -> WorkloadSummary:
    """Mean ± sample std (n) of one workload's measured repetitions."""
    first = trials[0]
    return WorkloadSummary(
        key=first.workload_key, label=first.label, workload=first.workload, n=len(trials),
        total_iops=Stat(**analysis.summarize([t.measurement.total_iops for t in trials])),
        total_MBps=Stat(**analysis.summarize([t.measurement.total_MBps for t in trials])),
        read=_direction_summary(trials, "read"), write=_direction_summary(trials, "write"))


def read_samples(run_dir: str | Path, trials: set[int] | None = None) -> list[dict]:
    """samples.csv as dicts of floats (None for empty cells); only the rows of ``trials`` when
    given (a day-long trial at 0.1 s has 864,000 rows: read what is needed, row by row).
    Opened by app.samples_file (SamplesRefused, a ValueError, for what is not the app's file)."""
    opened = open_samples(run_dir)
    if opened is None:
        return []
    names, handle = opened
    out = []
    with handle:
        reader = csv.DictReader(handle, fieldnames=names)
        try:
            for row in reader:
                if trials is not None and int(row["trial"]) not in trials:
                    continue
                parsed = {k: _number(v) for k, v in row.items()}
                parsed["trial"] = int(parsed["trial"])
                out.append(parsed)
        except (csv.Error, KeyError, TypeError, ValueError) as exc:  # an edited or cut file
            reason = (str(exc).splitlines() or [""])[0][:200] or type(exc).__name__
            raise SamplesRefused(f"{Path(run_dir) / 'samples.csv'} is damaged near line "
                                 f"{reader.line_num}: {reason}") from None
    return out


def _number(text) -> float | None:
    """A samples.csv cell: a finite number, or None when empty (the app writes no NaN)."""
    if text in ("", None):
        return None
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def summarize_run(record: dict, run_dir: str | Path | None = None) -> dict:
    """Per experiment: workload rows (in plan order) and findings, as run.json's ``summary``."""
    run_dir = run_dir or record.get("dir")
    trials = [TrialResult.from_json(t) for t in record.get("trials", [])]
    measured = [t for t in trials if t.measured]
    series_trials = {t.index for t in measured if results_for(t.experiment).needs_samples}
    try:
        samples = read_samples(run_dir, series_trials) if run_dir and series_trials else []
    except SamplesRefused:  # not the app's own file (app.samples_file): findings without it
        samples = []
    out = {}
    for exp in record.get("experiments", []):
        eid = exp["id"]
        mine = [t for t in measured if t.experiment == eid]
        order = exp.get("workload_keys") or []
        groups: dict[str, list[TrialResult]] = {}
        for t in mine:
            groups.setdefault(t.workload_key, []).append(t)
        keys = [k for k in order if k in groups] + [k for k in groups if k not in order]
        rows = [workload_summary(groups[k]).to_json() for k in keys]
        out[eid] = {"workloads": rows,
                    "findings": results_for(eid).findings(rows, [t.to_json() for t in mine], samples)}
    return out
