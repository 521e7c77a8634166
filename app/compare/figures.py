"""Figures of a comparison: the runs overlaid, one colour per run, as data. No Qt.

Why figures of their own rather than each run's figures side by side: the experiments' figures
colour by direction (read blue, write vermillion), so two runs drawn over each other would be
four colours of two meanings. Here a colour means a run, and the legend names it by its drive
and start time (:func:`run_labels`). The runs take the :data:`app.results.figure.OTHER` colours, so
blue and vermillion still never mean anything but read and write.

Per experiment that two runs share:

- one grouped-bar figure per metric of the comparison table (IOPS, MB/s, mean and p99
  latency): a slot per workload, a bar per run, mean ± sample std over the measured
  repetitions; the very numbers of the table (app/compare/compute.py), drawn;
- the live series: each workload's per-interval MB/s (read + write) from samples.csv, its
  measured repetitions laid back to back, one line per run, up to four workloads per figure
  (one panel each, its own axes).
"""
from __future__ import annotations

import math
import statistics
from dataclasses import replace
from datetime import datetime

import numpy as np
import pandas as pd

from app.compare.compute import measured, plan_order, too_few_beyond
from app.model.info import Drive, RunInfo
from app.model.summary import Stat
from app.results.figure import OTHER, Axis, Figure, Series, grouped_bars, lat_unit, latency_axis, scaled
from app.runs import RunTables

RUN_COLORS = OTHER
# column of the trials table, figure id, what it is (axis title, then in the figure title), unit
BAR_METRICS = (("iops", "iops", "IOPS", "IOPS"), ("MBps", "mbps", "Throughput", "MB/s"),
               ("lat_mean_us", "lat-mean", "Mean latency", None),
               ("lat_p99_us", "lat-p99", "p99 latency", None))
LABELLED_BARS = 16      # more bars than this: no value on each (they would overlap)
TALL_TICKS = 6          # more workloads than this: their names on three lines
LIVE_PANELS = 4
MAX_POINTS = 2000       # per line; longer series are averaged in bins (a day at 0.1 s is 864,000)


def run_label(info: RunInfo, folder: str) -> str:
    """'Samsung SSD 980 1TB, 2026-11-23 19:53 UTC': what a legend names a run by."""
    drive = info.drive or Drive()
    if drive.model:
        what = drive.model
    elif drive.disk_name:
        what = f"model unknown ({drive.disk_name}{', virtual' if drive.bus == 'virtual' else ''})"
    elif info.origin == "import":
        what = f"imported {(info.engine.name if info.engine else None) or ''} output".replace("  ", " ")
    else:
        what = "drive unknown"
    try:
        when = datetime.fromisoformat(str(info.started_at)).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        when = folder
    return f"{what}, {when}"


def run_labels(infos: list[RunInfo], folders: list[str]) -> list[str]:
    """One label per run, all different: the start time gets its seconds, then a number."""
    labels = [run_label(r, f) for r, f in zip(infos, folders)]
    twins = [labels.count(label) > 1 and label.endswith(" UTC") for label in labels]
    for i, twin in enumerate(twins):
        at = (infos[i].started_at or "")[17:19]
        if twin and at:
            labels[i] = labels[i].replace(" UTC", f":{at} UTC")
    twins = [labels.count(label) > 1 for label in labels]
    return [f"{label} (run {i + 1})" if twin else label
            for i, (label, twin) in enumerate(zip(labels, twins))]


