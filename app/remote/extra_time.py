"""The time a remote run takes beyond its trials, for ``--dry-run`` and the run's
estimate.

Every job through a fio server waits for a connection and for the server's idle loop, which
sleeps up to 1 s before it starts a job it has received (server.c ``handle_connection``).
Measured with fio 3.33 client and server on loopback: a read-only probe job takes 1.29-1.43 s
of wall clock; a 1 s trial 2.32-2.40 s (the same trial run locally: 1.36-1.41 s); the same trial
on two servers at once 2.49-2.53 s; trials run by the app (run.json ``elapsed_s`` minus the
runtime, 12 trials on one and two hosts) 1.32-1.49 s. So every job is counted at
``REMOTE_JOB_S`` beyond its own runtime; a real network adds its round trips on top.

The jobs of a remote run, one after another (several hosts run each one at the same time):
one read-only probe per component of the folder's path (``/srv`` then ``/srv/t``); per
experiment its prefill passes, its trials and one job removing its test file; at the end the
data folder's ``rmdir`` and a probe that it is gone.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from app.experiments.plan import RunPlan

REMOTE_JOB_S = 1.4
END_JOBS = 2  # rmdir, then the probe that the data folder is gone


@dataclass(frozen=True)
class RemoteCost:
    probes: int
    prefill: int
    trials: int
    removals: int
    end: int = END_JOBS

    @property
    def jobs(self) -> int:
        return self.probes + self.prefill + self.trials + self.removals + self.end

    @property
    def overhead_s(self) -> float:
        return round(self.jobs * REMOTE_JOB_S, 1)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "jobs": self.jobs, "per_job_s": REMOTE_JOB_S,
                "overhead_s": self.overhead_s}


def remote_cost(plan: RunPlan, folder_depth: int) -> RemoteCost:
    """The jobs of ``plan`` on a folder ``folder_depth`` components below ``/``."""
    return RemoteCost(probes=folder_depth,
                      prefill=sum(e.prefill_passes() for e in plan.experiments),
                      trials=len(plan.trials), removals=len(plan.experiments))


def remote_estimate_s(plan: RunPlan, folder_depth: int, probed: bool = False) -> float:
    """The planned trials' time plus every job's cost on the server; ``probed``: the probes are
    done (a run's start: what is left from there)."""
    cost = remote_cost(plan, 0 if probed else folder_depth)
    return plan.estimated_s + cost.overhead_s
