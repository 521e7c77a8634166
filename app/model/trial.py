"""A trial as run.json records it once it has ended: what was planned (app.experiments.plan.Trial), how it
ended (:class:`app.model.status.TrialStatus`) and, when it finished, what the engine measured.

The run folder stays the contract: :meth:`TrialResult.from_json` reads a record of any version
and :meth:`TrialResult.to_json` gives it back equal, keys the model does not name (argv, raw file
names, time stamps, throttle details) carried in ``extra``; the ones its readers need (the
command line, start time, sample interval, throttling, precision) are also read from there once
into typed fields, so nothing downstream digs them out of ``extra`` by key.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.model.block import READERS
from app.model.measurement import Measurement, frozen, unknown
from app.model.precision import Precision
from app.model.status import TrialStatus
from app.model.workload import outstanding, workload_key

#: The keys of ``extra`` the model reads, by how they are read (app/model/block.py).
_FROM_EXTRA = {"argv": "tuple[str, ...] | None", "job_argv": "tuple[str, ...] | None",
               "started_at": "str | None", "interval_s": "float | None", "ramp_s": "float | None",
               "precondition": "bool | None",
               "throttled": "bool | None", "throttle": "Mapping[str, Any] | None",
               "precision": "Mapping[str, Any] | None"}
_READ = tuple((name, READERS[kind]) for name, kind in _FROM_EXTRA.items())
_NONE = frozen({})   # read-only: one empty mapping serves every trial without a throttle check


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
    # Read from ``extra`` once (see __post_init__), never written: ``extra`` is what to_json gives back.
    argv: tuple[str, ...] | None = field(init=False)      # the engine's command line
    job_argv: tuple[str, ...] | None = field(init=False)  # the job's own, on a remote host
    started_at: str | None = field(init=False)            # ISO time the trial started
    interval_s: float | None = field(init=False)          # its live samples' interval
    ramp_s: float | None = field(init=False)              # its ramp before measuring (planned)
    precondition: bool = field(init=False)  # a preconditioning round (precondition=steady)
    throttled: bool = field(init=False)     # thermal throttling suspected (app/drive/throttle.py)
    throttle: Mapping[str, Any] = field(init=False)       # the check: signals and what they saw
    precision: Precision | None = field(init=False)       # precision so far (app/model/precision.py)

    KEYS = frozenset(("index", "experiment", "workload", "label", "repetition", "warmup",
                      "runtime_s", "status", "error", "measurement"))

    @property
    def measured(self) -> bool:
        """A measured repetition: finished, not a warm-up, with a measurement to count."""
        return self.status is TrialStatus.DONE and not self.warmup and self.measurement is not None

    @property
    def outstanding(self) -> int:
        return outstanding(self.workload)

    @property
    def workload_key(self) -> str:
        return workload_key(self.workload)

    @property
    def bs_bytes(self) -> int | None:
        """The workload's block size (None where an imported engine output did not say it)."""
        bs = self.workload.get("bs_bytes")
        return int(bs) if isinstance(bs, (int, float)) and not isinstance(bs, bool) and bs > 0 else None

    def ios(self, direction: str) -> int | None:
        """The I/Os this trial completed in ``direction`` (None when the engine did not say):
        ``io_bytes / bs_bytes`` (exact for fio and DiskSpd), else ``iops x runtime`` (imported
        results without byte counts). What a percentile rests on: app/stats/io_counts.py."""
        side = self.measurement.side(direction) if self.measurement else None
        if side is None:
            return None
        bs = self.bs_bytes
        if side.io_bytes and bs:
            return int(round(side.io_bytes / bs))
        seconds = (side.runtime_ms or 0) / 1000 or self.runtime_s
        if side.iops is not None and seconds:
            return int(round(side.iops * seconds))
        return None

    def __post_init__(self) -> None:
        """The typed fields from ``extra``, with the tolerance of run.json's blocks: a key an
        earlier version did not write is None (False, {}), a wrong type a ValueError naming it."""
        get = self.extra.get   # a key left out is None without its reader (10,000 trials x 8)
        raw = {name: None if (value := get(name)) is None else read(value, name) for name, read in _READ}
        raw.update(precondition=bool(raw["precondition"]), throttled=bool(raw["throttled"]),
                   throttle=raw["throttle"] or _NONE, precision=Precision.from_json(raw["precision"]))
        for name, value in raw.items():
            object.__setattr__(self, name, value)

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
