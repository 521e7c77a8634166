"""What the steady rate of a trial needs of one of fio's cumulative status documents
(app/engines/fio/steady.py), small enough to keep one per document while the trial runs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.units import KiB

DIRECTIONS = ("read", "write")


@dataclass(frozen=True)
class StatusCount:
    """What the steady rate needs of one cumulative document: fio's wall time (ms, None when
    it has none), its runtime (ms) and each direction's bytes completed, its jobs summed.
    The live stream keeps one per document as it parses them (app/engines/fio/live.py), so a
    trial's end does not parse its status documents a second time."""

    timestamp_ms: float | None
    runtime_ms: float
    done: dict[str, float]

    @classmethod
    def of(cls, doc: dict[str, Any]) -> StatusCount:
        """ValueError or TypeError where a count is not a number."""
        jobs = doc.get("jobs") or doc.get("client_stats") or []
        runtime, done = 0.0, {}
        for direction in DIRECTIONS:
            total = 0.0
            for job in jobs:
                d = job.get(direction) or {}
                raw = float(d.get("io_bytes") or 0)
                total += raw if "io_kbytes" in d else raw * KiB
                runtime = max(runtime, float(d.get("runtime") or 0))
            done[direction] = total
        stamp = doc.get("timestamp_ms")
        return cls(float(stamp) if isinstance(stamp, (int, float)) else None, runtime, done)
