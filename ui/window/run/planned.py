"""A planned trial as the run views show it (charts' boundaries, progress): from the run's plan
while it runs, from run.json's planned and finished trials when it is reopened."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from app.experiments.plan import trial_kind
from app.model.workload import Workload


@dataclass(frozen=True)
class PlannedTrial:
    index: int
    experiment: str
    label: str
    repetition: int
    warmup: bool
    expected_s: float
    reads: bool
    writes: bool
    precondition: bool = False

    @property
    def caption(self) -> str:
        """Chart label of the trial boundary, e.g. 'RND4K Q32T1 read #2'."""
        if self.precondition or self.warmup:
            return f"{self.label} ({trial_kind(self.warmup, self.repetition, self.precondition)})"
        return f"{self.label} #{self.repetition}"



def planned_from_json(t: Mapping[str, Any]) -> PlannedTrial:
    try:
        reads, writes = _directions(*_WORKLOAD(t["workload"]))
    except (KeyError, TypeError, ValueError):   # not a workload (or unhashable): both drawn
        reads = writes = True
    return PlannedTrial(t["index"], t["experiment"], t["label"], t["repetition"], t["warmup"],
                        float(t.get("runtime_s") or 0) + float(t.get("ramp_s") or 0), reads, writes,
                        bool(t.get("precondition")))


_WORKLOAD = itemgetter("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")


@lru_cache(maxsize=1024, typed=True)
def _directions(*values: Any) -> tuple[bool, bool]:
    """Whether a workload reads and writes, checked once per distinct workload: a reopened run
    of 10,000 trials has a handful of workloads, and checking each trial made 20,000 of them."""
    w = Workload(*values)
    return w.reads, w.writes
