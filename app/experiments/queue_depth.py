"""Queue-depth sweep: throughput against latency, the knee and Little's Law (DESIGN §6).

4 KiB random read at iodepth 1..256 (or numjobs 1..32 at iodepth 1). The knee is the maximum
of IOPS / mean latency (Kleinrock's power), with the first level reaching 90 % of the peak
beside it; Little's Law compares L = IOPS × latency with the outstanding I/O requested.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from app.experiments.base import Experiment
from app.experiments.params import param
from app.experiments.registry import register
from app.model.workload import Workload
from app.results.figure import (
    NEUTRAL,
    OTHER,
    Axis,
    Figure,
    Marker,
    Series,
    direction_color,
    direction_of,
    fmt,
    lat_axis_label,
    lat_stat,
    lat_unit,
    mean,
    outstanding,
    scaled,
    series_from,
)
from app.results.pooled import pooled_of, pooled_series
from app.results.table import (
    IOPS,
    LABEL,
    MBPS,
    W_COLS,
    Column,
    N,
    Table,
    lat_column,
    latency_kind,
    workload_cells,
    workload_table,
)
from app.stats import analysis
from app.stats.io_counts import p99_warnings
from app.units import KiB, MiB


@register
@dataclass(frozen=True)
class QueueDepth(Experiment):
    id: ClassVar[str] = "queue-depth"
    title: ClassVar[str] = "Queue-depth sweep"
    summary: ClassVar[str] = "throughput vs latency, the knee and Little's Law"

    queue_depths: tuple[int, ...] = param((1, 2, 4, 8, 16, 32, 64, 128, 256), kind="int_list",
                                          minimum=1, maximum=1024,
                                          help="outstanding I/O levels to sweep")
    sweep: str = param("iodepth", kind="choice", choices=("iodepth", "numjobs"),
                       help="raise iodepth (one job) or numjobs (iodepth 1)")
    bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                    help="block size")
    rw: str = param("randread", kind="choice", choices=("randread", "randwrite", "read", "write"),
                    help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        if self.sweep == "numjobs":
            return [Workload(self.rw, self.bs, 1, level) for level in self.queue_depths]
        return [Workload(self.rw, self.bs, level) for level in self.queue_depths]

    @classmethod
    def dict_findings(cls, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        points = [{"level": outstanding(r),
                   "iops": mean(r["total_iops"]), "lat_us": mean(lat_stat(r, "mean"))}
                  for r in rows]
        return {"knee": analysis.knee(points), "littles_law": analysis.littles_law(points)}

    @classmethod
    def dict_tables(cls, part: dict, record: dict) -> list[Table]:
        rows = sorted(part.get("workloads") or [], key=outstanding)
        kind = latency_kind(part.get("workloads") or [])  # first kind in plan order
        cols = [*W_COLS, LABEL, Column("Outstanding I/O", "outstanding", 0), IOPS, MBPS,
                lat_column("mean", "lat_mean", kind), lat_column("p99", "lat_p99", kind), N]
        data = [(*workload_cells(r), outstanding(r), r["total_iops"], r["total_MBps"],
                 lat_stat(r, "mean"), lat_stat(r, "p99"), r["n"]) for r in rows]
        return [workload_table(cls.id, "queue-depth", "Queue-depth sweep", cols, data, record,
                               rows, cls=cls),
                _littles_law_table(part, kind)]

    @classmethod
    def dict_figures(cls, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        """Throughput against latency (points labelled by QD, knee and 90 %-of-peak marked),
        then IOPS and latency against queue depth."""
        rows = sorted(part["workloads"], key=outstanding)
        knee = dict((part.get("findings") or {}).get("knee") or {})
        levels = [outstanding(r) for r in rows]
        p99s = [{"mean": (pooled_of(r, direction_of(r)) or {}).get("p99")} for r in rows]
        unit, factor = lat_unit([lat_stat(r, "mean") for r in rows] + p99s)
        lats = [scaled(lat_stat(r, "mean"), factor) for r in rows]
        if knee.get("knee_lat_us") is not None:
            knee["knee_lat_us"] *= factor
        pts = [(mean(lt), mean(r["total_iops"]), f"QD{q}") for q, lt, r in zip(levels, lats, rows)
               if mean(lt) is not None and mean(r["total_iops"]) is not None]
        w = rows[0]["workload"]
        what = f"{w['rw']} {w['bs_bytes'] // 1024} KiB"
        tint = direction_color(direction_of(rows[0]))
        sweep = "numjobs" if any((r["workload"].get("numjobs") or 1) > 1 for r in rows) else "iodepth"
        trade = Figure(
            id="queue-depth-tradeoff", experiment=cls.id,
            title=f"Queue-depth sweep ({what}, {sweep}): throughput against latency",
            x_axis=Axis(lat_axis_label(kind, "Mean latency", unit)),
            y_axis=Axis("Throughput (IOPS)"),
            series=(Series("IOPS at each queue depth", tuple(p[0] for p in pts),
                           tuple(p[1] for p in pts), kind="line",
                           point_labels=tuple(p[2] for p in pts), color=tint),) if pts else (),
            markers=tuple(_knee_markers(knee, pts)),
            caption=f"Peak {fmt(knee.get('peak_iops'))} IOPS at QD{knee.get('peak_level')}."
            if knee else "")
        ticks = tuple((float(q), str(q)) for q in levels)
        sweep_series = [s for s in (
            series_from("IOPS", list(zip(levels, (r["total_iops"] for r in rows))), color=tint),
            series_from("mean latency", list(zip(levels, lats)), axis="right", color=NEUTRAL,
                        dash=True),
            pooled_series("p99 latency, pooled (95 % CI)", levels, rows, "p99", factor,
                          axis="right", color=OTHER[2], dash=True))
            if s]
        pooled = any(s.name.startswith("p99") for s in sweep_series)
        use_log = len(levels) > 1 and all(q > 0 and math.log2(q).is_integer() for q in levels)
        vs = Figure(
            id="queue-depth-sweep", experiment=cls.id,
            title=f"Queue-depth sweep ({what}): IOPS and latency against queue depth",
            x_axis=Axis(f"Outstanding I/O (iodepth × numjobs{', log2 scale' if use_log else ''})",
                        ticks, include_zero=False),
            y_axis=Axis("Throughput (IOPS)"),
            y2_axis=Axis(lat_axis_label(kind, "Latency" if pooled else "Mean latency", unit)),
            series=tuple(sweep_series), log2_x=use_log,
            caption="Means over the repetitions, error bars ± one sample std." + (
                " p99: of all I/Os of the repetitions (merged histogram), error bars its 95 % "
                "interval." if pooled else ""))
        return [trade, vs]

    @classmethod
    def dict_sentences(cls, part: dict, record: dict) -> list[str]:
        f = part["findings"]
        knee = f.get("knee")
        law = [p for p in f.get("littles_law") or [] if p.get("ratio") is not None]
        out = []
        if knee:
            out.append(f"Knee (maximum IOPS / mean latency) at QD{knee['knee_level']}: "
                       f"{fmt(knee['knee_iops'])} IOPS at {fmt(knee['knee_lat_us'], 1)} µs. Peak "
                       f"{fmt(knee['peak_iops'])} IOPS at QD{knee['peak_level']}; 90 % of the peak "
                       f"is first reached at QD{knee['p90_level']}.")
        if law:
            lo, hi = min(p["ratio"] for p in law), max(p["ratio"] for p in law)
            verdict = ("the requested queue is kept full" if lo >= 0.9 else
                       "some levels lose time outside the device (host-side overhead)")
            out.append(f"Little's Law: measured L = IOPS × latency over outstanding I/O lies "
                       f"between {lo:.2f} and {hi:.2f}; {verdict}.")
        return out + p99_warnings(record, cls.id, part["workloads"])


def _knee_markers(knee: dict, pts: list[tuple]) -> list[Marker]:
    """The knee, and the first level reaching 90 % of the peak (one marker when they agree)."""
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
            markers.append(Marker(lat90, knee["p90_iops"], f"90 % of peak: QD{knee['p90_level']}"))
    return markers


def _littles_law_table(part: dict, kind: str) -> Table:
    law = (part.get("findings") or {}).get("littles_law") or []
    cols = [Column("Outstanding I/O", "outstanding", 0), Column("IOPS", "iops", 0),
            Column(f"Mean lat. (µs, {kind})", "lat_mean_us", 1),
            Column("L = IOPS × latency", "L", 2), Column("L / outstanding", "ratio", 3)]
    rows = [(p.get("outstanding"), p.get("iops"), p.get("lat_us"), p.get("L"), p.get("ratio"))
            for p in sorted(law, key=lambda p: p.get("outstanding") or 0)]
    return Table("queue-depth-littles-law", "Little's Law check (L = λ·W)", tuple(cols),
                 tuple(rows), ("IOPS and latency are means over repetitions; latency in seconds "
                               "for L (µs / 10^6). A ratio near 1 means the requested queue is "
                               "kept full; well below 1, time is lost outside the device.",),
                 QueueDepth.id)
