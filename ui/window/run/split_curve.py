"""A live series drawn as three curves: the rows before the current trial, the current trial's,
and its newest rows.

Why: a pyqtgraph curve given new data repaints its whole extent and re-reads all of it. With one
curve per series, every second the window repainted the whole stretch in view, every series, for
the one sample each had gained. Split at the current trial's start, the "past" curve gets new
data once a trial. The current trial's rows go to "now" (a PlotDataItem: it thins a long trial to
the pixels it covers) only every ``TAIL_ROWS`` rows; each second's new rows go to "tail", a bare
PlotCurveItem holding the rows since, whose ``setData`` costs an eighth of a PlotDataItem's
(docs/performance.md). The tail starts at the last row "now" holds, so the line has no gap; on
a log axis it is handed the logarithms, as a PlotDataItem works them out for itself.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QPen

TAIL_ROWS = 32   # the most rows the tail holds before they go to "now"


@dataclass(frozen=True)
class Handed:
    """The rows a curve was last given: ``column[start:end]``, and whether any had a value."""

    column: str
    start: int
    end: int
    drawn: bool


class _Part:
    """One of the three curves and the rows it holds."""

    def __init__(self, set_data: Callable[[np.ndarray, np.ndarray], None]) -> None:
        self.set_data = set_data
        self.handed: Handed | None = None

    def hand(self, column: str, start: int, end: int, t: np.ndarray, y: np.ndarray) -> None:
        """Unless only NaN came since (a direction the trial does not use: nothing to draw)."""
        was = self.handed
        if was is not None and (was.column, was.start) == (column, start) and end >= was.end \
                and not np.isfinite(y[was.end:end]).any():
            return
        values = y[start:end]
        drawn = bool(np.isfinite(values).any())
        if drawn:
            self.set_data(t[start:end], values)
        elif was is not None and was.drawn:   # nothing to show any more (a new trial, a new run)
            self.set_data(np.zeros(0), np.zeros(0))
        self.handed = Handed(column, start, end, drawn)


class SplitCurve:
    """``past``, ``now`` (PlotDataItems with the same options) and ``tail`` of one plot."""

    def __init__(self, plot: pg.PlotItem, connect: str = "all", **options: object) -> None:
        self.past, self.now = (plot.plot(connect=connect, **options) for _ in range(2))
        self.tail = pg.PlotCurveItem(connect=connect)
        # on the view box, not the plot: the plot's menu would treat it as a PlotDataItem
        # (downsampling, log mode), which it is not
        plot.getViewBox().addItem(self.tail)
        self.log_y = False
        self._tail_rows = (np.zeros(0), np.zeros(0))   # the tail's rows as given, not as drawn
        self._parts = {"past": _Part(lambda t, y: self.past.setData(t, y)),
                       "now": _Part(lambda t, y: self.now.setData(t, y)),
                       "tail": _Part(self._set_tail)}

    @property
    def parts(self) -> tuple[pg.PlotDataItem, pg.PlotDataItem, pg.PlotCurveItem]:
        return self.past, self.now, self.tail

    def set_pen(self, pen: QPen) -> None:
        for part in self.parts:
            part.setPen(pen)

    def set_log(self, on: bool) -> None:
        """The plot's y axis turned logarithmic (or back): the tail is handed anew."""
        self.log_y = on
        self._parts["tail"].handed = None

    def forget(self) -> None:
        """A new run: nothing of the last one is shown. Emptied, not left to the buffer: a curve
        holds a view of the model's buffer, which a grown run has since replaced."""
        for part in self._parts.values():
            part.handed = None
            part.set_data(np.zeros(0), np.zeros(0))

    def show(self, column: str, t: np.ndarray, y: np.ndarray, split: int) -> None:
        """Rows before ``split`` to ``past``, the rest to ``now`` and ``tail`` (views, no
        copies)."""
        n = len(t)
        self._parts["past"].hand(column, 0, split, t, y)
        held = self._parts["now"].handed
        settled = held.end if held is not None and (held.column, held.start) == (column, split) \
            else split
        if n < settled or n - settled >= TAIL_ROWS:
            settled = n
        self._parts["now"].hand(column, split, settled, t, y)
        tail = max(split, settled - 1)   # from the last row "now" holds: no gap in the line
        self._parts["tail"].hand(column, tail, n if n > settled else tail, t, y)

    def _set_tail(self, t: np.ndarray, values: np.ndarray) -> None:
        self._tail_rows = (t, values)
        if self.log_y and len(values):
            with np.errstate(divide="ignore", invalid="ignore"):
                values = np.log10(values)
            values[~np.isfinite(values)] = np.nan
        self.tail.setData(t, values)

    def dataset(self) -> tuple[np.ndarray, np.ndarray]:
        """The values the curves hold, in time order, each row once (for tests)."""
        parts = [c.getOriginalDataset() for c in (self.past, self.now)]
        t, y = ([np.asarray(p[i], dtype=float) for p in parts if p[i] is not None] for i in (0, 1))
        tail_t, tail_y = self._tail_rows
        now, tail = self._parts["now"].handed, self._parts["tail"].handed
        if len(tail_t) and now is not None and tail is not None and now.end > now.start \
                and tail.start == now.end - 1:
            tail_t, tail_y = tail_t[1:], tail_y[1:]   # its first row is the last of "now"
        return np.concatenate(t + [tail_t]), np.concatenate(y + [tail_y])
