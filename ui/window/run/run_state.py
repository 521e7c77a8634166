"""What the window's run view is showing: no run yet, a run being prepared or refused by its
checks, or a run with its run.json status (app/model/status.py).

An enum, so a typo is an AttributeError instead of a comparison that is never true. It is a
:class:`enum.StrEnum` whose run states are the words of :class:`RunStatus`, so the view's texts
("Run done.") and a reopened run's status read the same as run.json.
"""
from __future__ import annotations

import enum

from app.model.status import RunStatus


class RunState(enum.StrEnum):
    IDLE = "idle"            # nothing run or reopened yet
    PREPARING = "preparing"  # checks and run folder under way (no RunStarted yet)
    REFUSED = "refused"      # the checks refused the run: nothing was written
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @classmethod
    def of(cls, status: RunStatus) -> RunState:
        """The state a run with run.json's ``status`` is shown in."""
        return cls(status.value)

    @property
    def final(self) -> bool:
        """The run has ended (done, failed or cancelled)."""
        return self in (RunState.DONE, RunState.FAILED, RunState.CANCELLED)
