"""Deciding the rest of a run's plan from what it has measured: an experiment whose parameters
follow an earlier one's findings (tail-latency at the knee queue-depth found).

Why here and not in the plan: the plan is fixed before the run (its trial count, order and
seed are recorded), but the knee is known only once queue-depth's trials have ended. So when
an experiment's turn comes the runner asks it (:meth:`app.experiments.base.Experiment.follow`)
with the typed results so far; a changed experiment keeps its trials' count, order and
indices, only their workloads change, and run.json records the new parameters, workloads and
the sentence saying why (``experiments[i].followed``), so the report can tell measured depths
from presets.
"""
from __future__ import annotations

from dataclasses import replace

from app.experiments.base import Experiment
from app.experiments.plan import Trial
from app.params import values_json
from app.results.build import build_results
from app.store.run_folder import RunStore
from jobs.events import Event, LogMessage, PlanFollowed


def follow_earlier(exp: Experiment, trials: list[Trial], store: RunStore
                   ) -> tuple[Experiment, list[Trial], tuple[Event, ...]]:
    """``exp`` and its planned ``trials``, adapted to the experiments that ran before it in
    this run (unchanged when it follows nothing), and the events that say so: the log line,
    and :class:`PlanFollowed` for the window's live view."""
    run = store.run()
    ended = {t.experiment for t in run.trials}
    if not ended:
        return exp, trials, ()
    results = build_results(run)
    followed = exp.follow([p for p in results.parts if p.id in ended and p.id != exp.id])
    if followed is None:
        return exp, trials, ()
    new, note = followed
    before, after = exp.workloads(), new.workloads()
    if len(before) != len(after) or len(set(after)) != len(after):
        return exp, trials, ()   # the plan's count and order must hold
    swap = dict(zip(before, after))
    trials = [replace(t, workload=swap.get(t.workload, t.workload)) for t in trials]
    changed = {"params": values_json(new), "workload_keys": [w.key for w in after], "followed": note}
    store.note_experiment(exp.id, **changed)
    store.replan(trials)
    store.save()
    return new, trials, (LogMessage(f"{exp.id}: {note}"), PlanFollowed(
        exp.id, changed, {t.index: t.workload.label for t in trials}))
