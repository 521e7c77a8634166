"""The words a run and a trial can end with, as enums, so a typo is an AttributeError, not a
comparison that is silently never true.

Both are :class:`enum.StrEnum`: a member *is* its word. ``json.dumps`` writes ``"done"``, the csv
module writes ``done``, ``str()`` and f-strings give ``done``, and a member equals the plain
string, so run.json and trials.csv stay byte for byte what they were, and a run.json written by
an earlier version (plain strings) compares equal without converting anything on load.
"""
from __future__ import annotations

import enum


class RunStatus(enum.StrEnum):
    """``run.json``'s ``status``: running while trials go on, then one of the rest."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def final(self) -> bool:
        """True once the run has ended (any status but running)."""
        return self is not RunStatus.RUNNING


class TrialStatus(enum.StrEnum):
    """A trial's ``status`` in run.json and trials.csv: a trial is written only when it ends."""

    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


class JobStatus(enum.StrEnum):
    """An engine job's ``status`` in a measurement: whether the engine itself reported the job as
    run (fio's ``error`` field, DiskSpd's result); a failed job has null results."""

    OK = "ok"
    FAILED = "failed"


FINAL_RUN_STATUSES = (RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED)
