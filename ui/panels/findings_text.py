"""Numbers and findings as text for the results table (display formatting in one place). No Qt.

The analysis functions return plain dicts (app/analysis.py); this turns each experiment's findings
into a few sentences a student can paste into a report, always with the unit.
"""
from __future__ import annotations

from app.units import human_bytes


def number(value: float | None) -> str:
    """Three significant figures or more, thousands separated: 5,696 / 174.5 / 2.31."""
    if value is None:
        return "-"
    a = abs(value)
    if a >= 100:
        return f"{value:,.0f}"
    if a >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def stat_text(stat: dict | None, with_n: bool = True) -> str:
    """'5,696 ± 411 (n=2)'; a single value shows no ±."""
    if not stat or stat.get("mean") is None:
        return "-"
    text = number(stat["mean"])
    if stat.get("std") is not None:
        text += f" ± {number(stat['std'])}"
    if with_n:
        text += f" (n={stat.get('n', 0)})"
    return text


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}×"


def findings_lines(eid: str, findings: dict) -> list[str]:
    """Sentences for one experiment's findings; empty when there is nothing to say yet."""
    out: list[str] = []
    if not findings:
        return out
    if eid == "queue-depth":
        k = findings.get("knee")
        if k:
            out.append(f"Knee (max IOPS / latency) at {k['knee_level']} outstanding I/O: "
                       f"{number(k['knee_iops'])} IOPS at {number(k['knee_lat_us'])} µs mean latency; "
                       f"90 % of the peak {number(k['peak_iops'])} IOPS from {k['p90_level']}.")
        ratios = [f"{p['level']}: {number(p['ratio'])}" for p in findings.get("littles_law") or []
                  if p.get("ratio") is not None]
        if ratios:
            out.append("Little's Law, L = IOPS × latency over outstanding I/O (1 = queue kept full): "
                       + ", ".join(ratios) + ".")
    elif eid == "block-size":
        for pattern, c in (findings.get("crossover") or {}).items():
            if not c:
                continue
            if c.get("crossover_bs_bytes"):
                where = f"crosses over near {human_bytes(c['crossover_bs_bytes'])}"
            else:
                where = c.get("note") or "no crossover"
            sat = c.get("bw_saturation_bs_bytes")
            out.append(f"{pattern.capitalize()}: IOPS-limited to bandwidth-limited {where}; "
                       f"90 % of the peak {number(c.get('peak_MBps'))} MB/s"
                       + (f" from {human_bytes(sat)} blocks." if sat else "."))
    elif eid in ("zero-queue", "tail-latency"):
        for label, spread in (findings.get("tail_spread") or {}).items():
            out.append(f"{label}: p99 = {_ratio(spread.get('p99_over_p50'))} p50, "
                       f"p99.9 = {_ratio(spread.get('p99.9_over_p50'))} p50.")
    elif eid == "slc-cache":
        for c in findings.get("cache_exhaustion") or []:
            if c.get("drop_observed"):
                out.append(f"Repetition {c['repetition']}: cache exhausted after "
                           f"{number(c['gb_before_drop'])} GB at {number(c['t_drop_s'])} s; "
                           f"{number(c['MBps_before'])} MB/s before, {number(c['MBps_after'])} MB/s after.")
            else:
                out.append(f"Repetition {c['repetition']}: {c.get('note')} "
                           f"({number(c.get('MBps_before'))} MB/s over {number(c.get('total_gb'))} GB).")
    return out
