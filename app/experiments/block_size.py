"""Block-size sweep: where small-block IOPS turn into large-block bandwidth (docs/architecture.md).

4 KiB .. 1 MiB in powers of two, random and sequential, at one queue depth; IOPS and MB/s on
twin axes with the crossover marked, then latency against block size.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from app.experiments.base import BS_MAX, DIRECTIONS, POW2_BS, Experiment, Rows, Samples, Trials, depth_param
from app.experiments.common import stat_text, versus
from app.experiments.registry import register
from app.model.summary import WorkloadSummary
from app.model.workload import Workload
from app.params import param
from app.results.figure import (
    NEUTRAL,
    OTHER,
    Axis,
    Figure,
    Marker,
    Series,
    direction_color,
    fmt,
    kib_ticks,
    lat_axis_label,
    lat_unit,
    latency_axis,
    scaled,
    series_from,
    size_text,
)
from app.results.findings import Headline
from app.results.table import Column, Table, sweep_table
from app.stats import analysis
from app.stats.derived import Crossover
from app.stats.io_counts import p99_warnings, supports
from app.units import KiB, ratio, sig

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

PATTERNS = (("random", True), ("sequential", False))
LAT_STATS = {"mean": {}, "p99": {"dash": True}, "p99.9": {"dot": True}}  # line style of each


def _rw(pattern: str, direction: str) -> str:
    return ("rand" if pattern == "random" else "") + direction


def _is_random(row: WorkloadSummary) -> bool:
    return row.workload.random


def _pattern_rows(rows: Sequence[WorkloadSummary], is_random: bool) -> list[WorkloadSummary]:
    return sorted((r for r in rows if _is_random(r) == is_random),
                  key=lambda r: r.workload.bs_bytes)


@dataclass(frozen=True)
class Crossovers:
    """The IOPS-to-bandwidth crossover of each access pattern that was run (None: no usable point)."""

    by_pattern: Mapping[str, Crossover | None]

    def to_json(self) -> dict[str, Any]:
        return {"crossover": {k: c.to_json() if c else None for k, c in self.by_pattern.items()}}


@register
@dataclass(frozen=True)
class BlockSize(Experiment):
    id: ClassVar[str] = "block-size"
    title: ClassVar[str] = "Block-size sweep"
    summary: ClassVar[str] = "IOPS to bandwidth crossover, random and sequential"

    block_sizes: tuple[int, ...] = param(POW2_BS, kind="size_list", minimum=512, maximum=BS_MAX,
                                         block=True, help="block sizes to sweep")
    patterns: tuple[str, ...] = param(("random", "sequential"), kind="choice_list",
                                      choices=("random", "sequential"), label="Access patterns",
                                      help="access patterns")
    direction: str = param("read", kind="choice", choices=DIRECTIONS, help="read or write")
    iodepth: int = depth_param(8)

    def workloads(self) -> list[Workload]:
        return [Workload(_rw(pattern, self.direction), bs, self.iodepth)
                for pattern in self.patterns for bs in self.block_sizes]

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> Crossovers:
        """The IOPS-to-bandwidth crossover per access pattern that was run."""
        out = {}
        for pattern, is_random in PATTERNS:
            pts = [{"bs_bytes": r.workload.bs_bytes, "iops": r.total_iops.mean,
                    "MBps": r.total_MBps.mean} for r in workloads if _is_random(r) == is_random]
            if pts:
                out[pattern] = analysis.crossover(pts)
        return Crossovers(out)

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        rows = sorted(part.workloads, key=lambda r: (not _is_random(r), r.workload.bs_bytes))
        size = Column("Block size (KiB)", "bs_KiB", 0)
        return [sweep_table(part, run, "block-size", "Block-size sweep", rows,
                            [(size, lambda r: r.workload.bs_bytes // 1024)], cls=cls)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """IOPS and MB/s on twin axes per pattern (crossover marked), then latency vs block size
        (the mean, and the tail beside it)."""
        rows = part.workloads
        found = part.found(Crossovers) or Crossovers({})
        figures, lat_series, ticks = [], [], []
        unit, factor = lat_unit([r.lat(s) for r in rows for s in LAT_STATS])
        for p, (pattern, is_random) in enumerate(PATTERNS):
            mine = _pattern_rows(rows, is_random)
            if not mine:
                continue
            kib = [r.workload.bs_bytes / 1024 for r in mine]
            ticks += kib
            figures.append(_throughput(pattern, mine, kib, found.by_pattern.get(pattern)))
            for stat, line in LAT_STATS.items():
                # a percentile only where every repetition has 10 I/Os beyond it (io_counts)
                s = series_from(f"{pattern} {stat}",
                                [(k, scaled(r.lat(stat), factor)
                                  if stat == "mean" or supports(part, r, stat) else None)
                                 for k, r in zip(kib, mine)],  # a gap, not a line across it
                                color=OTHER[p], **line)
                if s:
                    lat_series.append(s)
        if lat_series:
            figures.append(_latency(cls.id, lat_series, ticks, unit, run.lat_kind))
        return figures

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """Per pattern: how IOPS fall and MB/s rise across the sweep, where the two meet (the
        rule in words) and where MB/s saturates; then random against sequential."""
        found = part.found(Crossovers) or Crossovers({})
        out = []
        for pattern, is_random in PATTERNS:
            mine = _pattern_rows(part.workloads, is_random)
            c = found.by_pattern.get(pattern)
            if not mine or c is None:
                continue
            lo, hi = mine[0], mine[-1]
            top = max(mine, key=lambda r: r.total_MBps.mean or 0)
            text = (f"{pattern.capitalize()}: IOPS fall from {stat_text(lo.total_iops)} at "
                    f"{size_text(lo.workload.bs_bytes)} to {stat_text(hi.total_iops)} at "
                    f"{size_text(hi.workload.bs_bytes)}, while MB/s rise to a peak of "
                    f"{stat_text(top.total_MBps, 'MB/s')} at {size_text(top.workload.bs_bytes)}")
            if c.crossover_bs_bytes and c.below_bs_bytes and c.above_bs_bytes:
                text += (f"; the IOPS-to-bandwidth crossover (the block size below which the "
                         f"drive is described by its IOPS and above which by its MB/s, as lab "
                         f"reports use it; found where IOPS and MB/s, each divided by its own "
                         f"peak, are equal) is at about {sig(c.crossover_bs_bytes / KiB)}"
                         f" KiB, between {size_text(c.below_bs_bytes)} and "
                         f"{size_text(c.above_bs_bytes)}")
            elif c.note:
                text += f"; {c.note}"
            out.append(text + f"; MB/s first reach 90 % of their peak at "
                       f"{size_text(c.bw_saturation_bs_bytes)}.")
        small = [r for r in part.workloads if r.workload.bs_bytes == min(
            x.workload.bs_bytes for x in part.workloads)]
        rnd = next((r for r in small if _is_random(r)), None)
        seq = next((r for r in small if not _is_random(r)), None)
        if rnd and seq and rnd.total_iops.mean and seq.total_iops.mean:
            said = versus(seq.total_iops, rnd.total_iops, "sequential access gives "
                          f"{ratio(seq.total_iops.mean / rnd.total_iops.mean)} the IOPS of random "
                          "access", "IOPS")
            out.append(f"At {size_text(rnd.workload.bs_bytes)}, sequential access reaches "
                       f"{stat_text(seq.total_iops)} IOPS and random access "
                       f"{stat_text(rnd.total_iops)}: {said}.")
        return out + p99_warnings(part)

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        if not part.workloads:
            return None
        top = max(part.workloads, key=lambda r: r.total_MBps.mean or 0)
        return Headline(f"peak throughput ({top.label})", stat_text(top.total_MBps, "MB/s"),
                        top.n)


def _throughput(pattern: str, mine: list[WorkloadSummary], kib: list[float],
                cross: Crossover | None) -> Figure:
    """IOPS (left) and MB/s (right) of one pattern, the crossover as a vertical line."""
    direction = "write" if all(r.read is None for r in mine) else "read"
    series = [s for s in (
        series_from("IOPS", [(k, r.total_iops) for k, r in zip(kib, mine)],
                    color=direction_color(direction)),
        series_from("MB/s", [(k, r.total_MBps) for k, r in zip(kib, mine)], axis="right",
                    color=NEUTRAL, dash=True)) if s]
    markers, caption = [], (cross.note if cross else None) or ""
    peaks = [max(s.y) for s in series]
    per_left = peaks[1] / peaks[0] if len(peaks) == 2 and peaks[0] > 0 else None
    if per_left:  # the crossover is computed on IOPS and MB/s each over its peak: draw them so
        caption = ("Both axes are scaled so that peak IOPS and peak MB/s are level: the "
                   "crossover line is where the drawn curves cross. " + caption).strip()
    if cross and cross.crossover_bs_bytes:
        x = cross.crossover_bs_bytes / 1024
        markers.append(Marker(x, None, f"IOPS→bandwidth crossover ≈ {x:.0f} KiB"))
    if cross and cross.bw_saturation_bs_bytes:  # as prominent as the crossover: a line of its own
        x = cross.bw_saturation_bs_bytes / 1024
        markers.append(Marker(x, None, f"bandwidth saturation: 90 % of peak MB/s at {x:g} KiB"))
        caption = (caption + " " if caption else "") + (
            f"MB/s reaches 90 % of its peak ({fmt(cross.peak_MBps)} MB/s) at {x:g} KiB (the "
            "bandwidth saturation line).")
    qd = mine[0].workload.iodepth
    return Figure(
        id=f"block-size-throughput-{pattern}", experiment=BlockSize.id,
        title=f"Block-size sweep, {pattern} {direction}, QD{qd}: IOPS and MB/s",
        x_axis=Axis("Block size (KiB, log2 scale)", kib_ticks(kib), include_zero=False),
        y_axis=Axis("Throughput (IOPS)"), y2_axis=Axis("Bandwidth (MB/s)", per_left=per_left),
        series=tuple(series), markers=tuple(markers), log2_x=True, caption=caption)


def _latency(eid: str, series: list[Series], ticks: list[float], unit: str, kind: str | None) -> Figure:
    """Latency against block size as two panels in one unit: the means, and the tail (p99
    dashed, p99.9 dotted). Six curves with error bars on one axis hid each other."""
    x_axis = Axis("Block size (KiB, log2 scale)", kib_ticks(ticks), include_zero=False)
    panels = []
    for pid, title, mine in (("mean", "Mean latency", [s for s in series if s.name.endswith(" mean")]),
                             ("tail", "Tail latency",
                              [s for s in series if not s.name.endswith(" mean")])):
        if mine:   # the axis title says which panel is which, the legend which percentile
            y_axis = latency_axis(lat_axis_label(kind, title, unit), mine)
            panels.append(Figure(id=f"block-size-latency-{pid}", title=title, x_axis=x_axis,
                                 y_axis=y_axis, series=tuple(mine), log2_x=True))
    logs = [p.title.lower() for p in panels if p.y_axis.log]
    return Figure(
        id="block-size-latency", experiment=eid, title="Block-size sweep: latency against block size",
        x_axis=x_axis, y_axis=panels[0].y_axis, panels=tuple(panels), log2_x=True,
        caption="Means over the repetitions, error bars ± one sample std; left: the mean latency, "
                "right: the tail, p99 dashed and p99.9 dotted (only where every repetition has at "
                "least 10 I/Os beyond it)." + (
                    " Latency on log axes: each spans more than a decade." if len(logs) > 1 else
                    f" {logs[0].capitalize()} on a log axis: it spans more than a decade."
                    if logs else ""))
