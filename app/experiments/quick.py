"""Quick check, CrystalDiskMark-style (DESIGN §6): SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16 and
RND4K Q1T1, read and write, in one table with read and write side by side. Not part of
`run all`: it repeats what the other experiments measure in more depth."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.experiments.base import DIRECTIONS, Experiment
from app.experiments.params import param
from app.experiments.registry import register
from app.model.workload import Workload
from app.results.figure import fmt, mean
from app.results.table import Column, Table, latency_kind, workload_table
from app.units import KiB, MiB


@register
@dataclass(frozen=True)
class Quick(Experiment):
    id: ClassVar[str] = "quick"
    title: ClassVar[str] = "Quick check (CrystalDiskMark-style)"
    summary: ClassVar[str] = "SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1, read and write"

    runtime: float = param(5.0, kind="duration", minimum=1.0, maximum=3600.0,
                           help="measured time per trial")
    profile: str = param("nvme", kind="choice", choices=("nvme", "default"),
                         help="nvme: SEQ128K Q32T1 and RND4K Q32T16; default: SEQ1M Q1T1, RND4K Q32T1")

    def workloads(self) -> list[Workload]:
        if self.profile == "nvme":
            grid = [("", MiB, 8, 1), ("", 128 * KiB, 32, 1), ("rand", 4 * KiB, 32, 16),
                    ("rand", 4 * KiB, 1, 1)]
        else:
            grid = [("", MiB, 8, 1), ("", MiB, 1, 1), ("rand", 4 * KiB, 32, 1), ("rand", 4 * KiB, 1, 1)]
        return [Workload(prefix + direction, bs, qd, jobs)
                for prefix, bs, qd, jobs in grid for direction in DIRECTIONS]

    @classmethod
    def dict_tables(cls, part: dict, record: dict) -> list[Table]:
        """CrystalDiskMark layout: one line per test, read and write side by side."""
        rows = part.get("workloads") or []
        kind = latency_kind(rows)
        tests: dict[str, dict] = {}
        for r in rows:
            name = r["label"].rsplit(" ", 1)[0]
            tests.setdefault(name, {})["write" if r.get("read") is None else "read"] = r
        cols = [Column("Test", "test")]
        for d in DIRECTIONS:
            cols += [Column(f"{d.title()} MB/s", f"{d}_MBps", 1, True),
                     Column(f"{d.title()} IOPS", f"{d}_iops", 0, True),
                     Column(f"{d.title()} mean lat. (µs, {kind})", f"{d}_lat_mean_us", 1, True)]
        cols.append(Column("n", "n", 0))
        data = []
        for name, pair in tests.items():
            cells = [name]
            for d in DIRECTIONS:
                side = (pair.get(d) or {}).get(d) or {}
                cells += [side.get("MBps"), side.get("iops"), (side.get("lat_us") or {}).get("mean")]
            cells.append(min(p["n"] for p in pair.values()))
            data.append(tuple(cells))
        return [workload_table(cls.id, "quick", "Quick check (CrystalDiskMark-style)", cols, data,
                               record, rows, ("Unlike CrystalDiskMark (best of N), cells are "
                                              "mean ± std.",), cls=cls)]

    @classmethod
    def dict_sentences(cls, part: dict, record: dict) -> list[str]:
        out = []
        for direction in DIRECTIONS:
            other = "write" if direction == "read" else "read"
            rows = [r for r in part["workloads"] if r.get(direction) and not r.get(other)]
            if rows:
                best = max(rows, key=lambda r: mean(r[direction]["MBps"]) or 0)
                out.append(f"Best {direction}: {fmt(mean(best[direction]['MBps']), 1)} MB/s "
                           f"({best['label']}).")
        return out
