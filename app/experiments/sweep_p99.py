"""Which p99 the queue-depth sweep shows where: its table gives the mean ± std of each
repetition's own p99 (what the other sweeps' tables give), its figure draws the p99 and p99.9 of
all I/Os of the repetitions pooled (merged histogram, with 95 % intervals). Both notes name the
latency kind and the I/Os the percentiles rest on, so a reader who finds two p99s for one depth
knows why (docs/report.md)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.model.summary import WorkloadSummary
from app.results.pooled import pooled_of
from app.stats.io_counts import workload_ios

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults


def p99_notes(part: ExperimentResults, rows: Sequence[WorkloadSummary],
              kind: str) -> tuple[str, ...]:
    """The table's note (none without pooled histograms: then the figure draws no pooled p99,
    and an old run folder's tables keep their bytes)."""
    if not any(pooled_of(r) for r in rows):
        return ()
    fewest = "; ".join(f"QD{r.outstanding} {min(ios):,}" for r in rows
                       if (ios := workload_ios(part, r)))
    counts = f" (I/Os per trial, the fewest of the repetitions: {fewest})" if fewest else ""
    return (f"p99 cells: mean ± std over the repetitions of each trial's own p99 of {kind} "
            f"latency, read from that trial's I/Os{counts}. The figure of IOPS and latency "
            "against queue depth draws instead the p99 of all I/Os of the repetitions pooled, "
            "so the two can differ.",)


def pooled_caption(rows: Sequence[WorkloadSummary], kind: str) -> str:
    """What the figure's p99 and p99.9 lines are, and how many I/Os each depth pooled."""
    pooled = "; ".join(f"QD{r.outstanding} {p.ios:,}" for r in rows if (p := pooled_of(r)))
    return (f" p99 and p99.9 ({kind} latency): of all I/Os of the repetitions pooled (merged "
            f"histogram; I/Os pooled: {pooled}), error bars their 95 % interval; left out where "
            "fewer than 10 I/Os lie beyond them. The table's p99 is instead the mean ± std of "
            "each repetition's own p99.")
