"""Figure specs of latency baselines, tail latency, the SLC-cache write and the vendor
comparison (see app/figures.py for the conventions)."""
from __future__ import annotations

from app.figures import Axis, Figure, HLine, Marker, Series, fmt, grouped_bars, lat_axis_label, main_side

ZERO_QUEUE_STATS = (("mean", "mean"), ("p95", "p95"), ("p99", "p99"))
TAIL_STATS = ("p50", "p95", "p99", "p99.9", "p99.99")


def zero_queue(part: dict, kind: str | None, **_) -> list[Figure]:
    """Bars of mean, p95 and p99 per workload at QD1 (p99.9 is in the table)."""
    rows = part["workloads"]
    groups = [(name, [main_side(r).get("lat_us", {}).get(stat) for r in rows])
              for stat, name in ZERO_QUEUE_STATS]
    series, ticks = grouped_bars([r["label"] for r in rows], groups)
    return [Figure(id="zero-queue-latency", experiment="zero-queue",
                   title="Zero-queue baselines (QD1): latency per workload",
                   x_axis=Axis("Workload (pattern, block size, queue depth, threads)", ticks),
                   y_axis=Axis(lat_axis_label(kind)), series=series,
                   caption="Bars are means over repetitions; error bars ± sample std.")]


def tail_latency(part: dict, kind: str | None, **_) -> list[Figure]:
    """Grouped bars p50 .. p99.99 per queue depth."""
    rows = part["workloads"]
    cats = [f"QD{(r['workload'].get('iodepth') or 1) * (r['workload'].get('numjobs') or 1)}"
            for r in rows]
    groups = [(stat, [main_side(r).get("lat_us", {}).get(stat) for r in rows])
              for stat in TAIL_STATS]
    series, ticks = grouped_bars(cats, groups)
    w = rows[0]["workload"]
    return [Figure(id="tail-latency-percentiles", experiment="tail-latency",
                   title=f"Tail latency ({w['rw']} {w['bs_bytes'] // 1024} KiB): "
                         "percentiles per queue depth",
                   x_axis=Axis("Queue depth (outstanding I/O)", ticks),
                   y_axis=Axis(lat_axis_label(kind)), series=series)]


def _trial_series(samples: list[dict], trial: int) -> list[tuple[float, float, float, float | None]]:
    """(t since trial start s, GB written, write MB/s, temperature °C) per interval.

    The trial starts one interval before its first sample (samples are stamped at the end of
    their interval), the same convention as app.summary uses for the exhaustion point.
    """
    rows = sorted((s for s in samples if s["trial"] == trial), key=lambda s: s["t_s"])
    if not rows:
        return []
    first_gap = rows[1]["t_s"] - rows[0]["t_s"] if len(rows) > 1 else 1.0
    start, prev, gb, out = rows[0]["t_s"] - first_gap, None, 0.0, []
    for s in rows:
        mbps = s.get("write_MBps") or 0.0
        gb += mbps * (s["t_s"] - (prev if prev is not None else start)) / 1000.0
        prev = s["t_s"]
        out.append((s["t_s"] - start, gb, mbps, s.get("temperature_c")))
    return out


def _levels(found: list[dict]) -> list[HLine]:
    """Before/after levels: per trial when there is one, else the mean over the trials (one
    pair of lines instead of one per repetition keeps the figure readable)."""
    drops = [f for f in found if f.get("drop_observed")]
    tag = f" (mean of {len(drops)} reps)" if len(drops) > 1 else ""
    out = []
    for key, name, color in (("MBps_before", "before", 4), ("MBps_after", "after", 6)):
        values = [f[key] for f in drops if f.get(key) is not None]
        if values:
            level = sum(values) / len(values)
            out.append(HLine(level, f"{name} the drop: {fmt(level)} MB/s{tag}", color=color))
    if not drops:
        values = [f["MBps_before"] for f in found if f.get("MBps_before") is not None]
        if values:
            level = sum(values) / len(values)
            out.append(HLine(level, f"mean {fmt(level)} MB/s, no drop seen", color=4))
    return out


