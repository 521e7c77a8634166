"""The Compare view's figures: one chosen at a time, each drawn when it is first chosen.

Why lazily: a comparison of runs with every experiment has thirty figures, and drawing one takes
a good part of a second on the GUI thread (the only one allowed to); drawing only what is looked
at keeps the window responsive. The drawing is the export's own (ui.render.draw, screen style),
as in the Figures tab, so what is checked here is what the exported PNG shows.
"""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from app.results.figure import Figure
from app.text import visible
from ui.window import theme
from ui.window.plain import plain_label


class ComparisonFigures(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.figures: tuple[Figure, ...] = ()
        self._plots: dict[int, QWidget] = {}
        self.selector = QComboBox()
        self.selector.setMinimumContentsLength(30)
        self.selector.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.selector.currentIndexChanged.connect(self.select)
        self.count = QLabel()
        self.caption = plain_label(QLabel())  # it quotes the runs' workload labels
        self.caption.setWordWrap(True)
        theme.set_tone(self.caption, "muted")
        self.stack = QStackedWidget()
        top = QHBoxLayout()
        top.addWidget(QLabel("Figure:"))
        top.addWidget(self.selector, 1)
        top.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.caption)
        layout.addWidget(self.stack, 1)

    def set_figures(self, figures: tuple[Figure, ...]) -> None:
        """Shown once per view (a new comparison opens a new view)."""
        self.figures = figures
        self.selector.blockSignals(True)
        for fig in figures:
            self.selector.addItem(fig.title, fig.id)
        self.selector.blockSignals(False)
        if figures:
            self.select(0)
        else:
            self.caption.setText("No figure: no workload was measured in two of the runs.")

    def select(self, index: int) -> None:
        if not 0 <= index < len(self.figures):
            return
        from ui.render.draw import figure_widget  # pyqtgraph loads when a figure is first drawn
        fig = self.figures[index]
        if index not in self._plots:
            self._plots[index] = figure_widget(fig)
            self.stack.addWidget(self._plots[index])
        if self.selector.currentIndex() != index:
            self.selector.setCurrentIndex(index)
        self.stack.setCurrentWidget(self._plots[index])
        self.caption.setText(visible(fig.caption, lines=True))   # bidi shown, not obeyed
        self.count.setText(f"{index + 1} of {len(self.figures)}")

    def figure_ids(self) -> list[str]:
        return [f.id for f in self.figures]

    def current_plot(self) -> QWidget | None:
        return self._plots.get(self.selector.currentIndex())
