"""The main window: pick the drive, tick experiments, Run, watch, read the results.

It only assembles and wires: the views (setup/, run/, report/) each show one thing and take their
model in the constructor; RunControl owns the worker thread; Background runs the short slow calls
(engine detection, volumes, target checks, loading past runs). Nothing slow runs on the GUI thread.
It holds its parts as objects: where the views sit (``panes``, ui/window/layout.py), when it may
close (``close_guard``) and what it remembers (``memory``, both ui/window/closing.py); the menus
are ui/window/menus.py. Dialogs are attributes (``confirm_close``, ``engine_dialog``)
and the folder opener is ``open_url``, so tests can replace or inspect them without a modal loop
blocking.
"""
from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox

from app import APP_NAME, __version__
from app.model.status import RunStatus
from app.store.run_folder import default_runs_root
from jobs.engine.factory import default_engine
from jobs.events import RunFinished
from ui.window import theme
from ui.window.background import Background
from ui.window.closing import CloseGuard, WindowMemory, ask_close
from ui.window.gc_policy import collect_on_gui_thread, load_outside_collections
from ui.window.layout import WindowLayout, WindowViews
from ui.window.menus import build_menus
from ui.window.report.figures_view import FiguresView, RunFiguresModel
from ui.window.report.report_bar import ReportBar
from ui.window.report.results_so_far import ResultsSoFar
from ui.window.report.results_table import ResultsTable
from ui.window.report.runs_browser import RunsBrowser
from ui.window.run.live_charts import LiveCharts
from ui.window.run.log_pane import LogPane
from ui.window.run.past_runs import load_past_run
from ui.window.run.remote_note import RemoteLiveNote
from ui.window.run.run_control import RunControl
from ui.window.run.run_model import RunModel
from ui.window.run.run_progress import RunProgress
from ui.window.run.run_text import CANCELLED_EARLY, run_end_text
from ui.window.settings import AppSettings
from ui.window.setup.drive_panel import DrivePanel
from ui.window.setup.engine_picker import EnginePicker, engine_label, engine_text, retry_advice
from ui.window.setup.experiment_panel import ExperimentPanel
from ui.window.setup.remote_field import remote_address

