"""The measuring engine as the window shows it: the status bar's label while the engine is looked
for, found or missing, and the dialog saying how to get it. Run waits for it
(MainWindow.run_blocker); the picker itself is ui/window/setup/engine_picker.py.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from jobs.engine.factory import default_engine
from ui.window.settings import AppSettings
from ui.window.setup.engine_picker import EngineInfo, EnginePicker, engine_label, engine_text, retry_advice


class EngineWindow(Protocol):
    """What EngineStatus follows and sets of the window (a MainWindow; not imported: it imports
    this module)."""

    engine: EngineInfo | None
    engine_error: str | None
    engine_dialog: QMessageBox | None

    @property
    def settings(self) -> AppSettings: ...
    @property
    def engine_picker(self) -> EnginePicker: ...
    @property
    def engine_label(self) -> QLabel: ...
    def window(self) -> QWidget:
        """Qt's: the window as a QWidget (a top-level widget's window() is itself)."""
        ...


class EngineStatus:
    """Follows ``window``'s engine picker: sets the window's ``engine``, ``engine_error`` and
    ``engine_dialog`` and its engine label, then calls ``changed`` (Run may change)."""

    def __init__(self, window: EngineWindow, changed: Callable[[], None]) -> None:
        self.window = window
        self.changed = changed
        picker = window.engine_picker
        picker.looking.connect(self.looking)
        picker.found.connect(self.found)
        picker.missing.connect(self.missing)

    def looking(self, name: str) -> None:
        """An engine was chosen: Run waits until it is found. A choice other than the per-OS
        default is remembered (so a first launch follows the default if DiskSpd comes later)."""
        window = self.window
        if name != (window.settings.engine or default_engine()):
            window.settings.engine = name
        window.engine, window.engine_error = None, None
        if window.engine_dialog is not None:
            window.engine_dialog.close()
        window.engine_label.setText(f"Engine: looking for {engine_label(name)}...")
        self.changed()

    def found(self, engine: EngineInfo) -> None:
        self.window.engine, self.window.engine_error = engine, None
        self.window.engine_label.setText(f"Engine: {engine_text(engine)}")
        self.changed()

    def missing(self, name: str, message: str) -> None:
        window = self.window
        window.engine, window.engine_error = None, message
        label = engine_label(name)
        window.engine_label.setText(f"Engine: {label} not found")
        window.engine_dialog = QMessageBox(QMessageBox.Icon.Warning, f"{label} is needed", "",
                                           parent=window.window())
        window.engine_dialog.setText(f"SSD Profiler measures with {label}, which was not found.")
        window.engine_dialog.setInformativeText(f"{message}.\n\n{retry_advice(name)}")
        window.engine_dialog.open()  # window-modal but not blocking: the app stays usable
        self.changed()
