"""precondition=steady during a run: skip the remaining rounds once the SNIA rule holds.

Why its own object: the plan holds up to ``precondition_rounds`` rounds per experiment (a plan is
fixed before the run), but how many are needed is known only while they run. The runner asks
:meth:`PreconditionRounds.skip` before each trial and :meth:`PreconditionRounds.after` after each
round; :attr:`PreconditionRounds.outcome` goes into run.json (``experiments[i].precondition_result``)
so the tables, figures and report can say in which state the file was measured.
"""
from __future__ import annotations

from typing import Any

from app.experiments.base import Experiment
from app.experiments.plan import Trial
from app.model.trial import TrialResult
from app.stats.steady_state import first_steady_round


class PreconditionRounds:
    def __init__(self, exp: Experiment):
        self.exp, self.done = exp, False
        self.iops: list[float | None] = []  # None: a round that measured nothing
        self.planned = exp.precondition_rounds if exp.precondition_workload() else 0
        self.outcome: dict[str, Any] | None = None   # run.json's precondition_result, once ended

    def skip(self, trial: Trial) -> bool:
        return trial.precondition and self.done

    def after(self, trial: Trial, result: TrialResult) -> str | None:
        """After a trial: a log line when preconditioning just ended (steady or out of rounds)."""
        if not trial.precondition:
            return None
        self.iops.append(result.measurement.total_iops if result.measurement else None)
        found = first_steady_round(self.iops)
        if found is None and len(self.iops) < self.planned:
            return None
        self.done = True
        self.outcome = {
            "mode": "steady", "rounds_run": len(self.iops), "rounds_planned": self.planned,
            "steady_round": found.last_round if found else None, "rounds_iops": list(self.iops)}
        if found:
            return (f"{self.exp.id}: preconditioned to steady state in round {found.last_round} "
                    f"({found.describe()}); measuring now")
        return (f"{self.exp.id}: preconditioning did not reach steady state in {self.planned} "
                "rounds; measuring anyway (the tables say so)")
