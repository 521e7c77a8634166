"""fio's issued and completed I/O counts of one direction, and whether they disagree
(docs/precision.md, "Counting after the ramp").

Why: fio's ``iops`` is its count of *issued* I/Os (``total_ios``) over the runtime, while its
``io_bytes``, ``bw`` and latency sample counts (``N``) are of *completed* ones. Counted from a
job's start the two agree. After ``ramp_time`` they need not: fio's ``reset_all_stats`` zeroes
its counters and its runtime with a queue in flight; those I/Os complete later (in the bytes
and ``N``, never in ``total_ios``), and the runtime runs to the end of ``do_io()``, which waits
for the I/Os still in flight at the end (and ``end_fsync``). Which of the two counts over the
runtime is the device's steady rate depends on how long that final drain took, which the
output does not say: on a 120-IOPS throttle (fio 3.33, QD 64) ``iops`` read 102.7 and the
completions 120.7 (the truth 120); on a USB device (fio 3.28, QD 256, bs 8 MiB) ``iops`` read
54.1 and the completions 66.8 (the device's plateau about 54.4).

So an imported output keeps fio's numbers as fio printed them, and where the two counts differ
by more than :data:`DISAGREE` the direction carries both (``issued_completed``), which the app
states as a caveat (:func:`app.model.measurement.count_caveat`), never silently "corrected".
The app's own runs measure the steady rate from fio's status documents instead
(app/engines/fio/steady.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Latency objects whose ``N`` counts the direction's completed I/Os, in order of preference.
_COUNTED = ("clat_ns", "lat_ns", "clat", "lat")
#: Relative difference of the two counts beyond which the direction is flagged.
DISAGREE = 0.01


def completed_count(d: Mapping[str, Any]) -> int | None:
    """The direction's completed I/Os (its completion latency's ``N``), None without one."""
    return next((obj["N"] for key in _COUNTED if isinstance(obj := d.get(key), Mapping)
                 and type(obj.get("N")) is int), None)


def disagreeing_counts(d: Mapping[str, Any], issued: int | None) -> tuple[int, int] | None:
    """``(issued, completed)`` when they differ by more than :data:`DISAGREE` of the larger;
    None when they agree or either is unknown (fio before 2.2 has no ``total_ios``)."""
    completed = completed_count(d)
    if issued is None or completed is None or issued < 0 or completed < 0:
        return None
    if abs(completed - issued) <= DISAGREE * max(issued, completed):
        return None
    return issued, completed
