"""Figure spec (app/figures.py) -> pyqtgraph plot: on screen and, offscreen, to PNG and SVG.

One drawing function serves the window's results view (:func:`figure_widget`) and the export
(:func:`render_figure`), so what a user sees is what the report holds; only the :class:`Style`
differs (report: white, large fonts, 1800 px wide). The report widget is laid out at its
final pixel size and exported 1:1, so fonts and line widths are exactly as specified rather
than scaled by the exporter.

Twin axes use a second ViewBox linked to the right axis (pyqtgraph's MultiplePlotAxes recipe);
the legend sits in its own row under the plot so it never hides data. log2 x axes plot
log2(x) with ticks labelled in the axis unit.
"""
from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from app.figures import Figure

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
GRABS = 1  # paints before export: axes fit their tick text after one (checked: 1 == 3)
REPORT = Style(1800, 1080, 30, 24, 21, 21, 19, 3.0, 13, 34)
SCREEN = Style(900, 560, 15, 13, 11, 11, 11, 2.0, 8, 20)


def ensure_app():
    """The QApplication, created offscreen when there is no display (headless export)."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    return QApplication.instance() or QApplication(["ssd-profiler"])


def _font(px: int):
    from PySide6.QtGui import QFont
    font = QFont("DejaVu Sans")
    font.setPixelSize(px)
    return font


def _color(series_color: int | None, position: int) -> str:
    return PALETTE[(series_color if series_color is not None else position) % len(PALETTE)]


def _sample_type(size: int):
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


def _thousands(axis) -> None:
    """Tick labels with thousands separators (120,000 reads faster than 120000)."""
    original = axis.tickStrings

    def tick_strings(values, scale, spacing):
        if values and spacing * scale >= 1 and max(abs(v * scale) for v in values) >= 10000:
            return [f"{v * scale:,.0f}" for v in values]
        return original(values, scale, spacing)
    axis.tickStrings = tick_strings


def _style_axis(axis, label: str, style: Style) -> None:
    import pyqtgraph as pg
    axis.setPen(pg.mkPen("k", width=1.5))
    axis.setTextPen(pg.mkPen("k"))
    axis.setTickFont(_font(style.tick_px))
    axis.enableAutoSIPrefix(False)
    axis.setStyle(tickTextOffset=max(6, style.tick_px // 2), tickLength=style.tick_px // 2,
                  autoExpandTextSpace=True, maxTickLevel=1)  # no third, finest grid level
    axis.setLabel(label, **{"font-size": f"{style.label_px}px", "color": "#000"})
    _thousands(axis)
    if axis.orientation == "bottom":  # room for tick text and the label without touching
        axis.setStyle(hideOverlappingLabels=style.tick_px * 2)  # end labels may overhang a bit
        from PySide6.QtGui import QFontMetrics
        tick_h = QFontMetrics(_font(style.tick_px)).height()
        axis.setHeight(int(tick_h + max(6, style.tick_px // 2) + style.tick_px // 2
                           + style.label_px * 1.7))


def _x(fig: Figure, values):
    return [math.log2(v) if fig.log2_x else v for v in values]


def _y_range(fig: Figure, side: str) -> tuple[float, float] | None:
    ys = []
    for s in fig.series:
        if s.axis == side:
            errs = s.err or [0.0] * len(s.y)
            ys += [y + e for y, e in zip(s.y, errs)]
            ys += [max(y - e, 0.0) if y >= 0 else y - e for y, e in zip(s.y, errs)]
    ys += [h.y for h in fig.hlines if h.axis == side]
    ys += [m.y for m in fig.markers if m.axis == side and m.y is not None]
    if not ys:
        return None
    axis = fig.y_axis if side == "left" else fig.y2_axis
    lo, hi = min(ys), max(ys)
    if axis is None or axis.include_zero:
        lo = min(lo, 0.0)
    span = (hi - lo) or abs(hi) or 1.0
    # the lowest tick label must fit inside the view (pyqtgraph drops it otherwise)
    return lo - (0.03 if lo == 0 else 0.06) * span, hi + 0.14 * span


def _x_range(fig: Figure) -> tuple[float, float] | None:
    xs, pad = [], 0.0
    for s in fig.series:
        xs += _x(fig, s.x)
        if s.kind == "bar":  # categories: half a slot each side, room for the tick text
            pad = max(pad, s.bar_width / 2 + 0.15, 0.5)
    xs += _x(fig, [t for t, _ in fig.x_axis.ticks])
    xs += _x(fig, [m.x for m in fig.markers])
    if not xs:
        return None
    lo, hi = min(xs), max(xs)
    if fig.x_axis.include_zero and not fig.log2_x and not pad:
        lo = min(lo, 0.0)
    span = (hi - lo) or 1.0
    return lo - max(pad, 0.05 * span), hi + max(pad, 0.08 * span)


def _legend_columns(fig: Figure, style: Style) -> int:
    """As many legend columns as fit the width: a legend wider than the plot would widen the
    whole layout and push the right axis out of the image."""
    from PySide6.QtGui import QFontMetrics
    names = [s.name + (" (right axis)" if s.axis == "right" else "") for s in fig.series]
    names += [h.text for h in fig.hlines]
    if not names:
        return 1
    metrics = QFontMetrics(_font(style.legend_px))
    widest = max(metrics.horizontalAdvance(n) for n in names)
    column = widest + style.legend_sample * 2.6 + style.legend_px
    return max(1, min(len(names), 4, int((style.width * 0.9) // column)))


def draw(plot, fig: Figure, style: Style):
    """Draw ``fig`` into a PlotItem; returns the right ViewBox (or None) for geometry syncing."""
    import numpy as np
    import pyqtgraph as pg
    from PySide6.QtCore import Qt

    plot.setTitle(fig.title, size=f"{style.title_px}px", color="#000")
    plot.layout.setRowFixedHeight(0, int(style.title_px * 1.9))
    plot.titleLabel.setMaximumHeight(int(style.title_px * 1.9))
    plot.layout.setContentsMargins(style.tick_px, style.tick_px // 2, style.tick_px * 2,
                                   style.tick_px // 2)
    plot.setMenuEnabled(False)
    _style_axis(plot.getAxis("bottom"), fig.x_axis.label, style)
    _style_axis(plot.getAxis("left"), fig.y_axis.label, style)
    plot.showGrid(x=not any(s.kind == "bar" for s in fig.series), y=True, alpha=0.18)
    ticks = fig.x_axis.ticks
    if ticks:
        plot.getAxis("bottom").setTicks([[(x, text) for x, text in zip(_x(fig, [t for t, _ in ticks]),
                                                                       (t for _, t in ticks))]])
    right = None
    if fig.y2_axis is not None or any(s.axis == "right" for s in fig.series):
        right = pg.ViewBox()
        plot.showAxis("right")
        plot.scene().addItem(right)
        plot.getAxis("right").linkToView(right)
        right.setXLink(plot)
        _style_axis(plot.getAxis("right"), (fig.y2_axis.label if fig.y2_axis else ""), style)
        plot.getAxis("right").setGrid(False)

    legend = pg.LegendItem(colCount=_legend_columns(fig, style),
                           labelTextSize=f"{style.legend_px}px", labelTextColor="k",
                           sampleType=_sample_type(style.legend_sample), frame=False,
                           horSpacing=style.legend_px)
    plot.layout.addItem(legend, 4, 1)
    for i, s in enumerate(fig.series):
        color = _color(s.color, i)
        box = right if s.axis == "right" and right is not None else plot.vb
        xs = _x(fig, s.x)
        if s.kind == "bar":
            item = pg.BarGraphItem(x=xs, height=list(s.y), width=s.bar_width, brush=color,
                                   pen=pg.mkPen("k", width=1))
        else:
            pen = None if s.kind == "scatter" else pg.mkPen(
                color, width=style.line, style=Qt.PenStyle.DashLine if s.dash else Qt.PenStyle.SolidLine)
            dense = len(xs) > DENSE_POINTS and s.kind != "scatter"  # a trace, not points
            item = pg.PlotDataItem(xs, list(s.y), pen=pen,
                                   symbol=None if dense else ("s" if s.dash else "o"),
                                   symbolSize=style.symbol, symbolBrush=color, symbolPen=color)
        box.addItem(item)
        legend.addItem(item, s.name + (" (right axis)" if s.axis == "right" and right else ""))
        if s.err and any(e > 0 for e in s.err):
            span = (lambda r: r[1] - r[0])(_x_range(fig) or (0.0, 1.0))
            beam = s.bar_width * 0.35 if s.kind == "bar" else 0.012 * span
            ys, errs = np.asarray(s.y, float), np.asarray(s.err, float)
            # a quantity that cannot be negative: the lower bar stops at zero
            low = np.minimum(errs, np.maximum(ys, 0)) if (ys >= 0).all() else errs
            box.addItem(pg.ErrorBarItem(x=np.asarray(xs, float), y=ys, top=errs, bottom=low,
                                        beam=beam, pen=pg.mkPen("#222" if s.kind == "bar" else color,
                                                                width=2)))
        for x, y, e, text in zip(xs, s.y, s.err or [0.0] * len(xs), s.point_labels or ()):
            # above the error bar for bars, up and right of the point for lines
            bar = s.kind == "bar"
            label = pg.TextItem(text, color="k", anchor=(0.5, 1.1) if bar else (-0.1, 1.1),
                                fill=(255, 255, 255, 200) if bar else None)
            label.setFont(_font(style.note_px))
            label.setPos(x, y + (e if s.kind == "bar" else 0.0))
            box.addItem(label)
    for h in fig.hlines:
        box = right if h.axis == "right" and right is not None else plot.vb
        color = _color(h.color, 6)
        pen = pg.mkPen(color, width=style.line * 0.8, style=Qt.PenStyle.DashDotLine)
        box.addItem(pg.InfiniteLine(pos=h.y, angle=0, pen=pen))
        legend.addItem(pg.PlotDataItem([], [], pen=pen), h.text)
    vertical = 0
    for m in fig.markers:
        box = right if m.axis == "right" and right is not None else plot.vb
        (x,) = _x(fig, [m.x])
        if m.y is None:
            pen = pg.mkPen("#555", width=2, style=Qt.PenStyle.DashLine)
            line = pg.InfiniteLine(pos=x, angle=90, pen=pen,
                                   label=m.text, labelOpts={"position": 0.95 - 0.07 * vertical,
                                                            "color": "k",
                                                            "fill": (255, 255, 255, 220),
                                                            "anchors": [(0, 0.5), (0, 0.5)]})
            line.label.setFont(_font(style.note_px))
            box.addItem(line)
            vertical += 1  # stagger the labels of neighbouring lines
        else:
            box.addItem(pg.ScatterPlotItem([x], [m.y], symbol="star", size=style.symbol * 2.4,
                                           brush="#E69F00", pen=pg.mkPen("k", width=1)))
            label = pg.TextItem(m.text, color="k", anchor=(1.05, -0.3), fill=(255, 255, 255, 220))
            label.setFont(_font(style.note_px))
            label.setPos(x, m.y)
            box.addItem(label)
    xr, yl = _x_range(fig), _y_range(fig, "left")
    if xr:
        plot.setXRange(*xr, padding=0)
    if yl:
        plot.setYRange(*yl, padding=0)
    if right is not None:
        yr = _y_range(fig, "right")
        if yr:
            right.setYRange(*yr, padding=0)

        def sync():
            right.setGeometry(plot.vb.sceneBoundingRect())
            right.linkedViewChanged(plot.vb, right.XAxis)
        plot.vb.sigResized.connect(sync)
        sync()
    plot.vb.setMouseEnabled(x=False, y=False)
    return right


def figure_widget(fig: Figure, style: Style = SCREEN):
    """A PlotWidget showing ``fig``, for the window's results view."""
    import pyqtgraph as pg
    widget = pg.PlotWidget(background="w")
    widget._ssd_right = draw(widget.getPlotItem(), fig, style)  # keep the ViewBox alive
    return widget


