"""Figure spec (app/figures.py) -> a pyqtgraph plot, in small named steps.

One drawing path serves the window's results view (:func:`figure_widget`) and the export
(ui/render/export.py), so what a user sees is what the report holds. Twin axes use a second
ViewBox linked to the right axis (pyqtgraph's MultiplePlotAxes recipe); the legend sits in its
own row under the plot so it never hides data; log2 x axes plot log2(x) with ticks labelled in
the axis unit.
"""
from __future__ import annotations

from app.figures import Figure
from ui.render.ranges import legend_columns, x_range, x_values, y_range
from ui.render.style import DENSE_POINTS, SCREEN, Style, color, font, sample_type, style_axis


def figure_widget(fig: Figure, style: Style = SCREEN):
    """A PlotWidget showing ``fig``, for the window's results view and the export."""
    import pyqtgraph as pg
    widget = pg.PlotWidget(background="w")
    widget._ssd_right = draw(widget.getPlotItem(), fig, style)  # keep the ViewBox alive
    return widget


def draw(plot, fig: Figure, style: Style):
    """Draw ``fig`` into a PlotItem; returns the right ViewBox (or None) for geometry syncing."""
    _frame(plot, fig, style)
    right = _right_axis(plot, fig, style)
    legend = _legend(plot, fig, style)
    for i, series in enumerate(fig.series):
        _series(plot, right, legend, fig, series, i, style)
    _hlines(plot, right, legend, fig, style)
    _markers(plot, right, fig, style)
    _fit(plot, right, fig)
    plot.vb.setMouseEnabled(x=False, y=False)
    return right


def _box(plot, right, axis: str):
    return right if axis == "right" and right is not None else plot.vb


