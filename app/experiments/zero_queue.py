"""Zero-queue latency baselines: one I/O in flight, so latency is the drive's own access time
(DESIGN §6): 4 KiB random and 128 KiB sequential, read and write, avg and percentiles."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.experiments.base import Experiment, ratio_text, spread_findings
from app.experiments.registry import register
from app.figures import Axis, Figure, fmt, grouped_bars, lat_axis_label, lat_stat, mean
from app.params import param
from app.tables import (
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
from app.units import KiB, MiB
from app.workloads import Workload

TABLE_STATS = ("mean", "p50", "p95", "p99", "p99.9")
FIGURE_STATS = (("mean", "mean"), ("p95", "p95"), ("p99", "p99"))


@register
@dataclass(frozen=True)
class ZeroQueue(Experiment):
    id: ClassVar[str] = "zero-queue"
    title: ClassVar[str] = "Zero-queue latency baselines (QD1)"
    summary: ClassVar[str] = "one I/O in flight: the drive's own access time, avg and percentiles"

    random_bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                           help="block size of the random read and write")
    seq_bs: int = param(128 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                        help="block size of the sequential read and write")

    def workloads(self) -> list[Workload]:
        return [Workload("randread", self.random_bs), Workload("randwrite", self.random_bs),
                Workload("read", self.seq_bs), Workload("write", self.seq_bs)]

    @classmethod
    def findings(cls, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        return spread_findings(rows)

    @classmethod
    def tables(cls, part: dict, record: dict) -> list[Table]:
        rows = part.get("workloads") or []
        kind = latency_kind(rows)
        cols = [*W_COLS, LABEL, IOPS, MBPS,
                *(lat_column(s, f"lat_{s}", kind) for s in TABLE_STATS), N]
        data = [(*workload_cells(r), r["total_iops"], r["total_MBps"],
                 *(lat_stat(r, s) for s in TABLE_STATS), r["n"]) for r in rows]
        return [workload_table(cls.id, "zero-queue", f"Zero-queue baselines (QD1), {kind} latency",
                               cols, data, record, rows, cls=cls)]

    @classmethod
    def figures(cls, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        """Bars of mean, p95 and p99 per workload at QD1 (p99.9 is in the table)."""
        rows = part["workloads"]
        groups = [(name, [lat_stat(r, stat) for r in rows]) for stat, name in FIGURE_STATS]
        series, ticks = grouped_bars([r["label"] for r in rows], groups)
        return [Figure(id="zero-queue-latency", experiment=cls.id,
                       title="Zero-queue baselines (QD1): latency per workload",
                       x_axis=Axis("Workload (pattern, block size, queue depth, threads)", ticks),
                       y_axis=Axis(lat_axis_label(kind)), series=series,
                       caption="Bars are means over repetitions; error bars ± sample std.")]

    @classmethod
    def sentences(cls, part: dict, record: dict) -> list[str]:
        spread = part["findings"].get("tail_spread") or {}
        return [f"{r['label']}: mean {fmt(mean(lat_stat(r, 'mean')), 1)} µs, p99 "
                f"{fmt(mean(lat_stat(r, 'p99')), 1)} µs, p99.9 {fmt(mean(lat_stat(r, 'p99.9')), 1)}"
                f" µs (p99/p50 = {ratio_text((spread.get(r['label']) or {}).get('p99_over_p50'))})."
                for r in part["workloads"]]
