"""Each experiment's method in prose, generated from the parameters it actually ran with (its
entry in run.json): what was varied, what was held, and why a course designs it so (why QD1,
why these block sizes, why randomized repetitions). Method is not interpretation: it is
written in both report modes (docs/report.md)."""
from __future__ import annotations

from app.experiments.base import Experiment
from app.experiments.block_size import BlockSize
from app.experiments.queue_depth import QueueDepth
from app.experiments.registry import experiment_of
from app.experiments.rw_mix import RwMix
from app.experiments.slc_cache import SlcCache
from app.experiments.tail_latency import TailLatency
from app.experiments.zero_queue import ZeroQueue
from app.results.figure import size_text
from app.results.run_results import ExperimentResults


def _when(part: ExperimentResults, exp: Experiment, n: list[int]) -> str:
    reps = "/".join(str(x) for x in n) or str(exp.repetitions)
    order = "shuffled within each round (why: System set-up)" if exp.randomize else "in plan order"
    return (f"Its {len(part.workloads)} workloads ({part.id}) each ran {reps} measured "
            f"repetitions of {exp.runtime:g} s, {order}.")


#: Why repetitions are shuffled, said once in the System set-up.
SHUFFLE_WHY = ("Repetitions run in rounds, the workloads shuffled within each round (seed "
               "recorded), so slow drift (temperature, background work, the file's state) spreads "
               "over all workloads instead of biasing the last ones; each value is the mean ± "
               "sample std over the repetitions, so the spread of the drive is measured, not "
               "assumed.")


def method_text(part: ExperimentResults) -> str | None:
    """The method of ``part`` in prose, from the experiment as it ran (its typed parameters);
    None for an experiment without such prose, and when this version cannot read what it ran
    with (imported results, another version's experiment, parameters that do not validate):
    then the Setup's recorded parameters are all the report can say."""
    exp = experiment_of(part.entry)
    n = sorted({r.n for r in part.workloads})
    if isinstance(exp, ZeroQueue):
        what = (f"One I/O in flight (iodepth 1, one job) for {size_text(exp.random_bs)} "
                f"random and {size_text(exp.seq_bs)} sequential reads and writes: no "
                "request waits behind another, so each latency is the drive's own service time, "
                "the baseline the queue-depth and tail experiments are read against.")
    elif isinstance(exp, BlockSize):
        sizes = ", ".join(size_text(bs) for bs in exp.block_sizes)
        what = (f"Block sizes {sizes}, {' and '.join(exp.patterns)} "
                f"{exp.direction}s at QD{exp.iodepth}: powers of two from the "
                "page-sized I/O that exposes the per-command cost up to blocks large enough to "
                "meet the bandwidth ceiling, at one moderate depth so the drive's parallelism is "
                "used without the queue itself dominating.")
    elif isinstance(exp, RwMix):
        mixes = ", ".join(f"{m} %" for m in exp.mixes)
        what = (f"{size_text(exp.bs)} {exp.pattern} I/O at "
                f"QD{exp.iodepth} with read shares of {mixes}: from pure reads to pure "
                "writes at one block size and depth, so only the mix changes and the cost of "
                "writes, and what mixing does to it, can be read off.")
    elif isinstance(exp, QueueDepth):
        levels = ", ".join(str(q) for q in exp.queue_depths)
        how = "numjobs (QD1 each)" if exp.sweep == "numjobs" else "iodepth of one job"
        what = (f"{size_text(exp.bs)} {exp.rw} at outstanding I/O "
                f"{levels}, raised through the {how}: doubling at each step finds the knee within "
                "one doubling, and IOPS and mean latency at every level allow Little's Law to be "
                "checked and used for prediction.")
    elif isinstance(exp, TailLatency):
        depths = "/".join(f"QD{r.outstanding}" for r in sorted(part.workloads, key=lambda r: r.outstanding))
        what = (f"{size_text(exp.bs)} {exp.rw} at {depths or 'as set'}, "
                "with p50 to p99.99 per repetition and pooled over all I/Os: a mid depth and the "
                "knee, to see how the slowest I/Os grow as the queue fills.")
    elif isinstance(exp, SlcCache):
        return (f"One {size_text(exp.bs)} sequential write at QD{exp.iodepth} "
                f"for up to {exp.runtime:g} s into a fresh test file, with no pre-fill "
                "and no warm-up (either would fill the cache before it is measured), sampled every "
                f"{exp.interval:g} s so the drop in write speed shows when the fast "
                "cache runs out.")   # its own repetition rule: each repetition fills the cache again
    else:
        return None
    return f"{what} {_when(part, exp, n)}"