def comparison_figures(tables: RunTables, labels: dict[str, str]) -> list[Figure]:
    """Every comparison figure, experiment by experiment in the first run's order; ``labels``
    maps a run's ``run`` name (the tables') to its legend text."""
    runs = list(tables.runs["run"])
    rows = measured(tables.trials)
    if rows.empty or len(runs) < 2:
        return []
    out: list[Figure] = []
    for eid in dict.fromkeys(rows["experiment"]):
        part = rows[rows["experiment"] == eid]
        slots = _slots(plan_order(tables, runs[0]), part, runs)
        if not slots:
            continue
        for column, slug, title, unit in BAR_METRICS:
            fig = _bars(eid, part, slots, runs, labels, column, slug, title, unit)
            if fig is not None:
                out.append(fig)
        out += _live(eid, part, list(dict.fromkeys(w for w, _ in slots)), tables.samples, runs,
                     labels)
    return out


def _slots(order: dict[tuple[str, str, str], int], part: pd.DataFrame,
           runs: list[str]) -> list[tuple[str, str]]:
    """(workload, direction) measured in the first run and another, in the first run's plan
    order, not in the order its trials happened to run."""
    have = {run: set(zip(g["workload"], g["direction"])) for run, g in part.groupby("run")}
    base = have.get(runs[0], set())
    shared = {s for s in base if any(s in have.get(r, ()) for r in runs[1:])}
    eid = part["experiment"].iloc[0]
    slots = [s for s in dict.fromkeys(zip(part["workload"], part["direction"])) if s in shared]
    return sorted(slots, key=lambda s: order.get((eid, *s), len(order)))


def slot_text(workload: str, direction: str) -> str:
    """'RND4K Q1T1 read'; a mixed workload also names the direction: 'RND4K Q8T1 mix70 (read)'."""
    return workload if workload.endswith(str(direction)) else f"{workload} ({direction})"


def _stat(values: list[float]) -> Stat | None:
    if not values:
        return None
    return Stat(statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else None,
                len(values))


def _thin(stat: Stat | None, beyond: int | None) -> Stat | None:
    """A mean flagged too few (so no bar is drawn: figure.mean) when a repetition's own
    percentile rests on too few I/Os."""
    return replace(stat, too_few=beyond) if stat is not None and beyond is not None else stat


def _bars(eid: str, part: pd.DataFrame, slots: list[tuple[str, str]], runs: list[str],
          labels: dict[str, str], column: str, slug: str, title: str, unit: str | None) -> Figure | None:
    groups = []
    for run in runs:
        mine = part[part["run"] == run]
        stats = [_thin(_stat(list(slot[column].dropna())), too_few_beyond(slot, column))
                 for w, d in slots
                 for slot in (mine[(mine["workload"] == w) & (mine["direction"] == d)],)]
        if any(stats):
            groups.append((labels.get(run, run), stats, run))
    if len(groups) < 2:
        return None
    if unit is None:  # latency: µs, or ms past 10,000 µs, and which latency it is
        unit, factor = lat_unit([s for _, stats, _ in groups for s in stats])
        groups = [(name, [scaled(s, factor) for s in stats], run) for name, stats, run in groups]
        kinds = set(part["lat_kind"].dropna())
        unit = f"{unit}, {kinds.pop()} latency" if len(kinds) == 1 else \
            f"{unit}, total or completion latency: see the conditions"
    colors = tuple(RUN_COLORS[runs.index(run) % len(RUN_COLORS)] for _, _, run in groups)
    names = [slot_text(w, d) for w, d in slots]
    if len(names) > TALL_TICKS:
        names = [n.replace(" ", "\n", 2) for n in names]
    series, ticks = grouped_bars(names, [(n, s) for n, s, _ in groups], colors,
                                 labelled=len(slots) * len(groups) <= LABELLED_BARS)
    n = sorted({s.n for _, stats, _ in groups for s in stats if s})
    caption = (f"Bars: mean over n = {'/'.join(map(str, n))} measured repetitions of each run, "
               "error bars ± one sample std (none with n = 1); one colour per run, the first run "
               "is the one the others are compared with."
               + (" p99 is each repetition's own p99, averaged." if slug == "lat-p99" else ""))
    label = title if title == unit else f"{title} ({unit})"
    y_axis = latency_axis(label, series) if column.startswith("lat_") else Axis(label)
    if y_axis.log:
        caption += " Latency on a log axis (it spans more than a decade): bars rise from its bottom."
    return Figure(id=f"compare-{eid}-{slug}", experiment=eid, caption=caption,
                  title=f"{eid}: {title if title.isupper() else title.lower()} per workload, "
                        "run by run",
                  x_axis=Axis("Workload", ticks=ticks), y_axis=y_axis, series=series)


