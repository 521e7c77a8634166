"""The run column's inside: progress, the live charts over the result tabs, the export bar.

Why apart from ui/window/layout.py: these views import pyqtgraph, numpy and the report machinery,
which take longer to load than the whole set-up column takes to paint. The window paints the
set-up column first and builds this right after (MainWindow.ensure_built, docs/architecture.md),
into the column the layout left for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QTabWidget, QVBoxLayout, QWidget

from ui.window.adaptive import SplitOrTabs
from ui.window.widgets import em

if TYPE_CHECKING:
    from ui.window.report.figures_view import FiguresView
    from ui.window.report.report_bar import ReportBar
    from ui.window.report.results_so_far import ResultsSoFar
    from ui.window.report.results_table import ResultsTable
    from ui.window.report.runs_browser import RunsBrowser
    from ui.window.run.live_charts import LiveCharts
    from ui.window.run.log_pane import LogPane
    from ui.window.run.run_progress import RunProgress

RESULT_TABS_EM = 15         # the result tabs below the charts need this many lines to be useful


@dataclass(frozen=True)
class RunViews:
    """The run column's views, each showing one thing; RunColumn only places them."""

    charts: LiveCharts
    progress: RunProgress
    results: ResultsTable
    so_far: ResultsSoFar
    figures: FiguresView
    log_pane: LogPane
    runs_browser: RunsBrowser
    report_bar: ReportBar


class RunColumn:
    """``views`` laid out in ``column`` (an empty widget with a vertical layout): the progress
    strip, the live page (timeline, charts beside the running experiment's figure) split from
    or tabbed with the result tabs, the export bar."""

    def __init__(self, column: QWidget, views: RunViews) -> None:
        self.views = views
        self.column = column
        v = views
        self.tabs = QTabWidget()
        self.tabs.addTab(v.results, "Results")
        self.tabs.addTab(v.results.findings_page, "Findings")
        self.tabs.addTab(v.figures, "Figures")
        self.tabs.addTab(v.log_pane, "Log")
        self.tabs.addTab(v.runs_browser, "Runs")
        self.live_split = QSplitter(Qt.Orientation.Horizontal)   # time series | its figure
        self.live_split.addWidget(v.charts)
        self.live_split.addWidget(v.so_far)
        self.live_split.setStretchFactor(0, 3)
        self.live_split.setStretchFactor(1, 2)
        live = QWidget()
        live_layout = QVBoxLayout(live)
        live_layout.setContentsMargins(0, 0, 0, 0)
        live_layout.setSpacing(1)
        live_layout.addWidget(v.charts.timeline)
        live_layout.addWidget(self.live_split, 1)
        self.live_page = live
        self.area = SplitOrTabs(Qt.Orientation.Vertical, [("Live", live)], self._need,
                                tabs=self.tabs)
        layout = column.layout()
        assert isinstance(layout, QVBoxLayout)  # the layout made it so
        layout.addWidget(v.progress)
        layout.addWidget(self.area, 1)
        layout.addWidget(v.report_bar)
        self.area.mode_changed.connect(lambda mode: self.fit_split() if mode == "split" else None)

    def focus_chain(self) -> list[QWidget]:
        v = self.views
        return [v.charts.iops_box, v.charts.log_box, v.charts.follow_box, self.tabs,
                *v.report_bar.focus_chain()]

    def default_sizes(self, width: int) -> None:
        """The time series and its experiment's figure side by side in ``width``, the charts
        most of the height."""
        self.live_split.setSizes([int(width * 0.6), width - int(width * 0.6)])
        self.fit_split()

    def fit_split(self) -> None:
        height = self.area.height()
        charts = max(self.views.charts.comfortable_height(), int(height * 0.62))
        self.area.set_sizes([charts, max(1, height - charts)])

    def _need(self) -> int:
        return self.views.charts.comfortable_height() + RESULT_TABS_EM * em(self.column.window())

    def show_view(self, widget: QWidget) -> None:
        """``widget`` (the charts or a result tab) in front."""
        if widget is self.views.charts:   # the charts share their page with the timeline and figure
            widget = self.live_page
        if self.tabs.indexOf(widget) >= 0:   # the charts are a tab only when tabbed
            self.tabs.setCurrentWidget(widget)
