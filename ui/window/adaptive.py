"""Pages side by side when there is room, as tabs when there is not: how the window fits
screens from 1280×720 to 4K.

Why not only splitters: a splitter can shrink its panes, not make room. On a 1280×720 laptop the
setup column cannot show the drive, the experiment list and several form fields at once, and the
run column cannot show two live charts of a useful height above the results; there the panes
become tabs (each gets the whole height), on a taller screen they share it in a splitter again.

The decision is made from the size this widget gets and the extent its pages need
(``needed()``, computed from font metrics, so larger fonts switch to tabs sooner). Its
minimum size hint is that of the tabbed form, so a window can always be made small enough for
the switch to happen; ``mode_changed`` lets the window retitle or refocus what it wires.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QSplitter, QTabWidget, QVBoxLayout, QWidget

SPLIT, TABS = "split", "tabs"
HYSTERESIS_PX = 24      # room beyond the need before tabs become a splitter again


class Stack(QWidget):
    """The splitter's stand-in when panes are not resizable: the first pane at its height for
    the width it gets (wrapped text included), the last one takes the rest."""

    def __init__(self, orientation: Qt.Orientation):
        super().__init__()
        direction = (QBoxLayout.Direction.LeftToRight if orientation == Qt.Orientation.Horizontal
                     else QBoxLayout.Direction.TopToBottom)
        self._box = QBoxLayout(direction, self)
        self._box.setContentsMargins(0, 0, 0, 0)

    def insertWidget(self, index: int, widget: QWidget) -> None:  # noqa: N802 - QSplitter's name
        self._box.insertWidget(index, widget)
        for i in range(self._box.count()):
            self._box.setStretch(i, 1 if i == self._box.count() - 1 else 0)

    def addWidget(self, widget: QWidget) -> None:  # noqa: N802
        self.insertWidget(self._box.count(), widget)

    def count(self) -> int:
        return self._box.count()

    def sizes(self) -> list[int]:
        return []

    def setSizes(self, _sizes: Sequence[int]) -> None:  # noqa: N802
        pass


class SplitOrTabs(QWidget):
    """``pages`` [(title, widget)] in a splitter (mode ``split``) or as tabs (``tabs``); with
    ``resizable`` False the split form is a plain box layout (no handle to drag).

    ``tabs``: an existing tab widget that is the splitter's last pane in split mode and takes
    the pages as its first tabs in tabs mode (the run column: live charts above the result tabs,
    or one more tab among them); without it the widget makes its own."""

    mode_changed = Signal(str)

    def __init__(self, orientation: Qt.Orientation, pages: list[tuple[str, QWidget]],
                 needed: Callable[[], int], tabs: QTabWidget | None = None,
                 resizable: bool = True, parent: QWidget | None = None):
        super().__init__(parent)
        self.orientation = orientation
        self.pages = list(pages)
        self.needed = needed
        self.own_tabs = tabs is None
        self.tabs = tabs if tabs is not None else QTabWidget()
        if self.own_tabs:
            self.tabs.setDocumentMode(True)   # no frame around a page that has its own
        self.splitter: QSplitter | Stack
        if resizable:
            splitter = QSplitter(orientation)
            splitter.setChildrenCollapsible(False)
            self.splitter = splitter
        else:
            self.splitter = Stack(orientation)  # the same methods, without handles
        self.mode = SPLIT
        self._sizes: list[int] | None = None
        self._check = QTimer(self)          # one decision per burst of resizes, after layout
        self._check.setSingleShot(True)
        self._check.setInterval(0)
        self._check.timeout.connect(self.update_mode)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSizeConstraint(QVBoxLayout.SizeConstraint.SetNoConstraint)
        for _title, page in self.pages:
            self.splitter.addWidget(page)
        if not self.own_tabs:
            self.splitter.addWidget(self.tabs)
        self._layout.addWidget(self.splitter)
        if self.own_tabs:
            self._layout.addWidget(self.tabs)
            self.tabs.hide()

    # -- public ---------------------------------------------------------------------------------
    def set_title(self, page: QWidget, title: str) -> None:
        self.pages = [(title if w is page else t, w) for t, w in self.pages]
        index = self.tabs.indexOf(page)
        if index >= 0:
            self.tabs.setTabText(index, title)

    def show_page(self, page: QWidget) -> None:
        """Bring ``page`` to the front (tabs mode); in split mode every page is in view."""
        if self.mode == TABS and self.tabs.indexOf(page) >= 0:
            self.tabs.setCurrentWidget(page)

    def is_shown(self, page: QWidget) -> bool:
        return self.mode == SPLIT or self.tabs.currentWidget() is page

    def set_sizes(self, sizes: list[int]) -> None:
        """Pane sizes for split mode (kept while tabbed)."""
        self._sizes = list(sizes)
        if self.mode == SPLIT:
            self.splitter.setSizes(sizes)

    def sizes(self) -> list[int] | None:
        return (self.splitter.sizes() if self.mode == SPLIT else self._sizes) or None

    def update_mode(self) -> None:
        """Choose the mode for the current size (also called by resizeEvent)."""
        extent = self.width() if self.orientation == Qt.Orientation.Horizontal else self.height()
        need = self.needed()
        if self.mode == SPLIT and extent < need:
            self.set_mode(TABS)
        elif self.mode == TABS and extent >= need + HYSTERESIS_PX:
            self.set_mode(SPLIT)

    def set_mode(self, mode: str) -> None:
        if mode == self.mode:
            return
        if mode == TABS:
            self._sizes = self.splitter.sizes()
            for index, (title, page) in enumerate(self.pages):
                self.tabs.insertTab(index, page, title)
            if not self.own_tabs:
                self._layout.addWidget(self.tabs)   # out of the splitter, into this layout
            self.tabs.setCurrentIndex(0)
            self.splitter.hide()
            self.tabs.show()
        else:
            current = self.tabs.currentWidget()
            for index, (_title, page) in enumerate(self.pages):
                self.tabs.removeTab(self.tabs.indexOf(page))
                self.splitter.insertWidget(index, page)
                page.show()
            if self.own_tabs:
                self.tabs.hide()
            else:
                self.splitter.addWidget(self.tabs)   # out of this layout, back into the splitter
                if current is not None and self.tabs.indexOf(current) >= 0:
                    self.tabs.setCurrentWidget(current)
            self.splitter.show()
            if self._sizes and len(self._sizes) == self.splitter.count():
                self.splitter.setSizes(self._sizes)
        self.mode = mode
        self.mode_changed.emit(mode)

    # -- QWidget --------------------------------------------------------------------------------
    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """The tabbed form's: one page at a time, plus the tab bar."""
        widgets = [page for _title, page in self.pages] + ([] if self.own_tabs else [self.tabs])
        hints = [w.minimumSizeHint() for w in widgets]
        width = max((h.width() for h in hints), default=0)
        height = max((h.height() for h in hints), default=0)
        return QSize(width, height + self.tabs.tabBar().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._check.start()  # not here: measuring the pages would lay them out within a layout
