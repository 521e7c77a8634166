"""The Compare view: runs chosen in the Runs tab, side by side.

Why a window of its own (non-modal, beside the main one) and not one more tab: a comparison
needs a wide figure and a long table at once, and on a 1280x720 screen the main window's run
column has neither to spare; this window takes at most the screen's free area, so it is never
wider than the screen, and the main window stays usable beside it.

What it shows is app.compare.report's :class:`Comparison`, computed in the Background pool
(reading every run.json and samples.csv); figures are drawn on the GUI thread, one when it is
first chosen, by the export's own renderer (only the style differs), and the export writes the
very files of ``ssd-profiler compare ... --out DIR`` (ComparisonExporter). The runs' colour key
and the conditions that differ sit above both tabs: never hidden behind one.
"""
from __future__ import annotations

import html
import logging
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.compare.export import default_export_dir
from app.compare.report import Comparison, build_comparison
from ui.window import theme
from ui.window.background import Background
from ui.window.folders import PathDialog, open_folder
from ui.window.report.compare_export import ComparisonExporter
from ui.window.report.compare_figures_view import ComparisonFigures
from ui.window.report.compare_table import comparison_table, conditions_html, fill_table, runs_html
from ui.window.widgets import em

log = logging.getLogger(__name__)
SIZE_EM = (80, 46)     # the size it asks for, in text lines, when the screen has room
HEADER_EM = 9          # the runs and the conditions: at most this many lines, then a scroll bar


