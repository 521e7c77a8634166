"""The Discussion: the experiments checked against each other, one sentence per check with its
numbers and whether it holds (docs/report.md). A check whose inputs this run lacks is left out;
one that fails says by how much, never that it holds."""
from __future__ import annotations

from app.experiments.common import separated, stat_text
from app.experiments.queue_depth import QueueDepthFindings
from app.experiments.slc_cache import CacheFindings
from app.model.summary import WorkloadSummary
from app.report.interpretation.facts import AGREE, find, lat, num, part_or_none, pct_text, rows, verdict
from app.report.interpretation.knee import LITTLE_TOLERANCE
from app.report.interpretation.throughput import link_ceiling
from app.results.run_results import ExperimentResults, RunResults
from app.specs.comparison import VendorComparison
from app.stats.derived import Knee
from app.units import sig

#: Parallel service at the zero-queue time counts as reached from this share on.
PARALLEL = 0.8
MAX_PAIRS = 6


def discussion(results: RunResults, comparison: VendorComparison | None) -> list[str]:
    checks = [_qd1(results), _knee_parallel(results), _past_knee(results), _tail(results),
              _vendor_write(results, comparison), _plateau(results)]
    return [c for c in checks if c] + same_workloads(results)


def _service_row(results: RunResults) -> WorkloadSummary | None:
    """The zero-queue 4 KiB random read, else the sweep's QD1 row: the zero-queue service time."""
    row = find(rows(results, "zero-queue"), rw="randread")
    if row is None:
        row = next((r for r in rows(results, "queue-depth") if r.outstanding == 1), None)
    return row


def _qd1(results: RunResults) -> str | None:
    row = _service_row(results)
    t, iops = lat(row), row.total_iops.mean if row else None
    if row is None or not t or not iops:
        return None
    predicted = 1e6 / t
    miss = iops / predicted - 1
    why = "" if abs(miss) <= AGREE else (
        ": the gap is time between one completion and the next submission, spent in the host "
        "and the engine rather than the drive" if miss < 0 else
        ": more than one I/O was in flight on average")
    return (f"QD1 IOPS against 1 / QD1 latency: {row.label} reaches {stat_text(row.total_iops)} "
            f"IOPS; 1 / {sig(t)} µs predicts {sig(predicted)} ({pct_text(miss)}): "
            f"{verdict(abs(miss) <= AGREE)}{why}.")


def _knee(results: RunResults) -> tuple[ExperimentResults | None, Knee | None]:
    part = part_or_none(results, "queue-depth")
    found = part.found(QueueDepthFindings) if part else None
    return (part, found.knee) if part and found and found.knee else (None, None)


def _knee_parallel(results: RunResults) -> str | None:
    """The knee's IOPS (without a knee: the first depth reaching 90 % of the peak) against what
    that many commands served at once at the zero-queue service time would give."""
    part, knee = _knee(results)
    row = _service_row(results)
    t = lat(row)
    if part is None or knee is None or not t:
        return None
    level, iops = (knee.knee_level, knee.knee_iops) if knee.reached else (knee.p90_level,
                                                                           knee.p90_iops)
    if not iops:
        return None
    predicted = level / t * 1e6
    share = iops / predicted
    said = (f"the drive serves QD{level} commands in parallel at its zero-queue service time"
            if share >= PARALLEL else
            f"it behaves like {iops * t / 1e6:.1f} commands served at once at that time; the "
            "rest wait in the queue")
    where = (f"The knee's IOPS (QD{level})" if knee.reached else
             f"With no knee, the IOPS of the first depth reaching 90 % of the peak (QD{level})")
    return (f"{where} against QD × the zero-queue service time: {level} / {sig(t)} µs predicts "
            f"{sig(predicted)} IOPS, measured {sig(iops)} ({share:.0%}): "
            f"{verdict(share >= PARALLEL)}; {said}.")


def _past_knee(results: RunResults) -> str | None:
    part, knee = _knee(results)
    if part is None or knee is None or not knee.reached:
        return None
    deeper = [r for r in part.workloads if r.outstanding > knee.knee_level]
    if not deeper:
        return None
    d = max(deeper, key=lambda r: r.outstanding)
    measured, iops = lat(d), d.total_iops.mean
    if not measured or not iops:
        return None
    predicted = d.outstanding / iops * 1e6
    miss = measured / predicted - 1
    return (f"Latency past the knee against QD / IOPS at QD{d.outstanding}: "
            f"{d.outstanding} / {sig(iops)} IOPS = {sig(predicted)} µs, measured "
            f"{stat_text(d.lat('mean'), 'µs')} ({pct_text(miss)}): "
            f"{verdict(abs(miss) <= LITTLE_TOLERANCE)} (Little's Law at that level).")


