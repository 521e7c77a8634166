"""The window's run half: the run's model and control, the live charts, the result tabs, the runs
browser and the export bar, made after the window's first paint.

Why apart: these import pyqtgraph, numpy, the results and report machinery and the run's thread,
which take longer to load than the set-up column (target, experiments, Run) takes to build and
paint. MainWindow paints that column first and calls ``build_run_half`` right after
(MainWindow.ensure_built); docs/architecture.md, "The window in two steps".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ui.window.gc_policy import collect_on_gui_thread
from ui.window.report.figures_view import FiguresView, RunFiguresModel
from ui.window.report.report_bar import ReportBar
from ui.window.report.results_so_far import ResultsSoFar
from ui.window.report.results_table import ResultsTable
from ui.window.report.runs_browser import RunsBrowser
from ui.window.run.live_charts import LiveCharts
from ui.window.run.log_pane import LogPane
from ui.window.run.remote_note import RemoteLiveNote
from ui.window.run.run_control import RunControl
from ui.window.run.run_model import RunModel
from ui.window.run.run_progress import RunProgress
from ui.window.run_column import RunViews

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from ui.window.background import Background


@dataclass(frozen=True)
class RunHalf:
    """What the window holds of its run half: the run's state, its thread and the views."""

    model: RunModel
    control: RunControl
    remote_note: RemoteLiveNote
    run_figures: RunFiguresModel
    views: RunViews


def build_run_half(window: QMainWindow, background: Background, show_iops: bool,
                   runs_root: str) -> RunHalf:
    """The run half of ``window``, its views wired to each other (the window wires them to
    itself and to the set-up column)."""
    collect_on_gui_thread()   # before any run thread exists (see gc_policy)
    model = RunModel(window)
    control = RunControl(model, window)
    charts = LiveCharts(model, show_iops)   # made in this order: they connect to the model so
    remote_note = RemoteLiveNote(charts, model)
    progress = RunProgress(model)
    results = ResultsTable(model)
    so_far = ResultsSoFar(model)
    charts.experiment_shown.connect(so_far.show_experiment)
    log_pane = LogPane(model)
    run_figures = RunFiguresModel(model, background, window)
    figures = FiguresView(run_figures)
    report_bar = ReportBar(run_figures, background)
    report_bar.log_line.connect(log_pane.add)
    views = RunViews(charts=charts, progress=progress, results=results, so_far=so_far,
                     figures=figures, log_pane=log_pane,
                     runs_browser=RunsBrowser(background, runs_root), report_bar=report_bar)
    return RunHalf(model, control, remote_note, run_figures, views)
