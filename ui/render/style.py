"""How a figure looks: sizes, palette, fonts, axis styling and legend swatches.

One :class:`Style` per medium (report: white, large fonts, 1800 px wide; screen: the window's
results view), so what a user sees and what the report holds differ only here. Both are light
(white, black text) whatever the desktop's theme: a figure is a picture for a report, and the
Figures tab shows what the export will write. The window's own colours, the live charts'
included, come from the palette instead (ui/window/theme.py).

The palette is Okabe-Ito (distinguishable with the common colour-vision deficiencies). Read is
always :data:`READ_COLOR` (blue) and write :data:`WRITE_COLOR` (vermillion), in the report's
figures and in the live charts alike (lighter hues there under a dark palette); no other quantity uses those two (app/results/figure.py READ,
WRITE, OTHER). Axis titles carry their unit (MB/s, µs, ms, GB); tick labels never get an SI
prefix or a "x1e+06" multiplier from pyqtgraph (:func:`style_axis`).
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    import pyqtgraph as pg
    from pyqtgraph.graphicsItems.LegendItem import ItemSample
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFont, QPainter

FIGURE_BACKGROUND = "#ffffff"   # figures keep the report's light style, in the window too


def as_text(text: object) -> str:
    """A figure's title, axis label or legend name for pyqtgraph, which renders them as rich
    text: escaped, so a name from a shared run.json (``<img src="/dev/zero">``) is drawn as
    the characters it is, never loaded as an image or read as markup."""
    return html.escape("" if text is None else str(text), quote=False)


PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
READ_COLOR, WRITE_COLOR = PALETTE[0], PALETTE[1]   # blue, vermillion: the two directions
DIRECTION_COLORS = {"read": READ_COLOR, "write": WRITE_COLOR}
TEMPERATURE_COLOR = PALETTE[6]


@dataclass(frozen=True)
class Style:
    width: int
    height: int
    title_px: int
    label_px: int
    tick_px: int
    legend_px: int
    note_px: int
    line: float
    symbol: int
    legend_sample: int
    min_px: int = 8   # category names shrink to fit their slot, never below this


DENSE_POINTS = 40  # more points than this: a line without symbols
#: The report's figures are printed the PDF's text width wide (ui/render/pdf.py: A4, 15 mm
#: margins, 97 % of the line): the points that width has.
PDF_FIGURE_PT = (210 - 2 * 15) * 0.97 / 25.4 * 72
MIN_PDF_PT = 8.0   # the smallest text a printed figure may hold (body text is 9 pt)


def pt_px(pt: float, width: int = 1800) -> int:
    """The pixel size of a ``width`` px figure's text that prints at ``pt`` points (rounded up)."""
    return math.ceil(pt * width / PDF_FIGURE_PT)


# ticks, legend and bar values 8.5 pt, axis titles 9.5 pt, the title 11 pt at the page's width,
# (ticks of 21 px printed at 5.8 pt beside 9 pt body text)
REPORT = Style(1800, 1080, pt_px(11), pt_px(9.5), pt_px(8.5), pt_px(8.5), pt_px(8.5), 3.5, 16, 44,
               min_px=pt_px(MIN_PDF_PT))
SCREEN = Style(900, 560, 15, 13, 11, 11, 11, 2.0, 8, 20, min_px=9)   # 9 px: legible in the window


def font(px: int) -> QFont:
    from PySide6.QtGui import QFont
    font = QFont("DejaVu Sans")
    font.setPixelSize(px)
    return font


def color(series_color: int | None, position: int) -> str:
    return PALETTE[(series_color if series_color is not None else position) % len(PALETTE)]


def sample_type(size: int) -> type[ItemSample]:
    import pyqtgraph as pg
    from pyqtgraph.graphicsItems.LegendItem import ItemSample
    from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QPainter
    width, height = size * 1.8, size

    # pyqtgraph ships no types: subclassing it is [misc] under strict
    class BigSample(ItemSample):  # type: ignore[misc]
        """Legend swatch sized for the report (pyqtgraph's is a fixed 20 px square)."""

        def __init__(self, item: pg.PlotDataItem | pg.BarGraphItem) -> None:
            super().__init__(item)
            self.setFixedWidth(width)
            self.setFixedHeight(height)

        def boundingRect(self) -> QRectF:
            return QRectF(0, 0, width, height)

        def paint(self, p: QPainter, *args: object) -> None:
            item, opts = self.item, self.item.opts
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            if isinstance(item, pg.BarGraphItem):
                p.setPen(pg.mkPen(opts.get("pen") or "k"))
                p.setBrush(pg.mkBrush(opts.get("brush")))
                p.drawRect(QRectF(width * 0.2, height * 0.1, width * 0.6, height * 0.8))
                return
            if opts.get("pen") is not None and getattr(item, "_ssd_vertical", False):
                p.setPen(pg.mkPen(opts["pen"]))  # a vertical marker line
                p.drawLine(QPointF(width / 2, 0), QPointF(width / 2, height))
            elif opts.get("pen") is not None:
                p.setPen(pg.mkPen(opts["pen"]))
                p.drawLine(QPointF(0, height / 2), QPointF(width, height / 2))
            if opts.get("symbol") is not None and isinstance(item, pg.PlotDataItem):
                # the item's own symbol options (its scatter has none while it holds no data,
                # as a legend-only item for a marker does)
                p.translate(width / 2, height / 2)
                drawSymbol(p, opts["symbol"], opts["symbolSize"], pg.mkPen(opts["symbolPen"]),
                           pg.mkBrush(opts["symbolBrush"]))

    return BigSample


