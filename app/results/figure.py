"""Figures as data: what to draw, never how; each experiment module in app/experiments/ builds
its own figures from these types and helpers (docs/architecture.md).

A :class:`Figure` is a frozen description (axes with units, series with ± sample-std error bars,
markers, horizontal lines) built from a run record and its summary. ``ui/render/``
turns it into a pyqtgraph plot, on screen for the results view and offscreen for export, so both
show the same thing. Keeping the description here keeps ``app`` free of Qt and lets tests check
figure content without drawing.

Conventions: x and y are plain floats in the unit the axis label names; ``err`` (and ``xerr``)
is the sample std across repetitions (0 where n < 2, so no bar is drawn), or a (below, above)
pair for an interval that is not symmetric (a percentile's 95 % CI), drawn in full, never
cut at zero; a series drops points whose y is missing rather than drawing zeros. With ``log2_x``
the x values stay in their unit (e.g. KiB) and the renderer plots log2(x) with ticks at the
given values; an axis with ``log`` is a log10 axis, values again in their unit. A latency axis
is log, and says so, when its values span more than a decade (:func:`latency_axis`). A right
axis with ``per_left`` is locked to the left one (right value = left value × per_left), so a
marker computed on both curves scaled alike is where the drawn curves meet. Every marker and
horizontal line is named in the legend.

Colours are palette indices (ui/render/style.py holds the colours): :data:`READ` and
:data:`WRITE` always mean the two directions, in every figure; anything else (queue depths,
access patterns, statistics) takes :data:`OTHER` colours, so blue and vermillion never mean
anything but read and write. Axis titles carry the unit in plain words (MB/s, µs, GB), never
caret powers; what MB/s means (10⁶ B/s) is said once in the report's methodology.

A figure with ``panels`` is drawn as side-by-side sub-figures (each its own axes and ranges)
under one title and one legend, e.g. one panel per block size so small values are not slivers
beside large ones.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from app.model.summary import Stat, WorkloadSummary

LATENCY_KINDS = {"total": "total latency", "completion": "completion latency"}
READ, WRITE = 0, 1                   # palette indices of the two directions, in every figure
OTHER = (2, 3, 4, 6, 5)              # green, reddish purple, orange, black, sky blue
NEUTRAL = 6                          # black: a second metric of the same direction


@dataclass(frozen=True)
class Axis:
    """An axis: the label carries the unit; ticks (value, text) fix category or log2 ticks."""
    label: str
    ticks: tuple[tuple[float, str], ...] = ()
    include_zero: bool = True
    log: bool = False               # log10 scale; ticks at 1-2-5 decades unless ``ticks`` given
    per_left: float | None = None   # a right axis locked to the left: right = left × per_left


@dataclass(frozen=True)
class Series:
    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    err: tuple[float | tuple[float, float], ...] | None = None   # ± e, or (below, above)
    kind: str = "line"              # line | scatter | bar
    axis: str = "left"              # left | right
    point_labels: tuple[str, ...] | None = None
    color: int | None = None        # palette index; None = position in the figure
    dash: bool = False
    dot: bool = False               # dotted, triangles: a third statistic beside solid and dashed
    bar_width: float = 0.8
    xerr: tuple[float | tuple[float, float], ...] | None = None  # as err, along x
    #: indices of points a line does not join to the point before: a point between them was left
    #: out (no mean), so a straight segment across would look like data
    breaks: tuple[int, ...] = ()


def error_ends(value: float, err: float | tuple[float, float] | None) -> tuple[float, float]:
    """Both ends of an error bar: ``err`` is ± e (sample std) or (below, above), e.g. the
    distance to each end of a 95 % interval, which is not symmetric around a percentile."""
    below, above = err if isinstance(err, tuple) else (err or 0.0, err or 0.0)
    return value - (below or 0.0), value + (above or 0.0)


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
    panels: tuple[Figure, ...] = ()  # side by side, each with its own axes (see the docstring)


# -- helpers shared by the figure builders (and the tables) of every experiment -------------------
# A statistic is a typed Stat; the mapping form ({mean, std, n}) is still accepted where run.json-
# shaped rows are drawn (compare, report.md's spread), so one set of helpers serves both.

StatLike = Stat | Mapping[str, Any] | None


def as_stat(stat: StatLike) -> Stat | None:
    """A Stat from either form (None stays None)."""
    if stat is None or isinstance(stat, Stat):
        return stat
    return Stat.from_json(stat)


def mean(stat: StatLike) -> float | None:
    """The mean a figure or sentence may state: None when unknown or a percentile resting on
    too few I/Os (``Stat.known``), so a series leaves that point out."""
    got = as_stat(stat)
    return got.known if got else None


def std(stat: StatLike) -> float:
    """Sample std for an error bar; 0 (no bar) when it is unknown (n < 2) or its mean may not
    be stated (too few I/Os)."""
    got = as_stat(stat)
    return (got.std if got and got.too_few is None else None) or 0.0


def main_side(row: Mapping[str, Any]) -> Mapping[str, Any]:
    """A run.json row's main direction (read, unless it only writes), for report/markdown.py,
    which still reads run.json-shaped rows; typed rows have ``WorkloadSummary.main``."""
    side: Mapping[str, Any] = row.get("read") or row.get("write") or {}
    return side


def lat_stat(row: WorkloadSummary, stat: str, direction: str | None = None) -> Stat | None:
    """One latency summary of a workload row, of ``direction`` or the main one."""
    return row.lat(stat, direction)


def lat_kind(summary: Mapping[str, Any]) -> str | None:
    """The latency kind of a run.json summary, for report/markdown.py (typed code reads
    ``RunResults.lat_kind``)."""
    for exp in summary.values():
        for row in exp.get("workloads", []):
            for side in (row.get("read"), row.get("write")):
                if side and side.get("lat_kind"):
                    return str(side["lat_kind"])
    return None


def lat_axis_label(kind: str | None, what: str = "Latency", unit: str = "µs") -> str:
    """E.g. 'Latency (µs, total latency)': the unit and which latency fio measured."""
    return f"{what} ({unit}, {LATENCY_KINDS.get(kind or '', 'latency of unknown kind')})"


def spans_decade(series: Iterable[Series], along: str = "y") -> bool:
    """True when the positive values (``along`` "y" or "x") of the series drawn on one axis
    span more than a factor of ten: on a linear axis the low ones would be squashed into a few
    pixels (a mean beside its p99.9 reads as flat)."""
    values = [v for s in series for v in (s.x if along == "x" else s.y) if v is not None and v > 0]
    return bool(values) and max(values) > 10 * min(values)


def latency_axis(label: str, series: Iterable[Series], along: str = "y", **kw: Any) -> Axis:
    """A latency axis, log10 (and saying so) when its values span more than a decade."""
    if spans_decade(series, along):
        return Axis(label + ", log scale", log=True, **kw)
    return Axis(label, **kw)


def lat_unit(stats: Iterable[StatLike]) -> tuple[str, float]:
    """('µs', 1) or, when a value (mean + std) passes 10,000 µs, ('ms', 0.001): six-digit µs
    tick labels are hard to read."""
    top = max(((mean(s) or 0.0) + std(s) for s in stats if s), default=0.0)
    return ("ms", 1e-3) if top >= 10_000 else ("µs", 1.0)


@overload
def scaled(stat: Stat | None, factor: float) -> Stat | None: ...
@overload
def scaled(stat: Mapping[str, Any], factor: float) -> Mapping[str, Any]: ...


def scaled(stat: StatLike, factor: float) -> StatLike:
    """A mean ± std summary in another unit (µs -> ms), in the form it came in."""
    if not stat or factor == 1.0:
        return stat
    if isinstance(stat, Stat):
        return replace(stat, mean=None if stat.mean is None else stat.mean * factor,
                       std=None if stat.std is None else stat.std * factor)
    return {**stat, **{k: stat[k] * factor for k in ("mean", "std") if stat.get(k) is not None}}


def direction_color(direction: str) -> int:
    return WRITE if direction == "write" else READ


def size_text(n_bytes: int) -> str:
    """'4 KiB', '128 KiB', '1 MiB' for titles and axis titles."""
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor} {unit}"
    return f"{n_bytes} B"


def value_text(value: float | None) -> str:
    """A bar's value for its label: '1,160', '87.5', '0.42'."""
    if value is None:
        return ""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def series_from(name: str, points: Iterable[tuple[float | None, StatLike]],
                **kw: Any) -> Series | None:
    """A series from (x, mean ± std) pairs, skipping points without a mean (and breaking the
    line there: :attr:`Series.breaks`)."""
    pts: list[tuple[float, float, float]] = []
    breaks, gap = [], False
    for x, s in points:
        if x is None:
            continue
        m = mean(s)
        if m is None:
            gap = bool(pts)
            continue
        if gap:
            breaks.append(len(pts))
            gap = False
        pts.append((x, m, std(s)))
    if not pts:
        return None
    return Series(name, tuple(p[0] for p in pts), tuple(p[1] for p in pts),
                  tuple(p[2] for p in pts), breaks=tuple(breaks), **kw)


def grouped_bars(categories: list[str], groups: Sequence[tuple[str, Sequence[StatLike]]],
                 colors: tuple[int, ...] = OTHER,
                 labelled: bool = True) -> tuple[tuple[Series, ...], tuple[tuple[float, str], ...]]:
    """Side-by-side bars: one series per group, one slot per category (x = 0, 1, ...); each
    bar labelled with its value unless ``labelled`` is False."""
    count = max(len(groups), 1)
    width = 0.8 / count
    series = []
    for g, (name, stats) in enumerate(groups):
        offset = (g - (count - 1) / 2) * width
        pts = [(i + offset, s) for i, s in enumerate(stats)]
        s = series_from(name, pts, kind="bar", bar_width=width * 0.92, color=colors[g % len(colors)])
        if s and labelled:
            s = replace(s, point_labels=tuple(value_text(v) for v in s.y))
        if s:
            series.append(s)
    ticks = tuple((float(i), c) for i, c in enumerate(categories))
    return tuple(series), ticks


def kib_ticks(values_kib: Iterable[float]) -> tuple[tuple[float, str], ...]:
    return tuple((v, f"{v:g}") for v in sorted(set(values_kib)))


def fmt(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"
