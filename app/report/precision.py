"""report.md's precision section: how precisely each workload measured to a target is known,
kept apart from the rest of the report (docs/precision.md). Empty for fixed-time runs, so their
report.md stays byte for byte what it was."""
from __future__ import annotations

from app.results.run_results import RunResults


def precision_section(results: RunResults) -> list[str]:
    """'## Precision' with one line per workload measured to a target: its achieved ± (95 %
    interval of the mean IOPS and MB/s) and whether it reached the target."""
    rows = [(part.id, r) for part in results.parts for r in part.workloads if r.precision]
    if not rows:
        return []
    reached = sum(1 for _, r in rows if r.precision and r.precision.reached)
    lines = ["## Precision", "",
             f"Each workload below was measured until the 95 % confidence interval of its mean "
             f"IOPS and MB/s was within its target (batch means over fio's per-interval samples, "
             f"at least two independent repetitions, their spread counted), or until its maximum "
             f"time: {reached} of {len(rows)} reached the target. Every mean of these workloads "
             f"in the tables above is known to the ± stated here.", ""]
    lines += [f"- {eid} {r.label}: {r.precision.text()} ({r.precision.repetitions} repetitions)"
              for eid, r in rows if r.precision]
    return [*lines, ""]
