"""Block size: why IOPS fall and MB/s saturate, read from the sweep's own numbers.

The model a course uses: each command costs a fixed time (submission, controller, flash access)
plus its bytes over a bandwidth ceiling. While the fixed cost dominates, a k× larger block
barely lowers IOPS (MB/s grow k×); once the ceiling dominates, IOPS fall by k and MB/s stay
level; between the two, both show. Each is stated only where the sweep shows it; the ceiling is set beside the link's.
"""
from __future__ import annotations

import math

from app.experiments.common import separated, stat_text, versus
from app.model.summary import WorkloadSummary
from app.report.interpretation.facts import num, part_or_none
from app.results.figure import size_text
from app.results.run_results import RunResults
from app.specs.match import INTERFACE_CEILINGS_MBPS, drive_link_ceiling
from app.units import sig

#: Where the IOPS kept by the first step of the sweep sit between a per-command cost alone (0:
#: IOPS kept) and a bandwidth limit alone (1: IOPS fall by the block's growth), on a log scale:
#: up to the first, a per-command cost limits; from the second, bytes do; between, both. For a
#: doubling, 0.32 is IOPS kept at 80 % and 0.68 at 62 %.
BYTES_SHARE = (0.32, 0.68)
#: MB/s gained from the second-largest to the largest block: below this, a plateau.
PLATEAU_GAIN = 1.10


def _pattern(rows: list[WorkloadSummary]) -> str:
    return "Random" if rows[0].workload.random else "Sequential"


def block_size_reading(results: RunResults) -> list[str]:
    part = part_or_none(results, "block-size")
    if part is None:
        return []
    out, peaks = [], []
    for random in (True, False):
        mine = sorted((r for r in part.workloads
                       if r.workload.random == random),
                      key=lambda r: r.workload.bs_bytes)
        if len(mine) < 2 or not all(r.total_iops.mean and r.total_MBps.mean for r in mine):
            continue
        out += _pattern_reading(mine)
        peaks.append(max(r.total_MBps.mean or 0.0 for r in mine))
    if peaks:
        out.append(_link(max(peaks), results))
    return out


def _pattern_reading(mine: list[WorkloadSummary]) -> list[str]:
    name, qd = _pattern(mine), mine[0].outstanding
    a, b = mine[0], mine[1]
    kept = (b.total_iops.mean or 0) / (a.total_iops.mean or 1)
    per_cmd_us = qd / (a.total_iops.mean or 1) * 1e6
    sa, sb = size_text(a.workload.bs_bytes), size_text(b.workload.bs_bytes)
    grow = b.workload.bs_bytes / a.workload.bs_bytes
    times = "twice" if grow == 2 else f"{grow:g}×"
    # where IOPS kept sit between a per-command cost alone (kept 1) and a bandwidth limit alone
    # (kept 1 / grow), on a log scale: 0 is the first, 1 the second
    toward_bytes = math.log(max(kept, 1e-9)) / math.log(1 / grow) if grow > 1 else 0.0
    if toward_bytes <= BYTES_SHARE[0]:
        keep = f"keep {kept:.0%} of their value" if kept < 1 else f"do not fall ({kept:.2f}×)"
        first = (f"{name}: from {sa} to {sb} IOPS {keep} "
                 f"({stat_text(a.total_iops)} → {stat_text(b.total_iops)}) while each command "
                 f"carries {times} the bytes, so small blocks are limited by a per-command cost "
                 f"(QD{qd} / IOPS = {sig(per_cmd_us)} µs of queue time per command at {sa}), "
                 "not by bytes.")
    elif toward_bytes >= BYTES_SHARE[1]:
        first = (f"{name}: IOPS fall to {kept:.0%} of their value when the block grows {times} "
                 f"from {sa} to {sb} ({stat_text(a.total_iops)} → {stat_text(b.total_iops)}), "
                 f"near the {1 / grow:.0%} a bandwidth limit alone gives: even the smallest "
                 "blocks are limited by bytes here, not by a per-command cost.")
    else:
        first = (f"{name}: IOPS fall to {kept:.0%} of their value when the block grows {times} "
                 f"from {sa} to {sb} ({stat_text(a.total_iops)} → {stat_text(b.total_iops)}), "
                 f"between the 100 % a per-command cost alone and the {1 / grow:.0%} a bandwidth "
                 "limit alone would give: both shape small-block IOPS (a fixed time per command "
                 "plus its bytes' transfer).")
    prev, last = mine[-2], mine[-1]
    gain = (last.total_MBps.mean or 0) / (prev.total_MBps.mean or 1)
    sp, sl = size_text(prev.workload.bs_bytes), size_text(last.workload.bs_bytes)
    flat = gain < PLATEAU_GAIN or separated(prev.total_MBps, last.total_MBps) is False
    if flat:
        predicted = (last.total_MBps.mean or 0) * 1e6 / last.workload.bs_bytes
        change = versus(prev.total_MBps, last.total_MBps, f"MB/s change {gain:.2f}×", "MB/s")
        second = (f"{name}: from {sp} to {sl} {change} ({stat_text(prev.total_MBps)} → "
                  f"{stat_text(last.total_MBps, 'MB/s')}), a plateau: a bandwidth ceiling, under "
                  f"which IOPS fall as ceiling / block size ({num(last.total_MBps.mean)} MB/s / "
                  f"{sl} predicts {num(predicted)} IOPS; measured {stat_text(last.total_iops)}).")
    else:
        second = (f"{name}: MB/s still rise {gain:.2f}× from {sp} to {sl} "
                  f"({stat_text(prev.total_MBps)} → {stat_text(last.total_MBps, 'MB/s')}): no "
                  "plateau within the sweep, so the bandwidth ceiling lies above "
                  f"{num(last.total_MBps.mean)} MB/s and a larger block would find it.")
    return [first, second]


def link_ceiling(results: RunResults) -> tuple[str, float] | None:
    return drive_link_ceiling(results.run.info.drive)


def _link(peak: float, results: RunResults) -> str:
    ceiling = link_ceiling(results)
    if ceiling is None:
        scale = ", ".join(f"{k} {v:,.0f} MB/s" for k, v in INTERFACE_CEILINGS_MBPS.items()
                          if k in ("SATA III", "PCIe 3.0 x4", "PCIe 4.0 x4"))
        return (f"The highest throughput of the sweep, {sig(peak)} MB/s, cannot be set beside the "
                "link's ceiling: the drive reported no PCIe or SATA link (for scale: "
                f"{scale}).")
    name, mbps = ceiling
    share = peak / mbps
    if share >= 0.9:
        return (f"The highest throughput of the sweep, {sig(peak)} MB/s, is {share:.0%} of the "
                f"{name} link's {mbps:,.0f} MB/s: the link is the ceiling.")
    return (f"The highest throughput of the sweep, {sig(peak)} MB/s, is {share:.0%} of the "
            f"{name} link's {mbps:,.0f} MB/s, so the ceiling is the drive's own (flash "
            "channels, controller) or the host's, not the link.")