def _live(eid: str, part: pd.DataFrame, workloads: list[str], samples: pd.DataFrame, runs: list[str],
          labels: dict[str, str]) -> list[Figure]:
    """Per-interval MB/s of each workload, one line per run, LIVE_PANELS panels a figure."""
    if samples.empty:
        return []
    panels = []
    for w in workloads:
        series, drawn = [], 0
        for i, run in enumerate(runs):
            traces = _traces(part[(part["run"] == run) & (part["workload"] == w)],
                             samples[samples["run"] == run])
            # one trace per repetition (a gap between them, never a line joining two), one
            # legend entry per run: the renderer lists a name once
            series += [Series(labels.get(run, run), tuple(x), tuple(y),
                              color=RUN_COLORS[i % len(RUN_COLORS)]) for x, y in traces]
            drawn += bool(traces)
        if drawn > 1:
            panels.append(Figure(id=w, title=w, x_axis=Axis(f"{w}: time (s)"),
                                 y_axis=Axis("MB/s per interval"), series=tuple(series)))
    chunks = [panels[i:i + LIVE_PANELS] for i in range(0, len(panels), LIVE_PANELS)]
    caption = ("Per-interval MB/s (read + write, 10^6 B/s) from samples.csv: each workload's "
               "measured repetitions back to back in repetition order, each its own trace; one "
               "colour per run.")
    out = []
    for k, chunk in enumerate(chunks, 1):
        more = f" ({k} of {len(chunks)})" if len(chunks) > 1 else ""
        out.append(Figure(id=f"compare-{eid}-live" + (f"-{k}" if k > 1 else ""), experiment=eid,
                          title=f"{eid}: MB/s per interval, run by run{more}", caption=caption,
                          x_axis=chunk[0].x_axis, y_axis=chunk[0].y_axis,
                          series=chunk[0].series if len(chunk) == 1 else (),
                          panels=tuple(chunk) if len(chunk) > 1 else ()))
    return out


def _traces(trials: pd.DataFrame, samples: pd.DataFrame) -> list[tuple[np.ndarray, np.ndarray]]:
    """x (s) and MB/s of each of a run's measured repetitions of one workload, laid back to back
    on one time axis, one pair per repetition."""
    out, offset = [], 0.0
    starts = dict(zip(trials["trial"], trials["start_s"]))
    for trial in dict.fromkeys(trials.sort_values("repetition")["trial"]):
        rows = samples[samples["trial"] == trial].sort_values("t_s")
        if rows.empty:
            continue
        t = rows["t_s"].to_numpy(dtype=float)
        start = starts.get(trial)
        if start is None or start != start or start > t[0]:  # no start time: one interval before
            start = t[0] - 1.0
        local = t - start
        out.append((local + offset, rows["read_MBps"].fillna(0).to_numpy(dtype=float)
                    + rows["write_MBps"].fillna(0).to_numpy(dtype=float)))
        offset += float(local[-1])
    return [_binned(x, y, MAX_POINTS // len(out)) for x, y in out]


def _binned(x: np.ndarray, y: np.ndarray, points: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ``points`` points: bin means keep the level that a stride would alias."""
    if len(x) <= max(points, 1):
        return x, y
    edges = np.arange(0, len(x), math.ceil(len(x) / max(points, 1)))
    counts = np.diff(np.append(edges, len(x)))
    return np.add.reduceat(x, edges) / counts, np.add.reduceat(y, edges) / counts
