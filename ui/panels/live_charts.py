"""Live charts of the run on one time axis: throughput (MB/s or IOPS), latency, temperature.

Built for multi-hour runs (DESIGN §7.6): every curve is created once and fed with ``setData`` on
the model's growing numpy buffers; clip-to-view and peak downsampling keep the drawn points near
the pixel count; samples only mark the charts dirty and a 10 Hz timer redraws, so a burst of
events costs one redraw. Trial boundaries are vertical lines labelled with the workload.
"""
from __future__ import annotations

import logging

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui.panels.boundaries import TrialBoundaries
from ui.panels.messages import duration_text
from ui.panels.run_model import PlannedTrial, RunModel

log = logging.getLogger(__name__)

REDRAW_MS = 100
READ_PEN = pg.mkPen((31, 119, 180), width=1)
WRITE_PEN = pg.mkPen((230, 120, 20), width=1)
TEMP_PEN = pg.mkPen((200, 40, 40), width=1)
BOUNDARY_PEN = pg.mkPen((175, 175, 175), width=1)  # solid: dashes cost more to draw
_TIME_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800)


def temperature_text(reason: str) -> str:
    """The note on an empty temperature chart: the first, most telling part of the reason."""
    first = reason.split(";")[0].strip()
    if not first:
        return "temperature unavailable: no sensor reading for this run"
    return first if first.lower().startswith("temperature") else f"temperature unavailable: {first}"


