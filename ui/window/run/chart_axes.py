"""The live charts' axes: run time as m:ss, and value axes whose ticks stay short and readable.

Why a value axis of our own: pyqtgraph's labels grow with the numbers (a six-digit µs latency
ran into the axis title), its log ticks label every 2..9 minor tick in exponent notation, and
its SI prefixes ("x0.001") contradict a title that names the unit. Here a value of 10,000 or
more in the base unit switches the axis to thousands (µs -> ms, MB/s -> GB/s, IOPS ->
thousand IOPS; the chart retitles the axis), so a tick never has more than five characters
and the axis width can be fixed from the font, the same for every chart, aligning their plots.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGraphicsItem

from ui.window.messages import duration_text

# the value axes' titles per unit: (base unit, thousands)
TITLES = {"MBps": ("MB/s", "GB/s"), "iops": ("IOPS", "IOPS (thousands)"),
          "lat": ("latency (µs)", "latency (ms)")}   # mean solid, p99 dashed (the legend)
_TIME_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800)
THOUSANDS_FROM = 10_000     # a base-unit value this large shows the axis in thousands


class TimeAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph: no types
    """Run time as m:ss or h:mm:ss, with ticks on whole seconds, minutes and hours."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.enableAutoSIPrefix(False)  # seconds stay seconds (no "x0.001")

    def tickSpacing(self, minVal: float, maxVal: float,  # noqa: N802 - pyqtgraph's name
                    size: float) -> list[tuple[float, float]]:
        span = max(maxVal - minVal, 1e-9)
        fit = max(size / (QFontMetrics(self.font()).horizontalAdvance("00:00") * 2.5), 1.0)
        major = next((s for s in _TIME_STEPS if span / s <= fit), _TIME_STEPS[-1])
        if span / major > fit:  # a very long run: fall back to pyqtgraph's own choice
            spacing: list[tuple[float, float]] = super().tickSpacing(minVal, maxVal, size)
            return spacing
        return [(major, 0), (major / 2 if major > 1 else major, 0)]

    def tickStrings(self, values: Sequence[float], scale: float,  # noqa: N802
                    spacing: float | None) -> list[str]:
        return [duration_text(v) if v >= 0 else "" for v in values]


def log_ticks(lo: float, hi: float) -> list[tuple[float | None, list[float]]]:
    """Tick levels for a log10 axis from ``lo`` to ``hi`` (log10 values): labelled ticks at
    1, 2, 5 x 10^k (1 and 3 over a few decades, powers of ten over many), unlabelled minor
    ticks at the other integers; a range narrower than one step gets plain linear ticks."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return []
    span = hi - lo
    mults = (1, 2, 5) if span <= 1.5 else (1, 3) if span <= 3 else (1,)
    decades = range(math.floor(lo), math.ceil(hi) + 1)
    majors = [d + math.log10(m) for d in decades for m in mults
              if lo <= d + math.log10(m) <= hi]
    if len(majors) < 2:  # e.g. 100..130 µs: a few linear steps, placed on the log scale
        low, high = 10 ** lo, 10 ** hi
        step = _nice_step((high - low) / 4)
        first = math.ceil(low / step) * step
        values = [first + i * step for i in range(int((high - first) / step) + 1)]
        return [(1.0, [math.log10(v) for v in values if v > 0])]
    minors = [d + math.log10(m) for d in decades for m in range(2, 10)
              if m not in mults and lo <= d + math.log10(m) <= hi]
    return [(1.0, majors), (None, minors)]


def _nice_step(raw: float) -> float:
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    return next((m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw), 10 * power)


def nice_top(value: float) -> float:
    """A round upper bound a little above ``value`` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k)."""
    if not value > 0 or not math.isfinite(value):
        return 1.0
    power: float = 10 ** math.floor(math.log10(value * 1.05))
    return next(m * power for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * power >= value * 1.05)


def _places(value: float) -> int:
    """The fewest decimals (up to 3) that show ``value`` exactly: 5, 0.5, 0.05, 102.5."""
    return next((p for p in range(4) if abs(value - round(value, p)) <= 1e-9 * max(1.0, value)), 3)


def tick_text(value: float, places: int = 0) -> str:
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{max(0, places)}f}"


class ValueAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph: no types
    """A left axis showing base-unit values, or thousands of them (``divisor`` 1000)."""

    def __init__(self, orientation: str = "left"):
        super().__init__(orientation)
        self.divisor = 1.0
        self.enableAutoSIPrefix(False)  # the title names the unit; no "(x0.001)"

    def set_divisor(self, divisor: float) -> bool:
        """True when it changed (the chart then retitles the axis)."""
        if divisor == self.divisor:
            return False
        self.divisor = divisor
        self.picture = None
        self.update()
        return True

    def width_for_ticks(self) -> int:
        """Room for the longest tick ("8,000", "0.05") and the title, from the font."""
        metrics = QFontMetrics(self.font())
        return metrics.horizontalAdvance("10,000") + metrics.height() + 14

    def tickValues(self, minVal: float, maxVal: float,  # noqa: N802 - pyqtgraph's name
                   size: float) -> list[tuple[float | None, list[float]]]:
        if self.logMode:
            return log_ticks(minVal, maxVal)
        levels: list[tuple[float | None, list[float]]] = super().tickValues(minVal, maxVal, size)
        return levels

    def tickStrings(self, values: Sequence[float], scale: float,  # noqa: N802
                    spacing: float | None) -> list[str]:
        if self.logMode:
            if spacing is None:
                return ["" for _ in values]
            return [tick_text(v, _places(v)) for v in (10 ** x / self.divisor for x in values)]
        step = (spacing or 1.0) / self.divisor
        places = max(0, math.ceil(-math.log10(step))) if step > 0 else 0
        return [tick_text(v / self.divisor, places) for v in values]


def fit_from_zero(plot: pg.PlotItem, peak: float, titles: tuple[str, str], top: float | None,
                  fit_range: bool = True) -> float | None:
    """The plot's left axis in base units or thousands (retitled with ``titles``), and its y
    range from 0 to a round value above ``peak``. The range changes only when the data outgrow
    ``top`` or shrink below 40 % of it (a new run, a toggle), so most redraws leave the axes
    alone. Returns the new top (None: unchanged or not fitted)."""
    axis = plot.getAxis("left")
    if axis.set_divisor(1000.0 if peak >= THOUSANDS_FROM else 1.0) or axis.labelText not in titles:
        plot.setLabel("left", titles[axis.divisor > 1])
    if not fit_range or (top is not None and 0.4 * top <= peak <= top):
        return None
    top = nice_top(peak) if peak > 0 else 1.0
    plot.setYRange(0.0, top, padding=0.0)
    return top


def value_plot(view: pg.GraphicsLayoutWidget, row: int, label: str) -> pg.PlotItem:
    """A chart of the live view: time below, a ValueAxis of the font's width on the left."""
    axis = ValueAxis("left")
    plot = view.addPlot(row=row, col=0, axisItems={"bottom": TimeAxis("bottom"), "left": axis})
    plot.setLabel("left", label)
    # no grid: alpha-blended grid lines over the whole plot tripled the paint time
    plot.setClipToView(True)
    plot.setDownsampling(auto=True, mode="peak")
    axis.setWidth(axis.width_for_ticks())  # one width for all: the plots line up
    # each sample's repaint of the curves overlaps the axes (their ticks reach into the plot):
    # a cached axis is one pixmap drawn, not its ticks and labels replayed (a quarter of a paint)
    for side in ("left", "bottom"):
        plot.getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    return plot   # axis colours: the palette's text (chart_colors.apply)
