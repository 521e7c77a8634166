"""One entry of run.json's ``experiments`` list: which experiment ran, under what title, with
which parameters and workloads in plan order, how its preconditioning ended and, for
tail-latency at the knee, where its depths came from (docs/architecture.md).

Typed once where run.json is read (:meth:`app.model.run.Run.from_json`) so tables, figures and
report.md read fields instead of digging keys out of dicts; a key this version does not know
stays in ``extra`` and run.json is written back key for key (app/model/block.py). ``params``
stays the mapping run.json records (each experiment's own parameters, app/params.py); the
experiment it describes, typed, is :func:`app.experiments.registry.experiment_of`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.model.block import READERS, Block, register_block
from app.model.measurement import frozen


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: expected text, not {type(value).__name__}")
    return value


def _params(value: object, where: str) -> Mapping[str, Any]:
    return READERS["Mapping[str, Any] | None"](value, where) or frozen({})


def _keys(value: object, where: str) -> tuple[str, ...]:
    return READERS["tuple[str, ...] | None"](value, where) or ()


READERS.update({"str": _text, "Mapping[str, Any]": _params, "tuple[str, ...]": _keys})


@dataclass(frozen=True, kw_only=True)
class PreconditionResult(Block):
    """How steady-state preconditioning ended (jobs/run/precondition.py); the IOPS of each
    round stay in ``extra`` (``rounds_iops``)."""

    mode: str | None = None
    rounds_run: int | None = None
    rounds_planned: int | None = None
    steady_round: int | None = None


register_block(PreconditionResult)


@dataclass(frozen=True, kw_only=True)
class ExperimentEntry(Block):
    id: str = ""
    title: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    workload_keys: tuple[str, ...] = ()
    precondition_result: PreconditionResult | None = None
    followed: str | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> ExperimentEntry:
        """An entry from the JSON object the run writes (live, before run.json is read back)."""
        return cls.from_json(data, "experiments[]") or cls()


register_block(ExperimentEntry)