class TimeAxis(pg.AxisItem):
    """Run time as m:ss or h:mm:ss, with ticks on whole seconds, minutes and hours."""

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 - pyqtgraph's name
        span = max(maxVal - minVal, 1e-9)
        fit = max(size / 90.0, 1.0)  # about one label per 90 px
        major = next((s for s in _TIME_STEPS if span / s <= fit), _TIME_STEPS[-1])
        if span / major > fit:  # a very long run: fall back to pyqtgraph's own choice
            return super().tickSpacing(minVal, maxVal, size)
        return [(major, 0), (major / 2 if major > 1 else major, 0)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        return [duration_text(v) if v >= 0 else "" for v in values]


class LiveCharts(QWidget):
    """Shows the run model's samples; ``iops_toggled`` lets the window remember the choice."""

    iops_toggled = Signal(bool)

    def __init__(self, model: RunModel, show_iops: bool = False, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self._dirty = False
        self.redraws = 0

        self.iops_box = QCheckBox("IOPS instead of MB/s")
        self.iops_box.setChecked(show_iops)
        self.iops_box.toggled.connect(self._on_iops)
        self.log_box = QCheckBox("latency on a log scale")
        self.log_box.toggled.connect(lambda on: self.lat_plot.setLogMode(y=on))
        bar = QHBoxLayout()
        legend = QLabel("<span style='color:#1f77b4'>━━ read</span>&nbsp;&nbsp;"
                        "<span style='color:#e67814'>━━ write</span>&nbsp;&nbsp;"
                        "<span style='color:#969696'>│ trial start</span>&nbsp;&nbsp;&nbsp;"
                        "Per-interval values (not running averages), one time axis for the run.")
        bar.addWidget(legend)
        bar.addStretch(1)
        self.follow_box = QCheckBox("follow the run")
        self.follow_box.setChecked(True)
        self.follow_box.setToolTip("Keep the whole run in view; zooming or panning turns this off")
        self.follow_box.toggled.connect(self._on_follow)
        bar.addWidget(self.iops_box)
        bar.addWidget(self.log_box)
        bar.addWidget(self.follow_box)

        self.view = pg.GraphicsLayoutWidget()
        self.view.setBackground("w")
        self.tp_plot = self._plot(0, "MB/s")
        self.lat_plot = self._plot(1, "mean latency (µs)")
        self.temp_plot = self._plot(2, "temperature (°C)", bottom="run time (m:ss, h:mm:ss)")
        for p in (self.lat_plot, self.temp_plot):
            p.setXLink(self.tp_plot)
        for p in (self.tp_plot, self.lat_plot, self.temp_plot):
            p.enableAutoRange(x=False)  # x is set in steps by _follow (see its docstring)
            p.getViewBox().sigRangeChangedManually.connect(lambda *_: self.follow_box.setChecked(False))
        self._x_end = 0.0
        grid = self.view.ci.layout
        for row, stretch in enumerate((5, 4, 2)):
            grid.setRowStretchFactor(row, stretch)
        # peak downsampling keeps each pixel column's min and max, so one (min, max) pair per
        # pixel (factor 1) loses nothing visible and draws 5x fewer segments than the default
        curve = dict(connect="finite", autoDownsampleFactor=1.0)
        self.curves = {
            "read_tp": self.tp_plot.plot(pen=READ_PEN, **curve),
            "write_tp": self.tp_plot.plot(pen=WRITE_PEN, **curve),
            "read_lat_us": self.lat_plot.plot(pen=READ_PEN, **curve),
            "write_lat_us": self.lat_plot.plot(pen=WRITE_PEN, **curve),
            "temperature_c": self.temp_plot.plot(pen=TEMP_PEN, **curve),
        }
        label_font = QFont()
        label_font.setPointSizeF(7.5)
        self.boundaries = [TrialBoundaries(BOUNDARY_PEN, labelled=plot is self.tp_plot,
                                           font=label_font)
                           for plot in (self.tp_plot, self.lat_plot, self.temp_plot)]
        for plot, boundaries in zip((self.tp_plot, self.lat_plot, self.temp_plot), self.boundaries):
            boundaries.setZValue(-10)
            plot.addItem(boundaries, ignoreBounds=True)
        self.temp_note = pg.TextItem("temperature unavailable: no sensor reading for this run",
                                     color=(110, 110, 110), anchor=(0.5, 0.5))
        self.temp_note.setParentItem(self.temp_plot.getViewBox())
        self.empty_note = pg.TextItem("No samples yet: throughput and latency of each interval "
                                      "appear here during a run.", color=(110, 110, 110),
                                      anchor=(0.5, 0.5))
        self.empty_note.setParentItem(self.tp_plot.getViewBox())
        self.tp_plot.getViewBox().sigResized.connect(self._place_notes)
        self.temp_plot.getViewBox().sigResized.connect(self._place_notes)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)

        self._timer = QTimer(self)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        model.reset.connect(self._rebuild)
        model.trial_started.connect(self._add_boundary)
        model.trial_ended.connect(self._on_trial_ended)
        model.samples_added.connect(self._mark_dirty)
        model.state_changed.connect(self._on_state)
        self._on_iops(show_iops, announce=False)
        self._rebuild()

    def _plot(self, row: int, label: str, bottom: str | None = None) -> pg.PlotItem:
        time_axis = TimeAxis("bottom")
        time_axis.enableAutoSIPrefix(False)  # seconds stay seconds (no "x0.001")
        plot = self.view.addPlot(row=row, col=0, axisItems={"bottom": time_axis})
        plot.setLabel("left", label)
        if bottom:
            plot.setLabel("bottom", bottom)
        # no grid: alpha-blended grid lines over the whole plot tripled the paint time
        plot.setClipToView(True)
        plot.setDownsampling(auto=True, mode="peak")
        plot.getAxis("left").setWidth(62)
        plot.getAxis("left").enableAutoSIPrefix(False)  # the label names the unit; no "(x0.001)"
        for name in ("left", "bottom"):
            plot.getAxis(name).setPen("k")
            plot.getAxis(name).setTextPen("k")
        return plot

    # -- model -> view -------------------------------------------------------------------------
    def _caption(self, trial: PlannedTrial) -> str:
        """The boundary label; a trial the drive throttled gets a ⚠ (the table says why)."""
        return trial.caption + (" \u26a0 throttled" if trial.index in self._throttled else "")

    def _relabel(self) -> None:
        items = [(t_s, self._caption(trial)) for t_s, trial in self.model.boundaries]
        for boundaries in self.boundaries:
            boundaries.set_boundaries(items)

    def _on_trial_ended(self, record: dict) -> None:
        if record.get("throttled"):  # rare: relabelling every boundary is fine
            self._throttled.add(record.get("index"))
            self._relabel()

    def _rebuild(self) -> None:
        self._throttled = {r.get("index") for r in self.model.records if r.get("throttled")}
        self._relabel()
        self._dirty = True
        self._shown: dict[str, tuple[str, int]] = {}   # curve -> (column, rows handed over)
        self._x_end = 0.0
        self.redraw()

    def _add_boundary(self, trial: PlannedTrial) -> None:
        t_s = self.model.boundaries[-1][0]
        for boundaries in self.boundaries:
            boundaries.add(t_s, self._caption(trial))

    def _on_state(self) -> None:
        if self.model.finished:
            self.redraw()  # the last samples and the fitted range now, not at the next tick

    def _mark_dirty(self) -> None:
        self._dirty = True

    def _tick(self) -> None:
        if self._dirty:
            self.redraw()

    def _on_iops(self, on: bool, announce: bool = True) -> None:
        self.tp_plot.setLabel("left", "IOPS" if on else "MB/s (10⁶ B/s)")
        self._dirty = True
        if announce:
            self.iops_toggled.emit(on)

    def _on_follow(self, on: bool) -> None:
        if on:
            self._x_end = 0.0
            self.redraw()

    def _follow(self, t: np.ndarray) -> None:
        """Keep the run in view, widening the x range in steps (to 1.25x the run time so far)
        rather than on every sample: a range change re-renders every axis and re-places every
        boundary label, which is most of a redraw's cost in a long run. A finished run fits."""
        t_end = float(t[-1]) if len(t) else 0.0
        if self.model.status == "idle":
            end = 60.0   # an empty chart still shows what the axis means
        elif self.model.finished:
            end = max(t_end * 1.01, 1.0)
        elif t_end < self._x_end:
            return
        else:
            end = max(t_end * 1.25, 10.0)
        if end != self._x_end:
            self._x_end = end
            self.tp_plot.setXRange(0.0, end, padding=0.0)

    def redraw(self) -> None:
        """Hand the current buffers to the curves (views, no copies). A curve whose new values
        are all NaN (a direction the trial does not use) keeps its old data: nothing to draw."""
        self._dirty = False
        self.redraws += 1
        s = self.model.series
        t = s.column("t_s")
        unit = "iops" if self.iops_box.isChecked() else "MBps"
        for name, column in (("read_tp", f"read_{unit}"), ("write_tp", f"write_{unit}"),
                             ("read_lat_us", "read_lat_us"), ("write_lat_us", "write_lat_us"),
                             ("temperature_c", "temperature_c")):
            y = s.column(column)
            curve = self.curves[name]
            shown = self._shown.get(name, (None, 0))
            if shown[0] == column and len(t) >= shown[1] and not np.isfinite(y[shown[1]:]).any():
                continue
            if len(t) and np.isfinite(y).any():
                curve.setData(t, y)
            else:
                curve.setData([], [])
            self._shown[name] = (column, len(t))
        if self.follow_box.isChecked():
            self._follow(t)
        self.temp_note.setVisible(not s.has_temperature)
        self.temp_note.setText("the drive's temperature is drawn here during a run"
                               if self.model.status == "idle"
                               else temperature_text(self.model.temperature_note))
        if not s.has_temperature:
            self.temp_plot.setYRange(20, 70, padding=0)  # a plausible °C scale, not 0..1
        else:
            self.temp_plot.enableAutoRange(axis="y")
        self.empty_note.setVisible(s.samples == 0)

    def _place_notes(self) -> None:
        self.temp_note.setPos(self.temp_plot.getViewBox().boundingRect().center())
        self.empty_note.setPos(self.tp_plot.getViewBox().boundingRect().center())

    def boundary_labels(self) -> list[str]:
        """The captions of the trial boundaries (one per trial, in time order)."""
        return list(self.boundaries[0].texts)

    def points(self, curve: str) -> int:
        """How many finite values a curve has been given (what it can draw); for tests."""
        data = self.curves[curve].getOriginalDataset()[1]
        return 0 if data is None else int(np.isfinite(data).sum())
