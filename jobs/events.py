"""What the trial runner tells its consumer (CLI or window), as frozen values.

Only immutable values cross threads: tuples instead of lists, and measurement or
summary data deep-copied and handed over once, never touched again by the runner.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.model.interval import Sample
from app.model.status import RunStatus
from app.model.trial import TrialResult
from app.results.run_results import RunResults


@dataclass(frozen=True)
class RunStarted:
    run_dir: str
    experiments: tuple[str, ...]
    trial_count: int
    estimated_s: float
    engine: str
    engine_version: str | None
    seed: int
    open_ended: bool = False   # it may end early (steady state): estimated_s is an upper bound


@dataclass(frozen=True)
class LogMessage:
    text: str
    level: str = "info"     # info | warning | error | command


@dataclass(frozen=True)
class TrialStarted:
    index: int
    experiment: str
    label: str
    repetition: int
    warmup: bool
    argv: tuple[str, ...]
    t_s: float              # run time at which the trial started
    expected_s: float       # runtime + ramp, for progress and ETA
    precondition: bool = False   # a round of precondition=steady (unmeasured, like a warm-up)


@dataclass(frozen=True)
class TrialFinished:
    index: int
    label: str
    record: TrialResult            # the trial as run.json keeps it


@dataclass(frozen=True)
class TrialFailed:
    index: int
    label: str
    error: str
    stderr_tail: str
    cancelled: bool
    record: TrialResult


@dataclass(frozen=True)
class RunFinished:
    status: RunStatus              # done | failed | cancelled
    run_dir: str
    results: RunResults | None     # None when the run never began (a failed set-up)
    error: str | None = None

    @property
    def summary(self) -> dict[str, Any]:
        """run.json's ``summary`` of the run (its results, per experiment)."""
        return self.results.summary_json() if self.results else {}


@dataclass(frozen=True)
class PlanFollowed:
    """An experiment whose parameters follow what the run measured before it, decided when its
    turn came (jobs/run/follow.py): run.json's new ``experiments[i]`` entry (params,
    workload_keys and the ``followed`` sentence) and the label each of its trials now runs."""

    experiment: str
    entry: Mapping[str, Any]
    labels: Mapping[int, str]


@dataclass(frozen=True)
class PrecisionUpdate:
    """A trial measured to a precision target, after a live interval: how precisely its
    workload is known now (relative half-width of the 95 % interval; None: not yet known)."""

    trial: int
    achieved: float | None
    target: float
    out_of_reach: bool = False   # the target cannot be reached by max_time: stopping

    def text(self) -> str:
        got = ("± known once a second repetition or enough samples for batch means come"
               if self.achieved is None else f"±{self.achieved * 100:.1f} %")
        return f"{got} (target ±{self.target * 100:g} %" + (
            ", out of reach by max_time: stopping)" if self.out_of_reach else ")")


__all__ = ["Event", "LogMessage", "PlanFollowed", "PrecisionUpdate", "RunFinished", "RunStarted",
           "Sample", "TrialFailed", "TrialFinished", "TrialStarted"]

Event = (RunStarted | LogMessage | PlanFollowed | TrialStarted | Sample | PrecisionUpdate
         | TrialFinished | TrialFailed | RunFinished)
