"""Tail latency: p50 .. p99.99 at a mid queue depth and at the knee (DESIGN §6): how far the
slowest I/Os reach beyond the median (the spread itself is computed in base.py, shared with
the zero-queue baselines)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.experiments.base import Experiment, ratio_text, spread_findings
from app.experiments.registry import register
from app.figures import (
    Axis,
    Figure,
    fmt,
    grouped_bars,
    lat_axis_label,
    lat_stat,
    mean,
    outstanding,
)
from app.params import param
from app.tables import (
    LABEL,
    W_COLS,
    Column,
    N,
    Table,
    lat_column,
    latency_kind,
    workload_cells,
    workload_table,
)
from app.units import KiB, MiB
from app.workloads import Workload

TAIL_STATS = ("p50", "p95", "p99", "p99.9", "p99.99")
TABLE_STATS = ("mean", *TAIL_STATS)


@register
@dataclass(frozen=True)
class TailLatency(Experiment):
    id: ClassVar[str] = "tail-latency"
    title: ClassVar[str] = "Tail latency"
    summary: ClassVar[str] = "p50 .. p99.99 at a mid queue depth and at the knee"

    queue_depths: tuple[int, ...] = param((8, 32), kind="int_list", minimum=1, maximum=1024,
                                          help="queue depths (a mid one and the knee)")
    bs: int = param(4 * KiB, kind="size", minimum=512, maximum=64 * MiB, block=True,
                    help="block size")
    rw: str = param("randread", kind="choice", choices=("randread", "randwrite", "read", "write"),
                    help="access pattern and direction")

    def workloads(self) -> list[Workload]:
        return [Workload(self.rw, self.bs, qd) for qd in self.queue_depths]

    @classmethod
    def findings(cls, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        return spread_findings(rows)

    @classmethod
    def tables(cls, part: dict, record: dict) -> list[Table]:
        rows = part.get("workloads") or []
        kind = latency_kind(rows)
        cols = [*W_COLS, LABEL, Column("Outstanding I/O", "outstanding", 0),
                *(lat_column(s, f"lat_{s}", kind) for s in TABLE_STATS),
                Column("p99/p50", "p99_over_p50", 2), Column("p99.99/p50", "p99.99_over_p50", 2), N]
        spread = (part.get("findings") or {}).get("tail_spread") or {}
        data = [(*workload_cells(r), outstanding(r), *(lat_stat(r, s) for s in TABLE_STATS),
                 (spread.get(r["label"]) or {}).get("p99_over_p50"),
                 (spread.get(r["label"]) or {}).get("p99.99_over_p50"), r["n"]) for r in rows]
        return [workload_table(cls.id, "tail-latency", f"Tail latency, {kind} latency", cols, data,
                               record, rows, cls=cls)]

    @classmethod
    def figures(cls, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        """Grouped bars p50 .. p99.99 per queue depth."""
        rows = part["workloads"]
        groups = [(stat, [lat_stat(r, stat) for r in rows]) for stat in TAIL_STATS]
        series, ticks = grouped_bars([f"QD{outstanding(r)}" for r in rows], groups)
        w = rows[0]["workload"]
        return [Figure(id="tail-latency-percentiles", experiment=cls.id,
                       title=f"Tail latency ({w['rw']} {w['bs_bytes'] // 1024} KiB): "
                             "percentiles per queue depth",
                       x_axis=Axis("Queue depth (outstanding I/O)", ticks),
                       y_axis=Axis(lat_axis_label(kind)), series=series)]

    @classmethod
    def sentences(cls, part: dict, record: dict) -> list[str]:
        spread = part["findings"].get("tail_spread") or {}
        out = []
        for r in part["workloads"]:
            s = spread.get(r["label"]) or {}
            out.append(f"{r['label']}: p50 {fmt(mean(lat_stat(r, 'p50')), 1)} µs, p99.99 "
                       f"{fmt(mean(lat_stat(r, 'p99.99')), 1)} µs; p99/p50 = "
                       f"{ratio_text(s.get('p99_over_p50'))}, p99.9/p50 = "
                       f"{ratio_text(s.get('p99.9_over_p50'))}, p99.99/p50 = "
                       f"{ratio_text(s.get('p99.99_over_p50'))}.")
        return out
