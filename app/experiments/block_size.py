"""Block-size sweep: where small-block IOPS turn into large-block bandwidth (DESIGN §6).

4 KiB .. 1 MiB in powers of two, random and sequential, at one queue depth; IOPS and MB/s on
twin axes with the crossover marked, then latency against block size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.experiments.base import DIRECTIONS, POW2_BS, Experiment
from app.experiments.params import param
from app.experiments.registry import register
from app.model.workload import Workload
from app.results.figure import (
    NEUTRAL,
    OTHER,
    Axis,
    Figure,
    Marker,
    direction_color,
    fmt,
    kib_ticks,
    lat_axis_label,
    lat_stat,
    lat_unit,
    mean,
    scaled,
    series_from,
)
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
from app.units import MiB

PATTERNS = (("random", True), ("sequential", False))


def _rw(pattern: str, direction: str) -> str:
    return ("rand" if pattern == "random" else "") + direction


def _pattern_rows(rows: list[dict], is_random: bool) -> list[dict]:
    rows = [r for r in rows if (r["workload"].get("rw") or "").startswith("rand") == is_random]
    return sorted(rows, key=lambda r: r["workload"]["bs_bytes"] or 0)


@register
@dataclass(frozen=True)
class BlockSize(Experiment):
    id: ClassVar[str] = "block-size"
    title: ClassVar[str] = "Block-size sweep"
    summary: ClassVar[str] = "IOPS to bandwidth crossover, random and sequential"

    block_sizes: tuple[int, ...] = param(POW2_BS, kind="size_list", minimum=512, maximum=64 * MiB,
                                         block=True, help="block sizes to sweep")
    patterns: tuple[str, ...] = param(("random", "sequential"), kind="choice_list",
                                      choices=("random", "sequential"), help="access patterns")
    direction: str = param("read", kind="choice", choices=DIRECTIONS, help="read or write")
    iodepth: int = param(8, kind="int", minimum=1, maximum=1024, help="queue depth")

    def workloads(self) -> list[Workload]:
        return [Workload(_rw(pattern, self.direction), bs, self.iodepth)
                for pattern in self.patterns for bs in self.block_sizes]

    @classmethod
    def dict_findings(cls, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        """The IOPS-to-bandwidth crossover per access pattern that was run."""
        out = {}
        for pattern, is_random in PATTERNS:
            pts = [{"bs_bytes": r["workload"]["bs_bytes"], "iops": mean(r["total_iops"]),
                    "MBps": mean(r["total_MBps"])}
                   for r in rows if r["workload"]["rw"].startswith("rand") == is_random]
            if pts:
                out[pattern] = analysis.crossover(pts)
        return {"crossover": out}

    @classmethod
    def dict_tables(cls, part: dict, record: dict) -> list[Table]:
        rows = sorted(part.get("workloads") or [],
                      key=lambda r: (not r["workload"]["rw"].startswith("rand"),
                                     r["workload"]["bs_bytes"]))
        kind = latency_kind(part.get("workloads") or [])  # first kind in plan order
        cols = [*W_COLS, LABEL, Column("Block size (KiB)", "bs_KiB", 0), IOPS, MBPS,
                lat_column("mean", "lat_mean", kind), lat_column("p99", "lat_p99", kind), N]
        data = [(*workload_cells(r), r["workload"]["bs_bytes"] // 1024, r["total_iops"],
                 r["total_MBps"], lat_stat(r, "mean"), lat_stat(r, "p99"), r["n"]) for r in rows]
        return [workload_table(cls.id, "block-size", "Block-size sweep", cols, data, record, rows,
                               cls=cls)]

    @classmethod
    def dict_figures(cls, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        """IOPS and MB/s on twin axes per pattern (crossover marked), then latency vs block size."""
        rows, found = part["workloads"], (part.get("findings") or {}).get("crossover") or {}
        figures, lat_series, ticks = [], [], []
        unit, factor = lat_unit([lat_stat(r, s) for r in rows for s in ("mean", "p99")])
        for p, (pattern, is_random) in enumerate(PATTERNS):
            mine = _pattern_rows(rows, is_random)
            if not mine:
                continue
            kib = [r["workload"]["bs_bytes"] / 1024 for r in mine]
            ticks += kib
            figures.append(_throughput(pattern, mine, kib, found.get(pattern) or {}))
            for stat, label, dash in (("mean", "mean", False), ("p99", "p99", True)):
                s = series_from(f"{pattern} {label}",
                                [(k, scaled(lat_stat(r, stat), factor)) for k, r in zip(kib, mine)],
                                color=OTHER[p], dash=dash)
                if s:
                    lat_series.append(s)
        if lat_series:
            figures.append(Figure(
                id="block-size-latency", experiment=cls.id,
                title="Block-size sweep: latency against block size",
                x_axis=Axis("Block size (KiB, log2 scale)", kib_ticks(ticks), include_zero=False),
                y_axis=Axis(lat_axis_label(kind, unit=unit)), series=tuple(lat_series), log2_x=True,
                caption="Means over the repetitions, error bars ± one sample std; solid: mean, "
                        "dashed: p99."))
        return figures

    @classmethod
    def dict_sentences(cls, part: dict, record: dict) -> list[str]:
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
            out.append(f"{text}; peak {fmt(c.get('peak_iops'))} IOPS and "
                       f"{fmt(c.get('peak_MBps'))} MB/s; MB/s reaches 90 % of its peak at "
                       f"{saturated} KiB.")
        return out + p99_warnings(record, cls.id, part["workloads"])


def _throughput(pattern: str, mine: list[dict], kib: list[float], cross: dict) -> Figure:
    """IOPS (left) and MB/s (right) of one pattern, the crossover as a vertical line."""
    direction = "write" if all(r["read"] is None for r in mine) else "read"
    series = [s for s in (
        series_from("IOPS", [(k, r["total_iops"]) for k, r in zip(kib, mine)],
                    color=direction_color(direction)),
        series_from("MB/s", [(k, r["total_MBps"]) for k, r in zip(kib, mine)], axis="right",
                    color=NEUTRAL, dash=True)) if s]
    markers, caption = [], cross.get("note") or ""
    if cross.get("crossover_bs_bytes"):
        x = cross["crossover_bs_bytes"] / 1024
        markers.append(Marker(x, None, f"IOPS→bandwidth crossover ≈ {x:.0f} KiB"))
    if cross.get("bw_saturation_bs_bytes"):
        caption = (caption + " " if caption else "") + (
            f"MB/s reaches 90 % of its peak ({fmt(cross.get('peak_MBps'))} MB/s) at "
            f"{cross['bw_saturation_bs_bytes'] / 1024:g} KiB.")
    qd = mine[0]["workload"]["iodepth"]
    return Figure(
        id=f"block-size-throughput-{pattern}", experiment=BlockSize.id,
        title=f"Block-size sweep, {pattern} {direction}, QD{qd}: IOPS and MB/s",
        x_axis=Axis("Block size (KiB, log2 scale)", kib_ticks(kib), include_zero=False),
        y_axis=Axis("Throughput (IOPS)"), y2_axis=Axis("Bandwidth (MB/s)"),
        series=tuple(series), markers=tuple(markers), log2_x=True, caption=caption)
