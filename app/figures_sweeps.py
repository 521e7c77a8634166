"""Figure specs of the sweeps: block size, read/write mix, queue depth (see app/figures.py).

Each builder takes one experiment's summary (workload rows + findings) and returns figures in
the order a report reads them: the throughput view first, then latency.
"""
from __future__ import annotations

import math

from app.figures import (
    Axis,
    Figure,
    Marker,
    Series,
    fmt,
    kib_ticks,
    lat_axis_label,
    main_side,
    mean,
    series_from,
)

_PATTERNS = (("random", True), ("sequential", False))


def _pattern_rows(rows: list[dict], is_random: bool) -> list[dict]:
    rows = [r for r in rows if (r["workload"].get("rw") or "").startswith("rand") == is_random]
    return sorted(rows, key=lambda r: r["workload"]["bs_bytes"] or 0)


def block_size(part: dict, kind: str | None, **_) -> list[Figure]:
    """IOPS and MB/s on twin axes per pattern (crossover marked), then latency vs block size."""
    rows, found = part["workloads"], (part.get("findings") or {}).get("crossover") or {}
    figures, lat_series, ticks = [], [], []
    for p, (pattern, is_random) in enumerate(_PATTERNS):
        mine = _pattern_rows(rows, is_random)
        if not mine:
            continue
        kib = [r["workload"]["bs_bytes"] / 1024 for r in mine]
        ticks += kib
        direction = "write" if all(r["read"] is None for r in mine) else "read"
        series = [s for s in (
            series_from("IOPS", [(k, r["total_iops"]) for k, r in zip(kib, mine)], color=0),
            series_from("MB/s", [(k, r["total_MBps"]) for k, r in zip(kib, mine)], axis="right",
                        color=1, dash=True)) if s]
        cross = found.get(pattern) or {}
        markers, caption = [], cross.get("note") or ""
        if cross.get("crossover_bs_bytes"):
            x = cross["crossover_bs_bytes"] / 1024
            markers.append(Marker(x, None, f"IOPS→bandwidth crossover ≈ {x:.0f} KiB"))
        if cross.get("bw_saturation_bs_bytes"):
            caption = (caption + " " if caption else "") + (
                f"MB/s reaches 90 % of its peak ({fmt(cross.get('peak_MBps'))} MB/s) at "
                f"{cross['bw_saturation_bs_bytes'] / 1024:g} KiB.")
        qd = mine[0]["workload"]["iodepth"]
        figures.append(Figure(
            id=f"block-size-throughput-{pattern}", experiment="block-size",
            title=f"Block-size sweep, {pattern} {direction}, QD{qd}: IOPS and MB/s",
            x_axis=Axis("Block size (KiB, log2 scale)", kib_ticks(kib), include_zero=False),
            y_axis=Axis("Throughput (IOPS)"), y2_axis=Axis("Bandwidth (MB/s, 10^6 B/s)"),
            series=tuple(series), markers=tuple(markers), log2_x=True, caption=caption))
        for stat, label, dash in (("mean", "mean", False), ("p99", "p99", True)):
            s = series_from(f"{pattern} {label}",
                            [(k, main_side(r).get("lat_us", {}).get(stat)) for k, r in zip(kib, mine)],
                            color=p, dash=dash)
            if s:
                lat_series.append(s)
    if lat_series:
        figures.append(Figure(
            id="block-size-latency", experiment="block-size",
            title="Block-size sweep: latency against block size",
            x_axis=Axis("Block size (KiB, log2 scale)", kib_ticks(ticks), include_zero=False),
            y_axis=Axis(lat_axis_label(kind)), series=tuple(lat_series), log2_x=True))
    return figures