class CompareView(QDialog):
    def __init__(self, background: Background, run_dirs: list[str], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Compare {len(run_dirs)} runs")
        self.setModal(False)
        self.run_dirs = [str(d) for d in run_dirs]
        self.comparison: Comparison | None = None
        self.last_export: str | None = None
        self.folder_dialog: PathDialog | None = None
        self.open_url = None     # None: the system's file manager (tests pass their own)
        self.choose_folder: Callable[[str, str], str] = lambda title, start: QFileDialog.getExistingDirectory(self, title, start)
        self._alive = True
        self.exporter = ComparisonExporter(parent=self)
        self.exporter.progress.connect(self._on_progress)
        self.exporter.finished.connect(self._on_exported)
        self.exporter.failed.connect(self._on_failed)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.exporter.cancel)

        self.status = QLabel(f"Reading {len(run_dirs)} runs...")
        self.status.setWordWrap(True)
        self.header = self._header()
        self.tabs = QTabWidget()
        self.figures = ComparisonFigures()
        self.tabs.addTab(self.figures, "Figures")
        self.table = comparison_table()
        self.tabs.addTab(self.table, "Table: ratios and significance")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.status)
        layout.addWidget(self.header)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(self._export_row())
        self._fit_screen()
        folders: list[str | os.PathLike[str]] = list(self.run_dirs)
        background.submit(lambda: build_comparison(folders), self._show, self._load_failed)

    def _header(self) -> QScrollArea:
        """The runs with their colours and the conditions that differ: above both tabs, and
        scrolled past HEADER_EM lines, so a long list never squeezes out the table."""
        self.runs = QLabel()
        self.conditions = QLabel()
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        for label in (self.runs, self.conditions):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            column.addWidget(label)
        area = QScrollArea()
        area.setWidget(inner)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.hide()
        return area

    def _fit_header(self) -> None:
        widget = self.header.widget()
        inner = widget.layout() if widget is not None else None
        if inner is None:
            return
        width = self.header.viewport().width() or self.width()
        need = inner.heightForWidth(width) if inner.hasHeightForWidth() else inner.sizeHint().height()
        self.header.setFixedHeight(min(max(need, 0) + 2, HEADER_EM * em(self)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.comparison is not None:
            self._fit_header()

    def _export_row(self) -> QHBoxLayout:
        self.export_button = QPushButton("Export comparison")
        self.export_button.setToolTip("PNG and SVG figures, comparison.csv, comparison.md and "
                                      "report.md: the files of ssd-profiler compare --out")
        self.export_button.clicked.connect(lambda: self.export())
        self.export_to_button = QPushButton("Export to...")
        self.export_to_button.clicked.connect(self.export_to)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(8 * em(self))
        self.progress.hide()
        self.export_path = QLineEdit(str(default_export_dir(self.run_dirs)))
        self.export_path.setReadOnly(True)
        self.open_button = QPushButton("Open folder")
        self.open_button.clicked.connect(self.open_export)
        self.open_button.hide()
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        for widget in (self.export_button, self.export_to_button, self.progress):
            row.addWidget(widget)
        row.addWidget(self.export_path, 1)
        row.addWidget(self.open_button)
        row.addWidget(close)
        self._set_export_enabled(False)
        return row

    def _fit_screen(self) -> None:
        """SIZE_EM, or the screen's free area less a frame: never wider than the screen."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        unit = em(self)
        width, height = SIZE_EM[0] * unit, SIZE_EM[1] * unit
        if screen is not None:
            area = screen.availableGeometry()
            width, height = min(width, area.width() - 24), min(height, area.height() - 48)
        self.resize(width, height)

    # -- the comparison ------------------------------------------------------------------------
    def _show(self, comparison: Comparison) -> None:
        if not self._alive:
            return
        self.comparison = comparison
        self.runs.setText(runs_html(comparison))
        self.conditions.setText(conditions_html(comparison))
        self.header.show()
        self._fit_header()
        fill_table(self.table, comparison)
        self.figures.set_figures(comparison.figures)
        self.status.setText(f"{len(comparison.table)} rows, {len(comparison.figures)} figures. "
                            "Every run after the first is compared with the first; the table's last column "
                            "says whether a difference is larger than the runs' own spread."
                            if not comparison.table.empty else
                            "No workload was measured in both the first run and another one: "
                            "compare runs of the same experiment.")
        self._set_export_enabled(True)

    def _load_failed(self, exc: BaseException) -> None:
        if self._alive:
            self.status.setText(theme.span("error", f"Cannot compare: {html.escape(str(exc))}"))

    def figure_ids(self) -> list[str]:
        return self.figures.figure_ids()

    def current_plot(self) -> QWidget | None:
        return self.figures.current_plot()

    # -- export --------------------------------------------------------------------------------
    def _set_export_enabled(self, on: bool) -> None:
        for button in (self.export_button, self.export_to_button):
            button.setEnabled(on and self.comparison is not None and not self.exporter.busy)

    def export(self, out_dir: str | None = None) -> None:
        """Write the comparison's export into ``out_dir`` (default: the path shown)."""
        if self.comparison is None or self.exporter.busy:
            return
        target = out_dir or str(default_export_dir(self.run_dirs))
        self.export_path.setText(target)
        self.open_button.hide()
        self.progress.setRange(0, len(self.comparison.figures))
        self.progress.setValue(0)
        self.progress.show()
        self.exporter.start(self.comparison, target)
        self._set_export_enabled(False)

    def export_to(self) -> None:
        folder = self.choose_folder("Export the comparison into this (new or empty) folder",
                                    str(Path(self.run_dirs[0]).parent))
        if folder:
            self.export(folder)

    def _on_progress(self, drawn: int, _title: str) -> None:
        self.progress.setValue(min(drawn, self.progress.maximum()))

    def _on_exported(self, out_dir: str) -> None:
        self.progress.hide()
        self.last_export = out_dir
        self.status.setText(f"Exported {self.exporter.drawn} figures (PNG and SVG), "
                            "comparison.csv, comparison.md and report.md to the folder below.")
        self.open_button.show()
        self._set_export_enabled(True)

    def _on_failed(self, message: str) -> None:
        self.progress.hide()
        self.status.setText(theme.span("error", f"Export failed: {html.escape(message)}"))
        self._set_export_enabled(True)

    def open_export(self) -> None:
        if self.last_export:
            self.folder_dialog = open_folder(self, self.last_export, "export folder", self.open_url)

    def dispose(self) -> None:
        """Close for good (another comparison replaces this one): late results are dropped."""
        self._alive = False
        self.exporter.cancel()
        self.close()
        self.deleteLater()
