"""A run's tables, figure specs and report sentences, experiment by experiment.

Each experiment module says what it shows (app/experiments/); this module only walks the run's
experiments in order and asks the registry, so it knows no experiment by name. Results of ids
no module registers (imported measurements, runs from another version) come out through the
registry's fallback. The vendor comparison is not an experiment and is appended at the end.
Results beyond the link's ceiling or under the latency floor are flagged afterwards, the same
way for every experiment (app/results/plausibility.py).
"""
from __future__ import annotations

from app.experiments.registry import results_for
from app.remote.host_tables import host_table
from app.report.precondition import precondition_sentence, with_precondition
from app.results.figure import Figure, lat_kind
from app.results.plausibility import flag_figures, flag_tables, sentences
from app.results.table import Table
from app.vendor import outputs as vendor_outputs


def build_tables(record: dict, summary: dict, comparison: dict | None = None) -> list[Table]:
    """Every table of a run, in experiment order, then the vendor comparison."""
    out: list[Table] = []
    for exp in record.get("experiments", []):
        eid = exp["id"]
        part = summary.get(eid) or {"workloads": [], "findings": {}}
        out += results_for(eid).tables(part, record)
        hosts = host_table(record, eid)  # several remote hosts: each on its own (issue 18)
        if hosts is not None:
            out.append(hosts)
    out = with_precondition(out, record, "notes")
    out = flag_tables(out, record, summary)
    if comparison:
        out.append(vendor_outputs.vendor_table(comparison))
    return out


def build_figures(record: dict, summary: dict, samples: list[dict] | None = None,
                  vendor_comparison: dict | None = None) -> list[Figure]:
    """Every figure of a run, in experiment order; experiments without finished trials give none."""
    kind = lat_kind(summary)
    out: list[Figure] = []
    for exp in record.get("experiments", []):
        eid = exp["id"]
        part = summary.get(eid) or {}
        if not part.get("workloads"):
            continue
        out += results_for(eid).figures(part, kind, record, samples or [])
    out = with_precondition(out, record, "caption")
    out = flag_figures(out, record, summary)
    if vendor_comparison:
        fig = vendor_outputs.vendor_figure(vendor_comparison)
        if fig:
            out.append(fig)
    return out


def findings(eid: str, part: dict, record: dict) -> list[str]:
    """One-sentence findings of one experiment for report.md and the results view."""
    if not part.get("workloads"):
        return []
    part = {"workloads": part["workloads"], "findings": part.get("findings") or {}}
    exp = next((e for e in record.get("experiments", []) if e.get("id") == eid), {})
    state = precondition_sentence(exp)
    flags = sentences(eid, record, {eid: part})
    return results_for(eid).sentences(part, record) + ([state] if state else []) + flags
