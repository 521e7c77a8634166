"""A workload's achieved precision: the relative half-width of the 95 % interval of its mean
IOPS and MB/s, the target it was measured to and whether it got there (docs/precision.md).

Present only for workloads measured with a precision target; run.json's summary and the trial
records carry it as the ``precision`` block the runner writes (jobs/run/precision.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Precision:
    target: float                  # 0.02 = ±2 %
    iops: float | None             # achieved relative half-width; None: no interval (too few samples)
    MBps: float | None
    reached: bool
    repetitions: int
    tail: str | None = None        # e.g. 'p99.9': a tail workload's pooled percentile
    tail_rel: float | None = None  # its 95 % interval's relative half-width

    @property
    def achieved(self) -> float | None:
        """The wider of the IOPS and MB/s half-widths (None when either is unknown)."""
        if self.iops is None or self.MBps is None:
            return None
        return max(self.iops, self.MBps)

    def text(self) -> str:
        """E.g. '±0.8 %' or '±4.8 %, target ±2 %: not reached'."""
        got = "± unknown (too few or drifting samples)" if self.achieved is None else f"±{self.achieved * 100:.1f} %"
        tail = "" if self.tail is None else (
            f"; {self.tail} ±{self.tail_rel * 100:.1f} %" if self.tail_rel is not None
            else f"; {self.tail} ± n/a")
        if self.reached:
            return got + tail
        return f"{got}{tail}, target ±{self.target * 100:g} %: not reached"

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Precision | None:
        if not data:
            return None
        return cls(float(data["target"]), data.get("iops"), data.get("MBps"),
                   bool(data.get("reached")), int(data.get("repetitions", 0)),
                   data.get("tail"), data.get("tail_rel"))

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "iops": self.iops, "MBps": self.MBps,
                "reached": self.reached, "repetitions": self.repetitions,
                **({"tail": self.tail, "tail_rel": self.tail_rel} if self.tail else {})}
