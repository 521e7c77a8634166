"""The plan line under the experiment list: trials, time, pre-fill, and what may not hold.

Why its own function: what a run will do must read the same whether it is a fixed plan ("about
8:02") or one that may stop early at steady state ("up to 25:00"), with preconditioning rounds
counted apart from warm-ups, and warnings (too few I/Os for a stated percentile) under it.
"""
from __future__ import annotations

import html
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.experiments import CATALOG
from app.experiments.base import Experiment, prefill_note
from app.experiments.plan import RunPlan, experiments_from_settings, plan_run, precision_note
from app.params import ParamError
from app.stats.io_counts import reach_warnings
from ui.window import theme

if TYPE_CHECKING:
    from ui.window.setup.param_form import ParamForm

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlanInfo:
    ok: bool
    message: str
    trials: int = 0
    estimated_s: float = 0.0
    size_bytes: int | None = None


def plan_message(ids: list[str], experiments: list[Experiment], plan: RunPlan) -> str:
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


def compute_plan(ids: list[str], form_of: Callable[[str], ParamForm], settings: Callable[[], dict[str, str]]) -> PlanInfo:
    """The plan of the ticked experiments, or why there is none: the first invalid field
    (its reason is beside it in its form), so Run stays disabled while anything is wrong."""
    if not ids:
        return PlanInfo(False, "Tick at least one experiment to run.")
    bad = [(eid, name, msg) for eid in ids for name, msg in form_of(eid).validate().items()]
    if bad:
        eid, name, msg = bad[0]
        where = f"{eid} \u2192 {form_of(eid).title_of(name)}" if name else eid
        return PlanInfo(False, f"Fix {where}: {msg}"
                        + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))
    try:
        experiments = experiments_from_settings(ids, settings())
        plan = plan_run(experiments, seed=0)
    except ParamError as exc:
        eid = exc.name if exc.name in CATALOG else next(
            (i for i in ids if exc.name.startswith(i)), ids[0])
        form_of(eid).show_form_error(exc.message)
        return PlanInfo(False, f"{eid}: {exc.message}")
    except Exception as exc:  # noqa: BLE001 - a stale plan would leave Run enabled: block it
        log.exception("planning failed")  # the exception's type goes to the log, not the user
        return PlanInfo(False, f"cannot plan this run: {exc}")
    size = max(e.size for e in experiments)
    message = plan_message(ids, experiments, plan)
    return PlanInfo(True, message, len(plan.trials), plan.estimated_s, size)
