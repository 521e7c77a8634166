"""The one currency every output reads: a run's results, built once (app/results/build.py).

:class:`RunResults` holds the typed run, one :class:`ExperimentResults` per experiment (its
workload rows, its measured trials and its findings) and the live samples the findings of some
experiments need. Export, the Figures tab, the CLI's tables and ``--json``, compare and the live
window all read this object; none of them summarizes a run itself. See docs/architecture.md.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from app.model.experiment_entry import ExperimentEntry
from app.model.interval import Sample
from app.model.measurement import DIRECTIONS, LatencyKind
from app.model.run import Run
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult
from app.results.findings import NO_FINDINGS, Findings

F = TypeVar("F")


@dataclass(frozen=True)
class ExperimentResults:
    """One experiment of a run: its entry in run.json's ``experiments`` (title, parameters,
    how preconditioning ended), its workload rows (mean ± sample std per workload, plan order),
    the measured trials behind them and what its module derived from them (``findings``, the
    module's own typed value; its ``to_json`` is what run.json's summary stores)."""

    id: str
    entry: ExperimentEntry
    workloads: tuple[WorkloadSummary, ...]
    trials: tuple[TrialResult, ...]
    findings: Findings = NO_FINDINGS

    @cached_property
    def trials_by_key(self) -> Mapping[str, tuple[TrialResult, ...]]:
        """The measured trials of each workload key, grouped once: every workload row asks for
        its own (I/O counts, findings), and filtering all the trials for each row made a
        10,000-trial run's findings take seconds."""
        groups: dict[str, list[TrialResult]] = {}
        for t in self.trials:
            groups.setdefault(t.workload_key, []).append(t)
        return {k: tuple(v) for k, v in groups.items()}

    @cached_property
    def ios_by_key(self) -> Mapping[tuple[str, str], tuple[int, ...]]:
        """Per (workload key, direction), the I/Os of each measured trial that says: counted
        once, since every table, caption, figure panel and sentence asks again per row
        (88 times for a 10,000-trial zero-queue run, 220,000 trials walked)."""
        out: dict[tuple[str, str], tuple[int, ...]] = {}
        for key, trials in self.trials_by_key.items():
            for d in DIRECTIONS:
                out[key, d] = tuple(n for t in trials if (n := t.ios(d)) is not None)
        return out

    @property
    def lat_kind(self) -> LatencyKind | None:
        """The latency kind of the first workload that reports one, in plan order."""
        return next((w.lat_kind for w in self.workloads if w.lat_kind), None)

    def found(self, kind: type[F]) -> F | None:
        """The findings, as the experiment's own findings class ``kind`` (None when they are
        not: an experiment reads its own findings only)."""
        return self.findings if isinstance(self.findings, kind) else None

    def to_json(self) -> dict[str, Any]:
        """This experiment's entry of run.json's ``summary``."""
        return {"workloads": [w.to_json() for w in self.workloads], "findings": self.findings.to_json()}


@dataclass(frozen=True)
class RunResults:
    """A run's results: the typed run, its experiments' results in run order, and the samples
    of the trials whose experiments read them (``needs_samples``)."""

    run: Run
    parts: tuple[ExperimentResults, ...]
    samples: tuple[Sample, ...] = ()
    folder: Path | None = None

    def part(self, eid: str) -> ExperimentResults | None:
        return next((p for p in self.parts if p.id == eid), None)

    @property
    def lat_kind(self) -> LatencyKind | None:
        """The run's latency kind for axis labels: the first one any experiment reports."""
        return next((p.lat_kind for p in self.parts if p.lat_kind), None)

    def samples_of(self, trial: int) -> list[Sample]:
        return [s for s in self.samples if s.trial == trial]

    @cached_property
    def record(self) -> Mapping[str, Any]:
        """run.json as written, for the descriptive blocks the model keeps free-form (drive,
        host, target, engine, temperature)."""
        data = self.run.to_json()
        if self.folder is not None:
            data["dir"] = str(self.folder)
        return data

    def summary_json(self) -> dict[str, dict[str, Any]]:
        """run.json's ``summary``: per experiment, its workload rows and findings."""
        return {p.id: p.to_json() for p in self.parts}
