"""One workload's repetitions in one row: mean ± sample std with n per metric, and the pooled
percentiles of all their I/Os (app/results/build.py calls it for every workload of a run).

Only measured trials that finished count (warm-ups, failed and cancelled trials are left out and
shown as such elsewhere). Every figure is mean ± sample std with n, from :mod:`app.stats.analysis`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.model.measurement import DirectionResult, Measurement
from app.model.percentiles import LAT_KEYS, POOLED_PERCENTILES, percentile_key
from app.model.summary import DirectionSummary, Pooled, Stat, WorkloadSummary
from app.model.trial import TrialResult
from app.stats import analysis
from app.stats.histogram import Histogram, enough_ios


def _direction_summary(trials: list[TrialResult], direction: str) -> DirectionSummary | None:
    sides = [s for t in trials if t.measurement and (s := t.measurement.side(direction))]
    if not sides:
        return None
    return DirectionSummary(
        iops=Stat(**analysis.summarize([s.iops for s in sides])),
        MBps=Stat(**analysis.summarize([s.MBps for s in sides])),
        lat_kind=sides[0].lat_kind,
        lat_us={k: Stat(**analysis.summarize([s.lat(k) for s in sides])) for k in LAT_KEYS},
        pooled=pooled(sides))


def pooled(sides: list[DirectionResult]) -> Pooled | None:
    """Percentiles of all the I/Os of the repetitions, from their merged histograms; None unless
    every repetition has one (fio json+; DiskSpd and older runs keep mean ± std only)."""
    if not sides or any(s.hist is None for s in sides):
        return None
    merged = Histogram.merged(s.hist for s in sides if s.hist)
    if not merged.ios:
        return None
    us = 1000.0
    values: dict[str, float | None] = {}
    ci95: dict[str, tuple[float, float] | None] = {}
    too_few = []
    for p in POOLED_PERCENTILES:
        key = percentile_key(p)
        value = merged.percentile(p)
        values[key] = None if value is None else value / us
        ci = merged.ci95(p)
        ci95[key] = (ci[0] / us, ci[1] / us) if ci else None
        if not enough_ios(merged.ios, p):
            too_few.append(key)
    maxima = [m for s in sides if (m := s.lat("max")) is not None]
    top = merged.max_ns()
    return Pooled(merged.ios, values, ci95,
                  max(maxima) if maxima else None if top is None else top / us, tuple(too_few))


def with_pooled(measurement: Mapping[str, Any]) -> dict[str, Any]:
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
        key=first.workload_key, label=first.label, workload_json=first.workload, n=len(trials),
        total_iops=Stat(**analysis.summarize([t.measurement.total_iops for t in trials
                                              if t.measurement])),
        total_MBps=Stat(**analysis.summarize([t.measurement.total_MBps for t in trials
                                              if t.measurement])),
        read=_direction_summary(trials, "read"), write=_direction_summary(trials, "write"),
        precision=max(trials, key=lambda t: t.index).precision)