def slc_cache(part: dict, kind: str | None, record: dict | None = None,
              samples: list[dict] | None = None, **_) -> list[Figure]:
    """Per-interval MB/s against GB written and against time, exhaustion and levels marked,
    temperature on the right axis when it was recorded."""
    found = (part.get("findings") or {}).get("cache_exhaustion") or []
    several = len(found) > 1
    series = {"gb": [], "time": []}
    temps = {"gb": [], "time": []}
    markers = {"gb": [], "time": []}
    for i, f in enumerate(found):
        pts = _trial_series(samples or [], f["trial"])
        if not pts:
            continue
        tag = f" (rep {f['repetition']})" if several else ""
        for key, col, drop_x in (("gb", 1, f.get("gb_before_drop")), ("time", 0, f.get("t_drop_s"))):
            series[key].append(Series(f"write MB/s{tag}", tuple(p[col] for p in pts),
                                      tuple(p[2] for p in pts), color=i))
            t = [(p[col], p[3]) for p in pts if p[3] is not None]
            if t:
                temps[key].append(Series(f"temperature{tag}", tuple(a for a, _ in t),
                                         tuple(b for _, b in t), axis="right", color=i, dash=True))
            if f.get("drop_observed") and drop_x is not None:
                where = f"{drop_x:.1f} GB" if key == "gb" else f"{drop_x:.0f} s"
                who = f"rep {f['repetition']}: " if several else ""
                markers[key].append(Marker(drop_x, None, f"{who}cache exhausted at {where}"))
    w = part["workloads"][0]["workload"]
    what = f"{w['bs_bytes'] // 1024} KiB sequential write, QD{w['iodepth']}"
    out = []
    for key, x_label, title in (("gb", "Data written (GB, 10^9 B)", "against data written"),
                                ("time", "Time since the trial started (s)", "against time")):
        if not series[key]:
            continue
        out.append(Figure(
            id=f"slc-cache-{key}", experiment="slc-cache",
            title=f"Sustained write ({what}): MB/s {title}",
            x_axis=Axis(x_label), y_axis=Axis("Write bandwidth (MB/s, 10^6 B/s, per interval)"),
            y2_axis=Axis("Drive temperature (°C)", include_zero=False) if temps[key] else None,
            series=tuple(series[key] + temps[key]), markers=tuple(markers[key]),
            hlines=tuple(_levels(found)),
            caption="; ".join(f"rep {f['repetition']}: {f.get('note')}" for f in found)))
    return out


_SHORT = {"seq_read_mbps": "Seq. read", "seq_write_mbps": "Seq. write",
          "rand_read_iops": "4K random read", "rand_write_iops": "4K random write"}


def _compact(value: float, unit: str) -> str:
    return f"{value / 1e6:.2f} M {unit}" if value >= 1e6 else f"{value:,.0f} {unit}"


def _spec_name(spec: dict) -> str:
    """'Samsung PM9A1 512 GB'; parts a spec does not state are left out (never 'None GB')."""
    name = " ".join(str(x) for x in (spec.get("vendor"), spec.get("family")) if x)
    cap = spec.get("capacity_gb")
    return f"{name} {cap:g} GB" if isinstance(cap, (int, float)) else (name or "unnamed spec")


def vendor(comparison: dict) -> Figure | None:
    """Measured as % of the vendor's 'up to' figure, one bar per metric that was measured."""
    rows = [r for r in comparison.get("rows", []) if r.get("pct") is not None]
    if not rows:
        return None
    x = tuple(float(i) for i in range(len(rows)))
    labels = tuple(f"{r['pct']:.0f} % ({r['measured']['mean']:,.0f} {r['unit']})" for r in rows)
    spec = comparison.get("spec") or {}
    return Figure(
        id="vendor-comparison", experiment="vendor",
        title="Measured against the vendor spec: " + _spec_name(spec),
        x_axis=Axis("Metric (vendor 'up to' value)",
                    tuple((i, f"{_SHORT.get(r['metric'], r['label'])} ({_compact(r['spec'], r['unit'])})")
                          for i, r in zip(x, rows))),
        y_axis=Axis("Measured / vendor spec (%)"),
        series=(Series("measured (% of spec)", x, tuple(r["pct"] for r in rows),
                       tuple(r.get("pct_std") or 0.0 for r in rows), kind="bar",
                       point_labels=labels, bar_width=0.5),),
        hlines=(HLine(100.0, "vendor spec = 100 %", color=1),),
        caption="Vendor figures are 'up to' values under the vendor's own test conditions; "
                "see the comparison table.")
