"""A trial as run.json records it once it has ended: what was planned (app.experiments.plan.Trial), how it
ended (:class:`app.model.status.TrialStatus`) and, when it finished, what the engine measured.

The run folder stays the contract: :meth:`TrialResult.from_json` reads a record of any version
and :meth:`TrialResult.to_json` gives it back equal, keys the model does not name (argv, raw file
names, time stamps, throttle details) carried in ``extra``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.model.measurement import Measurement, frozen, unknown
from app.model.status import TrialStatus
from app.model.workload import outstanding, workload_key


@dataclass(frozen=True)
class TrialResult:
    index: int
    experiment: str
    workload: Mapping[str, Any]
    label: str
    repetition: int
    warmup: bool
    status: TrialStatus
    runtime_s: float | None = None
    error: str | None = None
    measurement: Measurement | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    KEYS = ("index", "experiment", "workload", "label", "repetition", "warmup", "runtime_s",
            "status", "error", "measurement")

    @property
    def measured(self) -> bool:
        """A measured repetition: finished, not a warm-up, with a measurement to count."""
        return self.status is TrialStatus.DONE and not self.warmup and self.measurement is not None

    @property
    def precondition(self) -> bool:
        """A preconditioning round (precondition=steady), not one of the experiment's trials."""
        return bool(self.extra.get("precondition"))

    @property
    def throttled(self) -> bool:
        """Thermal throttling was suspected during the trial (app/drive/throttle.py)."""
        return bool(self.extra.get("throttled"))

    @property
    def throttle(self) -> Mapping[str, Any]:
        """The throttle check: which signals fired and what they saw ({} when not recorded)."""
        found = self.extra.get("throttle")
        return found if isinstance(found, Mapping) else {}

    @property
    def outstanding(self) -> int:
        return outstanding(self.workload)

    @property
    def workload_key(self) -> str:
        return workload_key(self.workload)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TrialResult:
        m = data.get("measurement")
        return cls(index=data["index"], experiment=data["experiment"],
                   workload=frozen(data.get("workload")), label=data.get("label", ""),
                   repetition=data.get("repetition", 1), warmup=bool(data.get("warmup")),
                   status=TrialStatus(data["status"]), runtime_s=data.get("runtime_s"),
                   error=data.get("error"), measurement=Measurement.from_json(m) if m else None,
                   extra=unknown(data, cls.KEYS))

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "experiment": self.experiment,
                "workload": dict(self.workload), "label": self.label,
                "repetition": self.repetition, "warmup": self.warmup,
                "runtime_s": self.runtime_s, "status": self.status, "error": self.error,
                "measurement": self.measurement.to_json() if self.measurement else None,
                **self.extra}
