"""A direction's IOPS as fio's *completed* I/Os over its runtime, so that a trial's IOPS and MB/s
count the same I/Os (docs/precision.md, "Starts").

Why: fio's ``iops`` is its count of *issued* I/Os (``total_ios``) over the runtime, while its
``io_bytes``, ``bw`` and latency sample counts are of *completed* ones. The two agree when a job
counts from its start. After ``ramp_time`` they do not: fio restarts its counters with a queue
of I/Os in flight, which complete inside the measured time (and count in its bytes, bandwidth
and latencies) but were issued before it, so ``iops`` leaves out up to ``iodepth x numjobs``
I/Os. On an SSD that is nothing (256 of millions); on a slow device it is the error: at 120 IOPS
with 256 in flight and a 3 s ramp, fio 3.33 printed 89.3 IOPS for 987 I/Os completed in
8.2 s (120.4 per second, and its own bandwidth said so).

The completions are the completion latency's sample count ``N``. They replace the issued count
only when they exceed it; otherwise fio's ``iops`` stands (without a ramp the two are equal, and
a job cut off before its I/Os completed has fewer completions than issues). fio before 2.2 has
no ``total_ios``: its ``iops`` stands.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Latency objects whose ``N`` counts the direction's completed I/Os, in order of preference.
_COUNTED = ("clat_ns", "lat_ns", "clat", "lat")


def completed_iops(d: Mapping[str, Any], issued: int | None, runtime_ms: int) -> float:
    """fio's ``iops`` for one direction (``d``, its ``issued`` I/Os and ``runtime_ms`` as the
    parser read them), or its completions over its runtime when after a ramp more I/Os
    completed than fio counted as issued."""
    iops = float(d.get("iops") or 0.0)
    completed = next((obj["N"] for key in _COUNTED if isinstance(obj := d.get(key), Mapping)
                      and type(obj.get("N")) is int), None)
    if issued is None or completed is None or completed <= issued or runtime_ms <= 0:
        return iops
    return completed * 1000.0 / runtime_ms
