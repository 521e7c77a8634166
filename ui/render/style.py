"""How a figure looks: sizes, palette, fonts, axis styling and legend swatches.

One :class:`Style` per medium (report: white, large fonts, 1800 px wide; screen: the window's
results view), so what a user sees and what the report holds differ only here.
"""
from __future__ import annotations

from dataclasses import dataclass

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")


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


DENSE_POINTS = 40  # more points than this: a line without symbols
REPORT = Style(1800, 1080, 30, 24, 21, 21, 19, 3.0, 13, 34)
SCREEN = Style(900, 560, 15, 13, 11, 11, 11, 2.0, 8, 20)


def font(px: int):
    from PySide6.QtGui import QFont
    font = QFont("DejaVu Sans")
    font.setPixelSize(px)
    return font


def color(series_color: int | None, position: int) -> str:
    return PALETTE[(series_color if series_color is not None else position) % len(PALETTE)]


def sample_type(size: int):
    import pyqtgraph as pg
    from pyqtgraph.graphicsItems.LegendItem import ItemSample
    from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QPainter
    width, height = size * 1.8, size

    class BigSample(ItemSample):
        """Legend swatch sized for the report (pyqtgraph's is a fixed 20 px square)."""

        def __init__(self, item):
            super().__init__(item)
            self.setFixedWidth(width)
            self.setFixedHeight(height)

        def boundingRect(self):
            return QRectF(0, 0, width, height)

        def paint(self, p, *args):
            item, opts = self.item, self.item.opts
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            if isinstance(item, pg.BarGraphItem):
                p.setPen(pg.mkPen(opts.get("pen") or "k"))
                p.setBrush(pg.mkBrush(opts.get("brush")))
                p.drawRect(QRectF(width * 0.2, height * 0.1, width * 0.6, height * 0.8))
                return
            if opts.get("pen") is not None:
                p.setPen(pg.mkPen(opts["pen"]))
                p.drawLine(QPointF(0, height / 2), QPointF(width, height / 2))
            if opts.get("symbol") is not None and isinstance(item, pg.PlotDataItem):
                so = item.scatter.opts
                p.translate(width / 2, height / 2)
                drawSymbol(p, opts["symbol"], so["size"], pg.mkPen(so["pen"]), pg.mkBrush(so["brush"]))

    return BigSample


def thousands(axis) -> None:
    """Tick labels with thousands separators (120,000 reads faster than 120000)."""
    original = axis.tickStrings

    def tick_strings(values, scale, spacing):
        if values and spacing * scale >= 1 and max(abs(v * scale) for v in values) >= 10000:
            return [f"{v * scale:,.0f}" for v in values]
        return original(values, scale, spacing)
    axis.tickStrings = tick_strings


def style_axis(axis, label: str, style: Style) -> None:
    import pyqtgraph as pg
    axis.setPen(pg.mkPen("k", width=1.5))
    axis.setTextPen(pg.mkPen("k"))
    axis.setTickFont(font(style.tick_px))
    axis.enableAutoSIPrefix(False)
    axis.setStyle(tickTextOffset=max(6, style.tick_px // 2), tickLength=style.tick_px // 2,
                  autoExpandTextSpace=True, maxTickLevel=1)  # no third, finest grid level
    axis.setLabel(label, **{"font-size": f"{style.label_px}px", "color": "#000"})
    thousands(axis)
    if axis.orientation == "bottom":  # room for tick text and the label without touching
        axis.setStyle(hideOverlappingLabels=style.tick_px * 2)  # end labels may overhang a bit
        from PySide6.QtGui import QFontMetrics
        tick_h = QFontMetrics(font(style.tick_px)).height()
        axis.setHeight(int(tick_h + max(6, style.tick_px // 2) + style.tick_px // 2
                           + style.label_px * 1.7))
