"""The menu bar: File, Run, Report, Help, with the window's keyboard shortcuts.

Every shortcut is an action of the window (WindowShortcut), so it works whichever widget has the
focus; the buttons trigger the same actions. Help's dialogs never block the window. What
build_menus makes is one value (Menus) the window keeps, not attributes it declares again.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from app.engines import ENGINES
from app.paths.userdirs import user_log_dir
from ui.window.folders import Opener, PathDialog, open_folder
from ui.window.setup.engine_picker import EngineInfo, EnginePicker, engine_text, find_engine

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QMenu, QMenuBar, QWidget

    from ui.window.background import Background
    from ui.window.help_dialog import BrowserDialog
    from ui.window.report.report_bar import ReportBar
    from ui.window.report.runs_browser import RunsBrowser
    from ui.window.settings import AppSettings


@dataclass(frozen=True)
class Menus:
    """The menu bar's own actions (the window's run and report actions are the window's and the
    export bar's) and its menus by title ("File", "Run", "Report", "Help")."""

    open_run: QAction
    quit: QAction
    export_place: QAction   # File's separator: Export and Export to... go above it
    pin_engine: QAction
    help: QAction
    log_folder: QAction
    about: QAction
    by_title: Mapping[str, QMenu]


class MenuWindow(Protocol):
    """The window the menus belong to (a MainWindow; not imported: it imports this module): the
    dialogs the menus leave on it (for tests), and what they use of it."""

    help_dialog: QDialog
    folder_dialog: PathDialog | None
    about_box: BrowserDialog

    @property
    def run_action(self) -> QAction: ...
    @property
    def cancel_action(self) -> QAction: ...
    @property
    def settings(self) -> AppSettings: ...
    @property
    def engine(self) -> EngineInfo | None: ...
    @property
    def engine_picker(self) -> EnginePicker: ...
    @property
    def background(self) -> Background: ...
    @property
    def runs_browser(self) -> RunsBrowser: ...
    @property
    def report_bar(self) -> ReportBar: ...
    @property
    def open_url(self) -> Opener | None: ...
    def ensure_built(self) -> None: ...
    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt's name
    def close(self) -> bool: ...
    def window(self) -> QWidget:
        """Qt's: the window as a QWidget (a top-level widget's window() is itself)."""
        ...


def _action(window: MenuWindow, text: str, slot: Callable[[], object],
            shortcut: str | None = None) -> QAction:
    action = QAction(text, window.window())
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.triggered.connect(lambda _checked=False: slot())
    window.window().addAction(action)
    return action


def build_menus(window: MenuWindow) -> Menus:
    """File, Run, Report and Help on ``window`` (a MainWindow). The report's actions belong to
    the export bar, made after the first paint: add_report_actions."""
    bar = window.menuBar()

    def open_other() -> None:
        window.ensure_built()
        window.runs_browser.open_other()

    open_run = _action(window, "&Open run folder...", open_other, "Ctrl+O")
    quit_ = _action(window, "&Quit", window.close, "Ctrl+Q")
    file_menu = bar.addMenu("&File")
    file_menu.addAction(open_run)
    file_menu.addSeparator()
    export_place = file_menu.addSeparator()   # Export and Export to... go above it
    file_menu.addAction(quit_)

    run_menu = bar.addMenu("&Run")
    run_menu.addAction(window.run_action)
    run_menu.addAction(window.cancel_action)
    pin = _action(window, "Engine on a CPU of its &own", lambda: None)
    pin.setCheckable(True)
    pin.setChecked(bool(window.settings.pin_engine))
    pin.setToolTip("The engine runs on the last CPU and this app on the others, so the app never "
                   "shares a core with the measurement (Linux; off by default: on few cores the "
                   "engine keeps one core that the rest of the machine still shares)")
    pin.toggled.connect(lambda on: setattr(window.settings, "pin_engine", on))
    pin.setVisible(sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) > 1)
    run_menu.addSeparator()
    run_menu.addAction(pin)

    report_menu = bar.addMenu("Re&port")  # Export (Ctrl+E), Export to..., vendor spec

    help_ = _action(window, "&How to profile a drive", lambda: show_how_to(window), "F1")
    log_folder = _action(window, "Open the &log folder", lambda: open_log_folder(window))
    about = _action(window, "&About SSD Profiler", lambda: show_about(window))
    help_menu = bar.addMenu("&Help")
    for action in (help_, log_folder, about):
        help_menu.addAction(action)
    return Menus(open_run, quit_, export_place, pin, help_, log_folder, about,
                 {m.title().replace("&", ""): m for m in (file_menu, run_menu, report_menu, help_menu)})


def add_report_actions(window: MenuWindow, menus: Menus) -> None:
    """The export bar's actions in the File and Report menus (and their shortcuts)."""
    report = window.report_bar
    menus.by_title["File"].insertActions(menus.export_place,
                                         [report.export_action, report.export_to_action])
    for action in report.menu_actions():
        menus.by_title["Report"].addAction(action)
        window.window().addAction(action)


def show_how_to(window: MenuWindow) -> QDialog:
    from ui.window.help_dialog import how_to_dialog  # loaded when asked for, not before the paint
    window.help_dialog = how_to_dialog(window.window())
    return window.help_dialog


def open_log_folder(window: MenuWindow) -> PathDialog | None:
    folder = user_log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # the dialog then says it does not exist, with the path
    window.folder_dialog = open_folder(window.window(), folder, "log folder", window.open_url)
    return window.folder_dialog


def show_about(window: MenuWindow) -> BrowserDialog:
    """Versions now; each engine not yet known is looked for in the background (it is run)."""
    from ui.window.help_dialog import about_dialog
    found: dict[str, str] = {}
    if window.engine is not None:
        found[window.engine.name] = engine_text(window.engine)
    dialog = about_dialog(window.window(), found, str(user_log_dir()))
    window.about_box = dialog

    def answer(name: str, text: str) -> None:
        found[name] = text
        try:
            dialog.refresh(found)
        except RuntimeError:  # closed meanwhile
            pass

    for name in ENGINES:
        if name not in found:
            _look_for(window, name, answer)
    return dialog


def _look_for(window: MenuWindow, name: str, answer: Callable[[str, str], None]) -> None:
    """Find engine ``name`` in the background; ``answer(name, its text or "not found")``."""
    override = window.engine_picker.overrides.get(name)
    window.background.submit(lambda: engine_text(find_engine(name, override)),
                             lambda text: answer(name, text),
                             lambda _exc: answer(name, "not found"))
