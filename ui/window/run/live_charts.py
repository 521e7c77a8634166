"""Live charts of the run: throughput (MB/s or IOPS), latency, temperature, one experiment's
stretch at a time (which stretch, and the y ranges: ui/window/run/chart_range.py) under a
timeline of the whole run (ui/window/run/timeline.py, placed by the window).

Built for multi-hour runs: every curve is created once and fed with ``setData`` on the model's
growing numpy buffers, the current trial's part and its newest rows apart (split_curve.py);
clip-to-view and peak downsampling keep the drawn points near the pixel count; samples are drawn
in the wake-up that brought one (ui/window/run/rhythm.py), about once a second, less often where
a drawing costs more than the charts' share of a core (ui/window/run/chart_budget.py). Trial
boundaries are vertical lines labelled with the workload where the label fits; warm-ups are
shaded.

Read as a report would be: throughput and (linear) latency start at 0, so a 5 % dip looks like
one; values of 10,000 or more switch the axis to thousands (µs -> ms, MB/s -> GB/s) so ticks stay
short (ui/window/run/chart_axes.py). Without a temperature source the temperature chart is one
line saying why, leaving its height to the two charts that have data.
"""
from __future__ import annotations

import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.model.trial import TrialResult
from ui.window import theme
from ui.window.messages import temperature_line
from ui.window.run import chart_colors
from ui.window.run.boundaries import TrialBoundaries
from ui.window.run.chart_axes import TITLES, value_plot
from ui.window.run.chart_bar import ChartBar
from ui.window.run.chart_budget import ChartBudget, TimedView
from ui.window.run.chart_range import ChartRange
from ui.window.run.look_back import LookBack
from ui.window.run.planned import PlannedTrial
from ui.window.run.run_model import RunModel
from ui.window.run.split_curve import SplitCurve
from ui.window.run.timeline import RunTimeline
from ui.window.widgets import ElidedLabel, em

LATE_MS = 250   # the redraw timer waits this much more: a sample due by then draws in its wake-up
LAT_COLUMNS = ("read_lat_us", "write_lat_us", "read_p99_us", "write_p99_us")
MIN_CHART_EM = 11       # a chart with data is never shorter than this many text lines