def rw_mix(part: dict, kind: str | None, **_) -> list[Figure]:
    """IOPS per direction and total, and latency per direction, against the read share."""
    rows = sorted(part["workloads"], key=lambda r: r["workload"].get("rwmixread") or 0)
    share = [float(r["workload"].get("rwmixread") or 0) for r in rows]
    side = lambda r, d: r.get(d) or {}  # noqa: E731
    iops = [s for s in (
        series_from("read IOPS", [(x, side(r, "read").get("iops")) for x, r in zip(share, rows)],
                    color=0),
        series_from("write IOPS", [(x, side(r, "write").get("iops")) for x, r in zip(share, rows)],
                    color=1),
        series_from("total IOPS", [(x, r["total_iops"]) for x, r in zip(share, rows)], color=2,
                    dash=True)) if s]
    lat = []
    for d, color in (("read", 0), ("write", 1)):
        for stat, dash in (("mean", False), ("p99", True)):
            s = series_from(f"{d} {stat}", [(x, side(r, d).get("lat_us", {}).get(stat))
                                            for x, r in zip(share, rows)], color=color, dash=dash)
            if s:
                lat.append(s)
    w = rows[0]["workload"]
    pattern = "random" if w["rw"].startswith("rand") else "sequential"
    what = f"{pattern} {w['bs_bytes'] // 1024} KiB, QD{w['iodepth']}"
    x_axis = Axis("Read share (% of I/Os that are reads)",
                  tuple((x, f"{x:g}") for x in sorted(set(share))))
    return [Figure(id="rw-mix-iops", experiment="rw-mix",
                   title=f"Read/write mix ({what}): IOPS per direction", x_axis=x_axis,
                   y_axis=Axis("Throughput (IOPS)"), series=tuple(iops)),
            Figure(id="rw-mix-latency", experiment="rw-mix",
                   title=f"Read/write mix ({what}): latency per direction", x_axis=x_axis,
                   y_axis=Axis(lat_axis_label(kind)), series=tuple(lat))]


def _level(row: dict) -> int:
    w = row["workload"]
    return (w.get("iodepth") or 1) * (w.get("numjobs") or 1)


def queue_depth(part: dict, kind: str | None, **_) -> list[Figure]:
    """Throughput against latency (points labelled by QD, knee and 90 %-of-peak marked), then
    IOPS and latency against queue depth."""
    rows = sorted(part["workloads"], key=_level)
    knee = (part.get("findings") or {}).get("knee") or {}
    levels = [_level(r) for r in rows]
    lats = [main_side(r).get("lat_us", {}).get("mean") for r in rows]
    pts = [(mean(lt), mean(r["total_iops"]), f"QD{q}") for q, lt, r in zip(levels, lats, rows)
           if mean(lt) is not None and mean(r["total_iops"]) is not None]
    w = rows[0]["workload"]
    what = f"{w['rw']} {w['bs_bytes'] // 1024} KiB"
    sweep = "numjobs" if any((r["workload"].get("numjobs") or 1) > 1 for r in rows) else "iodepth"
    markers = []
    if knee.get("knee_level") is not None:
        markers.append(Marker(knee["knee_lat_us"], knee["knee_iops"],
                              f"knee: QD{knee['knee_level']} (max IOPS/latency)"))
    if knee.get("p90_level") is not None and knee["p90_level"] == knee.get("knee_level"):
        markers = [Marker(knee["knee_lat_us"], knee["knee_iops"],
                          f"knee = 90 % of peak: QD{knee['knee_level']}")]
    elif knee.get("p90_level") is not None:
        lat90 = next((p[0] for p in pts if p[2] == f"QD{knee['p90_level']}"), None)
        if lat90 is not None:
            markers.append(Marker(lat90, knee["p90_iops"],
                                  f"90 % of peak: QD{knee['p90_level']}"))
    trade = Figure(
        id="queue-depth-tradeoff", experiment="queue-depth",
        title=f"Queue-depth sweep ({what}, {sweep}): throughput against latency",
        x_axis=Axis(lat_axis_label(kind, "Mean latency")), y_axis=Axis("Throughput (IOPS)"),
        series=(Series("IOPS at each queue depth", tuple(p[0] for p in pts),
                       tuple(p[1] for p in pts), kind="line",
                       point_labels=tuple(p[2] for p in pts), color=0),) if pts else (),
        markers=tuple(markers),
        caption=f"Peak {fmt(knee.get('peak_iops'))} IOPS at QD{knee.get('peak_level')}."
        if knee else "")
    ticks = tuple((float(q), str(q)) for q in levels)
    sweep_series = [s for s in (
        series_from("IOPS", list(zip(levels, (r["total_iops"] for r in rows))), color=0),
        series_from("mean latency", list(zip(levels, lats)), axis="right", color=1, dash=True))
        if s]
    use_log = len(levels) > 1 and all(q > 0 and math.log2(q).is_integer() for q in levels)
    vs = Figure(
        id="queue-depth-sweep", experiment="queue-depth",
        title=f"Queue-depth sweep ({what}): IOPS and latency against queue depth",
        x_axis=Axis(f"Outstanding I/O (iodepth × numjobs{', log2 scale' if use_log else ''})",
                    ticks, include_zero=False),
        y_axis=Axis("Throughput (IOPS)"), y2_axis=Axis(lat_axis_label(kind, "Mean latency")),
        series=tuple(sweep_series), log2_x=use_log)
    return [trade, vs]
