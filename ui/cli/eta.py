"""Time left in a run, from its plan: what the remaining trials are planned to take, stretched
by how much longer than planned the finished ones took (engine start, file layout, stop).

Pure arithmetic on the events' numbers, so it is the same on a terminal and in a log file.
"""
from __future__ import annotations


class PlanEta:
    def __init__(self, planned_s: float):
        self.planned_left = planned_s      # planned seconds of trials not yet started
        self.current_planned = 0.0
        self.current_started: float | None = None
        self.spent = 0.0                   # actual seconds of finished trials
        self.spent_planned = 0.0           # their planned seconds

    def trial_started(self, now: float, expected_s: float) -> None:
        self.planned_left = max(0.0, self.planned_left - expected_s)
        self.current_planned, self.current_started = expected_s, now

    def trial_ended(self, now: float) -> None:
        if self.current_started is not None:
            self.spent += now - self.current_started
            self.spent_planned += self.current_planned
        self.current_started, self.current_planned = None, 0.0

    @property
    def stretch(self) -> float:
        """Actual over planned time so far (never below 1: a trial does not end early)."""
        return max(1.0, self.spent / self.spent_planned) if self.spent_planned > 0 else 1.0

    def seconds_left(self, now: float) -> float:
        current = 0.0
        if self.current_started is not None:
            current = max(0.0, self.current_planned * self.stretch - (now - self.current_started))
        return self.planned_left * self.stretch + current
