"""A planned trial as the run views show it (charts' boundaries, progress): from the run's plan
while it runs, from run.json's planned and finished trials (typed: app/model) when it is reopened."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.experiments.plan import trial_kind
from app.model.info import PlannedEntry
from app.model.trial import TrialResult
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


def planned_from_entry(p: PlannedEntry) -> PlannedTrial:
    """A trial of run.json's ``planned_trials``; KeyError naming the first field it lacks of
    those every plan writes (the reopen refuses the folder in one line: app/results/load.py)."""
    if p.index is None:
        raise KeyError("index")
    if p.experiment is None:
        raise KeyError("experiment")
    if p.label is None:
        raise KeyError("label")
    if p.repetition is None:
        raise KeyError("repetition")
    if p.warmup is None:
        raise KeyError("warmup")
    reads, writes = _directions_of(p.workload)
    return PlannedTrial(p.index, p.experiment, p.label, p.repetition, p.warmup,
                        (p.runtime_s or 0.0) + (p.ramp_s or 0.0), reads, writes, bool(p.precondition))


def planned_from_result(t: TrialResult) -> PlannedTrial:
    """A trial that ended, as planned (a run.json older than ``planned_trials`` lists only these)."""
    reads, writes = _directions_of(t.workload)
    return PlannedTrial(t.index, t.experiment, t.label, t.repetition, t.warmup,
                        (t.runtime_s or 0.0) + (t.ramp_s or 0.0), reads, writes, t.precondition)


_WORKLOAD_KEYS = ("rw", "bs_bytes", "iodepth", "numjobs", "rwmixread")


def _directions_of(workload: Mapping[str, Any] | None) -> tuple[bool, bool]:
    """Whether the trial reads and writes; both when run.json's workload is not a workload."""
    try:
        return _directions(*(workload[k] for k in _WORKLOAD_KEYS)) if workload else (True, True)
    except (KeyError, TypeError, ValueError):   # not a workload (or unhashable): both drawn
        return True, True


@lru_cache(maxsize=1024, typed=True)
def _directions(*values: Any) -> tuple[bool, bool]:
    """Whether a workload reads and writes, checked once per distinct workload: a reopened run
    of 10,000 trials has a handful of workloads, and checking each trial made 20,000 of them."""
    w = Workload(*values)
    return w.reads, w.writes
