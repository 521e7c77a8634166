"""Quick check, CrystalDiskMark-style: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16 and
RND4K Q1T1, read and write, in one table with read and write side by side. Not part of
`run all`: it repeats what the other experiments measure in more depth."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from app.experiments.base import DIRECTIONS, RUNTIME, Experiment
from app.experiments.common import stat_text
from app.experiments.registry import register
from app.model.summary import WorkloadSummary
from app.model.workload import Workload
from app.params import param
from app.results.findings import Headline
from app.results.table import Column, Table, latency_kind, workload_table
from app.units import KiB, MiB

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


@register
@dataclass(frozen=True)
class Quick(Experiment):
    id: ClassVar[str] = "quick"
    title: ClassVar[str] = "Quick check (CrystalDiskMark-style)"
    summary: ClassVar[str] = "SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1, read and write"

    in_all: ClassVar[bool] = False   # a quick check, not a measurement for the report
    runtime: float = param(5.0, kind="duration", minimum=1.0, maximum=3600.0, label=RUNTIME,
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
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        """CrystalDiskMark layout: one line per test, read and write side by side."""
        rows = part.workloads
        kind = latency_kind(rows)
        tests: dict[str, dict[str, WorkloadSummary]] = {}
        for r in rows:
            name = r.label.rsplit(" ", 1)[0]
            tests.setdefault(name, {})["write" if r.read is None else "read"] = r
        cols = [Column("Test", "test")]
        for d in DIRECTIONS:
            cols += [Column(f"{d.title()} MB/s", f"{d}_MBps", 1, True),
                     Column(f"{d.title()} IOPS", f"{d}_iops", 0, True),
                     Column(f"{d.title()} mean lat. (µs, {kind})", f"{d}_lat_mean_us", 1, True)]
        cols.append(Column("n", "n", 0))
        data = []
        for name, pair in tests.items():
            cells: list[Any] = [name]
            for d in DIRECTIONS:
                row = pair.get(d)
                side = row.side(d) if row else None
                cells += [side.MBps, side.iops, row.lat("mean", d)] if row and side else [None] * 3
            cells.append(min(p.n for p in pair.values()))
            data.append(tuple(cells))
        return [workload_table(part, run, "quick", "Quick check (CrystalDiskMark-style)", cols,
                               data, extra_notes=("Unlike CrystalDiskMark (best of N), cells are "
                                                  "mean ± std.",), cls=cls)]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """Each test's read and write MB/s, as CrystalDiskMark lists them."""
        out = []
        for d in DIRECTIONS:
            said = [f"{r.label.rsplit(' ', 1)[0]} {stat_text(side.MBps, 'MB/s')}"
                    for r in part.workloads if (side := r.side(d)) and not r.side(
                        "write" if d == "read" else "read")]
            if said:
                out.append(f"{d.capitalize()}: " + "; ".join(said) + ".")
        return out

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        row = next((r for r in part.workloads if r.workload.rw == "read"), None)
        if row is None or row.read is None:
            return None
        return Headline(f"sequential read ({row.label})", stat_text(row.read.MBps, "MB/s"), row.n)
