"""Zero-queue latency baselines: one I/O in flight, so latency is the drive's own access time
(DESIGN §6): 4 KiB random and 128 KiB sequential, read and write, avg and percentiles."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from app.experiments.base import DIRECTIONS, Experiment, ratio_text, spread_findings
from app.experiments.params import param
from app.experiments.registry import register
from app.model.workload import Workload
from app.results.figure import (
    Axis,
    Figure,
    direction_color,
    direction_of,
    fmt,
    grouped_bars,
    lat_axis_label,
    lat_stat,
    lat_unit,
    mean,
    scaled,
    size_text,
)
from app.results.pooled import per_repetition_notes, pooled_table
from app.results.table import (
    IOPS,
    LABEL,
    MBPS,
    W_COLS,
    N,
    Table,
    lat_column,
    latency_kind,
    workload_cells,
    workload_table,
)
from app.stats.io_counts import caption_counts, fewest_text, io_count_table, thin_warnings
from app.units import KiB, MiB

TABLE_STATS = ("mean", "p50", "p95", "p99", "p99.9")
FIGURE_STATS = (("mean", "mean"), ("p95", "p95"), ("p99", "p99"))
IO_KEYS = ("p95", "p99", "p99.9")  # the table's percentiles


@register
@dataclass(frozen=True)
class ZeroQueue(Experiment):
    id: ClassVar[str] = "zero-queue"
    title: ClassVar[str] = "Zero-queue latency baselines (QD1)"
    summary: ClassVar[str] = "one I/O in flight: the drive's own access time, avg and percentiles"
    tail_claim: ClassVar[str] = "p99.9"

    random_bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                           help="block size of the random read and write")
    seq_bs: int = param(128 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                        help="block size of the sequential read and write")

    def workloads(self) -> list[Workload]:
        return [Workload("randread", self.random_bs), Workload("randwrite", self.random_bs),
                Workload("read", self.seq_bs), Workload("write", self.seq_bs)]

    @classmethod
    def dict_findings(cls, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        return spread_findings(rows)

    @classmethod
    def dict_tables(cls, part: dict, record: dict) -> list[Table]:
        rows = part.get("workloads") or []
        kind = latency_kind(rows)
        cols = [*W_COLS, LABEL, IOPS, MBPS,
                *(lat_column(s, f"lat_{s}", kind) for s in TABLE_STATS), N]
        data = [(*workload_cells(r), r["total_iops"], r["total_MBps"],
                 *(lat_stat(r, s) for s in TABLE_STATS), r["n"]) for r in rows]
        pooled = pooled_table(cls, "zero-queue-pooled", "Zero-queue baselines (QD1), pooled over "
                              f"all I/Os of the repetitions, {kind} latency", rows, record,
                              ("p50", "p90", "p99", "p99.9"), kind)
        return [workload_table(cls.id, "zero-queue", f"Zero-queue baselines (QD1), {kind} latency",
                               cols, data, record, rows, per_repetition_notes(rows, record),
                               cls=cls),
                *([pooled] if pooled else []),
                io_count_table(cls, "zero-queue-io-counts", "Zero-queue baselines: the I/Os "
                               "each percentile rests on", rows, record, IO_KEYS)]

    @classmethod
    def dict_figures(cls, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        """Mean, p95 and p99 at QD1, read beside write, one panel per access pattern and block
        size (each with its own axis: 4 KiB bars are no slivers beside 128 KiB ones), every
        bar labelled with its value (p99.9 is in the table)."""
        groups: dict[tuple, list[dict]] = {}
        for r in part["workloads"]:
            w = r["workload"]
            groups.setdefault((w["rw"].startswith("rand"), w["bs_bytes"]), []).append(r)
        panels = [_panel(random, bs, rows, kind) for (random, bs), rows in groups.items()]
        n = sorted({r["n"] for r in part["workloads"]})
        caption = (f"Bars: means over n = {'/'.join(map(str, n))} repetitions, error bars ± one "
                   "sample std, value on each bar; one panel per block size, each with its own "
                   "latency axis. " + caption_counts(record, cls.id, part["workloads"]))
        title = "Zero-queue baselines (QD1): latency, read and write"
        if len(panels) == 1:
            return [replace(panels[0], id="zero-queue-latency", experiment=cls.id,
                            title=title + f", {panels[0].title}", caption=caption)]
        return [Figure(id="zero-queue-latency", experiment=cls.id, title=title + " per block size",
                       x_axis=panels[0].x_axis, y_axis=panels[0].y_axis, panels=tuple(panels),
                       caption=caption)]

    @classmethod
    def dict_sentences(cls, part: dict, record: dict) -> list[str]:
        spread = part["findings"].get("tail_spread") or {}
        out = []
        for r in part["workloads"]:
            ios = fewest_text(record, cls.id, r)
            out.append(f"{r['label']}: mean {fmt(mean(lat_stat(r, 'mean')), 1)} µs, p99 "
                       f"{fmt(mean(lat_stat(r, 'p99')), 1)} µs, p99.9 "
                       f"{fmt(mean(lat_stat(r, 'p99.9')), 1)} µs (p99/p50 = "
                       f"{ratio_text((spread.get(r['label']) or {}).get('p99_over_p50'))}"
                       f"{'; ' + ios if ios else ''}).")
        return out + thin_warnings(record, cls.id, part["workloads"], IO_KEYS)

def _panel(random: bool, bs: int, rows: list[dict], kind: str | None) -> Figure:
    """Read and write bars of one block size, statistic by statistic."""
    by_direction = {direction_of(r): r for r in rows}
    directions = [d for d in DIRECTIONS if d in by_direction]
    stats = [lat_stat(by_direction[d], s) for d in directions for s, _ in FIGURE_STATS]
    unit, factor = lat_unit(stats)
    groups = [(d, [scaled(lat_stat(by_direction[d], s), factor) for s, _ in FIGURE_STATS])
              for d in directions]
    series, ticks = grouped_bars([name for _, name in FIGURE_STATS], groups,
                                 colors=tuple(direction_color(d) for d in directions))
    what = f"{size_text(bs)} {'random' if random else 'sequential'}"
    label = rows[0]["label"].rsplit(" ", 1)[0]
    return Figure(id=f"zero-queue-{label.lower()}", title=what,
                  x_axis=Axis(f"{what} ({label}): statistic", ticks),
                  y_axis=Axis(lat_axis_label(kind, unit=unit)), series=series)
