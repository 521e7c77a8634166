"""Small widgets the views share: a one-line label that elides instead of widening the window,
and a wrapped one whose changing text is repainted, not laid out (SteadyLabel).

Why: a QLabel without word wrap asks for its whole text as its minimum width, so one long path
or status sentence made the window wider than a laptop screen (and a tab that showed such a
label shifted the layout). This label asks for little, shows what fits with "...", and keeps
the whole text in ``text()`` and as its tooltip. Given shorter wordings (``set_shorter``), it
shows the longest that fits instead and asks for the shortest as its minimum width, so where
the window has room for that one the text is reworded, never cut.
"""
from __future__ import annotations

import re

from PySide6 import QtGui
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextDocument,
)
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from ui.window.plain import plain_tip


def em(widget: QWidget) -> int:
    """The height of a line of the widget's font: the unit for DPI- and font-aware sizes."""
    return widget.fontMetrics().height()


class ElidedLabel(QLabel):
    """Plain text on one line, elided at the right (or ``elide``) when it does not fit."""

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 elide: Qt.TextElideMode = Qt.TextElideMode.ElideRight):
        super().__init__(parent)
        self._elide = elide
        self._shorter: tuple[str, ...] = ()
        self._fitted: tuple[tuple[tuple[str, ...], int, str], str] | None = None
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        if text == self.text():
            return   # no relayout for the same text (progress labels refresh twice a second)
        super().setText(text)
        self.setToolTip(plain_tip(text))

    def set_shorter(self, *texts: str) -> None:
        """Wordings of the same text, longest first, for when the whole text does not fit."""
        if texts != self._shorter:
            self._shorter = texts
            self.update()

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        metrics = self.fontMetrics()
        if self._shorter:
            width = min(metrics.horizontalAdvance(t) for t in (self.text(), *self._shorter)) + 4
        else:
            width = min(metrics.horizontalAdvance(self.text()), metrics.horizontalAdvance("x" * 8))
        return QSize(width, metrics.height())

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.fontMetrics().horizontalAdvance(self.text()) + 4,
                     self.fontMetrics().height())

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.contentsRect()
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())

    def shown_text(self) -> str:
        """What is drawn at the current width: the longest wording that fits, else elided.
        Kept until the text, its wordings, the width or the font change: a progress label is
        painted once a second beside fio, mostly with the same text (measuring up to four
        wordings was a quarter of a millisecond a paint)."""
        wordings, width = (self.text(), *self._shorter), self.contentsRect().width()
        key = (wordings, width, self.font().key())
        if self._fitted is None or self._fitted[0] != key:
            self._fitted = (key, self._fitting(wordings, width))
        return self._fitted[1]

    def _fitting(self, wordings: tuple[str, ...], width: int) -> str:
        metrics = self.fontMetrics()
        for text in wordings:
            if metrics.horizontalAdvance(text) <= width:
                return text
        return metrics.elidedText(wordings[-1], self._elide, width)


class LiveLabel(ElidedLabel):
    """An elided label whose text changes while a run goes (progress, elapsed, ETA): a new text
    is repainted, never re-laid out. QLabel.setText asks the whole window for a new layout
    (~2 ms each time, a few times a second: a fifth of the window's cost beside fio)."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        self._live = ""
        super().__init__(text, parent)

    def text(self) -> str:
        return self._live

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        if text != self._live:
            self._live = text
            self.setToolTip(plain_tip(text))
            self.update()


class SteadyLabel(QLabel):
    """A word-wrapped rich-text label whose text changes while a run goes (a caption with counts):
    a new text that takes as many lines as the shown one at the current width is painted, not
    laid out. QLabel.setText asks every ancestor for a new layout, and a tab widget among them
    then repaints its whole frame and page (about 10 ms at every trial's end beside fio, with the
    results under the charts). ``text()`` is the text shown; QLabel's own is the one laid out."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWordWrap(True)
        self._shown = ""

    def text(self) -> str:
        return self._shown

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        if text == self._shown:
            return
        width = self.contentsRect().width()
        same = (self.isVisible() and width > 0
                and self._document(text, width).size() == self._document(super().text(), width).size())
        self._shown = text
        if same:
            self.update()
        else:
            super().setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """At a new width the shown text may wrap otherwise than the laid-out one: the layout
        is being redone anyway, so it gets the shown text."""
        if self._shown != super().text():
            super().setText(self._shown)
        super().resizeEvent(event)

    def _document(self, text: str, width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self.font())
        if QtGui.Qt.mightBeRichText(text):   # as QLabel's AutoText decides
            doc.setHtml(text)
        else:
            doc.setPlainText(text)
        doc.setTextWidth(width)
        return doc

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        if self._shown == super().text():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        rect = self.contentsRect()
        painter.translate(rect.topLeft())
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, self.palette().color(self.foregroundRole()))
        doc = self._document(self._shown, rect.width())   # kept: its layout is its child
        doc.documentLayout().draw(painter, context)


class PathLabel(QLabel):
    """A path shown whole, never cut or elided: wrapped after its separators when the line is
    too short, selectable, the plain path as its tooltip. ``text()`` is the path itself (the
    display breaks lines with zero-width spaces); an empty path shows ``placeholder``, muted."""

    def __init__(self, placeholder: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self._path = ""
        self._placeholder = placeholder
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setText("")

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._path = text
        self.setToolTip(plain_tip(text) if text else "")
        self.setEnabled(bool(text))   # the placeholder reads muted
        super().setText(re.sub(r"([/\\_+-])", "\\1\u200b", text) if text else self._placeholder)

    def text(self) -> str:
        return self._path
