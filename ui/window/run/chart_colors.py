"""The live charts' colours: background, axes, labels, the series' pens and the legend naming
them, all from the palette (ui/window/theme.py), and applied again when the palette changes.

Why apart: the charts were drawn black on white whatever the desktop's theme; on a dark theme
that was a white slab in a dark window. The charts now sit on the palette's Base (the colour
of text fields and tables) with the palette's text for axes; read and write keep their hues
(blue and vermillion-orange, lighter on a dark palette) so the help's "read in blue, write in
orange" holds on both.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

from ui.window import theme
from ui.window.run.boundaries import TrialBoundaries
from ui.window.run.chart_bar import ChartBar
from ui.window.run.split_curve import SplitCurve
from ui.window.widgets import ElidedLabel

_DASH = Qt.PenStyle.DashLine
# curve -> the pen it is drawn with
CURVE_PENS = {"read_tp": "read", "write_tp": "write", "read_lat_us": "read",
              "write_lat_us": "write", "read_p99_us": "read_p99", "write_p99_us": "write_p99",
              "temperature_c": "temperature"}


def pens() -> dict[str, QPen]:
    """The series' pens on the charts' background, and the trial boundaries' (solid: dashes
    cost more to draw, and they sit behind the data)."""
    def tone(name: str) -> QColor:
        return theme.tone(name, background=theme.Role.Base)
    return {"read": pg.mkPen(tone("read"), width=1), "write": pg.mkPen(tone("write"), width=1),
            "read_p99": pg.mkPen(tone("read"), width=1, style=_DASH),
            "write_p99": pg.mkPen(tone("write"), width=1, style=_DASH),
            "temperature": pg.mkPen(tone("temperature"), width=1),
            "boundary": pg.mkPen(tone("grid"), width=1)}


def legend_html() -> str:
    """The legend above the charts (on the window's background), read as text: 4.5:1."""
    def colour(name: str) -> str:
        return theme.tone(name, ratio=theme.TEXT_RATIO).name()
    muted = theme.css("muted")
    return (f"<span style='color:{colour('read')}'>━━ read</span>&nbsp;&nbsp;"
            f"<span style='color:{colour('write')}'>━━ write</span>&nbsp;&nbsp;"
            f"<span style='color:{muted}'>╌╌ p99</span>&nbsp;&nbsp;"
            f"<span style='color:{muted}'>░ warm-up</span>")   # the lines are fainter


class ChartParts(Protocol):
    """What :func:`apply` colours of a LiveCharts (not imported: it imports this module)."""

    @property
    def view(self) -> pg.GraphicsLayoutWidget: ...
    @property
    def tp_plot(self) -> pg.PlotItem: ...
    @property
    def lat_plot(self) -> pg.PlotItem: ...
    @property
    def temp_plot(self) -> pg.PlotItem: ...
    @property
    def curves(self) -> Mapping[str, SplitCurve]: ...
    @property
    def boundaries(self) -> Sequence[TrialBoundaries]: ...
    @property
    def empty_note(self) -> pg.TextItem: ...
    @property
    def bar(self) -> ChartBar: ...
    @property
    def temp_note(self) -> ElidedLabel: ...


def apply(charts: ChartParts) -> None:
    """Colour every part of ``charts`` (a LiveCharts) from the current palette."""
    base = theme.Role.Base
    text, muted = theme.tone("text", background=base), theme.tone("muted", background=base)
    charts.view.setBackground(theme.palette().color(base))
    for plot in (charts.tp_plot, charts.lat_plot, charts.temp_plot):
        for name in ("left", "bottom"):
            plot.getAxis(name).setPen(text)
            plot.getAxis(name).setTextPen(text)
    current = pens()
    for curve, pen in CURVE_PENS.items():
        charts.curves[curve].set_pen(current[pen])
    for boundaries in charts.boundaries:
        boundaries.pen = QPen(current["boundary"])
        boundaries.pen.setCosmetic(True)
        boundaries.text_color = muted
        boundaries.shade = QColor(theme.tone("grid", background=base))
        boundaries.shade.setAlpha(70)   # a faint band: a warm-up is run, never counted
        boundaries.update()
    charts.empty_note.setColor(muted)
    charts.bar.legend.setText(legend_html())
    # the note stands in for the temperature chart: the charts' background under it
    theme.set_tone(charts.temp_note, "muted", "background: palette(base); padding:1px 6px")
