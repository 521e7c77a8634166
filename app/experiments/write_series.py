"""Per-interval series of a long write against the data written: shared by slc-cache (MB/s)
and write-saturation (IOPS), so both integrate "GB written" the same way.

Time convention (as slc-cache's docstring says): a sample is stamped at the end of its interval.
Each interval lasts its ``duration_s``, the engine's own timing that its rates are per, so the
time since the trial started is their running sum and GB written (10^9 B) is MB/s x duration,
exact (the trial's first interval is short: the engine's report timer starts before the job).
Samples from files written before durations were kept fall back on the stamps: an interval
lasts the gap to the one before, and the trial starts one interval before its first sample.
"""
from __future__ import annotations

from collections.abc import Iterable

from app.model.interval import Sample

Point = tuple[float, float, float, float | None, float]


def trial_series(samples: Iterable[Sample], trial: int) -> list[Point]:
    """(t since trial start s, GB written, write MB/s, temperature °C, write IOPS) per interval."""
    rows = sorted((s for s in samples if s.trial == trial), key=lambda s: s.t_s)
    if not rows:
        return []
    out, t, gb = [], 0.0, 0.0
    for dt, s in zip(durations(rows), rows):
        mbps = s.write_MBps or 0.0
        t, gb = t + dt, gb + mbps * dt / 1000.0
        out.append((t, gb, mbps, s.temperature_c, s.write_iops or 0.0))
    return out


def durations(rows: list[Sample]) -> list[float]:
    """How long each of one trial's samples (in time order) lasted: the engine's own
    ``duration_s`` when every sample has one, else the gaps between the stamps (the first
    interval as long as the second)."""
    if all(s.duration_s is not None and s.duration_s > 0 for s in rows):
        return [s.duration_s or 0.0 for s in rows]
    gaps = [max(b.t_s - a.t_s, 0.0) for a, b in zip(rows, rows[1:])]
    return [gaps[0] if gaps else 1.0, *gaps]