def _tolerate_closed_paths() -> None:
    """Let pyqtgraph's SVG exporter read closed paths.

    pyqtgraph 0.14 re-parses the SVG that Qt writes and splits every path command on ",";
    Qt >= 6.9 ends closed paths with a bare "Z", so the exporter raises ValueError on every
    figure (pyqtgraph issue #3495, fixed upstream after 0.14.0). Dropping the "Z" before the
    parse keeps the drawing (Qt writes the closing segment explicitly before it). Qt's own
    QSvgGenerator is no substitute: it replays pyqtgraph's cached axis pictures with the wrong
    transform, so axes and grids land in the wrong place.
    """
    module = sys.modules.get("pyqtgraph.exporters.SVGExporter")
    original = getattr(module, "correctCoordinates", None)
    if original is None or getattr(original, "_ssd_tolerant", False):
        return

    def correct(node, defs, item, options):
        for path in node.getElementsByTagName("path"):
            d = path.getAttribute("d")
            if "Z" in d or "z" in d:
                path.setAttribute("d", " ".join(t for t in d.split() if t not in ("Z", "z")))
        return original(node, defs, item, options)

    correct._ssd_tolerant = True
    module.correctCoordinates = correct


def _write_svg(widget, svg_path: Path) -> None:
    from pyqtgraph.exporters import SVGExporter
    _tolerate_closed_paths()
    SVGExporter(widget.scene()).export(str(svg_path))
    if not svg_path.exists():
        raise OSError(f"could not write {svg_path}")


def render_figure(fig: Figure, png_path: Path, svg_path: Path, style: Style = REPORT) -> None:
    """Draw ``fig`` offscreen and write a PNG (``style.width`` px wide) and an SVG."""
    from pyqtgraph.exporters import ImageExporter
    from PySide6.QtGui import QImage

    app = ensure_app()
    widget = figure_widget(fig, style)
    try:
        widget.resize(style.width, style.height)
        from PySide6.QtCore import Qt
        widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)  # laid out, never on a desktop
        widget.show()
        for _ in range(GRABS):  # axes size themselves to their tick text only after a paint
            widget.grab()
            app.processEvents()
        plot = widget.getPlotItem()
        if widget._ssd_right is not None:
            widget._ssd_right.setGeometry(plot.vb.sceneBoundingRect())
        exporter = ImageExporter(widget.scene())
        exporter.parameters()["width"] = style.width
        image = exporter.export(toBytes=True).convertToFormat(QImage.Format.Format_RGB32)
        # quality 70 = light zlib compression: 3x faster than the default, files ~20 % larger
        if not image.save(str(png_path), "PNG", 70):
            raise OSError(f"could not write {png_path}")
        _write_svg(widget, svg_path)
    finally:
        widget.close()
        widget.deleteLater()
