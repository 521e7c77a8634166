"""The knee of a queue-depth sweep: one point, one rule a reader can check on the figure.

Why this rule: a sweep has several notable points and naming each a "knee" left readers with
three answers (the maximum of IOPS / latency sits early, where latency has barely moved; 90 % of
the peak can sit deep in the plateau of a drive whose IOPS creep up slowly). What a reader sees
on the IOPS-against-queue-depth curve is where it flattens for good; the rule says that in
numbers: the knee is the smallest depth from which every further doubling of the outstanding
I/O adds less than :data:`STEP` more IOPS ("every": one noisy flat step before a climb is not
the knee). The peak and the first depth reaching 90 % of it are reported beside it
as what they are. See docs/architecture.md ("The one currency") for where findings go.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from app.stats.derived import Knee
from app.units import finite_number as _num

STEP = 0.10  # the IOPS a doubling must still add (10 %) for the curve to count as climbing
RULE = ("the knee is the smallest queue depth from which every further doubling of the "
        f"outstanding I/O adds less than {STEP * 100:.0f} % more IOPS")
_EPS = 1e-9


def gain_per_doubling(level: float, iops: float, next_level: float, next_iops: float) -> float:
    """How much more IOPS one doubling of the outstanding I/O buys between two levels (0.25 =
    25 % more), so that sweeps with uneven steps (1, 4, 16) read like doubling ones."""
    doublings = math.log2(next_level / level)
    return float((next_iops / iops) ** (1 / doublings) - 1)


def knee(points: Iterable[Mapping[str, Any]]) -> Knee | None:
    """The knee of a queue-depth (or numjobs) sweep by :data:`RULE`, with the peak and the
    lowest level reaching 90 % of the peak.

    points: dicts {"level", "iops", "lat_us" (mean latency)}, in any order. Points with missing
    or non-positive latency, IOPS or level are skipped; None when no point remains. When the
    last step still adds :data:`STEP` or more, the knee is the deepest level and ``reached``
    False.
    """
    rows = []
    for p in points:
        level, iops, lat = _num(p.get("level")), _num(p.get("iops")), _num(p.get("lat_us"))
        if level is not None and level > 0 and iops is not None and iops > 0 \
                and lat is not None and lat > 0:
            rows.append((p["level"], iops, lat))
    if not rows:
        return None
    rows.sort(key=lambda r: r[0])
    rows = [r for i, r in enumerate(rows) if i == 0 or r[0] != rows[i - 1][0]]
    climbs = [gain_per_doubling(a[0], a[1], b[0], b[1]) >= STEP for a, b in zip(rows, rows[1:])]
    at = len(climbs) - next((i for i, up in enumerate(reversed(climbs)) if up), len(climbs))
    reached = at < len(rows) - 1 or len(rows) == 1
    best = rows[at]
    peak = max(rows, key=lambda r: r[1])  # max() keeps the first of equals
    p90 = next(r for r in rows if r[1] >= 0.9 * peak[1] - _EPS)
    return Knee(knee_level=best[0], knee_iops=best[1], knee_lat_us=best[2],
                power=best[1] / best[2], peak_iops=peak[1], peak_level=peak[0],
                p90_level=p90[0], p90_iops=p90[1], rule=RULE, reached=reached,
                peak_lat_us=peak[2], p90_lat_us=p90[2])
