"""The one place a run's results are computed: typed run (+ its samples) -> :class:`RunResults`.

Only measured trials count (finished, not warm-ups); each experiment's workloads are grouped by
workload key in plan order (the run's ``workload_keys``, then any the plan did not list) and its
findings come from its own module through the registry, so this module knows no experiment by
name. Export, the window (live and reopened), the CLI and compare all call :func:`build_results`.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from app.experiments.registry import results_for
from app.model.interval import Sample
from app.model.run import Run
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult
from app.results.run_results import ExperimentResults, RunResults
from app.results.summarize import workload_summary


def series_trials(run: Run) -> set[int]:
    """The measured trials whose live samples some experiment's findings read."""
    return {t.index for t in run.measured() if results_for(t.experiment).needs_samples}


def build_results(run: Run, samples: Sequence[Sample] = (), folder: Path | None = None,
                  earlier: RunResults | None = None) -> RunResults:
    """Every experiment's workload rows and findings; ``samples`` are the live samples of
    :func:`series_trials` (others are ignored). ``earlier``: the same run's results before its
    last trials ended (the window rebuilds them at each trial's end). An experiment with no new
    trial, and a workload row with no new repetition, is kept from it, not computed again: at
    the end of a long run a trial's end costs what it cost at its start."""
    wanted = series_trials(run)
    mine_samples = tuple(s for s in samples if s.trial in wanted)
    parts = []
    for exp in run.experiments:
        eid = exp.id
        mine = [t for t in run.measured(eid)]
        before = earlier.part(eid) if earlier is not None else None
        if before is not None and before.entry == exp and _indexes(before.trials) == _indexes(mine):
            parts.append(before)
            continue
        groups: dict[str, list[TrialResult]] = {}
        for t in mine:
            groups.setdefault(t.workload_key, []).append(t)
        order = list(exp.workload_keys)
        keys = [k for k in order if k in groups] + [k for k in groups if k not in order]
        kept = _unchanged_rows(before, groups)
        rows = tuple(kept.get(k) or workload_summary(groups[k]) for k in keys)
        indexes = {t.index for t in mine}
        trial_samples = tuple(s for s in mine_samples if s.trial in indexes)
        findings = results_for(eid).findings(rows, tuple(mine), trial_samples)
        parts.append(ExperimentResults(eid, exp, rows, tuple(mine), findings))
    return RunResults(run, tuple(parts), mine_samples, folder)


def _indexes(trials: Sequence[TrialResult]) -> list[int]:
    return [t.index for t in trials]


def _unchanged_rows(before: ExperimentResults | None,
                    groups: dict[str, list[TrialResult]]) -> dict[str, WorkloadSummary]:
    """The earlier rows whose workload has the same repetitions now."""
    if before is None:
        return {}
    had = before.trials_by_key
    return {row.key: row for row in before.workloads
            if row.key in groups and _indexes(had.get(row.key, ())) == _indexes(groups[row.key])}
