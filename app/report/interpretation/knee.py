"""The queue-depth knee read as a mechanism: up to it the drive serves more commands at once
(channels and dies working in parallel); past it the parallelism is used up, IOPS stop rising
and Little's Law (L = λW) predicts the latency from the knee's IOPS: W = QD / IOPS_knee. The
prediction is computed from the knee and set beside the latency measured deeper in the queue,
so the law is tested, not restated."""
from __future__ import annotations

from app.experiments.common import stat_text, versus
from app.experiments.queue_depth import QueueDepthFindings
from app.report.interpretation.facts import lat, part_or_none, pct_text
from app.results.run_results import RunResults
from app.units import sig

#: How far a Little's Law prediction may miss and still hold.
LITTLE_TOLERANCE = 0.25


def knee_reading(results: RunResults) -> list[str]:
    part = part_or_none(results, "queue-depth")
    found = part.found(QueueDepthFindings) if part else None
    knee = found.knee if found else None
    if part is None or knee is None:
        return []
    by = {r.outstanding: r for r in part.workloads}
    first = by[min(by)]
    k = by.get(knee.knee_level)
    if k is None or not k.total_iops.mean or not first.total_iops.mean:
        return []
    if not knee.reached:
        return [f"IOPS still grew at QD{knee.knee_level}, the deepest level "
                f"({stat_text(k.total_iops)} IOPS): the drive's internal parallelism is not used "
                "up within this sweep, so no latency past a knee can be predicted; a deeper sweep "
                "would find the knee."]
    growth = k.total_iops.mean / first.total_iops.mean
    out = [f"From QD{first.outstanding} to the knee at QD{k.outstanding}, IOPS grow "
           f"{growth:.1f}× ({stat_text(first.total_iops)} → {stat_text(k.total_iops)}) for "
           f"{k.outstanding / first.outstanding:g}× the outstanding I/O: up to the knee the drive "
           "serves more commands at once (channels and dies in parallel)."]
    deeper = sorted(q for q in by if q > k.outstanding)
    if not deeper:
        return out + [f"No level deeper than the knee (QD{k.outstanding}) was measured, so Little's "
                      "Law cannot be tested past it."]
    d = by[deeper[-1]]
    rise = versus(k.total_iops, d.total_iops, f"IOPS still change {(d.total_iops.mean or 0) / k.total_iops.mean:.2f}×",
                  "IOPS")
    predicted = d.outstanding / k.total_iops.mean * 1e6
    measured = lat(d)
    if measured is None:
        return out
    miss = measured / predicted - 1
    ok = abs(miss) <= LITTLE_TOLERANCE
    tail = ("the extra latency is queueing: the added I/Os wait, they are not served faster"
            if ok else
            "IOPS kept rising past the knee, so the knee's rate underestimates the saturated one"
            if miss < 0 else
            "the deep queue loses time outside the device's service (host-side overhead)")
    out.append(f"Past the knee, at QD{d.outstanding} ({stat_text(d.total_iops)} IOPS against the "
               f"knee's {stat_text(k.total_iops)}: {rise}), Little's Law predicts "
               f"a mean latency of QD / IOPS_knee = {d.outstanding} / {sig(k.total_iops.mean)} = "
               f"{sig(predicted)} µs, measured {stat_text(d.lat('mean'), 'µs')} "
               f"({pct_text(miss)}): the prediction {'holds' if ok else 'misses'}; {tail}.")
    return out
