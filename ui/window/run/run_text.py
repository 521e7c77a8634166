"""How a run ended, in the same words everywhere: the progress strip, the results caption, the
status bar and the log."""
from __future__ import annotations

from collections import Counter
from typing import Protocol

from app.model.status import RunStatus, TrialStatus
from app.model.trial import TrialResult


class EndedRun(Protocol):
    """What the sentence reads of the run on screen (ui/window/run/run_model.py's RunModel)."""

    error: str | None
    trials: list[TrialResult]

    @property
    def trial_count(self) -> int: ...


CANCELLED_EARLY = "Run cancelled before it started; nothing was written."


def trials_text(trials: list[TrialResult], total: int) -> str:
    """How the trials of a run ended, in the same words everywhere (progress, results caption,
    status bar, log): '3 of 12 trials done, 1 cancelled (not counted)'. A cancelled trial is
    neither done nor failed: it was stopped on request and is kept in run.json as cancelled."""
    counts = Counter(t.status for t in trials)
    text = f"{counts[TrialStatus.DONE]} of {total} trials done"
    for status in (TrialStatus.CANCELLED, TrialStatus.FAILED):
        if counts[status]:
            text += f", {counts[status]} {status}"
    return text + (" (not counted)" if len(trials) > counts[TrialStatus.DONE] else "")


def run_end_text(status: str, model: EndedRun, run_dir: str | None) -> str:
    """The one sentence for a run that ended, whichever way it ended."""
    where = f"; folder {run_dir}" if run_dir else ""
    why = f" ({model.error})" if model.error and status != RunStatus.CANCELLED else ""
    return f"Run {status}{why}: {trials_text(model.trials, model.trial_count)}{where}"
