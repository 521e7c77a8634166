"""Figures as data: what to draw, never how (DESIGN §1, issue 5); each experiment module in
app/experiments/ builds its own figures from these types and helpers.

A :class:`Figure` is a frozen description (axes with units, series with ± sample-std error bars,
markers, horizontal lines) built from a run record and its summary. ``ui/render/``
turns it into a pyqtgraph plot, on screen for the results view and offscreen for export, so both
show the same thing. Keeping the description here keeps ``app`` free of Qt and lets tests check
figure content without drawing.

Conventions: x and y are plain floats in the unit the axis label names; ``err`` is the sample
std across repetitions (0 where n < 2, so no bar is drawn); a series drops points whose y is
missing rather than drawing zeros. With ``log2_x`` the x values stay in their unit (e.g. KiB)
and the renderer plots log2(x) with ticks at the given values.
"""
from __future__ import annotations

from dataclasses import dataclass

LATENCY_KINDS = {"total": "total latency", "completion": "completion latency"}


@dataclass(frozen=True)
class Axis:
    """An axis: the label carries the unit; ticks (value, text) fix category or log2 ticks."""
    label: str
    ticks: tuple[tuple[float, str], ...] = ()
    include_zero: bool = True


@dataclass(frozen=True)
class Series:
    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    err: tuple[float, ...] | None = None
    kind: str = "line"              # line | scatter | bar
    axis: str = "left"              # left | right
    point_labels: tuple[str, ...] | None = None
    color: int | None = None        # palette index; None = position in the figure
    dash: bool = False
    bar_width: float = 0.8


@dataclass(frozen=True)
class Marker:
    """A labelled point, or a labelled vertical line when ``y`` is None."""
    x: float
    y: float | None
    text: str
    axis: str = "left"


@dataclass(frozen=True)
class HLine:
    y: float
    text: str
    axis: str = "left"
    color: int | None = None


@dataclass(frozen=True)
class Figure:
    id: str                          # file name stem, unique within a run
    title: str
    x_axis: Axis
    y_axis: Axis
    y2_axis: Axis | None = None
    series: tuple[Series, ...] = ()
    markers: tuple[Marker, ...] = ()
    hlines: tuple[HLine, ...] = ()
    log2_x: bool = False
    experiment: str = ""
    caption: str = ""


# -- helpers shared by the figure builders (and the tables) of every experiment -------------------

def mean(stat: dict | None) -> float | None:
    return (stat or {}).get("mean")


def std(stat: dict | None) -> float:
    """Sample std for an error bar; 0 (no bar) when it is unknown (n < 2)."""
    return (stat or {}).get("std") or 0.0


def main_side(row: dict) -> dict:
    """The direction a workload is about: read, unless it only writes."""
    return row.get("read") or row.get("write") or {}


def lat_stat(row: dict, stat: str, direction: str | None = None) -> dict | None:
    """One latency summary of a workload row ({mean, std, n}), of ``direction`` or the main one."""
    side = (row.get(direction) if direction else main_side(row)) or {}
    return (side.get("lat_us") or {}).get(stat)


def outstanding(row: dict) -> int:
    """I/Os in flight for a workload row: iodepth × numjobs (a missing field counts as 1)."""
    w = row["workload"]
    return (w.get("iodepth") or 1) * (w.get("numjobs") or 1)


def lat_kind(summary: dict) -> str | None:
    """The latency kind of the run's measurements (they share one engine and settings)."""
    for exp in summary.values():
        for row in exp.get("workloads", []):
            for side in (row.get("read"), row.get("write")):
                if side and side.get("lat_kind"):
                    return side["lat_kind"]
    return None


def lat_axis_label(kind: str | None, what: str = "Latency") -> str:
    """E.g. 'Latency (µs, total latency)': the unit and which latency fio measured."""
    return f"{what} (µs, {LATENCY_KINDS.get(kind, 'latency of unknown kind')})"


def series_from(name: str, points: list[tuple[float, dict | None]], **kw) -> Series | None:
    """A series from (x, {mean, std, n}) pairs, skipping points without a mean."""
    pts = [(x, mean(s), std(s)) for x, s in points if x is not None and mean(s) is not None]
    if not pts:
        return None
    return Series(name, tuple(p[0] for p in pts), tuple(p[1] for p in pts),
                  tuple(p[2] for p in pts), **kw)


def grouped_bars(categories: list[str], groups: list[tuple[str, list[dict | None]]]) -> tuple:
    """Side-by-side bars: one series per group, one slot per category (x = 0, 1, ...)."""
    count = max(len(groups), 1)
    width = 0.8 / count
    series = []
    for g, (name, stats) in enumerate(groups):
        offset = (g - (count - 1) / 2) * width
        pts = [(i + offset, s) for i, s in enumerate(stats)]
        s = series_from(name, pts, kind="bar", bar_width=width * 0.92, color=g)
        if s:
            series.append(s)
    ticks = tuple((float(i), c) for i, c in enumerate(categories))
    return tuple(series), ticks


def kib_ticks(values_kib: list[float]) -> tuple[tuple[float, str], ...]:
    return tuple((v, f"{v:g}") for v in sorted(set(values_kib)))


def fmt(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"
