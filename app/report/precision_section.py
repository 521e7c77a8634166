"""The report's precision section: how precisely each workload measured to a target is known
(docs/precision.md). None for fixed-time runs, so their report says nothing about it."""
from __future__ import annotations

from app.experiments.plan import PRECISION_RAMP_S
from app.report.document import Bullets, Paragraph, Section
from app.results.run_results import RunResults


def precision_section(results: RunResults, number: int) -> Section | None:
    """One line per workload measured to a target: its achieved ± (95 % interval of the mean
    IOPS and MB/s) and whether it reached the target."""
    rows = [(part.id, r) for part in results.parts for r in part.workloads if r.precision]
    if not rows:
        return None
    reached = sum(1 for _, r in rows if r.precision and r.precision.reached)
    gave_up = sum(1 for _, r in rows if r.precision and r.precision.out_of_reach)
    lead = Paragraph(
        "Each workload below was measured until the 95 % confidence interval of its mean IOPS "
        "and MB/s was within its target (batch means over fio's per-interval samples, at least "
        "two independent repetitions, their spread counted), until the evidence showed the "
        "target out of reach by its maximum time, or until that maximum: "
        f"{reached} of {len(rows)} reached the target"
        + (f", {gave_up} stopped early as out of reach" if gave_up else "") + ". "
        "Every mean of these workloads in the tables above is known to the ± stated here, "
        "with the method that bounds it (batch means within runs, or Student's t over the "
        "runs' means with one degree of freedom fewer than runs); a workload not reached says "
        "what would reach it. Each measured repetition began with a "
        f"start period of at least {PRECISION_RAMP_S:g} s (the ramp setting when longer) that fio "
        "leaves out of its numbers (ramp_time), so a device's start burst does not bias a short "
        "repetition.")
    items = tuple(f"{eid} {r.label} ({r.precision.repetitions} repetitions): {r.precision.text()}"
                  for eid, r in rows if r.precision)
    return Section(f"{number}. Precision", (lead, Bullets(items)), anchor="precision")
