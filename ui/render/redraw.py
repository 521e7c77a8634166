"""A newer state of the same figure drawn into the plot that shows it, in place.

Why: the window's "Results so far" redraws its figure each time a trial ends. Building a new
PlotWidget each time (its title, legend, axes and scene, then swapping it into the pane, which
lays the pane out again) was most of a redraw's cost beside fio. When the figure keeps its shape
(the same panels, series, axes and legend entries: only values, error bars, labels and markers
changed), the plot that shows it is kept and only its data items are made again: the ViewBoxes'
items are removed, the ranges refitted, the series, lines and markers drawn by the same code as
a new figure (ui/render/draw.py, ui/render/series.py), the legend's changed texts (a mean in
an horizontal line's name) set, and the labels placed once, after the current paint. A figure
that gained a series or a marker (a sweep's first write trial, a finding) keeps its frame (the
same panels and axes) and is drawn in place too, with its legend made anew: a new PlotWidget
for it cost about 15 ms and a relayout of the window beside fio.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from app.results.figure import Axis, Figure
from ui.render.draw import PANEL_COLUMNS, Drawn, _axes, _fit, _lock_right
from ui.render.labels import Labels
from ui.render.panel import Geometry
from ui.render.plot_items import draw_hlines, draw_markers, draw_series
from ui.render.ranges import legend_columns
from ui.render.style import as_text

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    import pyqtgraph as pg
    from PySide6.QtWidgets import QGraphicsGridLayout, QGraphicsWidget

#: An axis in a figure's shape: (its title when it counts, log) or None (no such axis).
AxisShape = tuple[str | None, bool] | None
#: A figure's shape (:func:`shape`): its id, log2 x and per panel its three axes, then its
#: series, horizontal lines and markers as tuples of names, kinds and flags, compared whole.
PanelShape = tuple[AxisShape, AxisShape, AxisShape, tuple[tuple[object, ...], ...],
                   tuple[tuple[object, ...], ...], tuple[tuple[object, ...], ...]]
Shape = tuple[str, bool, tuple[PanelShape, ...]]
FrameShape = tuple[str, bool, tuple[tuple[AxisShape, AxisShape, AxisShape], ...]]


def shape(fig: Figure) -> Shape:
    """What must be equal for a figure to be drawn over an earlier one: panels, axes' kinds
    (and the right axis' title), series and their legend entries, horizontal lines and markers
    (whose names, also legend entries, may change). The figure's title and the left and bottom
    axis titles may change (a unit going from µs to ms as the data grows)."""
    # the left and bottom titles are set again by _axes
    def axis(a: Axis | None, named: bool = False) -> AxisShape:
        return None if a is None else ((a.label if named else None), a.log)
    return (fig.id, fig.log2_x, tuple(
        (axis(p.x_axis), axis(p.y_axis), axis(p.y2_axis, named=True),
         tuple((s.name, s.kind, s.axis, s.color, s.dash, s.err is not None, s.xerr is not None)
               for s in p.series),
         tuple((h.axis, h.color) for h in p.hlines),
         tuple((m.axis, m.y is None) for m in p.markers))
        for p in (fig.panels or (fig,))))


def frame(fig: Figure) -> FrameShape:
    """The part of :func:`shape` a plot is built around: its panels and their axes."""
    whole = shape(fig)
    return whole[:2] + (tuple(p[:3] for p in whole[2]),)


def redraw(drawn: Drawn, fig: Figure) -> bool:
    """Draw ``fig`` in place of ``drawn.fig``; False (nothing done) when its frame differs."""
    if frame(fig) != frame(drawn.fig):
        return False
    drawn.labels = labels = Labels(drawn.style)
    legend = drawn.legend
    if shape(fig) != shape(drawn.fig):   # entries added or changed: drawing adds them in order
        legend.clear()
        legend._ssd_names = set()
        legend.setColumnCount(legend_columns(fig, drawn.style))
    for old, new in _legend_names(drawn.fig, fig):   # before drawing: a new name would be a
        _rename(legend, old, new)                     # new legend entry
    parts = fig.panels or (fig,)
    for panel, part in zip(drawn.panels, parts):
        for vb in (panel.vb, panel.right):
            if vb is not None:
                for item in list(vb.addedItems):
                    vb.removeItem(item)
        panel.fig, panel.geometry = part, Geometry()
        for key in ("_ssd_obstacles", "base_y"):   # placement caches of the earlier data
            panel.__dict__.pop(key, None)
        _axes(panel, drawn.style, len(parts))
        follow = panel.__dict__.pop("_ssd_follow", None)   # the right axis' lock, made anew
        if follow is not None:
            panel.vb.sigYRangeChanged.disconnect(follow)
        ranges = _fit(panel)
        _lock_right(panel)
        for k, series in enumerate(part.series):
            draw_series(panel, legend, series, k, drawn.style, ranges, labels)
        draw_hlines(panel, legend, drawn.style)
        draw_markers(panel, legend, drawn.style, labels)
    plot = drawn.plot
    if fig.title != drawn.fig.title and plot.titleLabel.isVisible():
        plot.titleLabel.setText(as_text(fig.title))   # its size is fitted at the relayout
    drawn.fig = fig
    drawn.generation += 1
    drawn.schedule()
    return True


def _legend_names(old: Figure, new: Figure) -> list[tuple[str, str]]:
    """(old, new) names of the horizontal lines and markers whose legend entry changed."""
    def names(fig: Figure) -> list[str]:
        parts = fig.panels or (fig,)
        return [h.text for p in parts for h in p.hlines] + [m.text for p in parts for m in p.markers]
    before, after = names(old), names(new)
    return [(a, b) for a, b in zip(before, after) if a != b]


def _rename(legend: pg.LegendItem, old: str, new: str) -> None:
    if new in legend._ssd_names or old not in legend._ssd_names:
        return
    for _sample, label in legend.items:
        if label.text == as_text(old):
            label.setText(as_text(new))
            legend._ssd_names.discard(old)
            legend._ssd_names.add(new)
            return


def fit_narrow(drawn: Drawn, width: int) -> None:
    """For a pane narrower than the figure's texts (the live view beside the time series):
    no title in the plot (the pane shows it, wrapped) and legend entries wrapped to the width,
    where the longest (a mean line's name) would otherwise widen the plot past the pane."""
    plot, legend = drawn.plot, drawn.legend
    plot.setTitle(None)
    if len(drawn.panels) == 1:   # under the left axis too: the whole width for its texts
        plot.layout.removeItem(legend)
        plot.layout.addItem(legend, 4, 0, 1, PANEL_COLUMNS)
    columns: int = max(1, legend.columnCount)
    slack = 24.0   # the legend's and the plot's own margins, first guessed, then measured

    def room(sample: QGraphicsWidget) -> float:
        grid: QGraphicsGridLayout = legend.layout
        return width / columns - sample.boundingRect().width() - grid.horizontalSpacing() - slack

    for _ in range(6):
        if columns > 1 and any(room(s) <= 40 and label.item.boundingRect().width() > room(s)
                               for s, label in legend.items):
            # too many columns for a long entry to wrap in (three in 296 px: 'error bar goes
            # on below the axis ...' ran past the pane's edge): fewer, wider ones
            columns -= 1
            legend.setColumnCount(columns)
            continue
        for sample, label in legend.items:
            if room(sample) > 40 and label.item.boundingRect().width() > room(sample):
                label.item.setTextWidth(room(sample))
                label.updateMin()
        legend.updateSize()
        # a label renamed on a redraw ('knee' becoming 'deepest, no knee') wrapped at the
        # guessed room still widened the plot past the pane by its margins (323 px in 296):
        # its markers and axis were cut off at the pane's edge
        over = plot.effectiveSizeHint(Qt.SizeHint.MinimumSize).width() - width
        if over <= 0:
            return
        slack += over
