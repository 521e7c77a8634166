"""A panel's data items: bars or lines (symbols unless dense), error bars drawn in full (never
cut at zero, log axes included), horizontal lines and markers; every item's position is kept
in :class:`ui.render.panel.Geometry` so labels can be placed clear of it (ui/render/labels.py)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from app.results.figure import Series, error_ends
from ui.render.labels import Labels
from ui.render.panel import Panel
from ui.render.ranges import view, x_values, y_axis_of, y_values
from ui.render.style import DENSE_POINTS, Style, as_text, color

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    import pyqtgraph as pg
    from PySide6.QtGui import QPen

Ranges = dict[str, tuple[float, float] | None]   # x, left, right: the view's fixed ranges


def _arr(values: Sequence[float]) -> npt.NDArray[np.float64]:
    """pyqtgraph's ErrorBarItem does arithmetic on its inputs: lists would concatenate."""
    return np.asarray(values, dtype=float)


def _box(panel: Panel, axis: str) -> pg.ViewBox:
    return panel.right if axis == "right" and panel.right is not None else panel.vb


def _legend_add(legend: pg.LegendItem, item: pg.GraphicsObject, name: str) -> None:
    if name not in legend._ssd_names:
        legend._ssd_names.add(name)
        legend.addItem(item, as_text(name))


def draw_series(panel: Panel, legend: pg.LegendItem, s: Series, position: int, style: Style,
                ranges: Ranges, labels: Labels) -> None:
    """One series: bars or a line, its error bars and its point labels."""
    import pyqtgraph as pg
    from PySide6.QtCore import Qt
    fig, geo = panel.fig, panel.geometry
    tint = color(s.color, position)
    vb = _box(panel, s.axis)
    xs, ys = x_values(fig, s.x), y_values(fig, s.y, s.axis)
    if s.kind == "line" and _log_y(panel, s):  # a zero drops to the bottom of a log axis
        bottom = (ranges.get(s.axis) or (0.0, 1.0))[0]
        ys = [bottom if v is None and y is not None and y == 0 else v for v, y in zip(ys, s.y)]
    kept = [(i, x, y) for i, (x, y) in enumerate(zip(xs, ys)) if x is not None and y is not None]
    keep, X, Y = [k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept]
    if s.kind == "bar":
        # on a log axis a bar has no zero to stand on: it rises from the bottom of the view
        base = (ranges.get(s.axis) or (0.0, 1.0))[0] if _log_y(panel, s) else 0.0
        item = pg.BarGraphItem(x=X, y0=[base] * len(Y), y1=Y, width=s.bar_width, brush=tint,
                               pen=pg.mkPen("k", width=1))
        geo.bars += [(vb, x - s.bar_width / 2, x + s.bar_width / 2, min(base, y), max(base, y))
                     for x, y in zip(X, Y)]
    else:
        dash = Qt.PenStyle.DotLine if s.dot else Qt.PenStyle.DashLine if s.dash else \
            Qt.PenStyle.SolidLine
        pen = None if s.kind == "scatter" else pg.mkPen(tint, width=style.line, style=dash)
        dense = len(X) > DENSE_POINTS and s.kind != "scatter"  # a trace, not points
        symbol = "t" if s.dot else "s" if s.dash else "o"
        joined = [keep[j + 1] not in s.breaks for j in range(len(X) - 1)] + [False]
        item = pg.PlotDataItem(X, Y, pen=pen, symbol=None if dense else symbol,
                               symbolSize=style.symbol, symbolBrush=tint, symbolPen=tint,
                               **({"connect": np.array(joined)} if s.breaks else {}))
        if not dense:
            geo.points += [(vb, x, y, style.symbol) for x, y in zip(X, Y)]
        if pen is not None:
            geo.segments += [(vb, a, b, style.line) for a, b, on
                             in zip(zip(X, Y), zip(X[1:], Y[1:]), joined) if on]
    vb.addItem(item)
    _legend_add(legend, item, s.name + (" (right axis)" if s.axis == "right" and panel.right else ""))
    tops = [0.0] * len(keep)
    if s.err and any(s.err[i] for i in keep):
        tops = _y_errors(panel, legend, vb, s, keep, X, Y, ranges, tint)
    if s.xerr and any(s.xerr[i] for i in keep):
        _x_errors(panel, vb, s, keep, X, Y, ranges, tint)
    for i, x, y, top in zip(keep, X, Y, tops):
        if s.point_labels and i < len(s.point_labels) and s.point_labels[i]:
            bar = s.kind == "bar"
            labels.add(panel, vb, s.point_labels[i], (x, y + (top if bar else 0.0)),
                       "above" if bar else "around", fill=bar)


