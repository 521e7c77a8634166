"""One-sentence findings per experiment for report.md: the knee, the crossover, cache
exhaustion, Little's Law and tail spread, from the numbers app.analysis derived."""
from __future__ import annotations

from app.figures import fmt, main_side, mean


def _lat(row: dict, stat: str = "mean", direction: str | None = None) -> float | None:
    side = (row.get(direction) if direction else main_side(row)) or {}
    return mean((side.get("lat_us") or {}).get(stat))


def _ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1f}×"


def _zero_queue(part: dict, _record) -> list[str]:
    spread = part["findings"].get("tail_spread") or {}
    return [f"{r['label']}: mean {fmt(_lat(r), 1)} µs, p99 {fmt(_lat(r, 'p99'), 1)} µs, "
            f"p99.9 {fmt(_lat(r, 'p99.9'), 1)} µs (p99/p50 = "
            f"{_ratio((spread.get(r['label']) or {}).get('p99_over_p50'))})."
            for r in part["workloads"]]


def _block_size(part: dict, _record) -> list[str]:
    out = []
    for pattern, c in (part["findings"].get("crossover") or {}).items():
        if not c:
            continue
        if c.get("crossover_bs_bytes"):
            at = c["crossover_bs_bytes"] / 1024
            text = (f"{pattern}: IOPS-to-bandwidth crossover at ≈ {at:.0f} KiB (between "
                    f"{c['below_bs_bytes'] // 1024} and {c['above_bs_bytes'] // 1024} KiB)")
        else:
            text = f"{pattern}: {c.get('note')}"
        saturated = (c.get("bw_saturation_bs_bytes") or 0) // 1024
        out.append(f"{text}; peak {fmt(c.get('peak_iops'))} IOPS and {fmt(c.get('peak_MBps'))} "
                   f"MB/s; MB/s reaches 90 % of its peak at {saturated} KiB.")
    return out


def _rw_mix(part: dict, _record) -> list[str]:
    out = []
    for r in sorted(part["workloads"], key=lambda r: -(r["workload"].get("rwmixread") or 0)):
        read, write = _lat(r, "mean", "read"), _lat(r, "mean", "write")
        lats = ", ".join(f"{d} {fmt(v, 1)} µs" for d, v in (("read", read), ("write", write))
                         if v is not None)
        text = (f"{r['workload'].get('rwmixread')} % reads: {fmt(mean(r['total_iops']))} IOPS in total, "
                f"mean latency {lats}")
        if read and write:
            text += f" (writes {write / read:.2f}× reads)"
        out.append(text + ".")
    return out


def _queue_depth(part: dict, _record) -> list[str]:
    f = part["findings"]
    knee, law = f.get("knee"), [p for p in f.get("littles_law") or [] if p.get("ratio") is not None]
    out = []
    if knee:
        out.append(f"Knee (maximum IOPS / mean latency) at QD{knee['knee_level']}: "
                   f"{fmt(knee['knee_iops'])} IOPS at {fmt(knee['knee_lat_us'], 1)} µs. Peak "
                   f"{fmt(knee['peak_iops'])} IOPS at QD{knee['peak_level']}; 90 % of the peak is "
                   f"first reached at QD{knee['p90_level']}.")
    if law:
        lo, hi = min(p["ratio"] for p in law), max(p["ratio"] for p in law)
        verdict = ("the requested queue is kept full" if lo >= 0.9 else
                   "some levels lose time outside the device (host-side overhead)")
        out.append(f"Little's Law: measured L = IOPS × latency over outstanding I/O lies between "
                   f"{lo:.2f} and {hi:.2f}; {verdict}.")
    return out


def _tail(part: dict, _record) -> list[str]:
    spread = part["findings"].get("tail_spread") or {}
    out = []
    for r in part["workloads"]:
        s = spread.get(r["label"]) or {}
        out.append(f"{r['label']}: p50 {fmt(_lat(r, 'p50'), 1)} µs, p99.99 "
                   f"{fmt(_lat(r, 'p99.99'), 1)} µs; p99/p50 = {_ratio(s.get('p99_over_p50'))}, "
                   f"p99.9/p50 = {_ratio(s.get('p99.9_over_p50'))}, "
                   f"p99.99/p50 = {_ratio(s.get('p99.99_over_p50'))}.")
    return out


def _slc(part: dict, _record) -> list[str]:
    out = []
    for f in part["findings"].get("cache_exhaustion") or []:
        if f.get("drop_observed"):
            out.append(f"Rep {f['repetition']}: cache exhausted after {f['gb_before_drop']:.2f} GB "
                       f"({f['t_drop_s']:.0f} s); {fmt(f['MBps_before'])} MB/s before, "
                       f"{fmt(f['MBps_after'])} MB/s after.")
        else:
            out.append(f"Rep {f['repetition']}: {f.get('note')} in {f.get('total_gb', 0):.2f} GB "
                       f"written; mean {fmt(f.get('MBps_before'))} MB/s.")
    return out


def _quick(part: dict, _record) -> list[str]:
    out = []
    for direction in ("read", "write"):
        rows = [r for r in part["workloads"] if r.get(direction) and not r.get(
            "write" if direction == "read" else "read")]
        if rows:
            best = max(rows, key=lambda r: mean(r[direction]["MBps"]) or 0)
            out.append(f"Best {direction}: {fmt(mean(best[direction]['MBps']), 1)} MB/s "
                       f"({best['label']}).")
    return out


def _imported(part: dict, record: dict) -> list[str]:
    n = len(record.get("trials", []))
    return [f"{n} imported job entr{'y' if n == 1 else 'ies'}, {len(part['workloads'])} distinct "
            "workloads (entries with the same workload are aggregated as repetitions)."]


_BY_ID = {"zero-queue": _zero_queue, "block-size": _block_size, "rw-mix": _rw_mix,
          "queue-depth": _queue_depth, "tail-latency": _tail, "slc-cache": _slc,
          "quick": _quick, "imported": _imported}


def findings(eid: str, part: dict, record: dict) -> list[str]:
    if not part.get("workloads") or eid not in _BY_ID:
        return []
    part = {"workloads": part["workloads"], "findings": part.get("findings") or {}}
    return _BY_ID[eid](part, record)
