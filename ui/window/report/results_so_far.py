"""Results so far: the running experiment's own figure, drawn while the run goes on.

Why: what a student watches a sweep for is the curve forming (IOPS against queue depth, MB/s
against block size, the mix), not only the exported figure after the run. This view draws the
export's own figure specs (app/report/outputs.py ``build_figures`` over the RunResults the run
model rebuilds at each trial's end) with the export's drawing code (ui/render/draw.py), so each
point appears when its trial ends and its error bar grows with the repetitions, and the findings
(knee, crossover, exhaustion point) are worded by the same sentences as report.md as soon as the
data supports them.

Cost beside fio: it redraws only when a trial of the shown experiment ended (never per sample),
builds only that experiment's figures, waits while hidden (a tab not in front) until shown, and
draws a newer state of the same figure into the plot that shows it (ui/render/redraw.py: no new
PlotWidget, no relayout of the pane; also when a series or marker was added), and paints the
pane once when the redraw has settled (HOLD_MS), not at each of its steps. While the run goes
on it draws within a budget (BUDGET of a core): after a drawing that took c seconds of the GUI
thread, the next waits c / BUDGET (between MIN_GAP_S and MAX_GAP_S; a burst of short trials is
drawn once, then caught up), so a slow machine or a big figure redraws less often instead of
taking more from fio (a drawing of 20 ms with its paints: every 20 s; the budget once left
the paints out, and a 20 s cap let a slow drawing take more); a trial of a minute or more is
drawn as soon as it ends. The drawing code, and the plot of the first drawing (making it was
most of that drawing), are ready when a run starts (while the test file is laid out), not
beside the first trial. In this narrow pane the figure's title sits above the plot, wrapped,
and long legend entries wrap, so neither widens the plot past the pane; a figure of panels side
by side shows one panel at a time (ui/window/report/narrow_figures.py).
"""
from __future__ import annotations

import html
import time
from dataclasses import replace

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.report.outputs import build_figures, findings
from app.results.figure import Figure
from app.results.run_results import ExperimentResults
from ui.window import theme
from ui.window.plain import plain_tip
from ui.window.report.findings_text import findings_html
from ui.window.report.narrow_figures import a_panel_each, legend_to_line, without_point_labels
from ui.window.run.run_model import RunModel
from ui.window.run.run_state import RunState

MIN_GAP_S = 2.0
MAX_GAP_S = 60.0  # a drawing so slow that its gap would be longer: redrawn once a minute
BUDGET = 0.001    # share of a core a drawing may average over the gap after it, counted from
#                   its start to its held paint (labels placed, pane painted: about as much
#                   again as the drawing; a sample handled meanwhile counts too): a tenth of
#                   the window's 1 % beside fio (docs/performance.md)
SETTLE_MS = 150   # labels are placed once the plot's resizes after a redraw have settled
HOLD_MS = SETTLE_MS + 100   # the pane shows its earlier figure meanwhile, then paints once
WAITING = ("The running experiment's figure appears here: each point when its trial ends, its "
           "error bar growing with the repetitions.")


