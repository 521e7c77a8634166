"""How often the live charts draw while a run goes: at most once a beat, and no more often than
a share of one core allows.

Why: beside a QD1 trial the window's CPU is the app's disturbance, and the charts are most of
it (their redraw and the paint it causes: about 4 ms a second on a 2-vCPU VM under Xvfb, half
the window's CPU; docs/performance.md). Drawn once a second whatever they cost, a slow machine
took more from fio than a fast one. Here each drawing's CPU (the redraw and the chart's paints
after it, on the GUI thread) sets the wait before the next: ``cost / SHARE`` seconds, never
less than the window's beat (a machine where a drawing is cheap draws every second, as
before) and never more than ``MOST_S`` (the chart stays live). The same rule as "Results so
far" (ui/window/report/results_so_far.py), with a larger share: the live charts are what a
student watches.
"""
from __future__ import annotations

import time

import pyqtgraph as pg
from PySide6.QtGui import QPaintEvent

SHARE = 0.0015   # of one core: what the charts' drawings average while a run goes
MOST_S = 3.0     # the longest wait between two drawings, whatever they cost
SMOOTHING = 0.3  # weight of the newest drawing in the running cost (one cold paint is not a rule)


class TimedView(pg.GraphicsLayoutWidget):  # type: ignore[misc]  # pyqtgraph: no types
    """The charts' view, adding up the GUI thread's CPU in its paints (``paint_s``)."""

    def __init__(self) -> None:
        super().__init__()
        self.paint_s = 0.0

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        started = time.thread_time()
        super().paintEvent(event)
        self.paint_s += time.thread_time() - started


class ChartBudget:
    """``drawing()`` around each redraw; ``wait_s(period_s)``: how long after a drawing the next
    may come. Its cost is the redraw plus the view's paints until the next drawing starts."""

    def __init__(self, view: TimedView, share: float = SHARE, most_s: float = MOST_S) -> None:
        self.view, self.share, self.most_s = view, share, most_s
        self.cost_s: float | None = None      # running cost of one drawing, None before the first
        self._redraw_s = 0.0
        self._painted_at = 0.0                 # view.paint_s when the last redraw ended

    def started(self) -> float:
        """A redraw starts: the one before it is complete (its paints are in). Returns the
        thread time to hand to ``ended``."""
        if self._redraw_s:
            last = self._redraw_s + self.view.paint_s - self._painted_at
            self.cost_s = last if self.cost_s is None else \
                SMOOTHING * last + (1 - SMOOTHING) * self.cost_s
        return time.thread_time()

    def ended(self, started: float) -> None:
        self._redraw_s = time.thread_time() - started
        self._painted_at = self.view.paint_s

    def wait_s(self, period_s: float) -> float:
        """The wait after a drawing: its cost over the share, within the beat and ``most_s``."""
        if self.cost_s is None:
            return period_s
        return min(self.most_s, max(period_s, self.cost_s / self.share))
