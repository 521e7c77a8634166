"""One workload's repetitions in one row: mean ± sample std with n per metric, and the pooled
percentiles of all their I/Os (app/results/build.py calls it for every workload of a run).

Only measured trials that finished count (warm-ups, failed and cancelled trials are left out and
shown as such elsewhere). Every figure is mean ± sample std with n, from :mod:`app.stats.analysis`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from app.model.measurement import DirectionResult, Measurement, frozen
from app.model.percentiles import (
    LAT_KEYS,
    PERCENTILE_KEYS,
    POOLED_PERCENTILES,
    ios_beyond,
    percentile_key,
    too_few,
)
from app.model.status import TrialStatus
from app.model.summary import DirectionSummary, Pooled, Stat, WorkloadSummary
from app.model.trial import TrialResult
from app.stats import analysis
from app.stats.histogram import Histogram


def _direction_summary(trials: list[TrialResult], direction: str) -> DirectionSummary | None:
    sides = [s for t in trials if t.measurement and (s := t.measurement.side(direction))]
    if not sides:
        return None
    counts = [n for t in trials if (n := t.ios(direction)) is not None]
    fewest = min(counts) if counts else None
    return DirectionSummary(
        iops=Stat(**analysis.summarize([s.iops for s in sides])),
        MBps=Stat(**analysis.summarize([s.MBps for s in sides])),
        lat_kind=sides[0].lat_kind,
        lat_us={k: _lat_stat(k, [s.lat(k) for s in sides], fewest) for k in LAT_KEYS},
        pooled=pooled(sides))


def _lat_stat(key: str, values: list[float | None], fewest: int | None) -> Stat:
    """Mean ± std of one latency statistic; a percentile is flagged too few (app/model/
    percentiles.py) when the repetition with the fewest I/Os has fewer than 10 beyond it: each
    repetition's percentile is read from its own I/Os, so the weakest one decides."""
    stat = Stat(**analysis.summarize(values))
    if key in PERCENTILE_KEYS and fewest is not None and too_few(key, fewest):
        return replace(stat, too_few=ios_beyond(key, fewest))
    return stat


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
    thin = []
    for p in POOLED_PERCENTILES:
        key = percentile_key(p)
        value = merged.percentile(p)
        values[key] = None if value is None else value / us
        ci = merged.ci95(p)
        ci95[key] = (ci[0] / us, ci[1] / us) if ci else None
        if too_few(key, merged.ios):
            thin.append(key)
    maxima = [m for s in sides if (m := s.lat("max")) is not None]
    top = merged.max_ns()
    return Pooled(merged.ios, values, ci95,
                  max(maxima) if maxima else None if top is None else top / us, tuple(thin))


def with_pooled(measurement: Mapping[str, Any]) -> dict[str, Any]:
    """An imported json+ measurement with ``lat_us.pooled`` per direction that has bins (its
    own I/Os: percentiles with 95 % intervals and the I/O count), as a run's summary has them,
    and ``too_few``: the I/Os beyond each of its percentiles that rests on fewer than 10
    (app/model/percentiles.py), so ``--json`` keeps such a value only beside its flag."""
    parsed = Measurement.from_json(measurement)
    out = dict(measurement)
    job = TrialResult(0, "imported", frozen(measurement.get("workload") or {}), "", 1, False,
                      TrialStatus.DONE, measurement=parsed)
    for direction, side in parsed.sides():
        got = pooled([side])
        if got is not None:
            out[direction] = {**out[direction],
                              "lat_us": {**(out[direction].get("lat_us") or {}),
                                         "pooled": got.to_json()}}
        ios = job.ios(direction)
        thin = {k: ios_beyond(k, ios) for k in PERCENTILE_KEYS
                if ios is not None and side.lat(k) is not None and too_few(k, ios)}
        if thin:
            out[direction] = {**out[direction], "too_few": thin}
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
