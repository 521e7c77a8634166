"""Text in the plot area, placed from geometry every time the plot is laid out.

Each label (point names, bar values, marker notes) is a TextItem whose top-left corner is set
from :func:`ui.render.placement.place`, which sees the panel's data in scene pixels: points,
bars, error bars and line segments are obstacles, the ViewBox (which clips its children) is the
bound. Axis titles and the figure title are shrunk to fit their axis or the width, so a small
window never cuts them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ui.render.panel import Panel
from ui.render.placement import Box, Boxes, leader_end, needs_leader, place, point_box, segment_boxes
from ui.render.style import Style, font

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    import pyqtgraph as pg
    from PySide6.QtCore import QRectF
    from PySide6.QtWidgets import QGraphicsTextItem

MIN_TITLE_PX = 8
Anchor = tuple[float, float | None]   # view coordinates; y None = a vertical line at x


@dataclass
class Label:
    panel: Panel
    vb: pg.ViewBox
    item: pg.TextItem
    anchor: Anchor
    mode: str                        # around | above | line
    priority: int
    leader: pg.PlotCurveItem | None = None   # from the anchor to the label
    box: Box | None = None           # where it went, scene pixels


def scene_box(item: pg.GraphicsItem) -> Box:
    r = item.sceneBoundingRect()
    return Box(r.left(), r.top(), r.right(), r.bottom())


def obstacles(panel: Panel) -> list[Box]:
    """A panel's data as boxes in scene pixels."""
    from PySide6.QtCore import QPointF
    geo, out = panel.geometry, list[Box]()

    def at(vb: pg.ViewBox, x: float, y: float) -> tuple[float, float]:
        p = vb.mapViewToScene(QPointF(x, y))
        return p.x(), p.y()
    for vb, x, y, size in geo.points:
        out.append(point_box(*at(vb, x, y), size + 2))
    for vb, x0, x1, y0, y1 in geo.bars:
        (ax, ay), (bx, by) = at(vb, x0, y0), at(vb, x1, y1)
        out.append(Box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
    for vb, x0, y0, x1, y1 in geo.errs:
        (ax, ay), (bx, by) = at(vb, x0, y0), at(vb, x1, y1)
        out.append(Box(min(ax, bx) - 2, min(ay, by) - 2, max(ax, bx) + 2, max(ay, by) + 2))
    for vb, a, b, width in geo.segments:
        out += segment_boxes(at(vb, *a), at(vb, *b), max(width + 2, 4.0))
    return out


def panel_obstacles(panel: Panel) -> Boxes:
    """:func:`obstacles` as :class:`Boxes`, mapped again only when a ViewBox of the data has
    moved, been resized or changed its range since the last time (labels are placed several
    times while a figure is laid out, mostly on the same geometry)."""
    geo = panel.geometry
    views = {id(g[0]): g[0] for part in (geo.points, geo.bars, geo.errs, geo.segments)
             for g in part}.values()
    key = [(vb.sceneTransform(), vb.childTransform()) for vb in views]
    cached: tuple[object, Boxes] | None = panel.__dict__.get("_ssd_obstacles")
    if cached is None or cached[0] != key:
        cached = panel.__dict__["_ssd_obstacles"] = (key, Boxes(obstacles(panel)))
    return cached[1]


class Labels:
    def __init__(self, style: Style) -> None:
        self.style = style
        self.items: list[Label] = []

    def add(self, panel: Panel, vb: pg.ViewBox, text: str, anchor: Anchor, mode: str, fill: bool = False,
            priority: int = 0, leader: bool = False) -> Label:
        import pyqtgraph as pg
        item = pg.TextItem(text, color="k", anchor=(0, 0),
                           fill=(255, 255, 255, 225) if fill else None)
        item.setFont(font(self.style.note_px))
        item.setZValue(20)
        vb.addItem(item)
        line = None
        if leader:
            line = pg.PlotCurveItem(pen=pg.mkPen("#444", width=1.2))
            line.setZValue(19)
            vb.addItem(line)
        label = Label(panel, vb, item, anchor, mode, priority, line)
        self.items.append(label)
        return label

    def place(self, panels: Sequence[Panel]) -> None:
        """Every label of every panel, higher priority (markers) after the point labels. When
        a panel's labels do not all find a free place (tall bars, labels of several lines), its
        y range grows at the top, up to three times, from the range the data asked for."""
        for panel in panels:
            mine = sorted((lb for lb in self.items if lb.panel is panel), key=lambda lb: lb.priority)
            if not mine:
                continue
            boxes = {vb: vb.viewRange()[1] for vb in {lb.vb for lb in mine}}
            base = panel.__dict__.setdefault("base_y", boxes)
            for vb, (lo, hi) in base.items():
                if vb.viewRange()[1] != [lo, hi]:
                    vb.setYRange(lo, hi, padding=0)
            for _attempt in range(3):
                crowded = self._place_panel(panel, mine)
                if not crowded:
                    break
                for vb in {lb.vb for lb in crowded}:
                    lo, hi = vb.viewRange()[1]
                    height = vb.sceneBoundingRect().height() or 1.0
                    extra = max(lb.box.h if lb.box else 0.0 for lb in crowded if lb.vb is vb) * 1.3
                    vb.setYRange(lo, hi + extra * (hi - lo) / height, padding=0)
            else:
                self._place_panel(panel, mine)

    def _place_panel(self, panel: Panel, mine: list[Label]) -> list[Label]:
        """Place ``mine``; returns the labels that cover data or another label."""
        from PySide6.QtCore import QPointF
        gap = max(4.0, self.style.note_px * 0.4)
        r = panel.vb.sceneBoundingRect()
        if r.width() <= 4 or r.height() <= 4:
            return []
        bounds = Box(r.left() + 2, r.top() + 2, r.right() - 2, r.bottom() - 2)
        blocked = panel_obstacles(panel)
        taken: list[Box] = []
        crowded: list[Label] = []
        for lb in mine:
            text = _fitted(lb.item, bounds.w - 2 * gap)
            x, y = lb.anchor
            if y is None:
                y = lb.vb.mapSceneToView(QPointF(0, r.center().y())).y()
            a = lb.vb.mapViewToScene(QPointF(x, y))
            box = place((a.x(), a.y()), (text.width(), text.height()), bounds, blocked, taken,
                        gap, lb.mode)
            if blocked.covered(box) > 0 or any(box.overlap(t) > 0 for t in taken):
                crowded.append(lb)
            taken.append(box)
            lb.box = box
            lb.item.setPos(lb.vb.mapSceneToView(QPointF(box.x0, box.y0)))
            if lb.leader is not None:
                self._leader(lb, lb.leader, (a.x(), a.y()), box, gap)
        return crowded

    @staticmethod
    def _leader(lb: Label, leader: pg.PlotCurveItem, anchor: tuple[float, float], box: Box,
                gap: float) -> None:
        from PySide6.QtCore import QPointF
        if not needs_leader(box, anchor, gap):
            leader.setData([], [])
            return
        end = lb.vb.mapSceneToView(QPointF(*leader_end(box, anchor)))
        start = lb.vb.mapSceneToView(QPointF(*anchor))
        leader.setData([start.x(), end.x()], [start.y(), end.y()])

    def fit_titles(self, plot: pg.PlotItem, title: str, panels: Sequence[Panel]) -> None:
        """Shrink an axis title that is longer than its axis, and the figure title that is
        wider than its place, down to a readable minimum (and back when there is room),
        measuring the text as drawn."""
        for panel in panels:
            for axis in panel.axes.values():
                if not axis.isVisible() or not axis.labelText:
                    continue
                vertical = axis.orientation in ("left", "right")
                room = axis.geometry().height() if vertical else axis.geometry().width()

                def set_axis(px: int, axis: pg.AxisItem = axis) -> None:
                    axis.setLabel(axis.labelText, **{"font-size": f"{px}px", "color": "#000"})
                    axis.resizeEvent()  # pyqtgraph centres the title only when resized

                def measure(axis: pg.AxisItem = axis) -> float:
                    return float(axis.label.boundingRect().width())
                _fit(axis, "_ssd_px", self.style.label_px, room, set_axis, measure)

        def set_title(px: int) -> None:
            plot.titleLabel.setText(title, size=f"{px}px", color="#000")
        _fit(plot, "_ssd_title_px", self.style.title_px, plot.titleLabel.geometry().width(),
             set_title, lambda: float(plot.titleLabel.item.boundingRect().width()))


def _fit(owner: object, attr: str, full: int, room: float, apply: Callable[[int], None],
         measure: Callable[[], float]) -> None:
    """Draw a text at the largest font size up to ``full`` px that fits ``room``: the size is
    estimated from the width drawn now (text width grows with the size), then checked, so a
    text that fits is never redrawn (a redraw resizes the axis, which would come back here)."""
    if room <= 0:
        return
    current = getattr(owner, attr, full)
    width = measure()
    if width <= 0:
        return
    at_full = width * full / current
    px = full if at_full <= room else max(MIN_TITLE_PX, int(full * room / at_full))
    if px == current and width <= room:
        return
    apply(px)
    while measure() > room and px > MIN_TITLE_PX:
        px -= 1
        apply(px)
    setattr(owner, attr, px)


def _fitted(item: pg.TextItem, room: float) -> QRectF:
    """The text's box, wrapped onto more lines when it is wider than ``room`` (the plot area:
    a crossover note wider than a narrow pane's plot was cut at its edge) and unwrapped again
    when the plot has room for it."""
    text: QGraphicsTextItem = item.textItem
    if text.textWidth() > 0:
        item.setTextWidth(-1)
    if room > 40 and text.boundingRect().width() > room:
        item.setTextWidth(room)
    return text.boundingRect()


def free_width(label: pg.LabelItem) -> None:
    """Keep a LabelItem from demanding its text's width from the layout (pyqtgraph sets its
    minimum to the text on every resize): a long title would widen the whole plot past the
    window; it is shrunk to fit instead (:meth:`Labels.fit_titles`)."""
    from PySide6.QtCore import Qt
    original = label.updateMin

    def update_min() -> None:
        original()
        label.setMinimumWidth(0)
        for hint in (Qt.SizeHint.MinimumSize, Qt.SizeHint.PreferredSize):
            label._sizeHint[hint] = (0, label._sizeHint[hint][1])
        label.updateGeometry()
    label.updateMin = update_min
    update_min()