class ResultsSoFar(QWidget):
    """Follows the run (or ``show_experiment``, the experiment the live charts show)."""

    def __init__(self, model: RunModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setAutoFillBackground(True)   # opaque: a redraw never repaints the window beneath
        self.experiment: str | None = None     # shown experiment (None: none has results yet)
        self.figures: list[Figure] = []             # the shown experiment's figure specs
        self.redraws = 0
        self._drawn_key: tuple[str, int, RunState] | None = None   # what the shown plot was drawn from
        self._pending = False                  # a redraw waits for the view to be shown
        self._last = float("-inf")             # monotonic time of the last drawing
        self._gap = MIN_GAP_S                  # how long the next drawing waits after it
        self._cost_from: float | None = None   # GUI thread time when the last drawing began
        self._later = QTimer(self)             # the redraw a recent one put off
        self._later.setSingleShot(True)
        self._later.timeout.connect(self._refresh)
        self._release = QTimer(self)           # ends a redraw's hold on the pane's paints
        self._release.setSingleShot(True)
        self._release.timeout.connect(self._paint_again)
        self.selector = QComboBox()            # an experiment with several figures
        self.selector.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.selector.setMinimumContentsLength(8)
        self.selector.currentIndexChanged.connect(lambda _i: self._redraw())
        self.title = QLabel()
        self.figure_title = QLabel()   # the shown figure's title, wrapped (the pane is narrow)
        self.figure_title.setWordWrap(True)
        self.figure_title.setTextFormat(Qt.TextFormat.PlainText)   # a run.json's own words
        self.figure_title.hide()
        self.message = QLabel(WAITING)
        self.message.setWordWrap(True)
        self.message.setMargin(12)
        theme.set_tone(self.message, "muted")
        self.stack = QStackedWidget()
        self.stack.addWidget(self.message)
        self.plot: QWidget | None = None
        self._spare = None                     # a plot made ahead for the run's first drawing
        self.found = QTextBrowser()   # the findings so far, under a handle the user can drag
        self.found.setMinimumHeight(2 * self.found.fontMetrics().lineSpacing())
        # a share of the height by the splitter's stretch only: its own size hint took 40 %
        # of the pane at 1280x720, the plot's data area got 10-25 %
        self.found.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.legend_line = QLabel()   # a legend too tall for the pane, as one wrapped line
        self.legend_line.setWordWrap(True)
        self.legend_line.setTextFormat(Qt.TextFormat.RichText)   # names escaped (_legend_line)
        self.legend_line.hide()
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title, 1)
        head.addWidget(self.selector, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addWidget(self.figure_title)
        layout.addWidget(self.legend_line)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.stack)
        self.split.addWidget(self.found)
        self.split.setStretchFactor(0, 5)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([5000, 1000])   # the figure five sixths until the user drags
        self.split.setChildrenCollapsible(False)
        layout.addWidget(self.split, 1)
        model.reset.connect(self._on_reset)
        model.summary_changed.connect(self._refresh)
        self._on_reset()

    # -- for the window and tests ---------------------------------------------------------------
    def show_experiment(self, eid: str) -> None:
        if eid != self.experiment:
            self.experiment = eid
            self._refresh()

    def figure_ids(self) -> list[str]:
        return [f.id for f in self.figures]

    def points(self) -> int:
        """Points with a value in the figure shown (every series of every panel; for tests)."""
        fig = self._current()
        parts = (fig.panels or (fig,)) if fig else ()
        return sum(1 for p in parts for s in p.series for y in s.y if y is not None)

    # -- model -> view --------------------------------------------------------------------------
    def _on_reset(self) -> None:
        if self.model.live:   # a run is under way: its first point is drawn without the import
            import ui.render.redraw  # noqa: F401  nor making its plot
            from ui.render.draw import empty_figure_widget
            self._spare = empty_figure_widget()
        self.experiment, self.figures, self._drawn_key = None, [], None
        self._set_plot(None)
        self.selector.clear()
        self.selector.hide()
        self.title.setText("<b>Results so far</b>")
        self.title.setToolTip("")
        self.found.clear()
        self.found.hide()
        self._refresh()

    def _shown_part(self) -> ExperimentResults | None:
        results = self.model.results
        if results is None:
            return None
        if self.experiment is None:   # the latest experiment with a finished measured trial
            started = [p for p in results.parts if p.workloads]
            return started[-1] if started else None
        return results.part(self.experiment)

    def _refresh(self) -> None:
        if not self.isVisible():
            self._pending = True
            return
        self._pending = False
        part = self._shown_part()
        key = None if part is None else (part.id, len(part.trials), self.model.status)
        if key == self._drawn_key:
            if key is None and self.plot is None:   # nothing yet: say what comes first
                self.message.setText(self._waiting_note() + WAITING)
            return   # a warm-up or another experiment's trial ended: nothing new to draw
        wait = self._last + self._gap - time.monotonic()
        same = self._drawn_key is not None and key is not None and key[0] == self._drawn_key[0]
        if same and wait > 0 and not self.model.finished:
            if not self._later.isActive():
                self._later.start(int(wait * 1000) + 1)
            return
        self._later.stop()
        self._drawn_key = key
        started = time.thread_time()
        if part is not None:
            title = part.entry.title or part.id
            self.title.setText(f"<b>So far</b>: {html.escape(part.id)}")
            self.title.setToolTip(plain_tip(f"Results so far of {title}: {len(part.trials)} "
                                            "measured trials ended"))   # the run's own words
        results = self.model.results   # not None when there is a part: the part is one of its
        if part is None or results is None or not part.workloads:
            self.figures = []
            self.selector.hide()
            self._set_plot(None)
            self.found.hide()
            return
        self.figures = a_panel_each(build_figures(results, only=part.id))
        ids = self.figure_ids()
        listed = [self.selector.itemData(i) for i in range(self.selector.count())]
        if ids != listed:   # rebuilt only when it changes: each rebuild lays the pane out again
            wanted = self.selector.currentData()
            self.selector.blockSignals(True)
            self.selector.clear()
            for i, fig in enumerate(self.figures):   # short: the plot shows the whole title
                self.selector.addItem(f"figure {i + 1} of {len(self.figures)}", fig.id)
                self.selector.setItemData(i, plain_tip(fig.title), Qt.ItemDataRole.ToolTipRole)
            self.selector.setCurrentIndex(ids.index(wanted) if wanted in ids else 0)
            self.selector.blockSignals(False)
        self.selector.setVisible(len(self.figures) > 1)
        lines = findings(part, results)
        self.found.setHtml(findings_html(html.escape(line) for line in lines))
        self.found.setVisible(bool(lines))
        self._redraw()
        self._gap = self._gap_after(started)
        self._cost_from = started

    def _gap_after(self, started: float) -> float:
        return min(MAX_GAP_S, max(MIN_GAP_S, (time.thread_time() - started) / BUDGET))

    def _paint_again(self) -> None:
        self.stack.setUpdatesEnabled(True)
        if self._cost_from is not None and self.isVisible():   # the held paint now, so that
            self.stack.repaint()                                 # the gap counts it too
            self._gap = max(self._gap, self._gap_after(self._cost_from))
        self._cost_from = None

    def _current(self) -> Figure | None:
        index = self.selector.currentIndex()
        return self.figures[index] if 0 <= index < len(self.figures) else None

    def _redraw(self) -> None:
        fig = self._current()
        if fig is None:
            self._set_plot(None)
            return
        fig = without_point_labels(fig)
        # a redraw settles over several event-loop turns (the pane's relayout, the plot's
        # ranges, the labels placed after SETTLE_MS), each painting the plot again (3-4 ms a
        # paint, six a redraw); held, the pane paints once, when it has settled
        self.stack.setUpdatesEnabled(False)
        self._release.start(HOLD_MS)
        from ui.render.redraw import fit_narrow, redraw
        self.figure_title.setText(fig.title)
        width = max(200, self.stack.width())
        drawn = getattr(self.plot, "_ssd", None)   # what ui.render.draw drew into it
        if drawn is None or drawn.style.width != width or not redraw(drawn, fig):
            self._set_plot(self._new_plot(fig, width))
        else:   # the legend made anew, or an entry renamed ('knee' becoming 'deepest, no
            fit_narrow(drawn, width)   # knee ...'): its long entries wrapped again
        assert self.plot is not None
        legend_to_line(getattr(self.plot, "_ssd", None), self.legend_line, self.stack.height() / 3)
        self.plot.setToolTip(plain_tip(fig.caption or fig.title))
        self.redraws += 1
        self._last = time.monotonic()   # only a drawn figure counts: the first point is not put off

    def _new_plot(self, fig: Figure, width: int) -> QWidget:
        from ui.render.draw import figure_widget  # pyqtgraph loads with the first figure
        from ui.render.redraw import fit_narrow
        from ui.render.style import SCREEN
        # as many legend columns as this pane holds: a legend laid out for the Figures tab's
        # width would push the plot out of a narrow pane
        style = replace(SCREEN, width=width)
        # labels placed once, at the pane's size (placing them is most of a redraw's cost)
        plot = figure_widget(fig, style, place=False, widget=self._spare)
        self._spare = None
        fit_narrow(plot._ssd, width)   # the title above the plot, wrapped; so is the legend
        plot._ssd.settle_ms = SETTLE_MS
        plot.resize(self.stack.size())
        widget: QWidget = plot   # a pyqtgraph PlotWidget (pyqtgraph ships no types)
        return widget

    def _set_plot(self, plot: QWidget | None) -> None:
        if self.plot is not None:
            self.stack.removeWidget(self.plot)
            self.plot.deleteLater()
        self.plot = plot
        self.figure_title.setVisible(plot is not None)
        if plot is None:
            self.legend_line.hide()
        if plot is not None:
            self.stack.addWidget(plot)
            self.stack.setCurrentWidget(plot)
        else:
            self.message.setText(self._waiting_note() + WAITING)
            self.stack.setCurrentWidget(self.message)

    def _waiting_note(self) -> str:
        """What comes before the first point: warm-ups only where the experiment has some (the
        SLC test has none: its one long write is the measurement)."""
        if self.model.status is RunState.IDLE:
            return "No run yet. "
        m = self.model
        eid = self.experiment or (m.current.experiment if m.current is not None else None)
        mine = [t for t in m.planned.values() if eid is None or t.experiment == eid]
        if any(t.precondition for t in mine):
            return "Precondition rounds run first and are not counted. "
        return "Warm-ups run first and are not counted. " if any(t.warmup for t in mine) else ""

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._pending:
            self._refresh()
