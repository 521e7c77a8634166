"""A run as run.json holds it: status, the experiments asked for, every trial that ended and,
once the run has ended, the summary per experiment (docs/architecture.md).

Everything else in run.json (drive, host, target, engine, temperature, SMART before and after)
is descriptive: it travels in ``extra`` as it was read, so :meth:`Run.to_json` gives back the
same JSON, and :attr:`Run.info` reads it as typed values (app/model/info.py); each entry of
``experiments`` is typed the same way (app/model/experiment_entry.py). The summary's ``findings`` belong to each
experiment's module (app.experiments) and stay plain JSON values.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from app.model.block import READERS
from app.model.experiment_entry import ExperimentEntry
from app.model.info import RunInfo
from app.model.measurement import frozen, unknown
from app.model.status import RunStatus
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult


@dataclass(frozen=True)
class ExperimentSummary:
    workloads: tuple[WorkloadSummary, ...]
    findings: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExperimentSummary:
        return cls(tuple(WorkloadSummary.from_json(w) for w in data.get("workloads") or []),
                   frozen(data.get("findings")))

    def to_json(self) -> dict[str, Any]:
        return {"workloads": [w.to_json() for w in self.workloads], "findings": dict(self.findings)}


@dataclass(frozen=True)
class Run:
    status: RunStatus
    experiments: tuple[ExperimentEntry, ...]
    trials: tuple[TrialResult, ...]
    summary: Mapping[str, ExperimentSummary]
    extra: Mapping[str, Any] = field(default_factory=dict)

    KEYS = frozenset(("status", "experiments", "trials", "summary"))

    @cached_property
    def info(self) -> RunInfo:
        """The descriptive blocks, typed; ValueError naming the field when one has a wrong type."""
        return RunInfo.read(self.extra)

    def measured(self, experiment: str | None = None) -> list[TrialResult]:
        """The repetitions that count (finished, not warm-ups), of one experiment or all."""
        return [t for t in self.trials
                if t.measured and (experiment is None or t.experiment == experiment)]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Run:
        entries = READERS["tuple[ExperimentEntry, ...] | None"](data.get("experiments"), "experiments")
        return cls(RunStatus(data["status"]), entries or (),
                   tuple(TrialResult.from_json(t) for t in data.get("trials") or []),
                   frozen({k: ExperimentSummary.from_json(v) for k, v in (data.get("summary") or {}).items()}),
                   unknown(data, cls.KEYS))

    def to_json(self) -> dict[str, Any]:
        return {**self.extra, "status": self.status,
                "experiments": [e.to_json() for e in self.experiments],
                "trials": [t.to_json() for t in self.trials],
                "summary": {k: v.to_json() for k, v in self.summary.items()}}
