"""The state the test file was in when an experiment measured, in one sentence (issue 16).

Why beside every table, figure and finding: the same drive measures faster fresh than after a
while of writing, so a number without its preconditioning cannot be compared or defended. Runs
made before the option existed have no ``precondition`` parameter and get no sentence, so their
tables export byte for byte as before.
"""
from __future__ import annotations

from dataclasses import replace

from app.stats.steady_state import PRECONDITION_BS, PRECONDITION_QD, WINDOW


def precondition_sentence(exp: dict) -> str:
    """E.g. 'Preconditioning: steady state reached in round 7 of at most 25 (4 KiB random
    writes, QD32, after writing the file twice).' ('' for runs without the option)."""
    mode = (exp.get("params") or {}).get("precondition")
    if mode is None or isinstance(mode, bool):
        return ""
    if mode == "none":
        return ("Preconditioning: none (the test file was written at most once before measuring; "
                "a fresh or idle drive can be faster than in steady use).")
    if mode == "fill":
        return "Preconditioning: the test file was written end to end twice before measuring."
    result = exp.get("precondition_result") or {}
    what = (f"{PRECONDITION_BS // 1024} KiB random writes, QD{PRECONDITION_QD}, after writing "
            "the file twice")
    if result.get("steady_round"):
        return (f"Preconditioning: steady state reached in round {result['steady_round']} of at "
                f"most {result.get('rounds_planned')} ({what}; SNIA rule over {WINDOW} rounds).")
    if result:
        return (f"Preconditioning: steady state NOT reached in {result.get('rounds_run')} rounds "
                f"({what}); the numbers may still drift.")
    return f"Preconditioning: steady-state rounds were planned ({what}) but did not finish."


def with_precondition(items: list, record: dict, field: str) -> list:
    """Tables (``notes``) or figures (``caption``) with their experiment's sentence added."""
    sentences = {e.get("id"): precondition_sentence(e) for e in record.get("experiments", [])}
    out = []
    for item in items:
        sentence = sentences.get(item.experiment) or ""
        if not sentence:
            out.append(item)
        elif field == "notes":
            out.append(replace(item, notes=(sentence, *item.notes)))
        else:
            out.append(replace(item, caption=f"{item.caption} {sentence}".strip()))
    return out
