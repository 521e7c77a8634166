"""When tail-latency measures at a depth the queue-depth sweep also measured, the two sections
show two p99s (and p99.9s) for one workload. They are the same quantities (the same latency
kind; p99 the mean ± std of each repetition's own p99, p99.9 pooled over all I/Os) from
different trials, so they differ by the drive's run-to-run spread, and the report says so in
one sentence rather than leave a reader to guess (docs/report.md)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from app.experiments.common import separated, stat_text
from app.model.summary import WorkloadSummary
from app.results.pooled import pooled_of
from app.stats.io_counts import workload_ios
from app.units import sig

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


def also_swept(part: ExperimentResults, run: RunResults, kind: str) -> str | None:
    """The sentence comparing this part's rows with the queue-depth sweep's rows of the same
    workload (None when the sweep did not run or measured none of these depths)."""
    sweep = run.part("queue-depth")
    if sweep is None or sweep is part:
        return None
    theirs = {r.key: r for r in sweep.workloads}
    pairs = [(theirs[r.key], r) for r in sorted(part.workloads, key=lambda r: r.outstanding)
             if r.key in theirs]
    if not pairs:
        return None
    depths = " and ".join(f"QD{r.outstanding}" for _, r in pairs)
    said = "; ".join(_pair(sweep, there, part, here) for there, here in pairs)
    tests = {f"QD{here.outstanding}": separated(there.lat("p99"), here.lat("p99"))
             for there, here in pairs}
    split = [qd for qd, apart in tests.items() if apart]
    if split:
        why = ("by more than their repetitions' spread at " + ", ".join(split) + " (Welch's "
               "t-test at 5 %): the drive did not behave the same in the two experiments' trials")
    elif None in tests.values():
        why = "by the drive's run-to-run spread (one repetition: not tested against the noise)"
    else:
        why = ("by the drive's run-to-run spread only (Welch's t-test at 5 % separates no p99 "
               "of the two)")
    return (f"{depths} {'was' if len(pairs) == 1 else 'were'} also measured by the queue-depth "
            f"sweep, in trials of its own (the sweep's value / this section's: {said}): the same quantities ({kind} latency; p99 the "
            f"mean ± std of each repetition's own p99, p99.9 of all I/Os pooled) from different "
            f"trials, so they differ {why}.")


def _pair(sweep: ExperimentResults, there: WorkloadSummary, part: ExperimentResults,
          here: WorkloadSummary) -> str:
    """'QD16, at least 33,012 / 67,029 I/Os per trial: p99 2,120 ± 2,260 / 1,500 ± 1,280 µs,
    p99.9 4,100 / 4,290 µs' (the sweep's value first)."""
    ios = [min(n) if (n := workload_ios(p, r)) else None for p, r in ((sweep, there), (part, here))]
    counts = (f", at least {ios[0]:,} / {ios[1]:,} I/Os per trial"
              if ios[0] is not None and ios[1] is not None else "")
    tails = [p.known("p99.9") if p else None for p in (pooled_of(there), pooled_of(here))]
    tail = (f", p99.9 {sig(tails[0])} / {sig(tails[1])} µs"
            if tails[0] is not None and tails[1] is not None else "")
    return (f"QD{here.outstanding}{counts}: p99 {stat_text(there.lat('p99'))} / "
            f"{stat_text(here.lat('p99'))} µs{tail}")
