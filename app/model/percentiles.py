"""The one list of latency percentiles the app asks for, stores, tabulates and plots.

fio is asked for exactly these (``--percentile_list``), run.json stores them under these keys,
trials.csv has a column for each, and every table and figure reads them from here, so a new
percentile is added in one place. DiskSpd reports a fixed set that includes all of them.
"""
from __future__ import annotations

PERCENTILES: tuple[float, ...] = (50.0, 95.0, 99.0, 99.9, 99.99)


def percentile_key(p: float) -> str:
    """run.json's key of a percentile: 50 -> "p50", 99.9 -> "p99.9"."""
    return f"p{p:g}"


PERCENTILE_KEYS: tuple[str, ...] = tuple(percentile_key(p) for p in PERCENTILES)
LAT_KEYS: tuple[str, ...] = ("mean", *PERCENTILE_KEYS, "max")
"""The latency statistics (µs) a trial's ``lat_us`` holds besides ``min``, in table order."""

POOLED_PERCENTILES: tuple[float, ...] = (50.0, 90.0, 95.0, 99.0, 99.9, 99.99)
"""Percentiles taken from a workload's merged histogram (fio json+ bins), where p90 costs
nothing extra: a histogram answers any percentile, fio's printed list only those asked for."""
