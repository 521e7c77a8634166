"""Trial boundaries of one plot: vertical lines, optionally labelled with the workload.

Why one item instead of one pyqtgraph InfiniteLine (+ label) per trial: InfiniteLine paints in
Python, once per line per frame. With the 200 trials of a long sweep and three plots that was
600 Python paint calls, about 10 ms of every redraw on a modest machine (measured with
benchmarks/gui_overhead.py), and the labels overlapped into a smear when trials were dense.
This item draws every visible boundary with one ``drawLines`` call and places the labels itself,
skipping a label that would come within half a line of the previous one or not fit the plot's
height (zoom in to see them all). Warm-ups (and precondition rounds) are shaded up to the next boundary: they are
run, never counted, and should not read as a result.
"""
from __future__ import annotations

import bisect

import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

MIN_LABEL_GAP_PX = 3.0     # air between two neighbouring labels, at least (else half a line)


class TrialBoundaries(pg.GraphicsObject):  # type: ignore[misc]  # pyqtgraph: no types
    """Add to a PlotItem with ``ignoreBounds=True`` (lines span whatever is in view)."""

    def __init__(self, labelled: bool = False, font: QFont | None = None):
        super().__init__()
        # the line's pen and the labels' colour come from the palette (chart_colors.apply)
        self.pen = QPen()
        self.pen.setCosmetic(True)
        self.labelled = labelled
        self.font = font or QFont()
        self.text_color = QColor()
        self._metrics = QFontMetricsF(self.font)
        self.positions: list[float] = []     # seconds, ascending (trials start in order)
        self.texts: list[str] = []
        self.shaded: list[float] = []        # a warm-up's planned seconds (0: counted trial)
        self.shade = QColor()
        self.shown_labels = 0                # how many labels the last paint drew
        self.label_rects: list[QRectF] = []  # where they were drawn (device pixels; tests)
        # painted once into a pixmap and reused until a boundary is added or the view changes:
        # most redraws only append samples, and text is the slowest thing to draw
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_boundaries(self, items: list[tuple[float, str, float]]) -> None:
        ordered = sorted(items, key=lambda item: item[0])
        self.positions = [x for x, _, _ in ordered]
        self.texts = [text for _, text, _ in ordered]
        self.shaded = [shaded for _, _, shaded in ordered]
        self.update()

    def add(self, x: float, text: str, shaded: float = 0.0) -> None:
        """A trial started: only the strip it changes is drawn again (its line and label, a
        warm-up's shade before and after it), not the whole plot, at every trial start."""
        i = bisect.bisect_right(self.positions, x)
        self.positions.insert(i, x)
        self.texts.insert(i, text)
        self.shaded.insert(i, shaded)
        self.update(self._strip(i))

    def _strip(self, i: int) -> QRectF:
        """What boundary ``i``, just added, changed (an empty rect: all of it)."""
        rect, pixel = self.viewRect(), self.pixelWidth()
        if rect is None or not pixel or i != len(self.positions) - 1:
            return QRectF()   # in view or not: the view's change draws it
        x = self.positions[i]
        label_px = 2.0 + self._metrics.height() + 2.0   # drawn right of the line, rotated
        lo, hi = x, x + max(self.shaded[i], label_px * pixel)
        if i and self.shaded[i - 1]:   # the warm-up before it was shaded to its planned end
            planned_end = self.positions[i - 1] + self.shaded[i - 1]
            lo, hi = min(lo, planned_end), max(hi, planned_end)
        return QRectF(lo - 2 * pixel, rect.top(), hi - lo + 4 * pixel, rect.height())

    # -- QGraphicsItem ---------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        rect = self.viewRect()
        return QRectF() if rect is None else rect

    def viewRangeChanged(self) -> None:  # noqa: N802 - pyqtgraph's hook
        super().viewRangeChanged()        # drops pyqtgraph's cached viewRect()
        self.prepareGeometryChange()
        self.update()

    def viewTransformChanged(self) -> None:  # noqa: N802 - pyqtgraph's hook
        super().viewTransformChanged()
        self.prepareGeometryChange()
        self.update()

    def paint(self, painter: QPainter, *_args: object) -> None:
        rect = self.viewRect()
        if rect is None or not self.positions:
            return
        lo = bisect.bisect_left(self.positions, rect.left())
        hi = bisect.bisect_right(self.positions, rect.right())
        xs = self.positions[lo:hi]
        self._paint_shades(painter, rect, max(0, lo - 1), hi)
        painter.setPen(self.pen)
        painter.drawLines([QLineF(x, rect.top(), x, rect.bottom()) for x in xs])
        self.shown_labels = 0
        self.label_rects = []
        if self.labelled and xs:
            self._paint_labels(painter, rect, xs, self.texts[lo:hi])

    def _paint_shades(self, painter: QPainter, rect: QRectF, lo: int, hi: int) -> None:
        """Warm-ups from their start to the next boundary, or to their planned end."""
        painter.save()
        painter.setPen(QPen(QColor(0, 0, 0, 0)))
        painter.setBrush(self.shade)
        for i in range(lo, min(hi, len(self.positions))):
            if self.shaded[i]:
                end = (self.positions[i + 1] if i + 1 < len(self.positions)
                       else self.positions[i] + self.shaded[i])   # the one running: as planned
                painter.drawRect(QRectF(self.positions[i], rect.top(), end - self.positions[i],
                                        rect.height()))
        painter.restore()

    def _paint_labels(self, painter: QPainter, rect: QRectF, xs: list[float], texts: list[str]) -> None:
        to_device = painter.transform()
        ys = (to_device.map(QPointF(rect.left(), rect.top())).y(),
              to_device.map(QPointF(rect.left(), rect.bottom())).y())
        top, room = min(ys), abs(ys[1] - ys[0]) - 8.0
        line_height = self._metrics.height()
        ascent = self._metrics.ascent()
        painter.save()
        painter.resetTransform()
        painter.setFont(self.font)
        painter.setPen(self.text_color)
        last = float("-inf")
        # half a line of air at least: labels a bare pixel apart read as one grey comb
        room_each = line_height + max(MIN_LABEL_GAP_PX, line_height / 2)
        for x, text in zip(xs, texts):
            px = to_device.map(QPointF(x, rect.top())).x()
            if px - last < room_each:
                continue  # would overlap the label before it
            width = self._metrics.horizontalAdvance(text)
            if width > room:
                continue  # longer than the plot is high: it would run off the chart
            last = px
            painter.save()
            painter.translate(px + 2.0, top + 4.0)
            painter.rotate(-90.0)    # reads upwards, its end at the top, right of the line
            painter.drawText(QPointF(-width, ascent), text)
            painter.restore()
            self.label_rects.append(QRectF(px + 2.0, top + 4.0, line_height, width))
            self.shown_labels += 1
        painter.restore()