class LiveCharts(ChartRange, QWidget):
    """Shows the run model's samples; ``iops_toggled`` lets the window remember the choice,
    ``experiment_shown`` tells which experiment's stretch is in view (followed or clicked)."""

    iops_toggled = Signal(bool)
    experiment_shown = Signal(str)

    def __init__(self, model: RunModel, show_iops: bool = False, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setAutoFillBackground(True)   # opaque: a redraw never repaints the window beneath
        self._dirty = False
        self.redraws = 0
        self._drawn_at = float("-inf")   # monotonic time of the last redraw
        self._tops: dict[str, float] = {}     # y-axis top per chart, kept until data outgrows it
        self._init_range()
        self.timeline = RunTimeline()   # placed by the window, above the charts and the figure
        self.timeline.picked.connect(self.show_experiment)

        self.bar = ChartBar(show_iops)
        self.iops_box, self.log_box, self.follow_box = (self.bar.iops_box, self.bar.log_box,
                                                        self.bar.follow_box)
        self.iops_box.toggled.connect(self._on_iops)
        self.log_box.toggled.connect(self._on_log)
        self.follow_box.toggled.connect(self._on_follow)

        self.view = TimedView()   # colours: chart_colors.apply, at the end
        self.budget = ChartBudget(self.view)
        self.view.ci.layout.setVerticalSpacing(int(em(self) * 0.6))  # end ticks of two charts apart
        self.tp_plot = value_plot(self.view, 0, TITLES["MBps"][0])
        self.lat_plot = value_plot(self.view, 1, TITLES["lat"][0])
        self.temp_plot = value_plot(self.view, 2, "temperature (°C)")
        self.tp_plot.getAxis("bottom").setStyle(showValues=False)  # the time ticks are below
        for p in (self.lat_plot, self.temp_plot):
            p.setXLink(self.tp_plot)
        for p in (self.tp_plot, self.lat_plot, self.temp_plot):
            p.enableAutoRange(x=False)  # x is set in steps by _follow (see its docstring)
            p.getViewBox().sigRangeChangedManually.connect(lambda *_: self.follow_box.setChecked(False))
        for p in (self.tp_plot, self.lat_plot):
            p.enableAutoRange(y=False)  # from 0, set by _fit_y
        # peak downsampling keeps each pixel column's min and max, so one (min, max) pair per
        # pixel (factor 1) loses nothing visible and draws 5x fewer segments than the default
        plot_of = {"read_tp": self.tp_plot, "write_tp": self.tp_plot, "temperature_c": self.temp_plot}
        self.curves = {name: SplitCurve(plot_of.get(name, self.lat_plot),   # the rest: latency
                                        connect="finite", autoDownsampleFactor=1.0)
                       for name in chart_colors.CURVE_PENS}
        label_font = QFont()
        label_font.setPointSizeF(max(7.5, QFont().pointSizeF() * 0.85))
        self.boundaries = [TrialBoundaries(labelled=plot is self.tp_plot, font=label_font)
                           for plot in (self.tp_plot, self.lat_plot, self.temp_plot)]
        for plot, boundaries in zip((self.tp_plot, self.lat_plot, self.temp_plot), self.boundaries):
            boundaries.setZValue(-10)
            plot.addItem(boundaries, ignoreBounds=True)
        self.empty_note = pg.TextItem("No samples yet: each interval's throughput\nand latency "
                                      "appear here during a run.", anchor=(0.5, 0.5))
        self.empty_note.setParentItem(self.tp_plot.getViewBox())
        self.tp_plot.getViewBox().sigResized.connect(self._place_notes)
        # no sensor: one line instead of an empty chart (the chart comes back with the first reading)
        self.temp_note = ElidedLabel()

        self.look_back = LookBack(self.view, self.follow_box, model)   # "Back to live"
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.bar)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.temp_note)
        self.temp_shown = True
        self._show_temperature(False)

        self._timer = QTimer(self)  # started by a change, so an idle window never wakes up
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._mark_dirty)   # hidden: drawn at the next show
        model.reset.connect(self._rebuild)
        model.trial_started.connect(self._add_boundary)
        model.trial_ended.connect(self._on_trial_ended)
        model.state_changed.connect(self._update_stretches)
        model.samples_added.connect(self._on_samples)
        model.state_changed.connect(self._on_state)
        self._recolour()
        theme.watcher().changed.connect(self._recolour)   # a method: dropped with the widget
        self._on_iops(show_iops, announce=False)
        self._rebuild()

    def _recolour(self) -> None:
        chart_colors.apply(self)

    def minimum_chart_height(self) -> int:
        """The height below which a chart with data gets hard to read (font-relative)."""
        return MIN_CHART_EM * em(self)

    def comfortable_height(self) -> int:
        """The option bar, two charts of the minimum height, a short temperature chart and the
        time axis: what the charts need before the results may share the column."""
        unit = em(self)
        return (self.bar.sizeHint().height() + self.timeline.sizeHint().height()
                + 2 * self.minimum_chart_height() + 10 * unit)

    def chart_heights(self) -> dict[str, float]:
        """Height in pixels of each chart shown (plot area with its axes); for tests."""
        plots = {"throughput": self.tp_plot, "latency": self.lat_plot}
        if self.temp_shown:
            plots["temperature"] = self.temp_plot
        return {name: p.geometry().height() for name, p in plots.items()}

    def _show_temperature(self, on: bool) -> None:
        """The temperature chart, or (no reading yet) one line under the charts saying why."""
        if on == self.temp_shown:
            return
        self.temp_shown = on
        grid = self.view.ci.layout
        self.temp_plot.setMaximumHeight(1_000_000 if on else 0)
        self.temp_plot.setVisible(on)
        for row, stretch in enumerate((3, 3, 1 if on else 0)):
            grid.setRowStretchFactor(row, stretch)
        self.temp_note.setVisible(not on)
        bottom = self.temp_plot if on else self.lat_plot
        for plot in (self.lat_plot, self.temp_plot):  # the time axis under the lowest chart only
            plot.setLabel("bottom", "run time (m:ss, h:mm:ss)" if plot is bottom else None)
            plot.getAxis("bottom").showLabel(plot is bottom)
            plot.getAxis("bottom").setStyle(showValues=plot is bottom)

    # -- model -> view -------------------------------------------------------------------------
    def _caption(self, trial: PlannedTrial) -> str:
        """The boundary label; a trial the drive throttled gets a ⚠ (the table says why)."""
        return trial.caption + (" \u26a0 throttled" if trial.index in self._throttled else "")

    @staticmethod
    def _shade(trial: PlannedTrial) -> float:
        """A warm-up (or precondition round) is shaded: run, never counted."""
        return max(trial.expected_s, 1.0) if trial.warmup or trial.precondition else 0.0

    def _relabel(self) -> None:
        items = [(t_s, self._caption(trial), self._shade(trial))
                 for t_s, trial in self.model.boundaries]
        for boundaries in self.boundaries:
            boundaries.set_boundaries(items)

    def _on_trial_ended(self, trial: TrialResult) -> None:
        self._update_stretches()
        if trial.throttled:  # rare: relabelling every boundary is fine
            self._throttled.add(trial.index)
            self._relabel()

    def _rebuild(self) -> None:
        self._throttled = {t.index for t in self.model.trials if t.throttled}
        self._relabel()
        self._dirty = True
        for curve in self.curves.values():
            curve.forget()
        self._tops, self._picked, self._stretch = {}, None, None
        self._update_stretches()
        self.redraw()

    def _add_boundary(self, trial: PlannedTrial) -> None:
        t_s = self.model.boundaries[-1][0]
        for boundaries in self.boundaries:
            boundaries.add(t_s, self._caption(trial), self._shade(trial))
        self._update_stretches()

    def _on_state(self) -> None:
        if self.model.finished:
            self.redraw()  # the last samples and the fitted range now, not at the next tick
        else:
            self._mark_dirty()  # the temperature line follows the run's state

    def _on_samples(self) -> None:
        """On the window's beat (rhythm.py), which the charts lengthen while shown to the wait
        their budget gives (the next beat's; hidden, they cost nothing and leave the beat to
        the period)."""
        rhythm = self.model.rhythm
        self._mark_dirty(rhythm.beat)
        rhythm.wait_s = self.budget.wait_s(rhythm.period_s) if self.isVisible() else rhythm.period_s

    def _mark_dirty(self, now: bool = True) -> None:
        """Drawn now (a sample: when the rhythm and the budget say so), else once by the timer
        if no sample comes first (hidden: when shown)."""
        self._dirty = True
        if not self.isVisible():
            return
        if now:
            self._timer.stop()
            self.redraw()
        elif not self._timer.isActive():
            wait_s = self.model.rhythm.wait_s - (time.monotonic() - self._drawn_at)
            self._timer.start(max(0, int(wait_s * 1000)) + LATE_MS)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._dirty:
            self._mark_dirty()

    def _on_iops(self, on: bool, announce: bool = True) -> None:
        self._tops.pop("tp", None)
        self._mark_dirty()
        if announce:
            self.iops_toggled.emit(on)
        self._fit_y("tp", self.tp_plot, self._tp_columns())

    def _on_log(self, on: bool) -> None:
        shown = self.lat_plot.viewRange()[0]   # pyqtgraph's log mode sets both axes to range
        self.lat_plot.setLogMode(y=on)         # themselves: time stays as follow (or the
        self.lat_plot.enableAutoRange(x=False)  # user) set it
        self.lat_plot.setXRange(*shown, padding=0.0)
        for name in LAT_COLUMNS:
            self.curves[name].set_log(on)
        self._mark_dirty()
        self._tops.pop("lat", None)
        self.lat_plot.enableAutoRange(y=on)  # a log axis ranges itself; a linear one from 0
        self._fit_y("lat", self.lat_plot, LAT_COLUMNS)

    def _on_follow(self, on: bool) -> None:
        if on:
            self._picked, self._tops, self._x_range = None, {}, (0.0, 0.0)
            self._update_stretches()
            self.redraw()

    def _tp_columns(self) -> tuple[str, str]:
        unit = "iops" if self.iops_box.isChecked() else "MBps"
        return f"read_{unit}", f"write_{unit}"

    def redraw(self) -> None:
        """Hand the current buffers to the curves: the current trial's rows to its own parts of
        each (ui/window/run/split_curve.py), the rows before it once a trial."""
        started = self.budget.started()
        self._draw()
        self.budget.ended(started)

    def _draw(self) -> None:
        self._dirty = False
        self.redraws += 1
        self._drawn_at = time.monotonic()
        s, m = self.model.series, self.model
        t = s.column("t_s")
        split = s.trial_row if m.live and not m.finished and m.boundaries else len(t)
        read_tp, write_tp = self._tp_columns()
        for name, column in (("read_tp", read_tp), ("write_tp", write_tp),
                             *((c, c) for c in LAT_COLUMNS),
                             ("temperature_c", "temperature_c")):
            self.curves[name].show(column, t, s.column(column), split)
        if self.follow_box.isChecked():
            self._follow()
            self._fit_all()
        self._show_temperature(s.has_temperature)
        if s.has_temperature:
            self.temp_plot.enableAutoRange(axis="y")
        else:
            m = self.model
            line = temperature_line(m.status, m.temperature_note, m.finished)
            self.temp_note.setText(line)
            self.temp_note.set_shorter(line.split(":")[0])
        self.empty_note.setVisible(s.samples == 0 and s.results == 0)

    def _place_notes(self) -> None:
        self.empty_note.setPos(self.tp_plot.getViewBox().boundingRect().center())

    def boundary_labels(self) -> list[str]:
        """The captions of the trial boundaries (one per trial, in time order)."""
        return list(self.boundaries[0].texts)

    def points(self, curve: str) -> int:
        """How many finite values a curve has been given (what it can draw); for tests."""
        return int(np.isfinite(self.curves[curve].dataset()[1]).sum())
