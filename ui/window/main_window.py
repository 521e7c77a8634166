"""The main window: pick the drive, tick experiments, Run, watch, read the results.

It only assembles and wires: the views (setup/, run/, report/) each show one thing and take their
model in the constructor; RunControl owns the worker thread; Background runs the short slow calls
(engine detection, volumes, target checks, loading past runs). Nothing slow runs on the GUI thread.
It holds its parts as objects: where the views sit (``panes``, ui/window/layout.py), when it may
close (``close_guard``) and what it remembers (``memory``, both ui/window/closing.py); the menus
are ui/window/menus.py. Dialogs are attributes (``confirm_close``, ``engine_dialog``)
and the folder opener is ``open_url``, so tests can replace or inspect them without a modal loop
blocking.

It is built in two steps so that it paints in half a second: the set-up column first (what a
user sees and edits first), then, right after the first paint, the run half (ui/window/run_half.py:
the charts, result tabs, runs browser and the run's thread, which import pyqtgraph and numpy).
Run stays disabled until the run half exists. ``load_later`` False (tests, benchmarks) builds
both at once; ``ensure_built`` builds the run half now.
"""
from __future__ import annotations

import html
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QPaintEvent, QShowEvent
from PySide6.QtWidgets import QDialog, QMainWindow, QMessageBox

from app import APP_NAME, __version__
from app.model.status import RunStatus
from jobs.engine.factory import default_engine
from ui.window import theme
from ui.window.background import Background
from ui.window.closing import CloseGuard, WindowMemory, ask_close
from ui.window.engine_status import EngineStatus
from ui.window.folders import Opener, PathDialog
from ui.window.gc_policy import load_outside_collections, pause_collections
from ui.window.layout import SetupViews, WindowLayout
from ui.window.menus import add_report_actions, build_menus
from ui.window.run.run_state import RunState
from ui.window.run.run_text import CANCELLED_EARLY, run_end_text
from ui.window.settings import AppSettings
from ui.window.setup.drive_panel import DrivePanel
from ui.window.setup.engine_picker import EngineInfo, EnginePicker, engine_label
from ui.window.setup.experiment_panel import ExperimentPanel
from ui.window.setup.remote_field import remote_address

