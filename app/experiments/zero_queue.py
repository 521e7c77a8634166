"""Zero-queue latency baselines: one I/O in flight, so latency is the drive's own access time:
4 KiB random and 128 KiB sequential, read and write, avg and percentiles."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from app.experiments.base import DIRECTIONS, Experiment, Rows, Samples, Trials, block_param
from app.experiments.common import (
    TailSpreads,
    spread_findings,
    stat_text,
    versus,
)
from app.experiments.registry import register
from app.model.summary import WorkloadSummary
from app.model.workload import Workload
from app.results.figure import (
    Axis,
    Figure,
    direction_color,
    grouped_bars,
    lat_axis_label,
    lat_unit,
    latency_axis,
    mean,
    scaled,
    size_text,
)
from app.results.findings import Headline
from app.results.pooled import per_repetition_notes, pooled_table
from app.results.table import IOPS, MBPS, Table, lat_cells, latency_kind, rows_table
from app.stats.io_counts import (
    caption_counts,
    fewest_text,
    io_count_table,
    needs_runtime,
    supports,
    thin_warnings,
)
from app.units import KiB, ratio

if TYPE_CHECKING:
    from app.results.run_results import ExperimentResults, RunResults

TABLE_STATS = ("mean", "p50", "p95", "p99", "p99.9")
FIGURE_STATS = (("mean", "mean"), ("p95", "p95"), ("p99", "p99"), ("p99.9", "p99.9"),
                ("p99.99", "p99.99"))  # a percentile is drawn where the I/O count supports it
IO_KEYS = ("p95", "p99", "p99.9")  # the table's percentiles


@register
@dataclass(frozen=True)
class ZeroQueue(Experiment):
    id: ClassVar[str] = "zero-queue"
    title: ClassVar[str] = "Zero-queue latency baselines (QD1)"
    summary: ClassVar[str] = "one I/O in flight: the drive's own access time, avg and percentiles"
    tail_claim: ClassVar[str] = "p99.9"

    random_bs: int = block_param(4 * KiB, label="Random block size",
                                 help="block size of the random read and write")
    seq_bs: int = block_param(128 * KiB, label="Sequential block size",
                              help="block size of the sequential read and write")

    def workloads(self) -> list[Workload]:
        return [Workload("randread", self.random_bs), Workload("randwrite", self.random_bs),
                Workload("read", self.seq_bs), Workload("write", self.seq_bs)]

    @classmethod
    def findings(cls, workloads: Rows, trials: Trials, samples: Samples) -> TailSpreads:
        return spread_findings(workloads)

    @classmethod
    def tables(cls, part: ExperimentResults, run: RunResults) -> list[Table]:
        rows = part.workloads
        kind = latency_kind(rows)
        cells = [(IOPS, lambda r: r.total_iops), (MBPS, lambda r: r.total_MBps),
                 *lat_cells(kind, TABLE_STATS)]
        pooled = pooled_table(cls, part, run, "zero-queue-pooled", "Zero-queue baselines (QD1), "
                              f"pooled over all I/Os of the repetitions, {kind} latency",
                              ("p50", "p90", "p99", "p99.9"), kind)
        return [rows_table(part, run, "zero-queue", f"Zero-queue baselines (QD1), {kind} latency",
                           rows, cells, per_repetition_notes(rows, run), cls),
                *([pooled] if pooled else []),
                io_count_table(cls, part, run, "zero-queue-io-counts", "Zero-queue baselines: the "
                               "I/Os each percentile rests on", IO_KEYS)]

    @classmethod
    def figures(cls, part: ExperimentResults, run: RunResults) -> list[Figure]:
        """Mean, p95, p99, p99.9 and p99.99 at QD1, read beside write, one panel per access
        pattern and block size (each with its own axis: 4 KiB bars are no slivers beside 128 KiB
        ones), every bar labelled with its value; a percentile only where every repetition has
        10 I/Os beyond it (app/stats/io_counts.py), a log axis when the bars span a decade."""
        groups: dict[tuple[bool, int], list[WorkloadSummary]] = {}
        for r in part.workloads:
            w = r.workload
            groups.setdefault((w.random, w.bs_bytes), []).append(r)
        kind = run.lat_kind
        # one unit for every panel, from the largest value drawn: 4 KiB bars in ms beside
        # 128 KiB bars in µs put a reader comparing them off by 1000x
        unit = lat_unit([r.lat(s) for r in part.workloads for s, _ in FIGURE_STATS
                         if s == "mean" or supports(part, r, s)])
        panels = [_panel(part, random, bs, rows, kind, unit)
                  for (random, bs), rows in groups.items()]
        n = sorted({r.n for r in part.workloads})
        caption = (f"Bars: means over n = {'/'.join(map(str, n))} repetitions, error bars ± one "
                   "sample std, value on each bar; one panel per block size, each with its own "
                   "latency axis (log where the bars span more than a decade); a percentile is "
                   "drawn where every repetition has at least 10 I/Os beyond it, else its slot "
                   "says 'too few I/Os (n)', n the I/Os beyond it in the repetition with the "
                   "fewest. "
                   + caption_counts(part, part.workloads))
        title = "Zero-queue baselines (QD1): latency, read and write"
        if len(panels) == 1:
            return [replace(panels[0], id="zero-queue-latency", experiment=cls.id,
                            title=title + f", {panels[0].title}", caption=caption)]
        return [Figure(id="zero-queue-latency", experiment=cls.id, title=title + " per block size",
                       x_axis=panels[0].x_axis, y_axis=panels[0].y_axis, panels=tuple(panels),
                       caption=caption)]

    @classmethod
    def sentences(cls, part: ExperimentResults, run: RunResults) -> list[str]:
        """Per block size: read against write latency at QD1, and how far each tail reaches."""
        spread = part.found(TailSpreads) or TailSpreads({})
        kind = latency_kind(part.workloads)
        out = []
        groups: dict[str, dict[str, WorkloadSummary]] = {}
        for r in part.workloads:
            groups.setdefault(r.label.rsplit(" ", 1)[0], {})[r.direction] = r
        for label, rows in groups.items():
            said = [f"{d} {stat_text(r.lat('mean'), 'µs')} ({stat_text(r.total_MBps, 'MB/s')})"
                    for d, r in rows.items()]
            text = f"{label} at QD1, mean {kind} latency: " + "; ".join(said)
            read, write = (mean(rows[d].lat("mean")) if d in rows else None for d in DIRECTIONS)
            if read and write:
                text += ": " + versus(rows["read"].lat("mean"), rows["write"].lat("mean"),
                                      f"writes take {ratio(write / read)} the time of reads"
                                      if write >= read else
                                      f"reads take {ratio(read / write)} the time of writes", "latency")
            out.append(text + ".")
        for r in part.workloads:
            s = spread.of(r.label)
            amp = s.p99_9_over_p50 if s else None
            why = [w for k in ("p50", "p99.9") if (w := needs_runtime(part, r, k))]
            if why:   # never a ratio of a percentile on too few I/Os: what would give it
                out.append(f"{r.label}: tail amplification p99.9/p50 unknown ("
                           f"{fewest_text(part, r)}): {'; '.join(why)}.")
            elif amp:
                out.append(f"{r.label}: tail amplification p99.9/p50 = {ratio(amp)} "
                           f"(p50 {stat_text(r.lat('p50'), 'µs')}, p99.9 "
                           f"{stat_text(r.lat('p99.9'), 'µs')}; {fewest_text(part, r)}).")
        return out + thin_warnings(part, IO_KEYS)

    @classmethod
    def headline(cls, part: ExperimentResults, run: RunResults) -> Headline | None:
        row = next((r for r in part.workloads if r.workload.rw == "randread"), None)
        if row is None:
            return None
        return Headline(f"{row.label}: mean {latency_kind(part.workloads)} latency at QD1",
                        stat_text(row.lat("mean"), "µs"), row.n)


def _panel(part: ExperimentResults, random: bool, bs: int, rows: list[WorkloadSummary],
           kind: str | None, unit: tuple[str, float]) -> Figure:
    """Read and write bars of one block size, statistic by statistic, in ``unit`` (its name
    and its factor from µs), the figure's one latency unit."""
    by_direction = {r.direction: r for r in rows}
    directions = [d for d in DIRECTIONS if d in by_direction]
    stats = [(s, name) for s, name in FIGURE_STATS  # p99.99 only where it can be drawn
             if s != "p99.99" or any(supports(part, by_direction[d], s) for d in directions)]
    unit_name, factor = unit
    groups = [(d, [scaled(by_direction[d].lat(s), factor)
                   if s == "mean" or supports(part, by_direction[d], s) else None
                   for s, _ in stats]) for d in directions]
    names = []
    for s, name in stats:  # an empty slot says why it is empty, with the one mark
        thin = [f"{d}:\n{mark}" for d in directions
                if (st := by_direction[d].lat(s)) is not None and (mark := st.mark())]
        names.append(name + ("\n(" + ",\n".join(thin) + ")" if thin else ""))
    series, ticks = grouped_bars(names, groups,
                                 colors=tuple(direction_color(d) for d in directions))
    what = f"{size_text(bs)} {'random' if random else 'sequential'}"
    label = rows[0].label.rsplit(" ", 1)[0]
    return Figure(id=f"zero-queue-{label.lower()}", title=what,
                  x_axis=Axis(f"{what} ({label}): statistic", ticks),
                  y_axis=latency_axis(lat_axis_label(kind, unit=unit_name), series), series=series)