def _log_y(panel: Panel, s: Series) -> bool:
    return bool((y_axis_of(panel.fig, s.axis) or panel.fig.y_axis).log)


def _y_errors(panel: Panel, legend: pg.LegendItem, vb: pg.ViewBox, s: Series, keep: list[int],
              X: list[float], Y: list[float], ranges: Ranges, tint: str) -> list[float]:
    """Vertical ± std bars, in full. On a log axis a lower end at or below zero (or under the
    axis floor) cannot be drawn: on a bar chart, where a bar starts at the floor, that error bar
    runs to the floor with no cap and a ▼ there (named in the legend) says it goes on below, so
    a clipped one never reads as a short one (a line's runs on out of the view, as before).
    Returns each bar's top above its value (view units)."""
    import pyqtgraph as pg
    assert s.err is not None   # draw_series calls this for a series with error bars only
    log = _log_y(panel, s)
    bottom_of_view = (ranges.get(s.axis) or (0.0, 1.0))[0]
    top, low, cut = [], [], []
    for i, y in zip(keep, Y):
        low_end, high_end = error_ends(s.y[i], s.err[i])
        hi, lo = view(high_end, log), view(low_end, log)
        top.append((hi - y) if hi is not None else 0.0)
        cut.append(s.kind == "bar" and log and (lo is None or lo < bottom_of_view))
        low.append((y - lo) if lo is not None and not cut[-1] else (y - bottom_of_view))
    lo_x, hi_x = ranges.get("x") or (0.0, 1.0)
    beam = s.bar_width * 0.35 if s.kind == "bar" else 0.012 * (hi_x - lo_x)
    pen = pg.mkPen("#222" if s.kind == "bar" else tint, width=2)
    whole = [k for k, c in enumerate(cut) if not c]
    if whole:
        vb.addItem(pg.ErrorBarItem(x=_arr([X[k] for k in whole]), y=_arr([Y[k] for k in whole]),
                                   top=_arr([top[k] for k in whole]),
                                   bottom=_arr([low[k] for k in whole]), beam=beam, pen=pen))
    if len(whole) < len(cut):
        _cut_errors(panel, legend, vb, [k for k, c in enumerate(cut) if c], X, Y, top, low,
                    beam, pen, bottom_of_view, ranges.get(s.axis))
    panel.geometry.errs += [(vb, x, y - b, x, y + t) for x, y, t, b in zip(X, Y, top, low)]
    return top


def _cut_errors(panel: Panel, legend: pg.LegendItem, vb: pg.ViewBox, cut: list[int], X: list[float],
                Y: list[float], top: list[float], low: list[float], beam: float, pen: QPen,
                floor: float, span: tuple[float, float] | None) -> None:
    """Error bars whose lower end lies below a log axis: capped at the top, uncapped down to
    the floor, with a ▼ just above the floor (one legend entry per panel)."""
    import pyqtgraph as pg
    xs, ys = _arr([X[k] for k in cut]), _arr([Y[k] for k in cut])
    vb.addItem(pg.ErrorBarItem(x=xs, y=ys, top=_arr([top[k] for k in cut]), beam=beam, pen=pen))
    vb.addItem(pg.ErrorBarItem(x=xs, y=ys, bottom=_arr([low[k] for k in cut]), pen=pen))
    lo, hi = span or (0.0, 1.0)
    arrow_y = floor + 0.025 * (hi - lo)
    arrows = pg.PlotDataItem(xs, _arr([arrow_y] * len(cut)), pen=None, symbol="t",
                             symbolSize=11, symbolBrush=pen.color(), symbolPen=pen.color())
    vb.addItem(arrows)
    panel.geometry.points += [(vb, x, arrow_y, 11) for x in xs]
    _legend_add(legend, arrows, "error bar goes on below the axis (mean − std ≤ 0 or under its "
                                "floor)")


