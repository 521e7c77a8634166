"""What every experiment is: a frozen dataclass of tunable parameters (the common part) plus the
small interface the generic code calls (planning, summary, export, report); docs/architecture.md
("How to add an experiment") shows a whole one.

An experiment module subclasses :class:`Experiment`, declares its own parameters, lists its
workloads and overrides what it has to say; registering the class (app/experiments/registry.py)
is all it takes for the catalog, ``run``, the summary, the tables, the figures and report.md to
know it. The defaults below give a plain IOPS/MB/s/latency table and no findings, figures or
sentences, so a new experiment is useful before it says anything of its own.

The result methods are class methods: they work from a run's typed results
(app/results/run_results.py), never from a live instance, because export must be possible from
a run folder alone (possibly from an older version or a crashed run).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from app.model.interval import Sample
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult
from app.model.workload import RW_WORDS, Workload
from app.params import ParamError, fields_of, param, validate
from app.results.figure import Figure
from app.results.findings import NO_FINDINGS, Findings, Headline
from app.results.table import Table, generic_table
from app.stats.steady_state import (
    MAX_ROUNDS,
    PRECONDITION_BS,
    PRECONDITION_QD,
    PRECONDITION_RW,
    PRECONDITIONS,
    WINDOW,
)
from app.units import GiB, KiB, MiB, format_size, human_bytes

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

#: What ``findings`` gets: the workload rows (plan order), the measured trials, their samples.
Rows = tuple[WorkloadSummary, ...]
Trials = tuple[TrialResult, ...]
Samples = tuple[Sample, ...]

POW2_BS = tuple(KiB * 2**i for i in range(2, 11))  # 4 KiB .. 1 MiB
SIZE_MIN, SIZE_MAX = 16 * MiB, 16 * 1024 * GiB
#: Labels of common parameters that experiments declare again with their own defaults.
RUNTIME, SIZE, WARMUP = "Runtime per trial", "Test file size", "Warm-up trial"
DIRECTIONS = ("read", "write")
PRECISIONS = ("off", "0.5%", "1%", "2%", "3%", "5%", "10%")
#: The parameters of a precision target: experiments whose meaning is their duration or volume
#: keep their own (``keeps_own``).
PRECISION_PARAMS = frozenset({"precision", "min_time", "max_time"})

RW_CHOICES = ("randread", "randwrite", "read", "write")
BS_MAX = 64 * MiB


# -- parameters several experiments declare, worded once ---------------------------------------
def block_param(default: int, *, help: str = "block size", label: str = "Block size",
                minimum: int = 512) -> Any:
    """A block size: whole sectors, at most BS_MAX and no larger than the test file."""
    return param(default, kind="size", minimum=minimum, maximum=BS_MAX, block=True, label=label,
                 help=help)


def depth_param(default: int) -> Any:
    """fio's iodepth of each job (DiskSpd's -o)."""
    return param(default, kind="int", minimum=1, maximum=1024, label="Queue depth",
                 help="queue depth")


def rw_param(default: str, *, help: str, choices: tuple[str, ...] = RW_CHOICES) -> Any:
    """One access pattern and direction, in fio's words (randread...), said in words in forms."""
    return param(default, kind="choice", choices=choices, choice_words=RW_WORDS,
                 label="Access pattern", help=help)


