"""Read/write mix sweep: how writes in the mix slow reads down, and each other:
4 KiB random at 100/0, 70/30, 50/50, 0/100 read %, IOPS and latency per direction."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from app.experiments.base import Experiment, block_param, depth_param
from app.experiments.common import stat_text, versus
from app.experiments.registry import register
from app.model.summary import Stat, WorkloadSummary
from app.model.workload import Workload
from app.params import param
from app.results.figure import (
    NEUTRAL,
    READ,
    WRITE,
    Axis,
    Figure,
    lat_axis_label,
    lat_unit,
    latency_axis,
    scaled,
    series_from,
)
from app.results.findings import Headline
from app.results.table import Column, Table, lat_cells, latency_kind, rows_table
from app.stats.io_counts import p99_warnings, supports
from app.units import KiB, ratio

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults


def _iops(row: WorkloadSummary, direction: str) -> Stat | None:
    side = row.side(direction)
    return side.iops if side else None


def _share(row: WorkloadSummary) -> int:
    return row.workload.rwmixread or 0


@register
@dataclass(frozen=True)
class RwMix(Experiment):
    id: ClassVar[str] = "rw-mix"
    title: ClassVar[str] = "Read/write mix sweep"
    summary: ClassVar[str] = "read/write asymmetry: IOPS and latency per direction"

    mixes: tuple[int, ...] = param((100, 70, 50, 0), kind="int_list", minimum=0, maximum=100,
                                   label="Read share (%)", help="read share in percent")
    bs: int = block_param(4 * KiB)
    pattern: str = param("random", kind="choice", choices=("random", "sequential"),
                         label="Access pattern", help="access pattern")
    iodepth: int = depth_param(8)

    def workloads(self) -> list[Workload]:
        rw = "randrw" if self.pattern == "random" else "rw"
        return [Workload(rw, self.bs, self.iodepth, rwmixread=mix) for mix in self.mixes]

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        rows = sorted(part.workloads, key=lambda r: -_share(r))
        kind = latency_kind(part.workloads)  # first kind in plan order
        cells = [(Column("Read share (%)", "read_share_pct", 0), lambda r: r.workload.rwmixread),
                 (Column("Read IOPS", "read_iops", 0, True), lambda r: _iops(r, "read")),
                 (Column("Write IOPS", "write_iops", 0, True), lambda r: _iops(r, "write")),
                 (Column("Total IOPS", "total_iops", 0, True), lambda r: r.total_iops),
                 (Column("Total MB/s", "total_MBps", 1, True), lambda r: r.total_MBps),
                 *(c for s in ("mean", "p99") for d in ("read", "write")
                   for c in lat_cells(kind, (s,), d, d))]
        return [rows_table(part, run, "rw-mix", "Read/write mix sweep", rows, cells, cls=cls)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """IOPS per direction and total, and latency per direction, against the read share."""
        rows = sorted(part.workloads, key=_share)
        share = [float(_share(r)) for r in rows]
        iops = [s for s in (
            series_from("read IOPS", [(x, _iops(r, "read")) for x, r in zip(share, rows)],
                        color=READ),
            series_from("write IOPS", [(x, _iops(r, "write")) for x, r in zip(share, rows)],
                        color=WRITE),
            series_from("total IOPS", [(x, r.total_iops) for x, r in zip(share, rows)],
                        color=NEUTRAL, dash=True)) if s]
        lat = []
        unit, factor = lat_unit([r.lat(s, d) for r in rows for s in ("mean", "p99")
                                 for d in ("read", "write")])
        for d, color in (("read", READ), ("write", WRITE)):
            for stat, line in (("mean", {}), ("p99", {"dash": True}), ("p99.9", {"dot": True})):
                # a percentile only where every repetition has 10 I/Os beyond it (io_counts)
                s = series_from(f"{d} {stat}", [(x, scaled(r.lat(stat, d), factor)  # a gap,
                                                 if stat == "mean" or supports(part, r, stat, d)
                                                 else None)  # not a line across it
                                                for x, r in zip(share, rows)],
                                color=color, **line)
                if s:
                    lat.append(s)
        lat_axis = latency_axis(lat_axis_label(run.lat_kind, unit=unit), lat)
        w = rows[0].workload
        pattern = "random" if w.random else "sequential"
        what = f"{pattern} {w.bs_bytes // 1024} KiB, QD{w.iodepth}"
        x_axis = Axis("Read share (% of I/Os that are reads)",
                      tuple((x, f"{x:g}") for x in sorted(set(share))))
        return [Figure(id="rw-mix-iops", experiment=cls.id,
                       title=f"Read/write mix ({what}): IOPS per direction", x_axis=x_axis,
                       y_axis=Axis("Throughput (IOPS)"), series=tuple(iops)),
                Figure(id="rw-mix-latency", experiment=cls.id,
                       title=f"Read/write mix ({what}): latency per direction", x_axis=x_axis,
                       y_axis=lat_axis, series=tuple(lat),
                       caption="Means over the repetitions, error bars ± one sample std; solid: "
                               "mean, dashed: p99, dotted: p99.9 (only where every repetition "
                               "has at least 10 I/Os beyond it)."
                               + (" Latency on a log axis: it spans more than a decade."
                                  if lat_axis.log else ""))]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """Pure reads against pure writes, then what mixing does to each direction's latency."""
        by_share = {_share(r): r for r in part.workloads}
        out = []
        reads, writes = by_share.get(100), by_share.get(0)
        if reads and writes and reads.total_iops.mean and writes.total_iops.mean:
            said = versus(reads.total_iops, writes.total_iops, "writes give "
                          f"{ratio(writes.total_iops.mean / reads.total_iops.mean)} the IOPS of reads", "IOPS")
            out.append(f"Pure reads reach {stat_text(reads.total_iops)} IOPS (mean latency "
                       f"{stat_text(reads.lat('mean', 'read'), 'µs')}) and pure writes "
                       f"{stat_text(writes.total_iops)} IOPS (mean latency "
                       f"{stat_text(writes.lat('mean', 'write'), 'µs')}): {said}.")
        for r in sorted(part.workloads, key=lambda r: -_share(r)):
            read, write = r.lat("mean", "read"), r.lat("mean", "write")
            if not (read and write and read.mean and write.mean):
                continue
            out.append(f"{_share(r)} % reads: {stat_text(r.total_iops)} IOPS in total; reads "
                       f"wait {stat_text(read, 'µs')}, writes {stat_text(write, 'µs')}: "
                       + versus(read, write, f"writes wait {ratio(write.mean / read.mean)} as "
                                "long as reads", "latency") + ".")
        return out + p99_warnings(part)

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        mixed = [r for r in part.workloads if 0 < _share(r) < 100]
        row = min(mixed, key=lambda r: abs(_share(r) - 70)) if mixed else None
        if row is None:
            return None
        return Headline(f"total IOPS at {_share(row)} % reads ({row.label})",
                        stat_text(row.total_iops), row.n)
