"""What a list of runs shows of one run folder, read straight from its run.json.

A runs browser lists every folder of a runs root; typing each run whole (10,000 trials each)
to list it would cost seconds, so this reads only the few facts a listing shows, with the same
tolerance for run folders of earlier versions as the typed model (a missing key is empty).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.model.status import TrialStatus


@dataclass(frozen=True)
class RunHeadline:
    started_at: str          # ISO time, '' when run.json does not say
    experiments: tuple[str, ...]
    status: str
    trials_done: int
    trials_planned: int      # the plan's count, else the trials that ended (an older run.json)
    target: str              # the target folder, '' when unknown
    error: str | None

    @classmethod
    def read(cls, record: Mapping[str, Any]) -> RunHeadline:
        """The headline of a loaded run.json (app/store/read_run.py: load_run)."""
        trials = record.get("trials") or []
        target = record.get("target") or {}
        error = record.get("error")
        return cls(str(record.get("started_at") or ""),
                   tuple(str(e.get("id", "?")) for e in record.get("experiments") or []),
                   str(record.get("status")), sum(t.get("status") == TrialStatus.DONE for t in trials),
                   len(record.get("planned_trials") or []) or len(trials),
                   str(target.get("folder") or ""), None if error is None else str(error))
