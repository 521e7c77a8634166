"""The progress strip's bars: a track and its filled part, two flat rectangles.

Why not QProgressBar: Fusion paints its bar with gradients and stripe lines, and Qt's raster
engine hands every fill more than about a hundred spans long to its GUI thread pool, so each
refresh of the strip's two bars started pool tasks about fifteen times, waking two threads and
making the GUI thread wait for them (gdb on QThreadPool::start during a run: half of all the
starts, the rest being the charts' own paints; the window has since turned that pool off,
ui/window/app.py). A fill a few rows high stays on the GUI thread, and the bar is opaque: a new
value repaints the bar alone.
"""
from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.window.widgets import em


class ThinBar(QWidget):
    """``setValue(0..maximum)``; shows the share done as the filled width."""

    def __init__(self, maximum: int = 1000, parent: QWidget | None = None):
        super().__init__(parent)
        self._value, self._maximum = 0, max(1, maximum)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)   # paints every pixel
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("progress")
        self.setAccessibleDescription("0 %")

    def sizeHint(self) -> QSize:  # noqa: D102 - Qt's
        return QSize(8 * em(self), max(6, round(em(self) * 0.55)))

    def minimumSizeHint(self) -> QSize:  # noqa: D102 - Qt's
        return QSize(2 * em(self), self.sizeHint().height())

    def value(self) -> int:
        return self._value

    def setValue(self, value: int) -> None:  # noqa: N802 - QProgressBar's name
        value = max(0, min(self._maximum, int(value)))
        if value != self._value:
            self._value = value
            self.setAccessibleDescription(f"{100 * value // self._maximum} %")
            self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        pal, r = self.palette(), self.rect()
        painter.fillRect(r, pal.color(QPalette.ColorRole.Mid))
        inner = r.adjusted(1, 1, -1, -1)
        painter.fillRect(inner, pal.color(QPalette.ColorRole.Base))
        done = round(inner.width() * self._value / self._maximum)
        if done:
            painter.fillRect(QRect(inner.x(), inner.y(), done, inner.height()),
                             pal.color(QPalette.ColorRole.Highlight))
