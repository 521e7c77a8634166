"""Expanding experiments into trials: repetitions, warm-up and randomized order.

Randomization is *blocked*: every repetition round holds each workload once, in its own shuffled
order, so slow drift (heat, background work) spreads over all workloads instead of piling on one.
Warm-up trials (one per workload, unmeasured) come first. The seed is recorded in run.json so the
order can be reproduced.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.experiments import CATALOG, PRESETS, Experiment, expand_ids
from app.model.workload import Workload
from app.params import ParamError, build, fields_of
from app.units import duration_text

#: The least ramp of a repetition measured to a precision target (docs/precision.md, "Starts").
PRECISION_RAMP_S = 1.0


@dataclass(frozen=True)
class Trial:
    index: int                 # position in the run, 0-based
    experiment: str            # experiment id
    workload: Workload
    repetition: int            # 1-based; 0 for a warm-up
    warmup: bool
    runtime_s: float
    ramp_s: float
    size_bytes: int
    direct: bool
    interval_s: float
    precondition: bool = False  # a round of precondition=steady: unmeasured, like a warm-up
    io_bytes: int | None = None  # write this much, with runtime_s as the bound (write-saturation)
    #: a precision target (0.02 = ±2 %): runtime_s is then the most this trial runs, min_s the
    #: least, and the runner stops it once the workload's interval is that narrow (jobs/run/precision_stop.py)
    precision: float | None = None
    min_s: float | None = None

    @property
    def name(self) -> str:
        """File-name-safe id, e.g. '003_zero-queue_randread-4096-q1-t1_r2'."""
        tag = (f"precondition{self.repetition}" if self.precondition else
               "warmup" if self.warmup else f"r{self.repetition}")
        return f"{self.index:03d}_{self.experiment}_{self.workload.key}_{tag}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "experiment": self.experiment,
                "workload": self.workload.to_json(), "label": self.workload.label,
                "repetition": self.repetition, "warmup": self.warmup,
                "runtime_s": self.runtime_s, "ramp_s": self.ramp_s, "size_bytes": self.size_bytes,
                "direct": self.direct, "interval_s": self.interval_s,
                **({"precondition": True} if self.precondition else {}),
                **({"io_bytes": self.io_bytes} if self.io_bytes else {}),
                **({"precision_target": self.precision, "min_s": self.min_s} if self.precision else {})}


def trial_kind(warmup: bool, repetition: int, precondition: bool = False, word: str = "rep") -> str:
    """How a trial is named in progress lines and tables, the same everywhere: 'rep 2',
    'warm-up' or 'precondition round 3' (``word`` = 'repetition' where there is room)."""
    if precondition:
        return f"precondition round {repetition}"
    return "warm-up" if warmup else f"{word} {repetition}"


@dataclass(frozen=True)
class RunPlan:
    experiments: tuple[Experiment, ...]
    seed: int
    trials: tuple[Trial, ...] = field(default=())

    @property
    def estimated_s(self) -> float:
        """The planned trials' time; an upper bound when :attr:`open_ended`."""
        return sum(t.runtime_s + t.ramp_s for t in self.trials)

    @property
    def least_s(self) -> float:
        """The planned trials' time when every precision target is reached at the minimum (two
        repetitions of min_s each, warm-ups of min_s, the rest skipped); :attr:`estimated_s`
        when no trial has a target."""
        return sum(t.runtime_s + t.ramp_s if t.precision is None else
                   (t.min_s or 0.0) + t.ramp_s if t.warmup or t.repetition <= 2 else 0.0
                   for t in self.trials)

    def time_text(self) -> str:
        """The measuring time in words: 'about 1:20', 'up to 3:00', or with precision targets
        the range 'between 0:40 and 3:00' (reached at the minimum .. every maximum)."""
        if self.least_s < self.estimated_s and any(t.precision for t in self.trials):
            return f"between {duration_text(self.least_s)} and {duration_text(self.estimated_s)}"
        return f"{'up to' if self.open_ended else 'about'} {duration_text(self.estimated_s)}"

    @property
    def open_ended(self) -> bool:
        """True when trials may be skipped or cut short (steady state holds, a precision target
        is reached): say "up to", not "about"."""
        return (any(e.open_ended() for e in self.experiments)
                or any(t.precision is not None for t in self.trials))


def plan_experiment(exp: Experiment, rng: random.Random, start: int = 0) -> list[Trial]:
    """Trials of one experiment, indices from ``start``."""
    workloads = exp.workloads()
    order: list[tuple[Workload, int, bool]] = []
    rounds = _precondition_rounds(exp, start)
    start += len(rounds)
    if exp.warmup:
        warm = list(workloads)
        if exp.randomize:
            rng.shuffle(warm)
        order += [(w, 0, True) for w in warm]
    target = exp.precision_target()
    repetitions = exp.repetitions if target is None else max(2, exp.repetitions)
    for rep in range(1, repetitions + 1):
        round_ = list(workloads)
        if exp.randomize:
            rng.shuffle(round_)
        order += [(w, rep, False) for w in round_]
    if target is None:
        return rounds + [Trial(start + i, exp.id, w, rep, warm, exp.runtime, exp.ramp, exp.size,
                               exp.direct, exp.interval, io_bytes=exp.io_bytes())
                         for i, (w, rep, warm) in enumerate(order)]
    # precision: a workload's max_time shared by its repetitions, min_time by the first two; each
    # repetition starts with a ramp, so fio's numbers leave out the run's start as its
    # statistics do (docs/precision.md, "Starts")
    least, most = exp.min_time / 2, max(exp.max_time / repetitions, exp.min_time / 2)
    ramp = max(exp.ramp, PRECISION_RAMP_S)
    return rounds + [Trial(start + i, exp.id, w, rep, warm, least if warm else most,
                           exp.ramp if warm else ramp,
                           exp.size, exp.direct, exp.interval, io_bytes=exp.io_bytes(),
                           precision=None if warm else target, min_s=None if warm else least)
                     for i, (w, rep, warm) in enumerate(order)]