def tick_text(value: float, spacing: float) -> str:
    """A tick label: thousands separators, as many decimals as the tick spacing needs, never an
    exponent or an SI prefix ('120,000', '2.5', '0.05')."""
    places = max(0, math.ceil(-math.log10(spacing))) if spacing > 0 else 0
    places = min(places, 6)
    text = f"{value:,.{places}f}"
    return "0" if text.strip("-0.,") == "" else text


def thousands(axis: pg.AxisItem) -> None:
    """Tick labels from :func:`tick_text` (120,000 reads faster than 120000 or 1.2e+05)."""
    def tick_strings(values: list[float], scale: float, spacing: float) -> list[str]:
        return [tick_text(v * scale, spacing * scale) for v in values]
    axis.tickStrings = tick_strings


def direction_color(direction: str) -> str:
    """The colour of a direction ('read' or 'write'), the same in every chart."""
    return DIRECTION_COLORS.get(direction, PALETTE[2])


def style_axis(axis: pg.AxisItem, label: str, style: Style, tick_lines: int = 1,
               tick_px: int | None = None, label_room: float | None = None) -> None:
    """Pens, fonts, the label with its unit, thousands separators, no SI prefix; a bottom axis
    gets the height of ``tick_lines`` lines of tick text (``tick_px``, default the style's)
    plus its label."""
    import pyqtgraph as pg
    axis.setPen(pg.mkPen("k", width=1.5))
    axis.setTextPen(pg.mkPen("k"))
    axis.setTickFont(font(tick_px or style.tick_px))
    axis.enableAutoSIPrefix(False)
    axis.setStyle(tickTextOffset=max(6, style.tick_px // 2), tickLength=style.tick_px // 2,
                  autoExpandTextSpace=True, maxTickLevel=1)  # no third, finest grid level
    lines = wrapped(label, style.label_px, label_room)
    axis.setLabel("<br>".join(map(as_text, lines)),
                  **{"font-size": f"{style.label_px}px", "color": "#000"})
    thousands(axis)
    if axis.orientation in ("left", "right"):
        room_for_title(axis)
    if axis.orientation == "bottom":  # room for tick text and the label without touching
        axis.setStyle(hideOverlappingLabels=style.tick_px * 2)  # end labels may overhang a bit
        from PySide6.QtGui import QFontMetrics
        tick_h = QFontMetrics(font(tick_px or style.tick_px)).height()
        axis.setHeight(int(tick_h * tick_lines + max(6, style.tick_px // 2) + style.tick_px // 2
                           + style.label_px * (1.7 + 1.2 * (len(lines) - 1))))


def room_for_title(axis: pg.AxisItem) -> None:
    """A vertical axis as wide as its tick text, ticks and whole title: pyqtgraph leaves 0.8 of
    the title's height beside the tick text, and at the report's 9.5 pt the title's box ran
    into the tick labels (at the screen's 13 px it fits: nothing is added)."""
    update = type(axis)._updateWidth

    def widened() -> None:
        update(axis)
        if axis.label.isVisible() and axis.fixedWidth is None:
            width = axis.maximumWidth() + max(0.0, axis.label.boundingRect().height() * 0.25 - 6)
            axis.setMaximumWidth(width)
            axis.setMinimumWidth(width)
    axis._updateWidth = widened
    axis._updateWidth()


def wrapped(label: str, px: int, room: float | None) -> list[str]:
    """An axis title as one line, or two broken at the space nearest its middle when it is
    wider than ``room`` (more, word by word, when a half is still wider): side by side in a
    narrow pane, the titles of two panels ran into each other ("4 KiB random (RND4K Q1T1):
    sta128 KiB sequential")."""
    from PySide6.QtGui import QFontMetrics
    text = "" if label is None else str(label)
    width = QFontMetrics(font(px)).horizontalAdvance
    if room is None or " " not in text or width(text) <= room:
        return [text]
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    halves = [text[:cut], text[cut + 1:]]
    if max(map(width, halves)) <= room:
        return halves
    lines, line = [], ""   # a half still too wide ("(SEQ128K Q1T1): statistic"): word by word
    for word in text.split(" "):
        joined = f"{line} {word}" if line else word
        if line and width(joined) > room:
            lines.append(line)
            joined = word
        line = joined
    return [*lines, line]
