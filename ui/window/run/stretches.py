"""Where each experiment of the run lies on the time axis and how far it has got (no Qt).

Why: a full course run is six or more experiments and well over a hundred trials; drawn on one
axis each trial is a fragment of a pixel or two. The charts show one experiment's stretch at a
time and the timeline shows every experiment as one block, both from these stretches. Computed
when a trial starts or ends (never per sample): a few hundred boundaries cost nothing.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.window.run.planned import PlannedTrial
    from ui.window.run.run_model import RunModel

DONE, RUNNING, TO_DO, NOT_RUN = "done", "running", "to do", "not run"


@dataclass(frozen=True)
class Stretch:
    id: str
    title: str
    state: str                 # done | running | to do | not run (a run that ended early)
    start: float | None        # run time (s) of its first trial's start; None before it ran
    end: float | None          # the next experiment's start, or the last sample's time
    ended: int                 # trials that ended (done, failed or cancelled)
    trials: int                # planned trials
    expected_s: float          # planned seconds of its trials

    def contains(self, t_s: float) -> bool:
        return self.start is not None and self.end is not None and self.start <= t_s <= self.end


def stretches(model: RunModel, t_end: float) -> list[Stretch]:
    """One stretch per experiment of ``model`` (a RunModel), in the run's order."""
    planned: dict[str, list[PlannedTrial]] = {}
    for trial in model.planned.values():
        planned.setdefault(trial.experiment, []).append(trial)
    ended = Counter(t.experiment for t in model.trials)   # the trials that ended, typed
    starts = [t for t, _ in model.boundaries]
    first: dict[str, float] = {}
    last_index: dict[str, int] = {}
    for i, (t_s, trial) in enumerate(model.boundaries):
        first.setdefault(trial.experiment, t_s)
        last_index[trial.experiment] = i
    current = model.current.experiment if model.current is not None and not model.finished else None
    out = []
    for x in model.experiments:
        eid = x.id
        mine = planned.get(eid, [])
        start = first.get(eid)
        end = None
        if start is not None:
            after = last_index[eid] + 1
            end = starts[after] if after < len(starts) else max(t_end, start)
        done = ended[eid]
        if eid == current:
            state = RUNNING
        elif mine and done >= len(mine):
            state = DONE
        elif model.finished:
            state = DONE if done and not mine else NOT_RUN
        else:
            state = TO_DO
        out.append(Stretch(eid, x.title or eid, state, start, end, done, len(mine),
                           sum(t.expected_s for t in mine)))
    return out
