"""Per-interval series of a long write against the data written: shared by slc-cache (MB/s)
and write-saturation (IOPS), so both integrate "GB written" the same way.

Time convention (as slc-cache's docstring says): a sample is stamped at the end of its interval,
so a trial starts one interval before its first sample; GB = 10^9 B, from MB/s x seconds.
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
    first_gap = rows[1].t_s - rows[0].t_s if len(rows) > 1 else 1.0
    start, prev, gb, out = rows[0].t_s - first_gap, None, 0.0, []
    for s in rows:
        mbps = s.write_MBps or 0.0
        gb += mbps * (s.t_s - (prev if prev is not None else start)) / 1000.0
        prev = s.t_s
        out.append((s.t_s - start, gb, mbps, s.temperature_c, s.write_iops or 0.0))
    return out
