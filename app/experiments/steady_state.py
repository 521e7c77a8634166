"""Steady state, SNIA PTS style, on a test file: precondition, then rounds of one workload until
the drive's IOPS settle (app/stats/steady_state.py holds the rule;
docs/architecture.md).

A fresh or idle SSD is faster than the same drive after a while of writing (an empty SLC cache,
nothing for garbage collection to do). So the file is first written end to end twice
(sequential, the engine's fill pass: twice the file, SNIA's 2x capacity on a file), then the
workload (default 4 KiB random write at QD 32) runs in rounds, each round one trial, until the
last five rounds hold the SNIA rule (IOPS excursion <= 20 % and slope <= 10 % of their average)
or ``max_rounds`` have run. The result says in which round steady state was reached, or that it
was not. Rounds are trials with ``repetition`` = round number, in order (never shuffled).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from app.experiments.base import (
    PRECISION_PARAMS,
    Experiment,
    Rows,
    Samples,
    Trials,
    block_param,
    depth_param,
    rw_param,
)
from app.experiments.registry import register
from app.model.workload import Workload
from app.params import param
from app.results.figure import NEUTRAL, OTHER, WRITE, Axis, Figure, HLine, Series, fmt
from app.results.findings import Headline
from app.results.table import Column, Table
from app.stats.steady_state import (
    DATA_EXCURSION,
    MAX_ROUNDS,
    SLOPE_EXCURSION,
    WINDOW,
    Window,
    first_steady_round,
    window_at,
)
from app.units import KiB, count, sig

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


@dataclass(frozen=True)
class Convergence:
    """Total IOPS per round, whether and in which round the SNIA rule held, and the window it
    was judged on (the last full one when it never held)."""

    rounds_iops: tuple[float | None, ...]
    steady: bool
    round: int | None
    window: Window | None

    def in_window(self, i: int) -> bool:
        return self.window is not None and self.window.first_round <= i <= self.window.last_round

    def to_json(self) -> dict[str, Any]:
        w = self.window
        return {"rounds_iops": list(self.rounds_iops), "steady": self.steady, "round": self.round,
                "window": None if w is None else {
                    "first_round": w.first_round, "last_round": w.last_round,
                    "average_iops": w.average, "excursion": w.data_fraction,
                    "slope": w.slope_fraction, "slope_per_round": w.slope}}


NOT_RUN = Convergence((), False, None, None)


@register
@dataclass(frozen=True)
class SteadyState(Experiment):
    id: ClassVar[str] = "steady-state"
    title: ClassVar[str] = "Steady state (SNIA-style preconditioning and convergence)"
    summary: ClassVar[str] = ("precondition, then rounds of one workload until IOPS settle "
                              "(window of 5: excursion <= 20 %, slope <= 10 %)")
    in_all: ClassVar[bool] = False   # up to 25 minutes of writing: run on purpose

    # Set from round and max_rounds (rounds run in order, no warm-up): not parameters here, so
    # the form and `experiments` show only what means something for this experiment.
    runtime: float = field(default=60.0)
    repetitions: int = field(default=25)
    warmup: bool = field(default=False)
    randomize: bool = field(default=False)

    round: float = param(60.0, kind="duration", minimum=1.0, maximum=3600.0,
                         help="length of one round (one trial)")
    max_rounds: int = param(MAX_ROUNDS, kind="int", minimum=WINDOW, maximum=100,
                            help="rounds at most; the run stops at the round steady state holds")
    rw: str = rw_param("randwrite", choices=("randwrite", "randread", "write", "read"),
                       help="the workload of each round")
    bs: int = block_param(4 * KiB)
    iodepth: int = depth_param(32)
    precondition: str = param("fill", kind="choice", choices=("none", "fill"),
                              help="fill: write the file end to end twice before the first round")
    precondition_rounds: int = field(default=MAX_ROUNDS)   # the rounds are this experiment's own

    rounds_measured: ClassVar[bool] = True
    keeps_own: ClassVar[frozenset[str]] = PRECISION_PARAMS  # its rounds end by the SNIA rule

    def __post_init__(self) -> None:
        # a round is a trial and the rounds are the repetitions, in order, without a warm-up
        object.__setattr__(self, "runtime", self.round)
        object.__setattr__(self, "repetitions", self.max_rounds)
        object.__setattr__(self, "warmup", False)
        object.__setattr__(self, "randomize", False)
        super().__post_init__()

    def workloads(self) -> list[Workload]:
        return [Workload(self.rw, self.bs, self.iodepth)]

    def open_ended(self) -> bool:
        return True

    def stop_early(self, iops: list[float | None]) -> str | None:
        found = first_steady_round(iops)
        return None if found is None else f"steady state reached in round {found.last_round}"

    # -- results ---------------------------------------------------------------------------------
    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> Convergence:
        rounds = [t.measurement.total_iops if t.measurement else None
                  for t in sorted(trials, key=lambda t: t.index)]
        found = first_steady_round(rounds)
        last = found or window_at([r for r in rounds if r is not None], len([r for r in rounds if r]))
        return Convergence(tuple(rounds), found is not None,
                           found.last_round if found else None, last)

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        f = part.found(Convergence) or NOT_RUN
        cols = (Column("Round", "round", 0), Column("IOPS", "iops", 0),
                Column("In the window", "in_window"))
        rows = tuple((i, v, f.in_window(i)) for i, v in enumerate(f.rounds_iops, start=1))
        return [Table("steady-state", "Steady-state rounds", cols, rows, (_verdict(f),), cls.id)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        f = part.found(Convergence) or NOT_RUN
        points = [(i, v) for i, v in enumerate(f.rounds_iops, start=1) if v is not None]
        if not points:
            return []
        series = [Series("IOPS per round", tuple(p[0] for p in points), tuple(p[1] for p in points),
                         color=WRITE)]
        hlines = []
        window = f.window
        if window:
            avg, a, b = window.average, window.first_round, window.last_round
            xs = tuple(range(a, b + 1))
            mid = (a + b) / 2
            series.append(Series("least-squares slope of the window", xs,
                                 tuple(avg + window.slope * (x - mid) for x in xs),
                                 color=NEUTRAL, dash=True))
            band = f"window average ± {DATA_EXCURSION:.0%}"  # one legend entry, both lines
            hlines = [HLine(avg, f"window average {fmt(avg)} IOPS", color=NEUTRAL),
                      HLine(avg * (1 + DATA_EXCURSION), band, color=OTHER[1]),
                      HLine(avg * (1 - DATA_EXCURSION), band, color=OTHER[1])]
        return [Figure("steady-state-convergence", "Steady state: IOPS per round",
                       Axis("Round", tuple((float(i), str(i)) for i, _ in points),
                            include_zero=False),
                       Axis("IOPS"), series=tuple(series), hlines=tuple(hlines),
                       experiment=cls.id, caption=_verdict(f))]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """The verdict with the IOPS of the rounds it judged."""
        f = part.found(Convergence) or NOT_RUN
        known = [x for x in f.rounds_iops if x is not None]
        out = [_verdict(f)]
        if known:
            out.append(f"The rounds measured {sig(min(known))} to {sig(max(known))} IOPS; the "
                       f"last round {sig(known[-1])} IOPS ({count(len(known))} rounds).")
        return out

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        f = part.found(Convergence) or NOT_RUN
        known = [x for x in f.rounds_iops if x is not None]
        if not known:
            return None
        if f.steady and f.round:
            return Headline(f"steady state reached in round {f.round}: last-round IOPS",
                            sig(known[-1]), len(known))
        return Headline(f"steady state not reached in {len(known)} rounds: last-round IOPS",
                        sig(known[-1]), len(known))


def _verdict(f: Convergence) -> str:
    window = f.window
    rule = (f"SNIA rule: the last {WINDOW} rounds' IOPS within {DATA_EXCURSION:.0%} of their "
            f"average and a slope within {SLOPE_EXCURSION:.0%}")
    if f.steady and window:
        return (f"Steady state reached in round {f.round} (rounds {window.first_round}-"
                f"{window.last_round}: excursion {window.data_fraction:.1%}, slope "
                f"{window.slope_fraction:.1%}; {rule}).")
    return f"Steady state not reached after {len(f.rounds_iops)} rounds ({rule})."
