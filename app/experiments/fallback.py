"""Results no experiment module owns: ``imported`` measurements (``ssd-profiler import
--save``) and ids this version does not know (a run folder from another version).

They are not experiments (nothing to plan, no parameters, not in the catalog), but their run
folders must export like any other, so the registry hands out these stand-ins with the same
result interface as :class:`app.experiments.base.Experiment`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.model.interval import Sample
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult
from app.results.figure import Figure
from app.results.findings import NO_FINDINGS, Findings
from app.results.table import W_COLS, W_KEYS, Column, Table, generic_table
from app.stats.io_counts import trial_mark

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

IMPORTED = "imported"
PCTS = ("p99", "p99.9")   # the percentiles the imported table shows


class UnregisteredResults:
    """An id no module registers: the plain workload table, nothing derived."""

    needs_samples = False

    def __init__(self, eid: str) -> None:
        self.id = eid

    def findings(self, workloads: tuple[WorkloadSummary, ...], trials: tuple[TrialResult, ...],
                 samples: tuple[Sample, ...]) -> Findings:
        return NO_FINDINGS

    def tables(self, part: ExperimentResults, run: RunResults) -> list[Table]:
        return [generic_table(part, run)]

    def figures(self, part: ExperimentResults, run: RunResults) -> list[Figure]:
        return []

    def sentences(self, part: ExperimentResults, run: RunResults) -> list[str]:
        return []

    def headline(self, part: ExperimentResults, run: RunResults) -> None:
        return None


class _Imported(UnregisteredResults):
    """Imported job entries: one row per job and direction, as the engine reported them
    (nothing aggregated, nothing guessed), and how many entries there were."""

    def tables(self, part: ExperimentResults, run: RunResults) -> list[Table]:
        return [_imported_table(run)]

    def sentences(self, part: ExperimentResults, run: RunResults) -> list[str]:
        n = len(run.run.trials)
        return [f"{n} imported job entr{'y' if n == 1 else 'ies'}, {len(part.workloads)} "
                "distinct workloads (entries with the same workload are aggregated as "
                "repetitions)."]


ImportedResults = _Imported(IMPORTED)


def _imported_table(run: RunResults) -> Table:
    """One row per imported job and direction: nothing aggregated, nothing guessed."""
    entries = [(t, m, d, side) for t in run.run.trials if (m := t.measurement) is not None
               for d, side in m.sides()]
    # a job's own percentile on too few of its I/Os: Markdown shows the mark, the CSV keeps the
    # value beside a too-few flag (a flag column only where one is thin: app/model/percentiles.py)
    marks = [{k: trial_mark(t, d, k) for k in PCTS} for t, _, d, _ in entries]
    flagged = [k for k in PCTS if any(mk[k] for mk in marks)]
    cols = [Column("Job", "job"), Column("Source", "source"), *W_COLS[:4],
            Column("Direction", "direction"), Column("IOPS", "iops", 0), Column("MB/s", "MBps", 1),
            Column("Mean lat. (µs)", "lat_mean_us", 1)]
    for k in PCTS:
        cols += [Column(f"{k} (µs)", f"lat_{k}_us", 1, where="md"),
                 Column(f"{k} (µs)", f"lat_{k}_us", 1, where="csv"),
                 *([Column(k, f"lat_{k}_us_too_few", where="csv")] if k in flagged else [])]
    cols += [Column("Latency kind", "lat_kind"), Column("Engine", "engine_version")]
    rows: list[tuple[Any, ...]] = []
    for (t, m, d, side), mk in zip(entries, marks):
        w = m.workload or t.workload
        pcts = [c for k in PCTS for c in (mk[k] or side.lat(k), side.lat(k),
                                          *([bool(mk[k])] if k in flagged else []))]
        rows.append((m.job, m.source, *(w.get(k) for k in W_KEYS[:4]), d, side.iops,
                     side.MBps, side.lat("mean"), *pcts, side.lat_kind, m.engine_version))
    return Table("imported", "Imported measurements", tuple(cols), tuple(rows),
                 ("One row per job entry and direction as the engine reported it; workload "
                  "fields the file did not state are empty.",), "imported")
