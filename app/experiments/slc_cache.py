"""Sustained sequential write: write until the drive's fast (SLC) cache runs out (DESIGN §6).

The finding comes from the live per-interval samples, not from the trial's final average (which
blends the fast and the slow phase): GB written before the drop, MB/s before and after.

No pre-fill: the test file is created by the measured writes themselves (a pre-fill or a
warm-up would fill the cache before it is measured), so the plan writes nothing before the trial
(:meth:`app.experiments.base.Experiment.fills_test_file`).

Time convention: a sample is stamped at the end of its interval, so a trial starts one interval
before its first sample; findings and figures both use it, so the marker sits on the curve.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.experiments.base import SIZE_MAX, SIZE_MIN, Experiment
from app.experiments.params import param
from app.experiments.registry import register
from app.experiments.write_series import trial_series
from app.model.workload import Workload
from app.results.figure import (
    NEUTRAL,
    OTHER,
    WRITE,
    Axis,
    Figure,
    HLine,
    Marker,
    Series,
    fmt,
    lat_stat,
    size_text,
)
from app.results.table import (
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
from app.stats import analysis
from app.stats.io_counts import p99_warnings
from app.units import GiB, KiB, MiB


@register
@dataclass(frozen=True)
class SlcCache(Experiment):
    id: ClassVar[str] = "slc-cache"
    keeps_own: ClassVar[frozenset[str]] = frozenset({"runtime", "size", "repetitions", "warmup"})
    title: ClassVar[str] = "Sustained sequential write (SLC cache)"
    summary: ClassVar[str] = "write until the fast cache runs out: GB before the drop, MB/s after"
    needs_samples: ClassVar[bool] = True

    runtime: float = param(120.0, kind="duration", minimum=1.0, maximum=24 * 3600.0,
                           help="how long to keep writing (the time bound)")
    size: int = param(8 * GiB, kind="size", minimum=SIZE_MIN, maximum=SIZE_MAX,
                      help="size of the test file: no pre-fill, the measured writes create it "
                           "and wrap around it until the runtime ends (bounded by free space)")
    repetitions: int = param(1, kind="int", minimum=1, maximum=100,
                             help="measured trials (each one fills the cache again)")
    warmup: bool = param(False, kind="bool",
                         help="a warm-up would fill the cache before the measurement: off")
    bs: int = param(MiB, kind="size", minimum=4 * KiB, maximum=64 * MiB, block=True,
                    help="block size")
    iodepth: int = param(32, kind="int", minimum=1, maximum=1024, help="queue depth")

    def workloads(self) -> list[Workload]:
        return [Workload("write", self.bs, self.iodepth)]

    @classmethod
    def dict_findings(cls, rows: list[dict], trials: list[dict], samples: list[dict]) -> dict:
        """The cache exhaustion point of each measured trial with samples."""
        per_trial = []
        for t in trials:
            series = [s for s in samples if s["trial"] == t["index"]]
            if not series:
                continue
            gap = series[1]["t_s"] - series[0]["t_s"] if len(series) > 1 else 1.0
            start = series[0]["t_s"] - gap
            points = [(s["t_s"] - start, s["write_MBps"] or 0.0) for s in series]
            per_trial.append({"trial": t["index"], "repetition": t["repetition"],
                              **analysis.cache_exhaustion(points)})
        return {"cache_exhaustion": per_trial}

    @classmethod
    def dict_tables(cls, part: dict, record: dict) -> list[Table]:
        rows = part.get("workloads") or []
        kind = latency_kind(rows)
        cols = [*W_COLS, LABEL, Column("Write MB/s (whole trial)", "write_MBps", 1, True),
                lat_column("mean", "lat_mean", kind), lat_column("p99", "lat_p99", kind), N]
        data = [(*workload_cells(r), (r.get("write") or {}).get("MBps"), lat_stat(r, "mean"),
                 lat_stat(r, "p99"), r["n"]) for r in rows]
        return [workload_table(cls.id, "slc-cache", "Sustained sequential write", cols, data,
                               record, rows, cls=cls),
                _cache_table(part)]

    @classmethod
    def dict_figures(cls, part: dict, kind: str | None, record: dict,
                samples: list[dict]) -> list[Figure]:
        """Per-interval MB/s against GB written and against time, exhaustion and levels marked,
        temperature on the right axis when it was recorded."""
        found = (part.get("findings") or {}).get("cache_exhaustion") or []
        several = len(found) > 1
        series, temps, markers = ({"gb": [], "time": []} for _ in range(3))
        for i, f in enumerate(found):
            pts = trial_series(samples or [], f["trial"])
            if not pts:
                continue
            tag = f" (rep {f['repetition']})" if several else ""
            for key, col, drop_x in (("gb", 1, f.get("gb_before_drop")),
                                     ("time", 0, f.get("t_drop_s"))):
                # write is vermillion in every figure; a second repetition dashed, more in others
                tint = WRITE if i < 2 else OTHER[(i - 2) % len(OTHER)]
                series[key].append(Series(f"write MB/s{tag}", tuple(p[col] for p in pts),
                                          tuple(p[2] for p in pts), color=tint, dash=i == 1))
                t = [(p[col], p[3]) for p in pts if p[3] is not None]
                if t:
                    temps[key].append(Series(f"temperature{tag}", tuple(a for a, _ in t),
                                             tuple(b for _, b in t), axis="right",
                                             color=NEUTRAL if i < 2 else tint,
                                             dash=True))
                if f.get("drop_observed") and drop_x is not None:
                    where = f"{drop_x:.1f} GB" if key == "gb" else f"{drop_x:.0f} s"
                    who = f"rep {f['repetition']}: " if several else ""
                    markers[key].append(Marker(drop_x, None, f"{who}cache exhausted at {where}"))
        w = part["workloads"][0]["workload"]
        what = f"{size_text(w['bs_bytes'])} sequential write, QD{w['iodepth']}"
        out = []
        for key, x_label, title in (("gb", "Data written (GB)", "against data written"),
                                    ("time", "Time since the trial started (s)", "against time")):
            if not series[key]:
                continue
            out.append(Figure(
                id=f"slc-cache-{key}", experiment=cls.id,
                title=f"Sustained write ({what}): MB/s {title}",
                x_axis=Axis(x_label), y_axis=Axis("Write bandwidth (MB/s per interval)"),
                y2_axis=Axis("Drive temperature (°C)", include_zero=False) if temps[key] else None,
                series=tuple(series[key] + temps[key]), markers=tuple(markers[key]),
                hlines=tuple(_levels(found)),
                caption="; ".join(f"rep {f['repetition']}: {f.get('note')}" for f in found)
                + ". One point per live sample interval; MB/s = 10⁶ B/s, GB = 10⁹ B."))
        return out

    @classmethod
    def dict_sentences(cls, part: dict, record: dict) -> list[str]:
        out = []
        for f in part["findings"].get("cache_exhaustion") or []:
            if f.get("drop_observed"):
                out.append(f"Rep {f['repetition']}: cache exhausted after "
                           f"{f['gb_before_drop']:.2f} GB ({f['t_drop_s']:.0f} s); "
                           f"{fmt(f['MBps_before'])} MB/s before, {fmt(f['MBps_after'])} MB/s after.")
            else:
                out.append(f"Rep {f['repetition']}: {f.get('note')} in {f.get('total_gb', 0):.2f} "
                           f"GB written; mean {fmt(f.get('MBps_before'))} MB/s.")
        return out + p99_warnings(record, cls.id, part["workloads"])


def _levels(found: list[dict]) -> list[HLine]:
    """Before/after levels: per trial when there is one, else the mean over the trials (one
    pair of lines instead of one per repetition keeps the figure readable)."""
    drops = [f for f in found if f.get("drop_observed")]
    tag = f" (mean of {len(drops)} reps)" if len(drops) > 1 else ""
    out = []
    for key, name, color in (("MBps_before", "before", 6), ("MBps_after", "after", 3)):
        values = [f[key] for f in drops if f.get(key) is not None]
        if values:
            level = sum(values) / len(values)
            out.append(HLine(level, f"{name} the drop: {fmt(level)} MB/s{tag}", color=color))
    if not drops:
        values = [f["MBps_before"] for f in found if f.get("MBps_before") is not None]
        if values:
            level = sum(values) / len(values)
            out.append(HLine(level, f"mean {fmt(level)} MB/s, no drop seen", color=6))
    return out


def _cache_table(part: dict) -> Table:
    found = (part.get("findings") or {}).get("cache_exhaustion") or []
    cols = [Column("Repetition", "repetition", 0), Column("Written (GB)", "total_GB", 2),
            Column("Baseline MB/s", "baseline_MBps", 1), Column("Drop seen", "drop_observed"),
            Column("GB before drop", "gb_before_drop", 2), Column("Drop at (s)", "t_drop_s", 1),
            Column("MB/s before", "MBps_before", 1), Column("MB/s after", "MBps_after", 1),
            Column("Note", "note")]
    rows = [(f.get("repetition"), f.get("total_gb"), f.get("baseline_MBps"), f.get("drop_observed"),
             f.get("gb_before_drop"), f.get("t_drop_s"), f.get("MBps_before"), f.get("MBps_after"),
             f.get("note")) for f in found]
    return Table("slc-cache-exhaustion", "Cache exhaustion per trial", tuple(cols), tuple(rows),
                 ("GB = 10^9 bytes; MB/s before/after are time-weighted means of the per-interval "
                  "samples before and from the drop.",), SlcCache.id)
