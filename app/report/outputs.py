"""A run's tables, figure specs and findings sentences, experiment by experiment.

Each experiment module says what it shows (app/experiments/); this module only walks the run's
experiments in order and asks the registry, so it knows no experiment by name. Results of ids
no module registers (imported measurements, runs from another version) come out through the
registry's fallback. The vendor comparison is not an experiment and is appended at the end.
Results beyond the link's ceiling or under the latency floor are flagged afterwards, the same
way for every experiment (app/results/plausibility_notes.py).
"""
from __future__ import annotations

from typing import Any

from app.experiments.registry import results_for
from app.remote.host_tables import host_table
from app.report.precondition_note import (
    precondition_sentence,
    with_precondition_captions,
    with_precondition_notes,
)
from app.results.figure import Figure
from app.results.plausibility_notes import flag_figures, flag_tables, sentences
from app.results.run_results import ExperimentResults, RunResults
from app.results.table import Table
from app.specs import outputs as vendor_outputs
from app.specs.comparison import VendorComparison


def build_tables(results: RunResults, comparison: VendorComparison | None = None) -> list[Table]:
    """Every table of a run, in experiment order, then the vendor comparison."""
    out: list[Table] = []
    for part in results.parts:
        out += results_for(part.id).tables(part, results)
        hosts = host_table(results.run, part.id)  # several remote hosts: each on its own
        if hosts is not None:
            out.append(hosts)
    out = flag_tables(with_precondition_notes(out, results), results)
    if comparison:
        out.append(vendor_outputs.vendor_table(comparison))
    return out


def build_figures(results: RunResults, vendor_comparison: VendorComparison | None = None,
                  only: str | None = None) -> list[Figure]:
    """Every figure of a run, in experiment order; experiments without finished trials give none.
    ``only`` names one experiment: the live view redraws the running experiment at each trial's
    end and must not pay for the others' figures."""
    out: list[Figure] = []
    for part in results.parts:
        if part.workloads and only in (None, part.id):
            out += results_for(part.id).figures(part, results)
    out = flag_figures(with_precondition_captions(out, results), results)
    if vendor_comparison:
        fig = vendor_outputs.vendor_figure(vendor_comparison)
        if fig:
            out.append(fig)
    return out


def finding(part: ExperimentResults, key: str) -> Any:
    """One finding of an experiment (None when it has none): the one place reports read one."""
    return part.findings.to_json().get(key)


def findings(part: ExperimentResults, results: RunResults) -> list[str]:
    """The findings of one experiment as the window's results views and the CLI show them: the
    experiment module's ``sentences`` (the report's Findings and its too-few-I/Os caveats), then
    how its preconditioning ended and its plausibility flags (the report's Setup and Caveats)."""
    if not part.workloads:
        return []
    state = precondition_sentence(part.entry)
    flags = sentences(part, results.run.info)
    return list(results_for(part.id).sentences(part, results)) + ([state] if state else []) + flags
