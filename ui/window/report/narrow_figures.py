"""A figure as the narrow "Results so far" pane shows it (ui/window/report/results_so_far.py):
the export's figure specs, with what a pane a quarter of the window wide cannot hold taken out.
"""
from __future__ import annotations

import html
from dataclasses import replace
from typing import TYPE_CHECKING

from app.results.figure import Figure

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel

    from ui.render.draw import Drawn


def without_point_labels(fig: Figure) -> Figure:
    """The figure without the values written at its points and bars: in a pane a third of the
    Figures tab's width they crowd each other, and placing them clear of the data is most of a
    redraw's cost (the Results tab has the values; findings' markers keep their labels)."""
    parts = tuple(without_point_labels(p) for p in fig.panels)
    return replace(fig, panels=parts, series=tuple(replace(s, point_labels=None)
                                                   for s in fig.series))


def a_panel_each(figures: list[Figure]) -> list[Figure]:
    """Each panel of a figure of panels side by side as a figure of its own: side by side in
    this pane each got a third of it, its ticks crowding and its axis titles cut (1280x720).
    The pane's selector lists them as it lists figures."""
    out = []
    for fig in figures:
        out += [replace(panel, id=f"{fig.id}/{panel.id}", title=f"{fig.title}: {panel.title}",
                        caption=panel.caption or fig.caption, experiment=fig.experiment)
                for panel in fig.panels] or [fig]
    return out


def _swatch_color(item: object) -> str:
    """The colour a legend swatch draws: the line's pen, else the bar's or symbol's brush."""
    import pyqtgraph as pg
    opts = getattr(item, "opts", {})
    for key, make in (("pen", pg.mkPen), ("brush", pg.mkBrush), ("symbolBrush", pg.mkBrush)):
        if opts.get(key) is not None:
            return str(make(opts[key]).color().name())
    return "#000000"


def legend_to_line(drawn: Drawn | None, line: QLabel, tallest: float) -> None:
    """The plot's legend as ``line`` (a wrapped label over the plot: a coloured mark and the
    name of each entry) when it is taller than ``tallest`` px, else left in the plot: a legend
    of five wrapped lines left the plot 25-60 px of a 1280x720 window's pane."""
    if drawn is None or drawn.legend is None or not drawn.legend.items:
        line.hide()
        return
    legend = drawn.legend
    legend.updateSize()
    if legend.boundingRect().height() <= tallest:
        legend.show()
        line.hide()
        return
    drawn.plot.layout.removeItem(legend)
    legend.hide()
    line.setText(" ".join(
        f'<span style="color:{_swatch_color(sample.item)}">&#9632;</span>&nbsp;'
        f"{html.escape(label.text)}" for sample, label in legend.items))
    line.show()
