"""A planned trial as the run views show it (charts' boundaries, progress): from the run's plan
while it runs, from run.json's planned and finished trials when it is reopened."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
        w = Workload.from_json(t["workload"])
        reads, writes = w.reads, w.writes
    except (KeyError, TypeError, ValueError):
        reads = writes = True
    return PlannedTrial(t["index"], t["experiment"], t["label"], t["repetition"], t["warmup"],
                        float(t.get("runtime_s") or 0) + float(t.get("ramp_s") or 0), reads, writes,
                        bool(t.get("precondition")))
