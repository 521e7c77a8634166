"""A sample experiment for tests/app/experiments/test_catalog_grows.py, never imported by the app:
the test copies it into place beside docs/architecture.md's example to show that a catalog of
any length needs no edit to another test or to the window. It is left out of `run all`, so it
also moves what `run all` leaves out.

Sequential fill, then 4 KiB random reads at QD1 and QD32: how much parallelism a full drive gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.experiments.base import Experiment
from app.experiments.registry import register
from app.model.workload import Workload
from app.params import param
from app.stats.steady_state import PRECONDITIONS
from app.units import KiB


@dataclass(frozen=True)
class Scaling:
    gain: float | None  # IOPS at the deepest queue over IOPS at QD1

    def to_json(self) -> dict[str, Any]:
        return {"gain": self.gain}


@register
@dataclass(frozen=True)
class FillThenRead(Experiment):
    id: ClassVar[str] = "fill-then-read"
    title: ClassVar[str] = "Random reads of a filled file (QD1 and QD32)"
    summary: ClassVar[str] = "sequential fill, then 4 KiB random reads: the gain from parallelism"
    in_all: ClassVar[bool] = False

    precondition: str = param("fill", kind="choice", choices=PRECONDITIONS,
                              help="the test file's state before measuring: filled by default")
    depths: tuple[int, ...] = param((1, 32), kind="int_list", minimum=1, maximum=256,
                                    label="Queue depths", help="queue depths of the random reads")

    def workloads(self) -> list[Workload]:
        return [Workload("randread", 4 * KiB, depth) for depth in self.depths]

    @classmethod
    def findings(cls, workloads, trials, samples) -> Scaling:
        iops = {w.outstanding: w.total_iops.mean for w in workloads}
        low, high = iops.get(min(iops, default=0)), iops.get(max(iops, default=0))
        return Scaling(high / low if low and high else None)

    @classmethod
    def sentences(cls, part, run) -> list[str]:
        gain = found.gain if (found := part.found(Scaling)) else None
        return [f"Deep queues read {gain:.1f}× the IOPS of QD1 on the filled file."] if gain else []