def _frame(plot, fig: Figure, style: Style) -> None:
    """Title, margins, the two main axes, grid and category ticks."""
    plot.setTitle(fig.title, size=f"{style.title_px}px", color="#000")
    plot.layout.setRowFixedHeight(0, int(style.title_px * 1.9))
    plot.titleLabel.setMaximumHeight(int(style.title_px * 1.9))
    plot.layout.setContentsMargins(style.tick_px, style.tick_px // 2, style.tick_px * 2,
                                   style.tick_px // 2)
    plot.setMenuEnabled(False)
    style_axis(plot.getAxis("bottom"), fig.x_axis.label, style)
    style_axis(plot.getAxis("left"), fig.y_axis.label, style)
    plot.showGrid(x=not any(s.kind == "bar" for s in fig.series), y=True, alpha=0.18)
    ticks = fig.x_axis.ticks
    if ticks:
        positions = x_values(fig, [t for t, _ in ticks])
        plot.getAxis("bottom").setTicks([list(zip(positions, (t for _, t in ticks)))])


def _right_axis(plot, fig: Figure, style: Style):
    """A second ViewBox on the right axis when any series or the spec asks for one."""
    if fig.y2_axis is None and not any(s.axis == "right" for s in fig.series):
        return None
    import pyqtgraph as pg
    right = pg.ViewBox()
    plot.showAxis("right")
    plot.scene().addItem(right)
    plot.getAxis("right").linkToView(right)
    right.setXLink(plot)
    style_axis(plot.getAxis("right"), (fig.y2_axis.label if fig.y2_axis else ""), style)
    plot.getAxis("right").setGrid(False)
    return right


def _legend(plot, fig: Figure, style: Style):
    import pyqtgraph as pg
    legend = pg.LegendItem(colCount=legend_columns(fig, style),
                           labelTextSize=f"{style.legend_px}px", labelTextColor="k",
                           sampleType=sample_type(style.legend_sample), frame=False,
                           horSpacing=style.legend_px)
    plot.layout.addItem(legend, 4, 1)
    return legend


def _series(plot, right, legend, fig: Figure, s, position: int, style: Style) -> None:
    """One series: bars or a line (symbols unless dense), its error bars and point labels."""
    import pyqtgraph as pg
    from PySide6.QtCore import Qt
    tint = color(s.color, position)
    box = _box(plot, right, s.axis)
    xs = x_values(fig, s.x)
    if s.kind == "bar":
        item = pg.BarGraphItem(x=xs, height=list(s.y), width=s.bar_width, brush=tint,
                               pen=pg.mkPen("k", width=1))
    else:
        dash = Qt.PenStyle.DashLine if s.dash else Qt.PenStyle.SolidLine
        pen = None if s.kind == "scatter" else pg.mkPen(tint, width=style.line, style=dash)
        dense = len(xs) > DENSE_POINTS and s.kind != "scatter"  # a trace, not points
        item = pg.PlotDataItem(xs, list(s.y), pen=pen,
                               symbol=None if dense else ("s" if s.dash else "o"),
                               symbolSize=style.symbol, symbolBrush=tint, symbolPen=tint)
    box.addItem(item)
    legend.addItem(item, s.name + (" (right axis)" if s.axis == "right" and right else ""))
    if s.err and any(e > 0 for e in s.err):
        _error_bars(box, fig, s, xs, tint)
    _point_labels(box, s, xs, style)


def _error_bars(box, fig: Figure, s, xs, tint: str) -> None:
    import numpy as np
    import pyqtgraph as pg
    lo, hi = x_range(fig) or (0.0, 1.0)
    beam = s.bar_width * 0.35 if s.kind == "bar" else 0.012 * (hi - lo)
    ys, errs = np.asarray(s.y, float), np.asarray(s.err, float)
    # a quantity that cannot be negative: the lower bar stops at zero
    low = np.minimum(errs, np.maximum(ys, 0)) if (ys >= 0).all() else errs
    box.addItem(pg.ErrorBarItem(x=np.asarray(xs, float), y=ys, top=errs, bottom=low, beam=beam,
                                pen=pg.mkPen("#222" if s.kind == "bar" else tint, width=2)))


def _point_labels(box, s, xs, style: Style) -> None:
    """Above the error bar for bars, up and right of the point for lines."""
    import pyqtgraph as pg
    bar = s.kind == "bar"
    for x, y, e, text in zip(xs, s.y, s.err or [0.0] * len(xs), s.point_labels or ()):
        label = pg.TextItem(text, color="k", anchor=(0.5, 1.1) if bar else (-0.1, 1.1),
                            fill=(255, 255, 255, 200) if bar else None)
        label.setFont(font(style.note_px))
        label.setPos(x, y + (e if bar else 0.0))
        box.addItem(label)


def _hlines(plot, right, legend, fig: Figure, style: Style) -> None:
    import pyqtgraph as pg
    from PySide6.QtCore import Qt
    for h in fig.hlines:
        pen = pg.mkPen(color(h.color, 6), width=style.line * 0.8, style=Qt.PenStyle.DashDotLine)
        _box(plot, right, h.axis).addItem(pg.InfiniteLine(pos=h.y, angle=0, pen=pen))
        legend.addItem(pg.PlotDataItem([], [], pen=pen), h.text)


def _markers(plot, right, fig: Figure, style: Style) -> None:
    """Vertical lines with staggered labels, or starred points with a label."""
    import pyqtgraph as pg
    from PySide6.QtCore import Qt
    vertical = 0
    for m in fig.markers:
        box = _box(plot, right, m.axis)
        (x,) = x_values(fig, [m.x])
        if m.y is None:
            pen = pg.mkPen("#555", width=2, style=Qt.PenStyle.DashLine)
            options = {"position": 0.95 - 0.07 * vertical, "color": "k",
                       "fill": (255, 255, 255, 220), "anchors": [(0, 0.5), (0, 0.5)]}
            line = pg.InfiniteLine(pos=x, angle=90, pen=pen, label=m.text, labelOpts=options)
            line.label.setFont(font(style.note_px))
            box.addItem(line)
            vertical += 1  # stagger the labels of neighbouring lines
        else:
            box.addItem(pg.ScatterPlotItem([x], [m.y], symbol="star", size=style.symbol * 2.4,
                                           brush="#E69F00", pen=pg.mkPen("k", width=1)))
            label = pg.TextItem(m.text, color="k", anchor=(1.05, -0.3), fill=(255, 255, 255, 220))
            label.setFont(font(style.note_px))
            label.setPos(x, m.y)
            box.addItem(label)


def _fit(plot, right, fig: Figure) -> None:
    """Fixed ranges from the data (no auto-range), and the right ViewBox kept on the plot."""
    xr, yl = x_range(fig), y_range(fig, "left")
    if xr:
        plot.setXRange(*xr, padding=0)
    if yl:
        plot.setYRange(*yl, padding=0)
    if right is None:
        return
    yr = y_range(fig, "right")
    if yr:
        right.setYRange(*yr, padding=0)

    def sync():
        right.setGeometry(plot.vb.sceneBoundingRect())
        right.linkedViewChanged(plot.vb, right.XAxis)
    plot.vb.sigResized.connect(sync)
    sync()