def _tail(results: RunResults) -> str | None:
    part = part_or_none(results, "tail-latency")
    if part is None or len(part.workloads) < 2:
        return None
    ordered = sorted(part.workloads, key=lambda r: r.outstanding)
    lo, hi = ordered[0], ordered[-1]
    m0, m1, p0, p1 = lat(lo), lat(hi), lat(lo, "p99"), lat(hi, "p99")
    if not (m0 and m1 and p0 and p1):
        return None
    g_mean, g_tail = m1 / m0, p1 / p0
    grows = separated(lo.lat("p99"), hi.lat("p99")) is not False and g_tail > g_mean
    return (f"Tail growth from QD{lo.outstanding} to QD{hi.outstanding}: p99 ×{sig(g_tail)} "
            f"({sig(p0)} → {sig(p1)} µs) against mean latency ×{sig(g_mean)}; that the tail grows "
            f"faster than the mean {verdict(grows)}.")


def _vendor_write(results: RunResults, comparison: VendorComparison | None) -> str | None:
    part = part_or_none(results, "slc-cache")
    found = part.found(CacheFindings) if part else None
    if not found or not found.per_trial:
        return None
    drops = [t.found for t in found.per_trial if t.found.drop_observed]
    values = [f.MBps_after for f in drops] if drops else [t.found.MBps_before for t in found.per_trial]
    known = [v for v in values if v]
    if not known:
        return None
    rate = sum(known) / len(known)
    what = "post-cache" if drops else "sustained (no drop seen)"
    row = next((r for r in comparison.rows if r.metric == "seq_write_mbps"), None) if comparison else None
    if row is None:
        return (f"Sustained write against the vendor's write figure: {what} rate {sig(rate)} "
                "MB/s; no vendor write figure was given, so this check is open.")
    share = rate / row.spec
    return (f"Sustained write against the vendor's write figure: {what} rate {sig(rate)} MB/s "
            f"against {sig(row.spec)} MB/s 'up to' ({share:.0%}); that the vendor's figure is a "
            f"burst figure above the sustained rate {verdict(rate <= row.spec)}.")


def _plateau(results: RunResults) -> str | None:
    part = part_or_none(results, "block-size")
    if part is None:
        return None
    peak = max((r.total_MBps.mean or 0.0) for r in part.workloads)
    ceiling = link_ceiling(results)
    if ceiling is None:
        return (f"Block-size plateau against the link ceiling: {sig(peak)} MB/s at best; no link "
                "was reported, so this check is open.")
    name, mbps = ceiling
    return (f"Block-size plateau against the link ceiling: {sig(peak)} MB/s against {name}'s "
            f"{mbps:,.0f} MB/s ({peak / mbps:.0%}); that the drive stays under its link "
            f"{verdict(peak <= mbps)}" + ("" if peak <= mbps else ": a cache above the drive "
                                          "served part of it") + ".")


def same_workloads(results: RunResults) -> list[str]:
    """One sentence per workload two experiments both measured: agree or disagree, by how much."""
    seen: dict[str, tuple[str, WorkloadSummary]] = {}
    out = []
    for part in results.parts:
        for row in part.workloads:
            if row.key not in seen:
                seen[row.key] = (part.id, row)
                continue
            first_id, first = seen[row.key]
            a, b = first.total_iops, row.total_iops
            if not a.mean or not b.mean or first_id == part.id:
                continue
            diff = b.mean / a.mean - 1
            split = separated(a, b)
            said = (f"they disagree by {pct_text(diff)}, beyond their repetitions' spread (Welch's "
                    "t-test at 5 %): the drive did not behave the same in the two experiments' "
                    "trials (order, the file's state, drift)" if split else
                    (f"they agree within the noise ({pct_text(diff)}"
                     + ("; a large difference, but their repetitions spread as much)"
                        if abs(diff) > 0.25 else ")")) if split is False else
                    f"they differ by {pct_text(diff)} (one repetition: not tested)")
            out.append(f"{row.label} was measured by {first_id} ({num(a.mean)} IOPS) and by "
                       f"{part.id} ({num(b.mean)} IOPS): {said}.")
            if len(out) >= MAX_PAIRS:
                return out
    return out