def _precondition_rounds(exp: Experiment, start: int) -> list[Trial]:
    """precondition=steady: up to ``precondition_rounds`` rounds of the SNIA workload before the
    experiment's own trials, each as long as its runtime (at most a minute, SNIA's round), in
    order; the runner skips the rest once the rule holds (app.stats.steady_state)."""
    workload = exp.precondition_workload()
    if workload is None:
        return []
    seconds = min(exp.runtime, 60.0)
    return [Trial(start + k, exp.id, workload, k + 1, True, seconds, 0.0, exp.size, exp.direct,
                  exp.interval, precondition=True) for k in range(exp.precondition_rounds)]


def plan_run(experiments: list[Experiment], seed: int | None = None) -> RunPlan:
    """All trials of a run, experiment after experiment, with one recorded seed."""
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    rng = random.Random(seed)
    trials: list[Trial] = []
    for exp in experiments:
        trials += plan_experiment(exp, rng, start=len(trials))
    return RunPlan(tuple(experiments), seed, tuple(trials))


def experiments_from_settings(names: list[str], settings: dict[str, str]) -> list[Experiment]:
    """Build the named experiments with ``NAME=VALUE`` settings.

    ``NAME`` applies to every selected experiment that has such a parameter, except those that
    keep their own value of it (:func:`kept_own`); ``EXPERIMENT.NAME`` applies to that one only.
    A name no selected experiment knows is an error.
    """
    try:
        ids = expand_ids(names)
    except KeyError as exc:
        raise ParamError("experiment", exc.args[0]) from None
    if not ids:
        raise ParamError("experiment", "name at least one experiment (or all)")
    kept = kept_own(ids, settings)
    used: set[str] = set()
    experiments = []
    for eid in ids:
        cls = CATALOG[eid]
        known = {f.name for f in fields_of(cls)}
        mine: dict[str, str] = {}
        for key, value in settings.items():
            scope, _, name = key.rpartition(".")
            if scope and scope != eid:
                continue
            if name in known:
                used.add(key)
                if not scope and name in kept.get(eid, ()):
                    continue
                mine[name] = value
        experiments.append(build(cls, mine))
    unused = [k for k in settings if k not in used]
    if unused:
        raise ParamError(unused[0], f"no selected experiment ({', '.join(ids)}) has this parameter")
    return experiments


def kept_own(ids: list[str], settings: dict[str, str]) -> dict[str, list[str]]:
    """Per experiment, the settings given for all (``NAME=VALUE``, no experiment named) that it
    keeps its own value of: those its meaning rests on (``Experiment.keeps_own``: the SLC
    test's duration and volume), as long as another selected experiment takes the setting. When
    only such experiments have the parameter, the setting can only be meant for them and applies."""
    out: dict[str, list[str]] = {}
    for name in (k for k in settings if "." not in k):
        takers = [e for e in ids if name in {f.name for f in fields_of(CATALOG[e])}]
        keepers = [e for e in takers if name in CATALOG[e].keeps_own]
        if keepers != takers:
            for eid in keepers:
                out.setdefault(eid, []).append(name)
    return out


def kept_note(kept: dict[str, list[str]]) -> str:
    """E.g. 'slc-cache keeps its own runtime and size (its result rests on them; set
    slc-cache.runtime=... to change them)'."""
    parts = []
    for eid, names in kept.items():
        them = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        it = "it" if len(names) == 1 else "them"
        parts.append(f"{eid} keeps its own {them} (its result rests on {it}; set "
                     f"{eid}.{names[0]}=... to change {it})")
    return "; ".join(parts)


def precision_left_alone(ids: list[str], settings: dict[str, str]) -> list[str]:
    """The selected experiments given a precision target (for all, or by name) that are never
    measured to one: their result is their duration and volume, or their rounds end by the SNIA
    rule (``keeps_own`` names precision; docs/precision.md). The setting does nothing for them,
    so the CLI says so: ``run steady-state --precision 2%`` ran without a word, and the note of
    ``run all --precision 2%`` told to set ``slc-cache.precision=...``, which did nothing either."""
    return [eid for eid in ids if "precision" in CATALOG[eid].keeps_own
            and settings.get(f"{eid}.precision", settings.get("precision", "off")) != "off"]


def precision_note(left: list[str]) -> str:
    """E.g. 'slc-cache and steady-state are not measured to a precision target: ...'."""
    names = " and ".join([", ".join(left[:-1]), left[-1]] if len(left) > 1 else left)
    return (f"{names} {'is' if len(left) == 1 else 'are'} not measured to a precision target: "
            f"{'it keeps its own rule' if len(left) == 1 else 'they keep their own rules'} "
            "(docs/precision.md)")


def settings_with_preset(names: list[str], preset: str | None, settings: dict[str, str]) -> dict[str, str]:
    """``settings`` over a preset's values, as the window applies a preset: a preset value goes
    to every selected experiment that has the parameter and is skipped by the others (a preset
    is for any experiment), while a ``settings`` name no selected experiment knows stays an
    error (:func:`experiments_from_settings`)."""
    if not preset:
        return dict(settings)
    if preset not in PRESETS:
        raise ParamError("preset", f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    try:
        ids = expand_ids(names)
    except KeyError as exc:
        raise ParamError("experiment", exc.args[0]) from None
    known = {f.name for eid in ids for f in fields_of(CATALOG[eid])}
    return {**{k: v for k, v in PRESETS[preset].items() if k in known}, **settings}
