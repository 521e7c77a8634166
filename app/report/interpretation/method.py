"""Each experiment's method in prose, generated from the parameters it actually ran with (its
entry in run.json): what was varied, what was held, and why a course designs it so (why QD1,
why these block sizes, why randomized repetitions). Method is not interpretation: it is
written in both report modes (docs/report.md)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.results.figure import size_text
from app.results.run_results import ExperimentResults


def _sizes(values: Sequence[Any] | None) -> str:
    sizes = [size_text(int(v)) for v in values or () if isinstance(v, (int, float))]
    return ", ".join(sizes) or "as set"


def _when(part: ExperimentResults, n: Sequence[int]) -> str:
    p = part.entry.params
    reps = "/".join(str(x) for x in n) or str(p.get("repetitions", "?"))
    order = ("shuffled within each round (why: System set-up)" if p.get("randomize")
             else "in plan order")
    runtime = p.get("runtime")
    each = f" of {runtime:g} s" if isinstance(runtime, (int, float)) else ""
    return (f"Its {len(part.workloads)} workloads ({part.id}) each ran {reps} measured "
            f"repetitions{each}, {order}.")


#: Why repetitions are shuffled, said once in the System set-up.
SHUFFLE_WHY = ("Repetitions run in rounds, the workloads shuffled within each round (seed "
               "recorded), so slow drift (temperature, background work, the file's state) spreads "
               "over all workloads instead of biasing the last ones; each value is the mean ± "
               "sample std over the repetitions, so the spread of the drive is measured, not "
               "assumed.")


def method_text(part: ExperimentResults) -> str | None:
    p = part.entry.params
    n = sorted({r.n for r in part.workloads})
    eid = part.id
    if eid == "zero-queue":
        what = (f"One I/O in flight (iodepth 1, one job) for {size_text(p.get('random_bs', 4096))} "
                f"random and {size_text(p.get('seq_bs', 131072))} sequential reads and writes: no "
                "request waits behind another, so each latency is the drive's own service time, "
                "the baseline the queue-depth and tail experiments are read against.")
    elif eid == "block-size":
        what = (f"Block sizes {_sizes(p.get('block_sizes'))}, {' and '.join(p.get('patterns') or ())} "
                f"{p.get('direction', 'read')}s at QD{p.get('iodepth')}: powers of two from the "
                "page-sized I/O that exposes the per-command cost up to blocks large enough to "
                "meet the bandwidth ceiling, at one moderate depth so the drive's parallelism is "
                "used without the queue itself dominating.")
    elif eid == "rw-mix":
        mixes = ", ".join(f"{m} %" for m in p.get("mixes") or ())
        what = (f"{size_text(p.get('bs', 4096))} {p.get('pattern', 'random')} I/O at "
                f"QD{p.get('iodepth')} with read shares of {mixes}: from pure reads to pure "
                "writes at one block size and depth, so only the mix changes and the cost of "
                "writes, and what mixing does to it, can be read off.")
    elif eid == "queue-depth":
        levels = ", ".join(str(q) for q in p.get("queue_depths") or ())
        how = "numjobs (QD1 each)" if p.get("sweep") == "numjobs" else "iodepth of one job"
        what = (f"{size_text(p.get('bs', 4096))} {p.get('rw', 'randread')} at outstanding I/O "
                f"{levels}, raised through the {how}: doubling at each step finds the knee within "
                "one doubling, and IOPS and mean latency at every level allow Little's Law to be "
                "checked and used for prediction.")
    elif eid == "tail-latency":
        depths = "/".join(f"QD{r.outstanding}" for r in sorted(part.workloads, key=lambda r: r.outstanding))
        what = (f"{size_text(p.get('bs', 4096))} {p.get('rw', 'randread')} at {depths or 'as set'}, "
                "with p50 to p99.99 per repetition and pooled over all I/Os: a mid depth and the "
                "knee, to see how the slowest I/Os grow as the queue fills.")
    elif eid == "slc-cache":
        what = (f"One {size_text(p.get('bs', 1 << 20))} sequential write at QD{p.get('iodepth')} "
                f"for up to {p.get('runtime', 0):g} s into a fresh test file, with no pre-fill "
                "and no warm-up (either would fill the cache before it is measured), sampled every "
                f"{p.get('interval', 1):g} s so the drop in write speed shows when the fast "
                "cache runs out.")
        return what   # its own repetition rule: each repetition fills the cache again
    else:
        return None
    return f"{what} {_when(part, n)}"
