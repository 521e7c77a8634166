"""The state the test file was in when an experiment measured, in one sentence.

Why beside every table, figure and finding: the same drive measures faster fresh than after a
while of writing, so a number without its preconditioning cannot be compared or defended. Runs
made before the option existed have no ``precondition`` parameter and get no sentence, so their
tables export byte for byte as before.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.experiments.registry import experiment_of
from app.model.experiment_entry import ExperimentEntry
from app.results.figure import Figure
from app.results.run_results import RunResults
from app.results.table import Table
from app.stats.steady_state import PRECONDITION_BS, PRECONDITION_QD, WINDOW


def precondition_sentence(exp: ExperimentEntry) -> str:
    """E.g. 'Preconditioning: steady state reached in round 7 of at most 25 (4 KiB random
    writes, QD32, after writing the file twice).' ('' for runs without the option). ``exp`` is
    the experiment as the run lists it (:attr:`ExperimentResults.entry`)."""
    typed = experiment_of(exp)
    if typed is None or "precondition" not in exp.params:   # not recorded: said nothing before
        return ""
    mode = typed.precondition
    if mode == "none":
        return ("Preconditioning: none (the test file was written at most once before measuring; "
                "a fresh or idle drive can be faster than in steady use).")
    if mode == "fill":
        return "Preconditioning: the test file was written end to end twice before measuring."
    result = exp.precondition_result
    what = (f"{PRECONDITION_BS // 1024} KiB random writes, QD{PRECONDITION_QD}, after writing "
            "the file twice")
    if result and result.steady_round:
        return (f"Preconditioning: steady state reached in round {result.steady_round} of at "
                f"most {result.rounds_planned} ({what}; SNIA rule over {WINDOW} rounds).")
    if result:
        return (f"Preconditioning: steady state NOT reached in {result.rounds_run} rounds "
                f"({what}); the numbers may still drift.")
    return f"Preconditioning: steady-state rounds were planned ({what}) but did not finish."


def _sentences(results: RunResults) -> dict[str, str]:
    return {p.id: precondition_sentence(p.entry) for p in results.parts}


def with_precondition_notes(tables: Sequence[Table], results: RunResults) -> list[Table]:
    """Tables with their experiment's sentence first in their notes."""
    said = _sentences(results)
    return [replace(t, notes=(said[t.experiment], *t.notes)) if said.get(t.experiment) else t
            for t in tables]


def with_precondition_captions(figures: Sequence[Figure], results: RunResults) -> list[Figure]:
    """Figures with their experiment's sentence at the end of their caption."""
    said = _sentences(results)
    return [replace(f, caption=f"{f.caption} {said[f.experiment]}".strip())
            if said.get(f.experiment) else f for f in figures]
