"""How many I/Os a latency percentile rests on (docs/architecture.md, "The one currency").

A trial's p99.99 is read from that trial's own I/Os: with 31,000 of them, only 3 lie beyond it,
so a single slow I/O more or less moves it a lot. The tables' percentiles are means of per-trial
percentiles, so what counts is the I/O count of each trial, and the weakest is the trial with the
fewest I/Os: "p99.99 rests on 3 I/Os of 31,000" uses that one.

I/Os of a trial: ``io_bytes / bs_bytes`` of the direction (exact for fio and DiskSpd), else
``iops x runtime`` (imported results without byte counts): ``TrialResult.ios``, counted once per
experiment (``ExperimentResults.ios_by_key``). Typed results in, plain values out.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.model.percentiles import (
    MIN_BEYOND,
    PERCENTILE_KEYS,
    fraction_beyond,
    ios_beyond,
    ios_needed,
    needs_text,
    too_few,
    too_few_text,
)
from app.model.summary import Stat, WorkloadSummary
from app.results.table import LABEL, W_COLS, Column, N, Table, workload_cells, workload_table

if TYPE_CHECKING:
    from app.model.trial import TrialResult
    from app.model.workload import Workload
    from app.results.run_results import ExperimentResults, RunResults

FEW = MIN_BEYOND  # fewer I/Os than this beyond a percentile: it is not stated (app/model/percentiles.py)


def workload_ios(part: ExperimentResults, row: WorkloadSummary,
                 direction: str | None = None) -> list[int]:
    """Per measured trial of a workload row (its repetitions), the I/Os of ``direction``
    (default: the row's main direction)."""
    return list(part.ios_by_key.get((row.key, direction or row.direction), ()))


def beyond(percentile_key: str, ios: int) -> float:
    """I/Os slower than percentile ``p99.9`` in a trial of ``ios`` I/Os: (1 - p) x ios."""
    return round(fraction_beyond(percentile_key) * ios, 6)  # 0.1 % of 1000 is 1, not 0.99999


def whole_beyond(percentile_key: str, ios: int) -> int:
    """The I/Os a trial of ``ios`` I/Os has strictly slower than its percentile: a count, so
    whole: floor((1 - p) x ios), e.g. 9 of 9,792 beyond p99.9 (9.792 is not a count, and
    rounding it to 10 would contradict 'fewer than 10: too few'). The rule's own count:
    app/model/percentiles.py ``ios_beyond``."""
    return ios_beyond(percentile_key, ios)


def rests_on(percentile_key: str, ios: int) -> str:
    """'p99.99 rests on 3 I/Os of 31,206' (beyond it, in the trial with the fewest I/Os)."""
    tail = whole_beyond(percentile_key, ios)
    if tail < 1:
        return (f"{percentile_key} rests on less than one I/O of {ios:,} (it is the slowest I/O, "
                "not a percentile)")
    return f"{percentile_key} rests on {tail:,} I/O{'s' if tail != 1 else ''} of {ios:,}"


THIN = "too few I/Os to state"   # every thin_warnings sentence says it (app/report/caveats.py)


def thin_warnings(part: ExperimentResults, keys: Sequence[str] = PERCENTILE_KEYS,
                  direction: str | None = None) -> list[str]:
    """One sentence per workload whose lowest too-few percentile among ``keys`` has fewer than
    :data:`FEW` I/Os beyond it, and what runtime would state it, e.g. 'RND4K Q1T1 read: p99.9
    rests on 4 I/Os of 4,303 (the trial with the fewest I/Os; p99.99 too): too few I/Os to
    state, shown as 'too few I/Os (4)'; p99.9 needs about 10,000 I/Os per trial: a runtime of
    about 2.3 s at this IOPS (4,300).'"""
    out = []
    rows = [r for r in part.workloads if direction is None or r.side(direction)]
    for row in rows:
        ios = workload_ios(part, row, direction)
        if not ios:
            continue
        fewest = min(ios)
        thin = [k for k in keys if too_few(k, fewest)]
        if thin:
            first = thin[0]
            also = f"; {', '.join(thin[1:])} too" if thin[1:] else ""
            who = row.label + (f" ({direction})" if direction and row.read and row.write else "")
            out.append(f"{who}: {rests_on(first, fewest)} (the trial with the fewest I/Os{also}): "
                       f"{THIN}, shown as '{too_few_text(ios_beyond(first, fewest))}'; "
                       f"{needs_text(first, weakest_iops(part, row, direction))}.")
    return out


def weakest_iops(part: ExperimentResults, row: WorkloadSummary,
                 direction: str | None = None) -> float | None:
    """The IOPS of the repetition with the fewest I/Os (the one a percentile rests on): the
    rate a longer runtime must be planned at, not the mean, which a fast repetition lifts."""
    d = direction or row.direction
    trials = [(n, t) for t in part.trials_by_key.get(row.key, ()) if (n := t.ios(d)) is not None]
    if not trials:
        return None
    measured = min(trials, key=lambda p: p[0])[1].measurement
    got = measured.side(d) if measured else None
    return got.iops if got else None


def needs_runtime(part: ExperimentResults, row: WorkloadSummary, key: str,
                  direction: str | None = None) -> str | None:
    """Why ``key`` of ``row`` is not stated and what would state it, when it rests on too few
    I/Os: 'p99.9 too few I/Os (1); p99.9 needs about 10,000 I/Os per trial: a runtime of about
    34 s at this IOPS (290)' (the IOPS of the repetition with the fewest I/Os); None when it
    may be stated."""
    stat = row.lat(key, direction)
    if stat is None or stat.too_few is None:
        return None
    return f"{key} {stat.mark()}; {needs_text(key, weakest_iops(part, row, direction))}"


def trial_mark(trial: TrialResult, direction: str, key: str) -> str | None:
    """'too few I/Os (1)' when one trial's own percentile ``key`` rests on too few I/Os (a
    trial's row in the window, the CLI's line when it ends), else None: the same rule as the
    tables' (app/model/percentiles.py), on that trial's I/O count."""
    ios = trial.ios(direction)
    return too_few_text(ios_beyond(key, ios)) if ios is not None and too_few(key, ios) else None


def supports(part: ExperimentResults, row: WorkloadSummary, percentile_key: str,
             direction: str | None = None) -> bool:
    """True when every repetition of ``row`` has at least :data:`FEW` I/Os beyond the
    percentile (or the engine did not say how many I/Os): a figure may draw it."""
    ios = workload_ios(part, row, direction)
    return not ios or not too_few(percentile_key, min(ios))


def p99_warnings(part: ExperimentResults) -> list[str]:
    """:func:`thin_warnings` for the p99 of each direction a row measured: what the tables of
    the sweeps show."""
    return [w for d in ("read", "write") for w in thin_warnings(part, ("p99",), d)]


def io_count_table(cls: type, part: ExperimentResults, run: RunResults, tid: str, title: str,
                   keys: Sequence[str] = PERCENTILE_KEYS[1:]) -> Table:
    """Per workload: I/Os per trial (mean ± std over the repetitions, said to be a mean, and the
    fewest), and how many I/Os lie beyond each percentile in the trial with the fewest I/Os
    (whole counts, :func:`whole_beyond`)."""
    cols = [*W_COLS, LABEL, Column("Mean I/Os per trial", "ios_per_trial", 0, True),
            Column("Fewest I/Os in a trial", "ios_min", 0),
            *(Column(f"I/Os beyond {k}", f"ios_beyond_{k}", 0) for k in keys), N]
    data: list[tuple[Any, ...]] = []
    for row in part.workloads:
        ios = workload_ios(part, row)
        fewest = min(ios) if ios else None
        mean = sum(ios) / len(ios) if ios else None
        std = (None if mean is None or len(ios) < 2 else
               (sum((x - mean) ** 2 for x in ios) / (len(ios) - 1)) ** 0.5)
        data.append((*workload_cells(row), Stat(mean, std, len(ios)), fewest,
                     *(whole_beyond(k, fewest) if fewest is not None else None for k in keys),
                     row.n))
    notes = ("I/Os of a trial = bytes moved / block size. A trial's percentile p is read from "
             "its own I/Os, the whole part of (1 − p) × I/Os of them lie beyond it; the columns "
             f"use the trial with the fewest I/Os. Fewer than {FEW} I/Os beyond a percentile: it is "
             "too few to state, and the tables show 'too few I/Os (n)', n the I/Os beyond it "
             f"(p99.9 needs {ios_needed('p99.9'):,} I/Os per trial, p99.99 "
             f"{ios_needed('p99.99'):,}).",)
    return workload_table(part, run, tid, title, cols, data, extra_notes=notes, cls=cls)


def fewest_text(part: ExperimentResults, row: WorkloadSummary) -> str:
    """'at least 4,303 I/Os per trial' (the fewest of the repetitions), or '' when unknown."""
    ios = workload_ios(part, row)
    return f"at least {min(ios):,} I/Os per trial" if ios else ""


def caption_counts(part: ExperimentResults, rows: Sequence[WorkloadSummary]) -> str:
    """'I/Os per trial (the fewest of the repetitions): RND4K Q8T1 read 31,206; RND4K Q32T1 read 52,807.'"""
    parts = [f"{row.label} {min(ios):,}" for row in rows if (ios := workload_ios(part, row))]
    return ("I/Os per trial (the fewest of the repetitions): " + "; ".join(parts) + ".") if parts else ""


# -- before a run: will the pooled I/Os reach the percentile the tables state? --------------------
TYPICAL_IOPS_PER_QUEUED = 10_000   # a typical NVMe SSD at 4 KiB random: ~100 µs per I/O at QD1
TYPICAL_BYTES_PER_S = 2e9          # ... and its sequential ceiling, for large blocks


def expected_ios(workload: Workload, runtime_s: float, repetitions: int) -> int:
    """I/Os a workload's measured repetitions will likely pool on a typical NVMe SSD (an
    estimate for a warning, never a measurement: a slower drive gives fewer)."""
    iops = min(TYPICAL_IOPS_PER_QUEUED * max(1, workload.outstanding),
               TYPICAL_BYTES_PER_S / max(1, workload.bs_bytes))
    return int(iops * runtime_s * repetitions)


def reach_warnings(plan: Any) -> list[str]:
    """One sentence per experiment whose weakest workload likely pools fewer I/Os than its
    highest stated percentile needs (10 beyond it), e.g. before a 1 s tail-latency run.
    ``plan`` is a RunPlan (app/experiments/plan.py), untyped here: the plan imports the
    experiments, which import this module."""
    out = []
    for exp in plan.experiments:
        measured = [t for t in plan.trials if t.experiment == exp.id and not t.warmup]
        reps: dict[str, list[Any]] = {}
        for t in measured:
            reps.setdefault(t.workload.key, []).append(t)
        if not reps:
            continue
        claim = exp.tail_claim
        need = ios_needed(claim)
        fewest = min((expected_ios(ts[0].workload, ts[0].runtime_s, len(ts)), ts[0].workload.label)
                     for ts in reps.values())
        if fewest[0] < need:
            out.append(f"{exp.id}: {claim} needs {need:,} I/Os, {fewest[1]} will likely pool about "
                       f"{fewest[0]:,} (at a typical NVMe SSD's speed); it will show as 'too few "
                       "I/Os (n)' unless the runtime or repetitions grow.")
    return out
