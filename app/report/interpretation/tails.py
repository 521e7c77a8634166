"""How the tail grows from a mid queue depth to the knee: queueing adds delay to every I/O
(the median and the tail grow alike), while background work (garbage collection, a busy die)
delays a few I/Os a lot (the tail grows faster than the median). Read from the tail-latency
experiment's shallowest and deepest depth, each growth claimed only beyond the noise."""
from __future__ import annotations

from app.experiments.common import separated, stat_text
from app.report.interpretation.facts import lat, part_or_none
from app.results.run_results import RunResults
from app.units import ratio

#: A tail grows faster than the median when its factor exceeds the median's by this much.
FASTER = 1.10


def tail_reading(results: RunResults) -> list[str]:
    part = part_or_none(results, "tail-latency")
    if part is None or len(part.workloads) < 2:
        return []
    ordered = sorted(part.workloads, key=lambda r: r.outstanding)
    lo, hi = ordered[0], ordered[-1]
    a50, b50, a99, b99 = lat(lo, "p50"), lat(hi, "p50"), lat(lo, "p99"), lat(hi, "p99")
    if not (a50 and b50 and a99 and b99):
        return []
    g50, g99 = b50 / a50, b99 / a99
    where = (f"From QD{lo.outstanding} to QD{hi.outstanding} the median goes "
             f"{stat_text(lo.lat('p50'), 'µs')} → {stat_text(hi.lat('p50'), 'µs')} ({ratio(g50)}) "
             f"and the p99 {stat_text(lo.lat('p99'), 'µs')} → {stat_text(hi.lat('p99'), 'µs')} "
             f"({ratio(g99)})")
    if separated(lo.lat("p99"), hi.lat("p99")) is False:
        return [where + ": the p99 difference is within the noise of the repetitions, so the "
                        "tail does not grow measurably over this range."]
    if g99 > g50 * FASTER:
        said = ("the tail grows faster than the median: a few I/Os wait much longer behind the "
                "deeper queue and behind background work (garbage collection, a busy die), which "
                "a mean hides")
    elif g99 * FASTER < g50:
        said = ("the median grows more than the tail: queueing shifts the whole distribution, "
                "and the slowest I/Os were already slow at the shallower depth")
    else:
        said = ("the median and the tail grow alike: the deeper queue adds the same waiting time "
                "to every I/O (queueing), with no extra tail of its own")
    return [f"{where}: {said}."]
