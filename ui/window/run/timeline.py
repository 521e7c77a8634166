"""The whole run at a glance, above the live charts: one block per experiment, done, running
(filled as far as its trials have ended) or still to do. Clicking a block shows that
experiment's stretch in the charts and its figure in "Results so far".

Why blocks of equal width and not of planned duration: one sustained write can plan as long as
the rest of a course run together, which would leave the sweeps slivers too narrow to name or
click. Painted by hand (one paint per trial start or end), so it never asks the window for a
new layout while the run goes on.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ui.window import theme
from ui.window.plain import plain_tip
from ui.window.run.stretches import DONE, RUNNING, Stretch
from ui.window.widgets import em

GAP_PX = 3


class RunTimeline(QWidget):
    """``picked(experiment id)`` when a block is clicked; ``set_stretches`` repaints."""

    picked = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.items: list[Stretch] = []
        self.selected: str | None = None       # the experiment the charts show
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The run's experiments: click one to see its stretch and its figure")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(20 * em(self), int(em(self) * 1.25))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(4 * em(self), int(em(self) * 1.25))

    def set_stretches(self, items: list[Stretch], selected: str | None) -> None:
        if items != self.items or selected != self.selected:
            self.items, self.selected = items, selected
            self.update()

    def block_rects(self) -> list[QRectF]:
        """Where each experiment's block is drawn (widget coordinates)."""
        n = len(self.items)
        if not n:
            return []
        width = (self.width() - GAP_PX * (n - 1)) / n
        return [QRectF(i * (width + GAP_PX), 0.5, width, self.height() - 1.0) for i in range(n)]

    def label(self, item: Stretch, width: float) -> str:
        """The longest wording of the block's label that fits ``width`` ('' if none does)."""
        metrics = self.fontMetrics()
        for text in (f"{item.id} {item.ended}/{item.trials}", item.id):
            if metrics.horizontalAdvance(text) + 8 <= width:
                return text
        return ""

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = theme.palette()
        base, text = pal.color(theme.Role.Base), theme.tone("text")
        done = theme.mix(base, theme.tone("read", background=theme.Role.Base), 0.25)
        muted = theme.tone("muted")
        for item, rect in zip(self.items, self.block_rects()):
            painter.setPen(QPen(muted, 1))
            painter.setBrush(base)
            painter.drawRoundedRect(rect, 3, 3)
            share = 1.0 if item.state == DONE else (
                item.ended / item.trials if item.state == RUNNING and item.trials else 0.0)
            if share:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(done)
                painter.drawRoundedRect(QRectF(rect.x(), rect.y(), rect.width() * share,
                                               rect.height()), 3, 3)
            if item.state == RUNNING or item.id == self.selected:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(theme.tone("write") if item.state == RUNNING else text,
                                    2 if item.id == self.selected else 1))
                painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 3, 3)
            painter.setPen(text if item.state in (DONE, RUNNING) else muted)
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), self.label(item, rect.width()))

    def _at(self, x: float) -> Stretch | None:
        for item, rect in zip(self.items, self.block_rects()):
            if rect.left() <= x <= rect.right():
                return item
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        item = self._at(event.position().x())
        if item is not None and item.start is not None:
            self.picked.emit(item.id)

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            item = self._at(event.pos().x())
            if item is not None:
                QToolTip.showText(event.globalPos(), plain_tip(  # a run.json's own words
                    f"{item.title} ({item.id}): {item.state}, {item.ended} of {item.trials} "
                    "trials ended" + ("" if item.start is not None else "; not started yet")),
                    self)
                return True
        return super().event(event)
