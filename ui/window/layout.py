"""Where the views sit, for every screen from 1280×720 to 4K: an object MainWindow holds that
builds its layout and fits it to the screen.

Two columns, set-up (drive, experiments, Run) and run (progress, live charts, results tabs,
export; laid out by ui/window/run_column.py once its views exist, after the first paint). Each
column and the pair are a SplitOrTabs (ui/window/adaptive.py): side by side or one above the
other when there is room, tabs when there is not, decided from font-relative needs so a larger
font or a higher DPI is accounted for. On a 1280×720 laptop that gives the experiment
form and the live charts the full column height; on a 1080p screen everything is in view.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ui.window.adaptive import SPLIT, TABS, SplitOrTabs
from ui.window.run_column import RunColumn, RunViews
from ui.window.widgets import em

SETUP_TITLES = ("1. Drive and target folder", "2. Experiments and parameters")
TAB_TITLES = ("1. Target", "2. Experiments")
DEFAULT_EM = (112, 70)      # a first window's size in text lines, if the screen has room
SETUP_SHARE = 0.38          # of the width at most: the live view needs room for chart and figure


def _group(title: str, widget: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 8, 4, 4)
    layout.addWidget(widget)
    return box


def frame_margins(widget: QWidget) -> QSize:
    """The window manager's frame around the window: measured once shown, else a title bar's
    and borders' worth (the window must fit the screen frame included)."""
    frame, inner = widget.frameGeometry(), widget.geometry()
    if widget.isVisible() and frame.height() > inner.height():
        return QSize(frame.width() - inner.width(), frame.height() - inner.height())
    return QSize(16, 2 * em(widget) + 10)


def fitted_size(available: QSize, frame: QSize, unit: int) -> QSize:
    """The first window's size: DEFAULT_EM text lines, or the whole available area (minus the
    frame) of a smaller screen."""
    return QSize(min(DEFAULT_EM[0] * unit, available.width() - frame.width()),
                 min(DEFAULT_EM[1] * unit, available.height() - frame.height()))


if TYPE_CHECKING:
    from ui.window.setup.drive_panel import DrivePanel
    from ui.window.setup.engine_picker import EnginePicker
    from ui.window.setup.experiment_panel import ExperimentPanel


@dataclass(frozen=True)
class SetupViews:
    """The set-up column's views, each showing one thing; the layout only places them."""

    drive_panel: DrivePanel
    experiment_panel: ExperimentPanel
    engine_picker: EnginePicker


