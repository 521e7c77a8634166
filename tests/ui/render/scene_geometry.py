"""Where a drawn figure's text and data are, in scene pixels (= image pixels: the export draws
the scene 1:1). Test support, not a test module.

Text: the title, every axis title, every tick label pyqtgraph draws (from the axis's own
drawing specs, measured with its tick font), every legend label and every label in the plot
area. Data: taken from the figure *spec* (values through the same view transform, then the
ViewBox's mapping), not from the renderer's bookkeeping, so a renderer that forgets an item is
caught rather than trusted.
"""
from __future__ import annotations

from dataclasses import dataclass

from ui.render.placement import Box
from ui.render.ranges import x_values, y_values
from ui.render.style import DENSE_POINTS, Style


@dataclass(frozen=True)
class Text:
    kind: str      # title | axis title | tick | legend | label
    text: str
    box: Box
    within: Box | None = None  # where it must stay: its ViewBox (labels), its axis (titles)


def _box(rect) -> Box:
    return Box(rect.left(), rect.top(), rect.right(), rect.bottom())


def _tick_texts(axis) -> list[Text]:
    from PySide6.QtGui import QFontMetricsF, QImage, QPainter
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    try:
        if axis.style["tickFont"] is not None:
            painter.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(painter)
        metrics = QFontMetricsF(painter.font())
    finally:
        painter.end()
    out = []
    for rect, flags, text in (specs[2] if specs else []):
        drawn = metrics.boundingRect(rect, int(flags), text)  # the text, not pyqtgraph's 0.8 box
        # a staggered name (moved down by blank lines) has its ink from its first line, below
        # the leading a line above it leaves
        blank = len(text) - len(text.lstrip("\n"))
        drawn.setTop(drawn.top() + blank * metrics.lineSpacing() + (1 if blank else 0))
        out.append(Text("tick", text, _box(axis.mapRectToScene(drawn))))
    return out


def texts(widget) -> list[Text]:
    drawn = widget._ssd
    plot = drawn.plot
    out = []
    if plot.titleLabel.isVisible():
        out.append(Text("title", plot.titleLabel.text, _box(plot.titleLabel.item.sceneBoundingRect())))
    for panel in drawn.panels:
        for axis in panel.axes.values():
            if not axis.isVisible():
                continue
            if axis.labelText and axis.label.isVisible():
                # the axis's own cell of the layout (its bounding rect covers the grid lines too)
                out.append(Text("axis title", axis.labelText, _box(axis.label.sceneBoundingRect()),
                                _box(axis.mapRectToScene(axis.rect()))))
            out += _tick_texts(axis)
    for _sample, label in drawn.legend.items:
        out.append(Text("legend", label.text, _box(label.item.sceneBoundingRect())))
    for lb in drawn.labels.items:
        lb.item.updateTransform(force=True)
        out.append(Text("label", lb.item.textItem.toPlainText(), _box(lb.item.sceneBoundingRect()),
                        _box(lb.vb.sceneBoundingRect())))
    return out


def data_boxes(widget, style: Style) -> list[tuple[str, Box]]:
    """Every data point (symbol-sized), bar, and starred marker of the spec, in scene pixels."""
    from PySide6.QtCore import QPointF
    out = []
    for panel in widget._ssd.panels:
        fig = panel.fig

        def at(vb, x, y):
            p = vb.mapViewToScene(QPointF(x, y))
            return p.x(), p.y()
        for s in fig.series:
            vb = panel.right if s.axis == "right" and panel.right is not None else panel.vb
            dense = len(s.x) > DENSE_POINTS and s.kind != "scatter"
            r = (style.line if dense else style.symbol) / 2
            for x, y in zip(x_values(fig, s.x), y_values(fig, s.y, s.axis)):
                if x is None or y is None:
                    continue
                if s.kind == "bar":
                    (ax, ay), (bx, by) = at(vb, x - s.bar_width / 2, 0.0), at(vb, x + s.bar_width / 2, y)
                    out.append((f"bar of {s.name}", Box(min(ax, bx), min(ay, by), max(ax, bx),
                                                        max(ay, by))))
                else:
                    px, py = at(vb, x, y)
                    out.append((f"point of {s.name}", Box(px - r, py - r, px + r, py + r)))
        for m in fig.markers:
            if m.y is None:
                continue
            vb = panel.right if m.axis == "right" and panel.right is not None else panel.vb
            (x,), (y,) = x_values(fig, [m.x]), y_values(fig, [m.y], m.axis)
            px, py = at(vb, x, y)
            r = style.symbol * 2.4 / 2
            out.append((f"marker {m.text}", Box(px - r, py - r, px + r, py + r)))
    return out


def border_is_blank(image, width: int = 3) -> bool:
    """No ink within ``width`` pixels of the image's edge: nothing was cut off there."""
    w, h = image.width(), image.height()
    white = image.pixel(0, 0)
    for x in range(w):
        for y in (*range(width), *range(h - width, h)):
            if image.pixel(x, y) != white:
                return False
    for y in range(h):
        for x in (*range(width), *range(w - width, w)):
            if image.pixel(x, y) != white:
                return False
    return True