if TYPE_CHECKING:
    from ui.window.crash import CrashReporter

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    def __init__(self, settings: AppSettings | None = None, engine_path: str | None = None,
                 runs_root: str | None = None):
        super().__init__()
        collect_on_gui_thread()   # before any worker thread exists (see gc_policy)
        self.settings = settings or AppSettings()
        self.engine_path = engine_path
        self.engine = None             # EngineInfo of the chosen engine, once found
        self.engine_error: str | None = None
        self.engine_dialog: QMessageBox | None = None
        self.confirm_close = lambda: ask_close(self)
        self.open_url = None           # None: QDesktopServices.openUrl (tests pass their own)
        self.crash_reporter: CrashReporter | None = None  # the app's (ui.window.app), not tests''
        self.setWindowTitle(f"{APP_NAME} {__version__}")

        self.background = Background(self)
        self.model = RunModel(self)
        self.engine_picker = EnginePicker(self.background, self.settings.engine or default_engine(),
                                          engine_path, self.settings.engine_paths)
        self.control = RunControl(self.model, self)
        self.drive_panel = DrivePanel(self.background, self.settings.target, self.settings.remote)
        self.experiment_panel = ExperimentPanel(self.settings.experiments)
        self.charts = LiveCharts(self.model, self.settings.show_iops)
        self.remote_note = RemoteLiveNote(self.charts, self.model)
        self.progress = RunProgress(self.model)
        self.results = ResultsTable(self.model)
        self.so_far = ResultsSoFar(self.model)
        self.charts.experiment_shown.connect(self.so_far.show_experiment)
        self.log_pane = LogPane(self.model)
        self.run_figures = RunFiguresModel(self.model, self.background, self)
        self.figures = FiguresView(self.run_figures)
        self.report_bar = ReportBar(self.run_figures, self.background)
        root = runs_root or self.settings.runs_root or str(default_runs_root())
        self.runs_browser = RunsBrowser(self.background, root)
        self.panes = WindowLayout(self, WindowViews(
            self.drive_panel, self.experiment_panel, self.engine_picker, self.charts, self.progress,
            self.results, self.so_far, self.figures, self.log_pane, self.runs_browser,
            self.report_bar))
        panes = self.panes   # the widgets the window itself drives (and tests press)
        self.run_button, self.cancel_button, self.run_hint = (panes.run_button, panes.cancel_button,
                                                              panes.run_hint)
        self.engine_label, self.tabs = panes.engine_label, panes.tabs
        self.show_run_view, self.show_setup_page = panes.show_run_view, panes.show_setup_page
        self.close_guard = CloseGuard(self, self.control, lambda: self.confirm_close(),
                                      self.cancel_run, self._shut_down)
        self.memory = WindowMemory(self, self.settings, panes, self._remember)
        self._build_actions()
        self._wire()
        self.memory.restore()
        self.drive_panel.set_test_size(self.experiment_panel.plan.size_bytes)
        self.engine_picker.locate()
        self._update_actions()

    # -- construction ---------------------------------------------------------------------------
    def _build_actions(self) -> None:
        self.run_action = QAction("Run", self)
        self.run_action.setShortcut(QKeySequence("Ctrl+R"))
        self.run_action.triggered.connect(self.start_run)
        self.cancel_action = QAction("Cancel", self)
        self.cancel_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.cancel_action.triggered.connect(self.cancel_run)
        for action in (self.run_action, self.cancel_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.addAction(action)
        self.run_button.clicked.connect(self.run_action.trigger)
        self.cancel_button.clicked.connect(self.cancel_action.trigger)
        build_menus(self)

    def _wire(self) -> None:
        self.experiment_panel.plan_changed.connect(
            lambda plan: self.drive_panel.set_test_size(plan.size_bytes))
        self.experiment_panel.plan_changed.connect(lambda _plan: self._update_actions())
        self.drive_panel.check_changed.connect(self._on_target_checked)
        self.drive_panel.info.described.connect(
            lambda d: self.report_bar.set_drive(d.vendor_key if d else None, d.model_note if d else ""))
        self.drive_panel.target_changed.connect(lambda _t: self._update_actions())
        self.charts.iops_toggled.connect(lambda on: setattr(self.settings, "show_iops", on))
        self.runs_browser.open_requested.connect(self.open_run)
        self.runs_browser.runs_root_changed.connect(lambda p: setattr(self.settings, "runs_root", p))
        self.report_bar.log_line.connect(self.log_pane.add)
        self.engine_picker.looking.connect(self._engine_looking)
        self.engine_picker.found.connect(self._engine_found)
        self.engine_picker.missing.connect(self._engine_missing)
        self.control.event.connect(self._on_event)
        self.control.ended.connect(self._on_run_ended)

    def _on_target_checked(self, report) -> None:
        self.panes.set_target_mark(report.ok if report.path else None)
        self._update_actions()

    # -- engine ---------------------------------------------------------------------------------
    def _engine_looking(self, name: str) -> None:
        """An engine was chosen: Run waits until it is found. A choice other than the per-OS
        default is remembered (so a first launch follows the default if DiskSpd comes later)."""
        if name != (self.settings.engine or default_engine()):
            self.settings.engine = name
        self.engine, self.engine_error = None, None
        if self.engine_dialog is not None:
            self.engine_dialog.close()
        self.engine_label.setText(f"Engine: looking for {engine_label(name)}...")
        self._update_actions()

    def _engine_found(self, engine) -> None:
        self.engine, self.engine_error = engine, None
        self.engine_label.setText(f"Engine: {engine_text(engine)}")
        self._update_actions()

    def _engine_missing(self, name: str, message: str) -> None:
        self.engine, self.engine_error = None, message
        label = engine_label(name)
        self.engine_label.setText(f"Engine: {label} not found")
        self.engine_dialog = QMessageBox(QMessageBox.Icon.Warning, f"{label} is needed", "",
                                         parent=self)
        self.engine_dialog.setText(f"SSD Profiler measures with {label}, which was not found.")
        self.engine_dialog.setInformativeText(
            f"{message}.\n\n{retry_advice(name)}")
        self.engine_dialog.open()  # window-modal but not blocking: the app stays usable
        self._update_actions()

    # -- run ------------------------------------------------------------------------------------
    def run_blocker(self) -> str | None:
        """Why Run is disabled right now (None: it is enabled)."""
        if self.control.running:
            return "a run is going on; cancel it first (Esc)"
        plan = self.experiment_panel.plan
        if not plan.ok:  # what the user typed first: it is shown at once, even while looking
            return plan.message
        if self.engine_error:
            return self.engine_error
        if self.engine is None:
            return "looking for the measuring engine..."
        report = self.drive_panel.report
        if not self.drive_panel.is_ready():
            return report.reason if report and not report.ok else "checking the target folder..."
        return None

    def _update_actions(self) -> None:
        blocker = self.run_blocker()
        shown = html.escape(blocker or "")  # it may quote what the user typed: never markup
        running = self.control.running
        self.run_action.setEnabled(blocker is None)
        self.run_button.setEnabled(blocker is None)
        self.run_button.setToolTip(f"<p>{shown}</p>" if blocker else "Start the run (Ctrl+R)")
        self.cancel_action.setEnabled(running)
        self.cancel_button.setEnabled(running and not self.control.cancelling)
        self.drive_panel.set_running(running)
        self.engine_picker.setEnabled(not running)
        self.experiment_panel.setEnabled(not running)
        if running:
            self.run_hint.setText(f"Running. Esc cancels: {engine_label(self.engine_picker.name)} "
                                  "is stopped within seconds and "
                                  "finished trials are kept.")
        elif blocker and not blocker.startswith(("looking", "checking")):
            self.run_hint.setText(theme.span("error", f"Run is disabled: {shown}"))
        else:
            self.run_hint.setText("")
        self.run_hint.setVisible(bool(self.run_hint.text()))

    def start_run(self) -> None:
        if self.run_blocker() is not None:
            return
        self.settings.target = self.drive_panel.target()
        self.settings.remote = remote = self.drive_panel.remote.address()
        self.settings.experiments = self.experiment_panel.state()
        self.control.start(self.experiment_panel.selected_ids(), self.experiment_panel.settings(),
                           self.drive_panel.target(), self.runs_browser.runs_root,
                           self.engine.path if self.engine else self.engine_path,
                           engine=self.engine_picker.name, remote=remote_address(remote) if remote else "")
        self.statusBar().showMessage("Run started.")
        self.show_run_view(self.charts)
        self._update_actions()

    def cancel_run(self) -> None:
        if self.control.running:
            self.control.cancel()
            self.statusBar().showMessage("Cancelling: stopping the engine, keeping finished "
                                         "trials...")
            self._update_actions()

    def _on_event(self, event) -> None:
        from jobs.worker import RunRefused  # loaded with the run (RunControl.start)

        if isinstance(event, RunRefused) and self.model.status == RunStatus.CANCELLED:
            self.statusBar().showMessage(CANCELLED_EARLY)
        elif isinstance(event, RunRefused):
            self.statusBar().showMessage(f"Run not started: {self.model.error}")
            self.show_run_view(self.log_pane)
        elif isinstance(event, RunFinished):
            self.statusBar().showMessage(run_end_text(event.status, self.model, event.run_dir))
            self.runs_browser.refresh()

    def _on_run_ended(self) -> None:
        self.drive_panel.set_test_size(self.experiment_panel.plan.size_bytes)
        self.drive_panel.recheck()  # free space changed; a crash may have left files
        self._update_actions()
        if self.close_guard.closing:
            self.close()

    # -- closing and what is remembered ---------------------------------------------------------
    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.close_guard.close_event(event)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.memory.shown()

    def _remember(self, s: AppSettings) -> None:
        s.target = self.drive_panel.target()
        s.remote = self.drive_panel.remote.address()
        s.experiments = self.experiment_panel.state()
        s.runs_root = self.runs_browser.runs_root

    def _shut_down(self) -> None:
        self.memory.save()
        self.report_bar.shutdown()
        self.background.shutdown()

    def fit_to_screen(self) -> None:
        self.panes.fit_to_screen(self.memory.restored)

    # -- past runs ------------------------------------------------------------------------------
    def open_run(self, run_dir: str) -> None:
        if self.control.running:
            self.statusBar().showMessage("A run is going on; open past runs after it ends.")
            return
        self.statusBar().showMessage(f"Opening {run_dir}...")
        self.background.submit(lambda: load_outside_collections(lambda: load_past_run(run_dir)),
                               self._show_past,
                               lambda exc: self.statusBar().showMessage(f"Cannot open {run_dir}: {exc}"))

    def _show_past(self, past) -> None:
        if self.control.running:
            return
        self.model.load_past(past)
        self.show_run_view(self.results)
        self.statusBar().showMessage(f"Showing {past.record.get('dir')} ({past.record.get('status')})")