@dataclass(frozen=True)
class Experiment:
    """Parameters every experiment shares (CLI names as field names, canonical units)."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    #: True when findings need the live samples (samples.csv), not only the final results.
    needs_samples: ClassVar[bool] = False
    #: True when the measured trials are convergence rounds (steady-state): shown live as such.
    rounds_measured: ClassVar[bool] = False
    #: False for the experiments `run all` leaves out (a quick check, long write runs).
    in_all: ClassVar[bool] = True
    #: With a precision target, the percentile whose pooled 95 % interval must also be within it.
    precision_tail: ClassVar[float | None] = None
    tail_claim: ClassVar[str] = "p99"   # the highest percentile its tables state (a pre-run check)
    #: Shared parameters whose value this experiment's meaning rests on (a sustained write's
    #: duration and volume): a setting for all experiments leaves them alone (plan.kept_own).
    keeps_own: ClassVar[frozenset[str]] = frozenset()

    runtime: float = param(30.0, kind="duration", minimum=1.0, maximum=24 * 3600.0,
                           label=RUNTIME, help="measured time per trial")
    precision: str = param("off", kind="choice", choices=PRECISIONS,
                           label="Precision (±)",
                           help="instead of runtime: measure each workload until its mean is "
                                "known to ± this (95 %)")
    min_time: float = param(10.0, kind="duration", minimum=2.0, maximum=24 * 3600.0,
                            label="Min time per workload",
                            help="with precision: least time per workload")
    max_time: float = param(90.0, kind="duration", minimum=4.0, maximum=24 * 3600.0,
                            label="Max time per workload",
                            help="with precision: most time per workload (then 'not reached')")
    ramp: float = param(0.0, kind="duration", minimum=0.0, maximum=3600.0, label="Ramp-up time",
                        help="time fio runs before it starts counting (ramp_time)")
    size: int = param(GiB, kind="size", minimum=SIZE_MIN, maximum=SIZE_MAX, label=SIZE,
                      help="size of the test file")
    repetitions: int = param(3, kind="int", minimum=1, maximum=100,
                             help="measured trials per workload (mean ± sample std)")
    warmup: bool = param(True, kind="bool", label=WARMUP,
                         help="one unmeasured warm-up trial per workload first")
    randomize: bool = param(True, kind="bool", label="Shuffle order",
                            help="shuffle workloads within each repetition round (seed recorded)")
    direct: bool = param(True, kind="bool", label="Direct I/O",
                         help="direct I/O, bypassing the OS page cache")
    interval: float = param(1.0, kind="duration", minimum=0.1, maximum=60.0,
                            label="Live sample interval", help="live sample interval")
    precondition: str = param("none", kind="choice", choices=PRECONDITIONS,
                              help="the test file's state before measuring: none, fill (written "
                                   "end to end twice) or steady (fill, then 4 KiB random-write "
                                   "rounds until IOPS settle, SNIA rule)")
    precondition_rounds: int = param(MAX_ROUNDS, kind="int", minimum=WINDOW, maximum=100,
                                     help="at most this many rounds for precondition=steady "
                                          "(each as long as runtime, at most 60 s)")

    def __post_init__(self) -> None:
        """Every instance is checked, however it was made (CLI, window, saved JSON, code), so a
        value that would fail later in a Workload or in fio is refused here, naming its field."""
        validate(self)
        if self.precision != "off" and self.max_time < self.min_time:
            raise ParamError("max_time", f"{self.max_time:g} s is below min_time "
                                         f"({self.min_time:g} s); raise max_time or lower min_time")
        for field in fields_of(self):
            if not field.metadata["block"]:
                continue
            value = getattr(self, field.name)
            too_big = [bs for bs in (value if isinstance(value, tuple) else (value,))
                       if bs > self.size]
            if too_big:
                raise ParamError(field.name, f"{format_size(max(too_big))} is larger than the test "
                                             f"file (size {format_size(self.size)}); use a smaller "
                                             "block size or a larger size")

    def workloads(self) -> list[Workload]:  # pragma: no cover - abstract
        """The workloads one repetition round runs, in plan order (app/experiments/plan.py repeats them)."""
        raise NotImplementedError

    def fills_test_file(self) -> bool:
        """True when the run writes the test file once before the first trial: a workload reads
        it (reading never-written blocks measures nothing). A write-only experiment (slc-cache)
        gets no pre-fill: its measured writes create the file (a pre-fill would fill the SLC
        cache before the measurement). The same rule as jobs/run/runner.py and jobs/run/dry_run.py."""
        return any(w.reads for w in self.workloads())

    def prefill_passes(self) -> int:
        """How often the test file is written end to end before the first trial: once when a
        workload reads it (:meth:`fills_test_file`), never for write-only experiments; twice
        when preconditioned (SNIA: twice the capacity, here the file's)."""
        if self.precondition != "none":
            return 2
        return 1 if self.fills_test_file() else 0

    def precondition_workload(self) -> Workload | None:
        """The rounds' workload of precondition=steady (None: no rounds)."""
        if self.precondition != "steady":
            return None
        return Workload(PRECONDITION_RW, PRECONDITION_BS, PRECONDITION_QD)

    def precision_target(self) -> float | None:
        """The relative half-width each workload is measured to (0.02 for '2%'); None when off
        or when this experiment's meaning is its duration or volume (``keeps_own`` names
        precision): those keep their own rules (docs/precision.md)."""
        if self.precision == "off" or "precision" in type(self).keeps_own:
            return None
        return float(self.precision.rstrip("%")) / 100

    def io_bytes(self) -> int | None:
        """Bytes each trial moves before it ends (runtime stays the bound); None: time-based."""
        return None

    def open_ended(self) -> bool:
        """True when the run may skip planned trials (precondition=steady rounds)."""
        return self.precondition == "steady"

    def decides_between_trials(self) -> bool:
        """True when a trial's result decides whether the next trial runs (steady-state
        rounds, an early stop): the next trial then starts only once this one's result is read,
        never under the end of its engine (jobs/run/held_starts.py)."""
        return (self.open_ended() or type(self).stop_early is not Experiment.stop_early
                or self.precision_target() is not None)

    def stop_early(self, iops: list[float | None]) -> str | None:
        """Asked by the runner after each measured trial of this experiment, with the total IOPS
        of its measured trials so far, in run order: a sentence when the remaining trials are not
        needed (steady state reached), else None. Most experiments run every planned trial."""
        return None

    def follow(self, earlier: Sequence[ExperimentResults]) -> tuple[Experiment, str] | None:
        """Asked by the runner when this experiment's turn comes, with the results of the
        experiments that ran before it in the same run: a copy whose parameters follow what
        they measured, with one sentence saying so (run.json keeps it as ``followed``), or None
        to run as planned. The copy must list as many workloads, so the plan keeps its count
        (tail-latency measures at the knee queue-depth found)."""
        return None

    def follow_note(self, before: Sequence[Experiment]) -> str | None:
        """What a plan (``--dry-run``) should say when :meth:`follow` may change this experiment
        once ``before`` (the experiments planned ahead of it) have run; None: nothing."""
        return None

    # -- results: from the typed results of a run (app/results/), see docs/architecture.md --------

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> Findings:
        """What analysis derives from the workload rows (mean ± std per workload, plan order),
        the measured trials and, when ``needs_samples``, their live samples."""
        return NO_FINDINGS

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        """The experiment's tables: by default IOPS, MB/s, mean and p99 latency per workload."""
        return [generic_table(part, run, cls)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """Figure specs, drawn the same on screen and in the export."""
        return []

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """The findings in words with their evidence (what a student writes under "Analysis"),
        each stated once: the report's Findings, the window's results views and the CLI show
        these same sentences (app/report/outputs.py ``findings``). A percentile resting on too
        few I/Os is said here too (app/stats/io_counts.py ``thin_warnings``); the report moves
        such a sentence to the experiment's Caveats (docs/report.md)."""
        return []

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        """The report's summary row of this experiment (None: the report uses the first
        workload's IOPS)."""
        return None


def prefill_note(experiments: Sequence[Experiment]) -> str:
    """What a run writes before measuring, in words true for these experiments, e.g. 'the test
    file of zero-queue is written once before its first trial (largest 1 GiB); slc-cache: no
    pre-fill, its measured writes create its test file'."""
    filled = [e for e in experiments if e.prefill_passes() == 1]
    twice = [e for e in experiments if e.prefill_passes() > 1]
    bare = [e.id for e in experiments if not e.prefill_passes()]
    parts = []
    if filled:
        parts.append(f"the test file of {', '.join(e.id for e in filled)} is written once before "
                     f"its first trial (largest {human_bytes(max(e.size for e in filled))})")
    if twice:
        parts.append(f"{', '.join(e.id for e in twice)}: the test file is written end to end "
                     f"twice first (preconditioning, {human_bytes(max(e.size for e in twice))} each)")
    if bare:
        parts.append(f"{', '.join(bare)}: no pre-fill, the measured writes create "
                     f"{'its' if len(bare) == 1 else 'their'} test file")
    return "; ".join(parts)
