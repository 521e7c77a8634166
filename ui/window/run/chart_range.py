"""Which stretch of the run the live charts show, and their y ranges: mixed into LiveCharts.

Why one experiment at a time: a full course run is well over a hundred trials, and on one axis
each is a fragment of a pixel or two under a smear of labels. The charts follow the running
experiment on its own x range (its planned time, widened in steps as it overruns) and the
timeline above shows the whole run; a click on a finished experiment shows its stretch (follow
turns off for a while: look_back.py), a click on the running one follows again. The y range fits what is in view, so a
slow experiment after a fast one is not drawn as a flat line at the bottom.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg

from ui.window.run.chart_axes import TITLES, fit_from_zero
from ui.window.run.run_state import RunState
from ui.window.run.stretches import RUNNING, Stretch, stretches

if TYPE_CHECKING:  # what LiveCharts, the one class this is mixed into, is and provides
    from PySide6.QtCore import Signal
    from PySide6.QtWidgets import QCheckBox, QWidget

    from ui.window.run.run_model import RunModel
    from ui.window.run.timeline import RunTimeline
    _Widget = QWidget
else:
    _Widget = object

IDLE_SPAN_S = 60.0     # an empty chart still shows what the axis means
MIN_SPAN_S = 10.0


class ChartRange(_Widget):
    """Needs ``model``, ``timeline``, ``tp_plot``, ``lat_plot``, the option boxes and ``_tops``."""

    experiment_shown: Signal
    model: RunModel
    timeline: RunTimeline
    tp_plot: pg.PlotItem
    lat_plot: pg.PlotItem
    iops_box: QCheckBox
    log_box: QCheckBox
    follow_box: QCheckBox
    _tops: dict[str, float]     # y-axis top per chart, kept until data outgrows it

    if TYPE_CHECKING:  # declared only: at run time LiveCharts's is found
        def _tp_columns(self) -> tuple[str, str]: ...

    def _init_range(self) -> None:
        self._picked: str | None = None        # an experiment the user clicked, else None
        self._stretch: Stretch | None = None   # the stretch in view
        self._items: list[Stretch] = []
        self._x_range = (0.0, 0.0)

    def _t_end(self) -> float:
        t = self.model.series.column("t_s")
        return float(t[-1]) if len(t) else 0.0

    def _update_stretches(self) -> None:
        """At a trial's start or end and on a new run: the timeline and the stretch to show."""
        self._items = stretches(self.model, self._t_end())
        by_id = {s.id: s for s in self._items}
        if self._picked is not None and (self._picked not in by_id or
                                         by_id[self._picked].state == RUNNING):
            self._picked = None
        wanted = by_id.get(self._picked) if self._picked else self._following()
        before = self._stretch.id if self._stretch else None
        self._stretch = wanted
        self.timeline.set_stretches(self._items, wanted.id if wanted else None)
        if wanted is not None and wanted.id != before:
            self._tops = {}
            self.experiment_shown.emit(wanted.id)
        if self._picked is None and self.follow_box.isChecked():
            self._follow()

    def _following(self) -> Stretch | None:
        """The running experiment, or (between trials, after the run) the last one that ran."""
        started = [s for s in self._items if s.start is not None]
        running = [s for s in started if s.state == RUNNING]
        candidates = running or started
        return candidates[-1] if candidates else None

    def show_experiment(self, eid: str) -> None:
        """A click on the timeline: that experiment's stretch; the running one is followed."""
        item = next((s for s in self._items if s.id == eid), None)
        if item is None or item.start is None:
            return
        if item.state == RUNNING:
            self._picked = None
            self.follow_box.setChecked(True)
        else:
            self._picked = eid
            self.follow_box.setChecked(False)   # a look back (look_back.py shows the way back)
        self._update_stretches()
        if self._picked is not None:
            self._set_x(item.start, item.end or item.start + MIN_SPAN_S)
            self._fit_all(force=True)

    def _set_x(self, lo: float, hi: float) -> None:
        if (lo, hi) != self._x_range:
            self._x_range = (lo, hi)
            self.tp_plot.setXRange(lo, hi, padding=0.0)

    def _follow(self) -> None:
        """The followed stretch in view, widened in steps (to 1.25x its time so far) rather than
        on every sample: a range change re-renders every axis and re-places every boundary
        label, most of a redraw's cost. A finished experiment fits its stretch."""
        s, t_end = self._stretch, self._t_end()
        if self.model.status is RunState.IDLE:
            self._set_x(0.0, IDLE_SPAN_S)
            return
        if s is None or s.start is None:   # no plan known (a bare sample stream): the whole run
            if self.model.finished:
                self._set_x(0.0, max(t_end * 1.01, 1.0))
            elif t_end >= self._x_range[1] or self._x_range[0] != 0.0:
                self._set_x(0.0, max(t_end * 1.25, MIN_SPAN_S))
            return
        if s.state != RUNNING:
            self._set_x(s.start, max(s.end or t_end, s.start + 1.0))
            return
        lo, hi = self._x_range
        if lo == s.start and t_end < hi:
            return
        m = self.model
        ratio = m.done_actual_s / m.done_expected_s if m.done_expected_s > 0 else 1.0
        planned = s.expected_s * min(max(ratio, 1.0), 3.0) * 1.05
        self._set_x(s.start, s.start + max(planned, (t_end - s.start) * 1.25, MIN_SPAN_S))

    def _visible_rows(self) -> slice:
        """The sample rows in view (rows are in time order, but for a held start's overlap of a
        fraction of a second: jobs/run/held_starts.py)."""
        t = self.model.series.column("t_s")
        lo, hi = self._x_range
        return slice(int(np.searchsorted(t, lo)), int(np.searchsorted(t, hi, side="right")))

    def _fit_all(self, force: bool = False) -> None:
        if force:
            self._tops = {}
        self._fit_y("tp", self.tp_plot, self._tp_columns())
        self._fit_y("lat", self.lat_plot, ("read_lat_us", "write_lat_us", "read_p99_us",
                                           "write_p99_us"))

    def _fit_y(self, key: str, plot: pg.PlotItem, columns: tuple[str, ...]) -> None:
        """From 0 (a log latency axis ranges itself), in the unit that keeps ticks short, to
        the peak of the stretch in view."""
        s = self.model.series
        rows = self._visible_rows()
        values = [s.column(c)[rows] for c in columns]
        peak = max((float(np.nanmax(v)) for v in values if len(v) and np.isfinite(v).any()),
                   default=0.0)
        unit = "lat" if key == "lat" else ("iops" if self.iops_box.isChecked() else "MBps")
        top = fit_from_zero(plot, peak, TITLES[unit], self._tops.get(key),
                            fit_range=not (key == "lat" and self.log_box.isChecked()))
        if top is not None:
            self._tops[key] = top