if TYPE_CHECKING:
    from jobs.events import Event
    from jobs.worker import RunPrepared, RunRefused
    from ui.window.crash import CrashReporter
    from ui.window.help_dialog import BrowserDialog
    from ui.window.run.past_runs import PastRun
    from ui.window.setup.drive_text import DriveSummary
    from ui.window.setup.target_check import TargetReport

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    # made by ui/window/menus.py (show_how_to, open_log_folder, show_about)
    help_dialog: QDialog
    folder_dialog: PathDialog | None
    about_box: BrowserDialog

    def __init__(self, settings: AppSettings | None = None, engine_path: str | None = None,
                 runs_root: str | None = None, load_later: bool = False):
        super().__init__()
        pause_collections()   # before any worker thread exists (see gc_policy)
        self.built = False             # the run half exists (ensure_built)
        self._opening = ""             # the past run asked for last (open_run)
        self._build_queued = False
        self.settings = settings or AppSettings()
        self.engine_path = engine_path
        self.engine: EngineInfo | None = None   # the chosen engine, once found
        self.engine_error: str | None = None
        self.engine_dialog: QMessageBox | None = None
        self.confirm_close: Callable[[], bool] = lambda: ask_close(self)
        self.open_url: Opener | None = None   # None: QDesktopServices.openUrl (tests pass their own)
        self.crash_reporter: CrashReporter | None = None  # the app's (ui.window.app), not tests''
        self.setWindowTitle(f"{APP_NAME} {__version__}")

        self.background = Background(self, held=load_later)   # released at the first paint
        self.engine_picker = EnginePicker(self.background, self.settings.engine or default_engine(),
                                          engine_path, self.settings.engine_paths)
        self.drive_panel = DrivePanel(self.background, self.settings.target, self.settings.remote)
        self.experiment_panel = ExperimentPanel(self.settings.experiments, later=load_later)
        self._runs_root = runs_root or self.settings.runs_root
        self.panes = WindowLayout(self, SetupViews(self.drive_panel, self.experiment_panel,
                                                   self.engine_picker))
        panes = self.panes   # the widgets the window itself drives (and tests press)
        self.run_button, self.cancel_button, self.run_hint = (panes.run_button, panes.cancel_button,
                                                              panes.run_hint)
        self.engine_label = panes.engine_label
        self.show_run_view, self.show_setup_page = panes.show_run_view, panes.show_setup_page
        self.memory = WindowMemory(self, self.settings, panes, self._remember)
        self._build_actions()
        self._wire()
        self.memory.restore()
        self.drive_panel.set_test_size(self.experiment_panel.plan.size_bytes)
        self.engine_picker.locate()
        if not load_later:
            self.ensure_built()
        self._update_actions()

    def ensure_built(self) -> None:
        """The run half (charts, result tabs, runs browser, export bar, the run's control), now
        if it is not there yet; Run is enabled from here on."""
        if self.built:
            return
        self.background.release()
        from app.store.run_folder import default_runs_root
        from ui.window.run_half import build_run_half  # pyqtgraph, numpy: after the first paint
        self.experiment_panel.stack.build_all()
        half = build_run_half(self, self.background, self.settings.show_iops,
                              self._runs_root or str(default_runs_root()))
        self.model, self.control = half.model, half.control
        self.remote_note, self.run_figures = half.remote_note, half.run_figures
        v = half.views
        self.charts, self.progress, self.results, self.so_far = (v.charts, v.progress, v.results,
                                                                 v.so_far)
        self.figures, self.log_pane, self.runs_browser, self.report_bar = (
            v.figures, v.log_pane, v.runs_browser, v.report_bar)
        self.panes.add_run_column(v)
        self.tabs = self.panes.tabs
        self.close_guard = CloseGuard(self, self.control, lambda: self.confirm_close(),
                                      self.cancel_run, self._shut_down)
        add_report_actions(self, self.menus)
        self._wire_run_half()
        self.built = True
        if self.isVisible():   # shown before: the new areas get their sizes
            self.memory.size_panes()
        self._update_actions()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if not self.built and not self._build_queued:   # the first paint: the rest right after
            self._build_queued = True
            QTimer.singleShot(0, self, self.ensure_built)

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
        self.menus = build_menus(self)   # the menu bar's actions, for tests

    def _wire(self) -> None:
        self.experiment_panel.plan_changed.connect(
            lambda plan: self.drive_panel.set_test_size(plan.size_bytes))
        self.experiment_panel.plan_changed.connect(lambda _plan: self._update_actions())
        self.drive_panel.check_changed.connect(self._on_target_checked)
        self.drive_panel.target_changed.connect(lambda _t: self._update_actions())
        self.engine_status = EngineStatus(self, self._update_actions)

    def _wire_run_half(self) -> None:
        def set_drive(d: DriveSummary | None) -> None:
            self.report_bar.set_drive(d.vendor_key if d else None, d.model_note if d else "")

        self.drive_panel.info.described.connect(set_drive)
        if self.drive_panel.info.summary is not None:   # described before the run half existed
            set_drive(self.drive_panel.info.summary)
        self.charts.iops_toggled.connect(lambda on: setattr(self.settings, "show_iops", on))
        self.report_bar.details.restore(self.settings.report)
        self.runs_browser.open_requested.connect(self.open_run)
        self.runs_browser.runs_root_changed.connect(lambda p: setattr(self.settings, "runs_root", p))
        self.control.event.connect(self._on_event)
        self.control.ended.connect(self._on_run_ended)

    def _on_target_checked(self, report: TargetReport) -> None:
        self.panes.set_target_mark(report.ok if report.path else None)
        self._update_actions()

    # -- run ------------------------------------------------------------------------------------
    def run_blocker(self) -> str | None:
        """Why Run is disabled right now (None: it is enabled)."""
        if not self.built:
            return "loading the run views..."
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
        running = self.built and self.control.running
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
        elif blocker and not blocker.startswith(("looking", "checking", "loading")):
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
                           engine=self.engine_picker.name, remote=remote_address(remote) if remote else "",
                           pin_engine=self.settings.pin_engine)
        self.statusBar().showMessage("Run started.")
        self.show_run_view(self.charts)
        self._update_actions()

    def cancel_run(self) -> None:
        if self.built and self.control.running:
            self.control.cancel()
            self.statusBar().showMessage("Cancelling: stopping the engine, keeping finished "
                                         "trials...")
            self._update_actions()

    def _on_event(self, event: Event | RunPrepared | RunRefused) -> None:
        from jobs.events import RunFinished
        from jobs.worker import RunRefused  # loaded with the run (RunControl.start)

        if isinstance(event, RunRefused) and self.model.status is RunState.CANCELLED:
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
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if not self.built:   # closed before the run half was made: nothing can be running
            self._shut_down()
            event.accept()
            return
        self.close_guard.close_event(event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.memory.shown()
        if not self.built:   # should no paint reach the window itself (its children cover it)
            QTimer.singleShot(1000, self, self.ensure_built)

    def _remember(self, s: AppSettings) -> None:
        s.target = self.drive_panel.target()
        s.remote = self.drive_panel.remote.address()
        s.experiments = self.experiment_panel.state()
        if self.built:
            s.runs_root = self.runs_browser.runs_root
            s.report = self.report_bar.details.options()

    def _shut_down(self) -> None:
        self.memory.save()
        if self.built:
            self.report_bar.shutdown()
        self.background.shutdown()

    def fit_to_screen(self) -> None:
        self.panes.fit_to_screen(self.memory.restored)

    # -- past runs ------------------------------------------------------------------------------
    def open_run(self, run_dir: str) -> None:
        self.ensure_built()
        if self.control.running:
            self.statusBar().showMessage("A run is going on; open past runs after it ends.")
            return
        self.statusBar().showMessage(f"Opening {run_dir}...")
        self._opening = run_dir   # loads run in parallel: the run asked for last is the one shown
        from ui.window.run.past_runs import load_past_run  # numpy: loaded with the run half
        self.background.submit(lambda: load_outside_collections(lambda: load_past_run(run_dir)),
                               lambda past: self._show_past(run_dir, past),
                               lambda exc: self._open_failed(run_dir, exc))

    def _open_failed(self, run_dir: str, exc: BaseException) -> None:
        if run_dir == self._opening:
            self.statusBar().showMessage(f"Cannot open {run_dir}: {exc}")

    def _show_past(self, run_dir: str, past: PastRun) -> None:
        if self.control.running or run_dir != self._opening:
            return
        self.model.load_past(past)
        self.show_run_view(self.results)
        status = past.results.run.status   # a killed run's run.json still says running
        shown = "running or interrupted" if status == RunStatus.RUNNING else status.value
        self.statusBar().showMessage(f"Showing {past.results.folder} ({shown})")
