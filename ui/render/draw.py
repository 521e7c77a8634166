"""Figure spec (app/results/figure.py) -> a pyqtgraph plot, in small named steps.

One drawing path serves the window's results view (:func:`figure_widget`) and the export
(ui/render/figure_files.py), so what a user sees is what the report holds. Twin axes use a second
ViewBox linked to the right axis (pyqtgraph's MultiplePlotAxes recipe); a figure with panels
gets one ViewBox and pair of axes per panel, side by side in the PlotItem's own grid, under one
title; the legend sits in its own row under the plot so it never hides data; log axes plot
log10 (log2 for ``log2_x``) with ticks labelled in the axis unit. Series, error bars and
markers are ui/render/plot_items.py; label placement (clear of the data, inside the image) is
ui/render/labels.py, redone whenever the plot is resized.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.results.figure import Axis, Figure
from ui.render.labels import Labels, free_width
from ui.render.panel import Panel
from ui.render.plot_items import Ranges, draw_hlines, draw_markers, draw_series
from ui.render.ranges import (
    PLOT_SHARE,
    category_tick_px,
    legend_columns,
    locked_scale,
    log_ticks,
    staggered,
    x_range,
    x_values,
    y_range,
    y_values,
)
from ui.render.style import SCREEN, Style, as_text, sample_type, style_axis
from ui.render.ticks import thin_ticks

PANEL_COLUMNS = 3  # left axis, ViewBox, right axis (or the gap to the next panel)
GRID_ALPHA = 0.18

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    import pyqtgraph as pg

#: What a drawn figure's labels were last placed for: its generation and each ViewBox's scene
#: rectangle and view range.
LayoutState = tuple[int, tuple[tuple[object, tuple[tuple[float, ...], ...]], ...]]


@dataclass
class Drawn:
    """What :func:`draw` made; ``relayout`` re-places labels after any resize."""
    plot: pg.PlotItem
    fig: Figure
    style: Style
    panels: list[Panel]
    legend: pg.LegendItem
    labels: Labels
    _busy: bool = False
    _pending: bool = False
    generation: int = 0            # a redraw in place (ui/render/redraw.py) counts one up
    settle_ms: int = 0             # wait for more resizes (a live view: one placement for all)
    _placed: LayoutState | None = None   # the state the labels were last placed for

    def schedule(self, *_args: object) -> None:
        """Relayout once the current layout pass and paint are over (items must not move
        while Qt paints them), unless nothing it depends on changed since it last ran: the
        resizes its own title fitting causes would otherwise place every label twice."""
        if self._pending:
            return
        from PySide6.QtCore import QTimer
        self._pending = True

        def run() -> None:
            self._pending = False
            if self._state() != self._placed:
                self.relayout()
                self._placed = self._state()
        QTimer.singleShot(self.settle_ms, self.plot, run)

    def _state(self) -> LayoutState:
        boxes = [b for p in self.panels for b in (p.vb, p.right) if b is not None]
        return (self.generation,
                tuple((b.sceneBoundingRect(), tuple(map(tuple, b.viewRange()))) for b in boxes))

    def relayout(self) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            for p in self.panels:
                if p.right is not None:
                    p.right.setGeometry(p.vb.sceneBoundingRect())
                    p.right.linkedViewChanged(p.vb, p.right.XAxis)
            self.labels.fit_titles(self.plot, as_text(self.fig.title), self.panels)
            for p in self.panels:
                thin_ticks(p, self.style.tick_px)
            self.labels.place(self.panels)
        finally:
            self._busy = False


def figure_widget(fig: Figure, style: Style = SCREEN, place: bool = True,
                  widget: pg.PlotWidget | None = None) -> pg.PlotWidget:
    """A PlotWidget showing ``fig``, for the window's results view and the export.

    ``place=False`` leaves the labels to the first relayout: the export resizes the widget
    first, so placing them at PlotWidget's default size would be work thrown away. ``widget``:
    an empty one made earlier (:func:`empty_figure_widget`), drawn into."""
    widget = widget or empty_figure_widget()
    widget._ssd = draw(widget.getPlotItem(), fig, style, place)  # keeps ViewBoxes, labels alive
    return widget


def empty_figure_widget() -> pg.PlotWidget:
    """What :func:`figure_widget` draws into: making one is most of a first drawing's cost, so
    the window makes it ahead, while no measurement runs."""
    import pyqtgraph as pg
    return pg.PlotWidget(background="w", enableMenu=False)  # draw() disables menus anyway


def draw(plot: pg.PlotItem, fig: Figure, style: Style, place: bool = True) -> Drawn:
    """Draw ``fig`` into a PlotItem; returns what was drawn (for relayout and tests)."""
    parts = fig.panels or (fig,)
    _title(plot, fig, style, len(parts))
    legend = _legend(plot, fig, style, len(parts))
    labels = Labels(style)
    panels: list[Panel] = []
    for i, part in enumerate(parts):
        vb, axes = (plot.vb, {k: plot.getAxis(k) for k in ("left", "bottom", "right")}) if i == 0 \
            else _new_panel(plot, i, style)
        panel = Panel(part, vb, None, axes)
        _axes(panel, style, len(parts))
        if i == 0:
            panel.right = _right_axis(plot, part, style)
        ranges = _fit(panel)
        _lock_right(panel)
        for k, series in enumerate(part.series):
            draw_series(panel, legend, series, k, style, ranges, labels)
        draw_hlines(panel, legend, style)
        draw_markers(panel, legend, style, labels)
        vb.setMouseEnabled(x=False, y=False)
        panels.append(panel)
    drawn = Drawn(plot, fig, style, panels, legend, labels)
    for p in panels:
        p.vb.sigResized.connect(drawn.schedule)
    if place:
        drawn.relayout()
    return drawn


def _title(plot: pg.PlotItem, fig: Figure, style: Style, columns: int) -> None:
    free_width(plot.titleLabel)  # fitted to the width later (labels.fit_titles)
    plot.setTitle(as_text(fig.title), size=f"{style.title_px}px", color="#000")
    plot.layout.setRowFixedHeight(0, int(style.title_px * 1.9))
    plot.titleLabel.setMaximumHeight(int(style.title_px * 1.9))
    if columns > 1:  # the title spans every panel
        plot.layout.removeItem(plot.titleLabel)
        plot.layout.addItem(plot.titleLabel, 0, 0, 1, PANEL_COLUMNS * columns)
    plot.layout.setContentsMargins(style.tick_px, style.tick_px // 2, style.tick_px * 2,
                                   style.tick_px // 2)
    plot.setMenuEnabled(False)


def _new_panel(plot: pg.PlotItem, index: int, style: Style) -> tuple[pg.ViewBox, dict[str, pg.AxisItem]]:
    """A further ViewBox with its own left and bottom axes, to the right of the others."""
    import pyqtgraph as pg
    vb = pg.ViewBox(enableMenu=False)
    base = PANEL_COLUMNS * index
    axes = {"left": pg.AxisItem("left", parent=plot), "bottom": pg.AxisItem("bottom", parent=plot)}
    plot.layout.addItem(axes["left"], 2, base)
    plot.layout.addItem(vb, 2, base + 1)
    plot.layout.addItem(axes["bottom"], 3, base + 1)
    for axis in axes.values():
        axis.linkToView(vb)
        axis.setZValue(0.5)
    plot.layout.setColumnStretchFactor(base + 1, 100)
    plot.layout.setColumnMinimumWidth(base - 1, style.label_px * 2)  # a gap between panels
    return vb, axes


def _axes(panel: Panel, style: Style, columns: int) -> None:
    """Axis titles with units, grid, category and log ticks (category names in a font small
    enough that neighbours never overlap)."""
    fig, axes = panel.fig, panel.axes
    ticks = fig.x_axis.ticks
    lines = max((t.count("\n") + 1 for _, t in ticks), default=1)
    tick_px, crowded = category_tick_px(fig, style, columns)
    if crowded:   # names moved a line lower where they would touch a neighbour
        ticks, lines = staggered(fig, style, columns, tick_px)
    style_axis(axes["bottom"], fig.x_axis.label, style, tick_lines=lines, tick_px=tick_px,
               label_room=style.width * PLOT_SHARE / max(columns, 1))
    style_axis(axes["left"], fig.y_axis.label, style)
    bars = any(s.kind == "bar" for s in fig.series)
    axes["bottom"].setGrid(False if bars else int(255 * GRID_ALPHA))
    axes["left"].setGrid(int(255 * GRID_ALPHA))
    if ticks:
        positions = x_values(fig, [t for t, _ in ticks])
        axes["bottom"].setTicks([[(p, t) for p, (_, t) in zip(positions, ticks) if p is not None]])
    if fig.y_axis.ticks:
        positions = y_values(fig, [t for t, _ in fig.y_axis.ticks])
        major = [(p, t) for p, (_, t) in zip(positions, fig.y_axis.ticks) if p is not None]
        axes["left"].setTicks([major, _minor_ticks(fig.y_axis, major)])


def _minor_ticks(axis: Axis, major: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """Unlabelled grid lines between given log ticks, when they span few decades."""
    if not axis.log or not major:
        return []
    lo, hi = min(p for p, _ in major), max(p for p, _ in major)
    return log_ticks(lo - 1, hi + 1)[1] if hi - lo <= 3 else []


def _log_axis_ticks(axis_item: pg.AxisItem, lo: float, hi: float, given: bool) -> None:
    if not given:
        major, minor = log_ticks(lo, hi)
        axis_item.setTicks([major, minor])


def _right_axis(plot: pg.PlotItem, fig: Figure, style: Style) -> pg.ViewBox | None:
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


def _legend(plot: pg.PlotItem, fig: Figure, style: Style, columns: int) -> pg.LegendItem:
    import pyqtgraph as pg
    legend = pg.LegendItem(colCount=legend_columns(fig, style),
                           labelTextSize=f"{style.legend_px}px", labelTextColor="k",
                           sampleType=sample_type(style.legend_sample), frame=False,
                           horSpacing=style.legend_px)
    if columns > 1:  # under every panel: a legend in one column would narrow its panel
        plot.layout.addItem(legend, 4, 0, 1, PANEL_COLUMNS * columns)
    else:
        plot.layout.addItem(legend, 4, 1)
    legend._ssd_names = set()  # one entry per name across panels
    return legend


def _lock_right(panel: Panel) -> None:
    """A right axis locked to the left follows every change of the left's range (labels that
    need room grow it), so a value on the right stays level with the left one it scales."""
    scale = locked_scale(panel.fig)
    if scale is None or panel.right is None:
        return
    right = panel.right

    def follow(_vb: pg.ViewBox, y_range: tuple[float, float]) -> None:
        right.setYRange(y_range[0] * scale, y_range[1] * scale, padding=0)
    panel.vb.sigYRangeChanged.connect(follow)
    panel.__dict__["_ssd_follow"] = follow  # the connection lives as long as the panel


def _fit(panel: Panel) -> Ranges:
    """Fixed ranges from the data (no auto-range); log axes get their decade ticks."""
    fig, ranges = panel.fig, {"x": x_range(panel.fig), "left": y_range(panel.fig, "left"),
                              "right": y_range(panel.fig, "right")}
    if ranges["x"]:
        panel.vb.setXRange(*ranges["x"], padding=0)
        if fig.x_axis.log:
            _log_axis_ticks(panel.axes["bottom"], *ranges["x"], bool(fig.x_axis.ticks))
    if ranges["left"]:
        panel.vb.setYRange(*ranges["left"], padding=0)
        if fig.y_axis.log:
            _log_axis_ticks(panel.axes["left"], *ranges["left"], bool(fig.y_axis.ticks))
    if panel.right is not None and ranges["right"]:
        panel.right.setYRange(*ranges["right"], padding=0)
        if fig.y2_axis and fig.y2_axis.log:
            _log_axis_ticks(panel.axes["right"], *ranges["right"], bool(fig.y2_axis.ticks))
    return ranges