def _x_errors(panel: Panel, vb: pg.ViewBox, s: Series, keep: list[int], X: list[float],
              Y: list[float], ranges: Ranges, tint: str) -> None:
    import pyqtgraph as pg
    assert s.xerr is not None   # draw_series calls this for a series with error bars only
    fig = panel.fig
    log, log2 = fig.x_axis.log, fig.log2_x
    left_of_view = (ranges.get("x") or (0.0, 1.0))[0]
    left, right = [], []
    for i, x in zip(keep, X):
        low_end, high_end = error_ends(s.x[i], s.xerr[i])
        hi, lo = view(high_end, log, log2), view(low_end, log, log2)
        right.append((hi - x) if hi is not None else 0.0)
        left.append((x - lo) if lo is not None else (x - left_of_view))
    lo_y, hi_y = ranges.get(s.axis) or (0.0, 1.0)
    vb.addItem(pg.ErrorBarItem(x=_arr(X), y=_arr(Y), left=_arr(left), right=_arr(right),
                               beam=0.012 * (hi_y - lo_y),
                               pen=pg.mkPen(tint, width=2)))
    panel.geometry.errs += [(vb, x - a, y, x + b, y) for x, y, a, b in zip(X, Y, left, right)]


def draw_hlines(panel: Panel, legend: pg.LegendItem, style: Style) -> None:
    import pyqtgraph as pg
    from PySide6.QtCore import Qt
    for h in panel.fig.hlines:
        (y,) = y_values(panel.fig, [h.y], h.axis)
        if y is None:
            continue
        pen = pg.mkPen(color(h.color, 6), width=style.line * 0.8, style=Qt.PenStyle.DashDotLine)
        vb = _box(panel, h.axis)
        vb.addItem(pg.InfiniteLine(pos=y, angle=0, pen=pen))
        _legend_add(legend, pg.PlotDataItem([], [], pen=pen), h.text)
        x0, x1 = panel.vb.viewRange()[0]
        panel.geometry.segments.append((vb, (x0, y), (x1, y), style.line))


MARKER_LINE, STAR = "#555", "#E69F00"


def draw_markers(panel: Panel, legend: pg.LegendItem, style: Style, labels: Labels) -> None:
    """Vertical lines, or starred points, each with a label placed clear of the data and an
    entry in the legend (a reader who meets a star or a dashed line looks it up there)."""
    import pyqtgraph as pg
    from PySide6.QtCore import Qt
    for m in panel.fig.markers:
        vb = _box(panel, m.axis)
        (x,) = x_values(panel.fig, [m.x])
        if x is None:
            continue
        if m.y is None:
            pen = pg.mkPen(MARKER_LINE, width=2, style=Qt.PenStyle.DashLine)
            vb.addItem(pg.InfiniteLine(pos=x, angle=90, pen=pen))
            sample = pg.PlotDataItem([], [], pen=pen)
            sample._ssd_vertical = True  # its legend swatch is a vertical line (style.py)
            _legend_add(legend, sample, m.text)
            labels.add(panel, vb, m.text, (x, None), "line", fill=True, priority=1)
            continue
        (y,) = y_values(panel.fig, [m.y], m.axis)
        if y is None:
            continue
        size = style.symbol * 2.4
        star = {"symbol": "star", "brush": STAR, "pen": pg.mkPen("k", width=1)}
        vb.addItem(pg.ScatterPlotItem([x], [y], size=size, **star))
        _legend_add(legend, pg.PlotDataItem([], [], pen=None, symbol="star", symbolSize=size,
                                            symbolBrush=STAR, symbolPen=star["pen"]), m.text)
        panel.geometry.points.append((vb, x, y, size))
        labels.add(panel, vb, m.text, (x, y), "around", fill=True, priority=1, leader=True)
