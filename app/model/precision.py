"""A workload's achieved precision: the relative half-width of the 95 % interval of its mean
IOPS and MB/s, how it was found, the target it was measured to, whether it got there, and when
it did not, what would (docs/precision.md, "Honest outcomes").

Present only for workloads measured with a precision target; run.json's summary and the trial
records carry it as the ``precision`` block the runner writes (jobs/run/precision_stop.py). Blocks
written before the method and the outlook were recorded load with those fields empty.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.units import duration_text

#: A drift or trend below this (relative) is not worth a sentence.
WORTH_SAYING = 0.001


@dataclass(frozen=True)
class Precision:
    target: float                  # 0.02 = ±2 %
    iops: float | None             # achieved relative half-width; None: one repetition, no interval
    MBps: float | None
    reached: bool
    repetitions: int
    tail: str | None = None        # e.g. 'p99.9': a tail workload's pooled percentile
    tail_rel: float | None = None  # its 95 % interval's relative half-width
    method: str | None = None      # e.g. 'between runs, t with 1 df' (the wider of IOPS, MB/s)
    out_of_reach: bool = False     # stopped early: the target could not be reached by max_time
    needed_reps: int | None = None     # what would reach it: this many repetitions ...
    needed_rep_s: float | None = None  # ... of this many seconds each
    drift: float | None = None     # repetitions' spread beyond their own noise (relative std)
    trend: float | None = None     # first to last repetition's mean (relative), moving one way
    #: within the repetitions too correlated for batch means: first to last third (relative;
    #: said when larger than the target)
    within_drift: float | None = None
    #: why some repetition's samples gave no batch means: 'few samples' or 'correlated samples'
    unbatched: str | None = None
    projected: bool = False        # the time was projected (needed_reps None then: over 100)

    @property
    def achieved(self) -> float | None:
        """The wider of the IOPS and MB/s half-widths (None when either is unknown)."""
        if self.iops is None or self.MBps is None:
            return None
        return max(self.iops, self.MBps)

    def text(self, advice: bool = True) -> str:
        """E.g. '±0.8 %', '±4.8 %, target ±2 %: not reached' or with the method and the advice
        '±13.1 % (between runs, t with 1 df), target ±2 %: not reached, out of reach by max_time;
        about 12 repetitions of 0:30 (6:00 of measuring: ...) would reach it'. Without
        ``advice`` (a table cell: the advice follows the table) the part before the ';'."""
        if self.achieved is None:
            got = "± unknown (a single repetition)"
        else:
            got = f"±{self.achieved * 100:.1f} %" + (f" ({self.method})" if self.method else "")
        tail = "" if self.tail is None else (
            f"; {self.tail} ±{self.tail_rel * 100:.1f} %" if self.tail_rel is not None
            else f"; {self.tail} ± n/a")
        if self.reached:
            return got + tail
        stop = ", out of reach by max_time" if self.out_of_reach else ""
        said = self.advice() if advice else ""
        return f"{got}{tail}, target ±{self.target * 100:g} %: not reached{stop}" + (
            f"; {said}" if said else "")

    def advice(self) -> str:
        """What would reach the target: the drive's own drift or trend when the repetitions
        show one, and the repetitions and time the evidence projects ('' when nothing is known)."""
        parts = []
        if self.within_drift is not None and abs(self.within_drift) > self.target:
            parts.append(f"within each repetition the rate moved {self.within_drift * 100:+.1f} % "
                         "from its first third to its last (a cache or a thermal state: the "
                         "mean depends on how long a run is)")
        elif self.unbatched == "few samples":
            parts.append("the repetitions were too short for batch means within them (5 samples "
                         "at least): longer ones (max_time) or a shorter interval would give them")
        elif self.unbatched == "correlated samples":
            parts.append("the repetitions' samples are too correlated for batch means (the rate "
                         "wanders within a run): longer repetitions (max_time) may settle it")
        if self.trend is not None and abs(self.trend) >= WORTH_SAYING:
            parts.append(f"the mean moved {self.trend * 100:+.1f} % from the first repetition to "
                         "the last (the drive drifts: a cache, background work or a thermal state)")
        elif self.drift is not None and self.drift >= WORTH_SAYING:
            parts.append(f"the repetitions differ by ±{self.drift * 100:.1f} % beyond their own "
                         "noise (the drive itself drifts between runs: more runs help, longer "
                         "ones little)")
        if self.needed_reps is not None and self.needed_rep_s is not None:
            parts.append(f"about {self.needed_reps} repetitions of "
                         f"{duration_text(self.needed_rep_s)} "
                         f"({duration_text(self.needed_reps * self.needed_rep_s)} of measuring: "
                         f"repetitions={self.needed_reps}, "
                         f"max_time={self.needed_reps * self.needed_rep_s:.0f}s) would reach it")
        elif self.projected:
            parts.append("more than 100 repetitions would be needed: at ±"
                         f"{self.target * 100:g} % this drive's rate is not a steady quantity")
        return "; ".join(parts)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Precision | None:
        if not data:
            return None
        return cls(float(data["target"]), data.get("iops"), data.get("MBps"),
                   bool(data.get("reached")), int(data.get("repetitions", 0)),
                   data.get("tail"), data.get("tail_rel"), data.get("method"),
                   bool(data.get("out_of_reach")), data.get("needed_reps"),
                   data.get("needed_rep_s"), data.get("drift"), data.get("trend"),
                   data.get("within_drift"), data.get("unbatched"), bool(data.get("projected")))

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "iops": self.iops, "MBps": self.MBps,
                "reached": self.reached, "repetitions": self.repetitions,
                **({"tail": self.tail, "tail_rel": self.tail_rel} if self.tail else {}),
                **({"method": self.method} if self.method else {}),
                **({"out_of_reach": True} if self.out_of_reach else {}),
                **({"needed_reps": self.needed_reps, "needed_rep_s": self.needed_rep_s}
                   if self.needed_reps is not None else {}),
                **({"drift": self.drift} if self.drift is not None else {}),
                **({"trend": self.trend} if self.trend is not None else {}),
                **({"within_drift": self.within_drift} if self.within_drift is not None else {}),
                **({"unbatched": self.unbatched} if self.unbatched else {}),
                **({"projected": True} if self.projected else {})}
