"""The Figures tab: the report's figures of the shown run, drawn by the export's own code.

Why the same code: ``ui.render.draw.figure_widget`` draws a figure spec with the function the
PNG export uses (only the style differs: screen fonts instead of report fonts), so what a user
checks here is what report.md will show. The specs are computed in the background from the run
folder (:mod:`ui.window.report.run_figures`); widgets are made here, on the GUI thread, one
figure at a time when it is first selected, so a run with many figures does not stall the window.

:class:`RunFiguresModel` owns "the figures of the shown run" so that this view and the report
bar (export, vendor status) read one state and neither reaches into the other.
"""
from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from app.results.run_results import RunResults
from app.text import visible
from ui.window import theme
from ui.window.background import Background
from ui.window.plain import plain_label, plain_tip
from ui.window.report.run_figures import RunFigures, load_run_figures
from ui.window.run.run_model import RunModel
from ui.window.run.run_state import RunState

log = logging.getLogger(__name__)


class RunFiguresModel(QObject):
    """Loads the figures of the shown run once it has ended (or was reopened); ``changed``
    fires when loading starts, ends or fails. Late results of a run no longer shown are dropped
    (a token per request), so switching runs quickly never shows the wrong figures."""

    changed = Signal()

    def __init__(self, model: RunModel, background: Background, parent: QObject | None = None):
        super().__init__(parent)
        self.model = model
        self.background = background
        self.current: RunFigures | None = None
        self.loading: str | None = None      # run folder being read
        self.error: str | None = None
        self._token = 0
        model.reset.connect(self._on_reset)
        model.state_changed.connect(self._maybe_load)

    def run_ready(self) -> bool:
        """A run folder is shown and nothing is writing it from this window any more."""
        m = self.model
        return bool(m.run_dir) and (m.finished or not m.live) and m.status is not RunState.REFUSED

    def _on_reset(self) -> None:
        self._token += 1
        self.current, self.loading, self.error = None, None, None
        self.changed.emit()

    def _maybe_load(self) -> None:
        if not self.run_ready():
            return
        shown = self.current.run_dir if self.current else None
        if self.model.run_dir not in (shown, self.loading):
            results = self.model.results   # a reopened run's were just built from its folder
            if self.model.live or results is None or str(results.folder) != self.model.run_dir:
                results = None
            self.reload(results)

    def reload(self, results: RunResults | None = None) -> None:
        """Read the shown run folder again (after a vendor spec was saved into it, say), or
        make the figures of ``results``, built from it a moment ago."""
        if not self.run_ready():
            return
        self._token += 1
        token, run_dir = self._token, str(self.model.run_dir)
        self.loading, self.error = run_dir, None
        self.changed.emit()
        self.background.submit(lambda: load_run_figures(run_dir, results),
                               lambda result: self._loaded(token, result),
                               lambda exc: self._failed(token, run_dir, exc))

    def _loaded(self, token: int, result: RunFigures) -> None:
        if token == self._token:
            self.current, self.loading = result, None
            self.changed.emit()

    def _failed(self, token: int, run_dir: str, exc: BaseException) -> None:
        if token == self._token:
            log.warning("figures of %s: %s", run_dir, exc)
            self.loading, self.error = None, f"cannot draw the figures of {run_dir}: {exc}"
            self.changed.emit()


class FiguresView(QWidget):
    def __init__(self, figures: RunFiguresModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.figures = figures
        self._shown: RunFigures | None = None
        self._plots: dict[int, QWidget] = {}
        self.selector = QComboBox()
        self.selector.setMinimumContentsLength(40)
        self.selector.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.selector.currentIndexChanged.connect(self._select)
        self.count = QLabel()
        self.caption = plain_label(QLabel())  # captions and errors quote the run's own text
        self.caption.setWordWrap(True)
        theme.set_tone(self.caption, "muted")
        self.message = plain_label(QLabel())
        self.message.setWordWrap(True)
        self.message.setMargin(12)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.message)

        self.header = QWidget()  # hidden while there is no figure to choose
        top = QHBoxLayout(self.header)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel("Figure:"))
        top.addWidget(self.selector, 1)
        top.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addWidget(self.header)
        layout.addWidget(self.caption)
        layout.addWidget(self.stack, 1)
        figures.changed.connect(self._refresh)
        self._refresh()

    # -- for tests and the window --------------------------------------------------------------
    def figure_ids(self) -> list[str]:
        return [f.id for f in self._shown.figures] if self._shown else []

    def current_plot(self) -> QWidget | None:
        return self._plots.get(self.selector.currentIndex())

    # -- drawing -------------------------------------------------------------------------------
    def _refresh(self) -> None:
        f = self.figures
        if f.current is not self._shown:
            self._clear()
            self._shown = f.current
            if self._shown is not None:
                self.selector.blockSignals(True)
                for fig in self._shown.figures:
                    self.selector.addItem(fig.title, fig.id)
                self.selector.blockSignals(False)
                if self._shown.figures:
                    self._select(0)
        has_figures = self._shown is not None and bool(self._shown.figures)
        self.header.setVisible(has_figures)
        if has_figures:
            return
        self.caption.setVisible(False)
        self.message.setText(self._message_text())
        self.stack.setCurrentWidget(self.message)

    def _message_text(self) -> str:
        f, m = self.figures, self.figures.model
        if f.error:
            return f.error
        if f.loading:
            return f"Computing the figures of {f.loading}..."
        if f.current is not None:
            return ("No figures: no experiment of this run finished all the trials of a workload. "
                    "Export still writes the tables and report.md.")
        if m.status in (RunState.PREPARING, RunState.RUNNING):
            return ("The report's figures are drawn here when the run ends (finished, cancelled "
                    "or failed). The live charts above show the run now.")
        return ("No run shown. The figures of a run appear here when it ends, or when you reopen "
                "one from the Runs tab; they are drawn by the same code as the exported PNGs.")

    def _clear(self) -> None:
        self.selector.blockSignals(True)
        self.selector.clear()
        self.selector.blockSignals(False)
        for widget in self._plots.values():
            self.stack.removeWidget(widget)
            widget.deleteLater()
        self._plots.clear()
        self.caption.clear()
        self.count.clear()

    def _select(self, index: int) -> None:
        if self._shown is None or not 0 <= index < len(self._shown.figures):
            return
        from ui.render.draw import figure_widget  # pyqtgraph loads when a figure is first drawn
        fig = self._shown.figures[index]
        if index not in self._plots:
            plot = figure_widget(fig)
            plot.setToolTip(plain_tip(visible(fig.caption or fig.title, lines=True)))
            self._plots[index] = plot
            self.stack.addWidget(plot)
        if self.selector.currentIndex() != index:
            self.selector.setCurrentIndex(index)
        self.stack.setCurrentWidget(self._plots[index])
        self.caption.setText(visible(fig.caption or "", lines=True))   # bidi shown, not obeyed
        self.caption.setVisible(bool(fig.caption))
        self.count.setText(f"{index + 1} of {len(self._shown.figures)}")
