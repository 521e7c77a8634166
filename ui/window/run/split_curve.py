"""A live series drawn as three curves: the rows before the current trial, the current trial's,
and its newest rows.

Why: a pyqtgraph curve given new data repaints its whole extent and re-reads all of it. With one
curve per series, every second the window repainted the whole stretch in view, every series, for
the one sample each had gained. Split at the current trial's start, the "past" curve gets new
data once a trial. The current trial's rows go to "now" (a PlotDataItem: it thins a long trial to
the pixels it covers) only every ``TAIL_ROWS`` rows; each second's new rows go to "tail", a bare
PlotCurveItem holding the rows since, whose ``setData`` costs an eighth of a PlotDataItem's
(README, "Performance"). The tail starts at the last row "now" holds, so the line has no gap; on
a log axis it is handed the logarithms, as a PlotDataItem works them out for itself.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

TAIL_ROWS = 32   # the most rows the tail holds before they go to "now"


class SplitCurve:
    """``past``, ``now`` (PlotDataItems with the same options) and ``tail`` of one plot."""

    def __init__(self, plot: pg.PlotItem, **options) -> None:
        self.past, self.now = plot.plot(**options), plot.plot(**options)
        self.tail = pg.PlotCurveItem(connect=options.get("connect", "all"))
        # on the view box, not the plot: the plot's menu would treat it as a PlotDataItem
        # (downsampling, log mode), which it is not
        plot.getViewBox().addItem(self.tail)
        self.log_y = False
        self._shown: dict[str, tuple[str, int, int, bool]] = {}  # part -> column, rows, drawn?
        self._tail: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))  # as handed

    @property
    def parts(self) -> tuple:
        return self.past, self.now, self.tail

    def set_pen(self, pen) -> None:
        for part in self.parts:
            part.setPen(pen)

    def set_log(self, on: bool) -> None:
        """The plot's y axis turned logarithmic (or back): the tail is handed anew."""
        self.log_y = on
        self._shown.pop("tail", None)

    def forget(self) -> None:
        """A new run: nothing of the last one is shown. Emptied, not left to the buffer: a curve
        holds a view of the model's buffer, which a grown run has since replaced."""
        self._shown = {}
        self.past.setData([], [])
        self.now.setData([], [])
        self._set_tail(np.zeros(0), np.zeros(0))

    def show(self, column: str, t: np.ndarray, y: np.ndarray, split: int) -> None:
        """Rows before ``split`` to ``past``, the rest to ``now`` and ``tail`` (views, no
        copies)."""
        n = len(t)
        self._hand("past", column, 0, split, t, y)
        held = self._shown.get("now")
        settled = held[2] if held is not None and held[:2] == (column, split) else split
        if n < settled or n - settled >= TAIL_ROWS:
            settled = n
        self._hand("now", column, split, settled, t, y)
        tail = max(split, settled - 1)   # from the last row "now" holds: no gap in the line
        self._hand("tail", column, tail, n if n > settled else tail, t, y)

    def _hand(self, part: str, column: str, start: int, end: int, t: np.ndarray,
              y: np.ndarray) -> None:
        """Unless only NaN came since (a direction the trial does not use: nothing to draw)."""
        was = self._shown.get(part)
        if was is not None and was[:2] == (column, start) and end >= was[2] and (
                not np.isfinite(y[was[2]:end]).any()):
            return
        values = y[start:end]
        holds = bool(np.isfinite(values).any())
        if holds:
            self._set(part, t[start:end], values)
        elif was is not None and was[3]:   # nothing to show any more (a new trial, a new run)
            self._set(part, np.zeros(0), np.zeros(0))
        self._shown[part] = (column, start, end, holds)

    def _set(self, part: str, t: np.ndarray, values: np.ndarray) -> None:
        if part == "tail":
            self._set_tail(t, values)
        else:
            getattr(self, part).setData(t, values)

    def _set_tail(self, t: np.ndarray, values: np.ndarray) -> None:
        self._tail = (t, values)
        if self.log_y and len(values):
            with np.errstate(divide="ignore", invalid="ignore"):
                values = np.log10(values)
            values[~np.isfinite(values)] = np.nan
        self.tail.setData(t, values)

    def dataset(self) -> tuple[np.ndarray, np.ndarray]:
        """The values the curves hold, in time order, each row once (for tests)."""
        parts = [c.getOriginalDataset() for c in (self.past, self.now)]
        t, y = ([np.asarray(p[i], dtype=float) for p in parts if p[i] is not None] for i in (0, 1))
        tail_t, tail_y = self._tail
        now = self._shown.get("now")
        if len(tail_t) and now is not None and now[2] > now[1] and \
                self._shown.get("tail", ("", -1, 0, False))[1] == now[2] - 1:
            tail_t, tail_y = tail_t[1:], tail_y[1:]   # its first row is the last of "now"
        t, y = t + [tail_t], y + [tail_y]
        return np.concatenate(t), np.concatenate(y)
