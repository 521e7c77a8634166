"""The SLC cache read from the sustained write: its size (GB written before the drop) and the
post-cache rate, or why no drop was seen (a cache larger than what was written, no cache at
this fill level, or a cache in front of the drive such as a virtual disk's host)."""
from __future__ import annotations

from app.experiments.common import values_text
from app.experiments.slc_cache import CacheFindings
from app.report.interpretation.facts import part_or_none
from app.results.run_results import RunResults
from app.units import sig


def cache_reading(results: RunResults) -> list[str]:
    part = part_or_none(results, "slc-cache")
    found = part.found(CacheFindings) if part else None
    if part is None or not found or not found.per_trial:
        return []
    every = [t.found for t in found.per_trial]
    drops = [f for f in every if f.drop_observed]
    if drops:
        before = [f.MBps_before for f in drops]
        after = [f.MBps_after for f in drops]
        share = (sum(a or 0 for a in after) / sum(b or 0 for b in before)) if any(before) else None
        return [f"The write ran at {values_text(before, 'MB/s')} for "
                f"{values_text([f.gb_before_drop for f in drops], 'GB')}, then fell to "
                f"{values_text(after, 'MB/s')}" + (f" ({share:.0%} of the cached rate)" if share else "")
                + ": the SLC cache (flash written one bit per cell, quick to program) held about "
                "that much at this fill level, and the lower rate is the post-cache rate, at which "
                "the drive programs its TLC/QLC flash directly while it empties the cache."]
    most = max(f.total_gb for f in every)
    rate = [f.MBps_before for f in every]
    medium = results.run.info.drive.medium if results.run.info.drive else None
    front = (" On this run the test folder is on a virtual disk, so the host's cache is the "
             "likely reason." if medium and medium.kind == "virtual" else "")
    known = [r for r in rate if r]
    need = (f" At {sig(sum(known) / len(known))} MB/s, writing 100 GB takes about "
            f"{sig(1e5 / (sum(known) / len(known)))} s." if known else "")
    return [f"No drop in {sig(most)} GB written at {values_text(rate, 'MB/s')}: the SLC cache, "
            f"if any, holds more than {sig(most)} GB at this fill level, or the drive writes "
            "without one, or a cache in front of the drive absorbed the writes." + front + need]