class WindowLayout:
    """The columns, areas, tabs and Run buttons of ``window``: built once around ``views``,
    then asked to show a page, size the panes or fit the screen. The run column is empty until
    ``add_run_column`` fills it."""

    def __init__(self, window: QMainWindow, views: SetupViews) -> None:
        self.window = window
        self.views = views
        self.run: RunColumn | None = None
        self._build()

    def add_run_column(self, views: RunViews) -> None:
        """The run column's views in their column; a shown main area decides split or tabs
        again (the column now has a minimum size)."""
        self.run = RunColumn(self.right_column, views)
        self.tabs = self.run.tabs
        self._tab_order()
        if self.window.isVisible():
            self.main_area.update_mode()

    def _build(self) -> None:
        v, window = self.views, self.window
        unit = em(window)
        self.run_button = QPushButton("Run  (Ctrl+R)")
        self.cancel_button = QPushButton("Cancel  (Esc)")
        for button in (self.run_button, self.cancel_button):
            button.setMinimumHeight(int(unit * 2.2))
        self.run_hint = QLabel()
        self.run_hint.setWordWrap(True)
        self.run_hint.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(v.engine_picker)
        buttons.addWidget(self.run_button, 2)
        buttons.addWidget(self.cancel_button, 1)
        self.drive_box = _group(SETUP_TITLES[0], v.drive_panel)
        self.next_button = QPushButton(f"Next: {TAB_TITLES[1]} \u2192")  # tabbed set-up only
        self.next_button.clicked.connect(lambda: self.show_setup_page("experiments"))
        self.next_button.hide()
        box_layout = self.drive_box.layout()
        assert isinstance(box_layout, QVBoxLayout)  # _group lays its widget out in a column
        box_layout.addWidget(self.next_button, 0, Qt.AlignmentFlag.AlignRight)
        self.experiments_box = _group(SETUP_TITLES[1], v.experiment_panel)
        self.setup_area = SplitOrTabs(Qt.Orientation.Vertical,
                                      [(TAB_TITLES[0], self.drive_box),
                                       (TAB_TITLES[1], self.experiments_box)], self._setup_need,
                                      resizable=False)
        self.setup_area.mode_changed.connect(self._setup_mode)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        left_layout.addWidget(self.setup_area, 1)
        left_layout.addLayout(buttons)
        left_layout.addWidget(self.run_hint)

        right = QWidget()   # the run column, filled by add_run_column
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 4, 4, 4)
        right_layout.setSpacing(3)
        self.left_column, self.right_column = left, right

        self.main_area = SplitOrTabs(Qt.Orientation.Horizontal,
                                     [("Set up", left), ("Run and results", right)], self._main_need)
        splitter = self.main_area.splitter
        assert isinstance(splitter, QSplitter)  # resizable (the default): a real splitter
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        window.setCentralWidget(self.main_area)
        self.engine_label = QLabel("Engine: looking...")
        self.engine_label.setTextFormat(Qt.TextFormat.PlainText)  # the engine's own words
        window.statusBar().addPermanentWidget(self.engine_label)
        self._tab_order()

    def _tab_order(self) -> None:
        """Tab goes the way of the work: target, experiments and their form, Run, the charts'
        options, the result tabs, export."""
        v = self.views
        chain = [v.drive_panel.edit, v.drive_panel.choose_button, v.drive_panel.remote.edit,
                 v.drive_panel.table,
                 v.experiment_panel.preset, *v.experiment_panel.shared.focus_chain(),
                 v.experiment_panel.catalog,
                 *v.experiment_panel.focus_chain(), v.engine_picker.combo, self.run_button,
                 self.cancel_button, *(self.run.focus_chain() if self.run else [])]
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)

    def default_sizes(self) -> None:
        """Pane sizes for this window's size (once laid out, when none were remembered): the
        set-up column as wide as its form needs (at most a third: the run column holds the
        charts and the running experiment's figure), the charts most of the run column."""
        unit = em(self.window)
        width = self.main_area.width()
        left = min(max(self.left_column.minimumSizeHint().width(), 36 * unit),
                   int(width * SETUP_SHARE))
        self.main_area.set_sizes([left, max(1, width - left)])
        if self.run:
            self.run.default_sizes(max(1, width - left))

    # -- what each area needs to be split rather than tabbed ------------------------------------
    def _main_need(self) -> int:
        unit = em(self.window)
        return (max(self.left_column.minimumSizeHint().width(), 27 * unit)
                + max(self.right_column.minimumSizeHint().width(), 40 * unit) + 8)

    def _setup_need(self) -> int:
        box, width = self.drive_box, self.setup_area.width()
        drive = box.heightForWidth(width) if box.hasHeightForWidth() else -1
        return (max(drive, box.sizeHint().height()) + self.views.experiment_panel.comfortable_height()
                + 2 * em(self.window))

    def _setup_mode(self, mode: str) -> None:
        """Tabs carry the titles: the boxes drop theirs (and their frame) to save lines."""
        for box, title in zip((self.drive_box, self.experiments_box), SETUP_TITLES):
            box.setTitle("" if mode == TABS else title)
            box.setFlat(mode == TABS)
        self.next_button.setVisible(mode == TABS)
        if mode == TABS and self.views.drive_panel.is_ready():
            self.setup_area.show_page(self.experiments_box)

    def show_setup_page(self, which: str) -> None:
        """"target" or "experiments" in front (when the set-up is tabbed)."""
        self.main_area.show_page(self.left_column)
        self.setup_area.show_page(self.drive_box if which == "target" else self.experiments_box)

    def show_run_view(self, widget: QWidget) -> None:
        """The run column, and ``widget`` (the charts or a result tab) in front."""
        self.main_area.show_page(self.right_column)
        if self.run:
            self.run.show_view(widget)

    def set_target_mark(self, ok: bool | None) -> None:
        """The target tab says at a glance whether the folder can be used."""
        mark = "" if ok is None else (" \u2714" if ok else " \u2716")
        self.setup_area.set_title(self.drive_box, TAB_TITLES[0] + mark)

    # -- the screen -----------------------------------------------------------------------------
    def fit_to_screen(self, restored: bool) -> None:
        """A first window fills at most the available area of its screen, frame included, and
        sits in it; a ``restored`` one larger than this screen (moved from a bigger monitor) is
        shrunk to fit."""
        window = self.window
        screen = window.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        frame = frame_margins(window)
        size = fitted_size(area.size(), frame, em(window))
        if restored:
            size = QSize(min(window.width(), area.width() - frame.width()),
                         min(window.height(), area.height() - frame.height()))
        window.resize(size)
        if not restored or not area.contains(window.frameGeometry().topLeft()):
            window.move(area.left() + max(0, (area.width() - size.width() - frame.width()) // 2),
                        area.top() + max(0, (area.height() - size.height() - frame.height()) // 2))

    def area_modes(self) -> dict[str, str]:
        """split | tabs per area (for tests and screenshots)."""
        return {"main": self.main_area.mode, "setup": self.setup_area.mode,
                **({"run": self.run.area.mode} if self.run else {})}


__all__ = ["WindowLayout", "SetupViews", "fitted_size", "frame_margins", "SPLIT", "TABS"]
