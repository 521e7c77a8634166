"""The plan line under the experiment list: trials, time, pre-fill, and what may not hold.

Why its own function: what a run will do must read the same whether it is a fixed plan ("about
8:02") or one that may stop early at steady state ("up to 25:00"), with preconditioning rounds
counted apart from warm-ups, and warnings (too few I/Os for a stated percentile) under it.
"""
from __future__ import annotations

import html

from app.experiments.base import prefill_note
from app.experiments.plan import precision_note
from app.stats.io_counts import reach_warnings
from ui.window import theme


def plan_message(ids: list[str], experiments: list, plan) -> str:
    """Rich text for the window (escaped)."""
    rounds = sum(t.precondition for t in plan.trials)
    warm = sum(t.warmup for t in plan.trials) - rounds
    extra = "".join(f" + {n} {what}" for n, what in ((warm, "warm-up"),
                                                      (rounds, "precondition rounds at most")) if n)
    message = (f"<b>Plan ({html.escape(', '.join(ids))}):</b> {len(plan.trials)} trials "
               f"({len(plan.trials) - warm - rounds} measured{extra}); "
               f"<b>{html.escape(plan.time_text())}</b>"
               f" of measuring, plus a few seconds per trial; "
               f"{html.escape(prefill_note(experiments))}.")
    for warning in reach_warnings(plan):
        message += "<br>" + theme.span("warning", html.escape(warning))
    left = [e.id for e in experiments if "precision" in e.keeps_own and e.precision != "off"]
    if left:   # its form offers the choice, and ±2 % chosen there did nothing without a word
        message += "<br>" + theme.span("warning", html.escape(precision_note(left)) + ".")
    return message
