"""One trial run on several fio servers at once: their measurements as one, each kept.

How the hosts are combined, the same in run.json, the tables and docs/usage.md:

- **IOPS, MB/s, MiB/s and bytes are summed**: the hosts ran the same job at the same time, so the
  sum is what they did together.
- **runtime** is the longest host's.
- **mean latency** is the mean over every I/O of every host: each host's mean weighted by its
  I/O count (from its histogram; else by its bytes, which is the same weight since every host ran
  the same block size). Never a plain average of the hosts' means.
- **percentiles** are those of all the hosts' I/Os together, read from their merged histograms
  (fio json+ bins, exact at fio's bin resolution, the same rule fio uses for one host). Where a
  host has no histogram there is no pooled percentile (None): averaging per-host percentiles
  would be a number no I/O had.
- **min / max**: the smallest and the largest of any host.

Each host's own measurement stays under ``hosts`` (its address, the name its server reported,
and its read/write/total), so a slow host is never hidden by the sum.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.model.percentiles import PERCENTILES, percentile_key
from app.stats.histogram import Histogram

HOW = ("IOPS and MB/s: sum over hosts; mean latency: over every I/O of every host; percentiles: "
       "of all hosts' I/Os from their merged histograms (none where a host has no histogram); "
       "each host's own figures are under hosts")
_DIRECTIONS = ("read", "write", "mixed")


def combine_hosts(per_host: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """One measurement from ``[(address, measurement), ...]`` (each host's final result)."""
    first = per_host[0][1]
    out: dict[str, Any] = {}
    for key, value in first.items():
        if key == "host":
            out["host"] = None  # several hosts: each is named under "hosts"
            out["hosts"] = [_host_entry(address, m) for address, m in per_host]
            out["combined"] = HOW
        elif key in _DIRECTIONS:
            out[key] = combine_sides([m.get(key) for _, m in per_host])
        elif key != "total":
            out[key] = value
    parts = [out[d] for d in ("mixed",) if out.get(d)] or [out[d] for d in ("read", "write") if out.get(d)]
    out["total"] = ({"iops": sum(p["iops"] for p in parts), "MBps": sum(p["MBps"] for p in parts)}
                    if parts else None)
    return out


def _host_entry(address: str, m: dict[str, Any]) -> dict[str, Any]:
    return {"address": address, "hostname": m.get("host"),
            **{d: m.get(d) for d in _DIRECTIONS if d in m}, "total": m.get("total")}


def combine_sides(sides: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """One direction of several hosts (None when no host did I/O in it)."""
    done = [s for s in sides if s]
    if not done:
        return None
    hists = [Histogram.from_bins(s["hist_ns"]) if s.get("hist_ns") else None for s in done]
    known = [h for h in hists if h is not None]
    all_hists = len(known) == len(hists)
    weights = [h.ios for h in known] if all_hists else [s.get("io_bytes") or 0 for s in done]
    out = {"io_bytes": sum(s.get("io_bytes") or 0 for s in done)}
    for key in ("iops", "MBps", "MiBps"):
        out[key] = sum(s.get(key) or 0.0 for s in done)
    out["runtime_ms"] = max(s.get("runtime_ms") or 0 for s in done)
    kinds = {s.get("lat_kind") for s in done}
    out["lat_kind"] = kinds.pop() if len(kinds) == 1 else None
    merged = Histogram.merged(h for h in hists if h is not None) if all_hists else None
    out["lat_us"] = _latency([s.get("lat_us") for s in done], weights, merged)
    if merged is not None and merged.ios:
        out["hist_ns"] = merged.to_bins()
    return out


def _latency(lats: list[dict[str, Any] | None], weights: Sequence[float],
             merged: Histogram | None) -> dict[str, Any] | None:
    pairs = [(lat, w) for lat, w in zip(lats, weights, strict=True) if lat]
    if not pairs:
        return None
    out = {"min": _extreme(pairs, "min", min)}
    means = [(lat["mean"], w) for lat, w in pairs if lat.get("mean") is not None and w > 0]
    total = sum(w for _, w in means)
    out["mean"] = sum(v * w for v, w in means) / total if means and total else None
    for p in PERCENTILES:
        value = merged.percentile(p) if merged is not None and merged.ios else None
        out[percentile_key(p)] = value / 1000.0 if value is not None else None
    out["max"] = _extreme(pairs, "max", max)
    return out


def _extreme(pairs: list[tuple[dict[str, Any], float]], key: str,
             pick: Callable[[list[float]], float]) -> float | None:
    values = [lat[key] for lat, _ in pairs if lat.get(key) is not None]
    return pick(values) if values else None
