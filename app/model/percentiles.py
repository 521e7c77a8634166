"""The one list of latency percentiles the app asks for, stores, tabulates and plots.

fio is asked for exactly these (``--percentile_list``), run.json stores them under these keys,
trials.csv has a column for each, and every table and figure reads them from here, so a new
percentile is added in one place. DiskSpd reports a fixed set that includes all of them.
"""
from __future__ import annotations

import math

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


# -- the one rule for "too few I/Os" -------------------------------------------------------------
# A percentile p of N I/Os is read from the floor((1 - p) x N) I/Os slower than it: with fewer
# than MIN_BEYOND of them, one slow I/O more or less moves it a lot, so it is never stated as a
# value (a table, finding, summary or figure); it is marked :func:`too_few_text` everywhere, and
# CSV and JSON keep the value only beside a too-few flag. Every reader decides with
# :func:`too_few` and marks with :func:`too_few_text`: docs/report.md ("Too few I/Os").

MIN_BEYOND = 10


def fraction_beyond(key: str) -> float:
    """The share of I/Os slower than percentile ``key``: 'p99.9' -> 0.001."""
    return (100.0 - float(key.lstrip("p"))) / 100.0


def ios_beyond(key: str, ios: int) -> int:
    """The I/Os of ``ios`` strictly slower than percentile ``key``: floor((1 - p) x ios), a
    whole count (9 of 9,792 beyond p99.9), computed without float error (0.1 % of 1,000 is 1)."""
    return math.floor(round(fraction_beyond(key) * ios, 6))


def too_few(key: str, ios: int | None) -> bool:
    """True when percentile ``key`` of ``ios`` I/Os has fewer than :data:`MIN_BEYOND` I/Os beyond
    it; False when the I/O count is unknown (the engine did not say)."""
    return ios is not None and ios_beyond(key, ios) < MIN_BEYOND


def ios_needed(key: str) -> int:
    """The fewest I/Os for which percentile ``key`` is stated: 10 / (1 - p) (p99.9: 10,000)."""
    return math.ceil(round(MIN_BEYOND / fraction_beyond(key), 6))


def too_few_text(beyond: int) -> str:
    """The one mark of a too-few percentile, in every table, sentence and figure:
    'too few I/Os (4)', the number being the I/Os beyond it (fewer than 10)."""
    return f"too few I/Os ({beyond:,})"


def needs_text(key: str, iops: float | None, per: str = "per trial", trials: int = 1) -> str:
    """What would make a too-few percentile known: 'p99.9 needs about 10,000 I/Os per trial: a
    runtime of about 35 s at this IOPS (290)'. ``trials`` > 1: the I/Os are pooled over that many
    repetitions, so each runs for its share."""
    need = ios_needed(key)
    text = f"{key} needs about {need:,} I/Os {per}"
    if not iops or iops <= 0:
        return text
    seconds = need / (iops * max(trials, 1))   # rounded up: a runtime that would suffice
    shown = f"{math.ceil(seconds):,}" if seconds >= 10 else f"{math.ceil(seconds * 10) / 10:g}"
    each = " each" if trials > 1 else ""
    return f"{text}: a runtime of about {shown} s{each} at this IOPS ({iops:,.0f})"
