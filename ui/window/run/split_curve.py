"""A live series drawn as two curves: the rows before the current trial, and the current trial's.

Why: a pyqtgraph curve given new data repaints its whole extent and re-reads all of it. With one
curve per series, every second the window repainted the whole stretch in view, every series, for
the one sample each had gained. Split at the current trial's start, the "past" curve gets new
data once a trial, and the "now" curve, each second, repaints only the current trial's part
(README, "Performance").
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg


class SplitCurve:
    """``past`` and ``now``, two PlotDataItems of one plot with the same options and pen."""

    def __init__(self, plot: pg.PlotItem, **options) -> None:
        self.past, self.now = plot.plot(**options), plot.plot(**options)
        self._shown: dict[bool, tuple[str, int, int]] = {}   # now? -> (column, start, end)

    def set_pen(self, pen) -> None:
        self.past.setPen(pen)
        self.now.setPen(pen)

    def forget(self) -> None:
        """A new run: nothing of the last one is shown. Emptied, not left to the buffer: a curve
        holds a view of the model's buffer, which a grown run has since replaced."""
        self._shown = {}
        self.past.setData([], [])
        self.now.setData([], [])

    def show(self, column: str, t: np.ndarray, y: np.ndarray, split: int) -> None:
        """Rows before ``split`` to ``past``, the rest to ``now`` (views, no copies)."""
        self._hand(False, column, 0, split, t, y)
        self._hand(True, column, split, len(t), t, y)

    def _hand(self, now: bool, column: str, start: int, end: int, t: np.ndarray,
              y: np.ndarray) -> None:
        """Unless only NaN came since (a direction the trial does not use: nothing to draw)."""
        was = self._shown.get(now)
        if was is not None and was[:2] == (column, start) and end >= was[2] and (
                not np.isfinite(y[was[2]:end]).any()):
            return
        curve = self.now if now else self.past
        part = y[start:end]
        if np.isfinite(part).any():
            curve.setData(t[start:end], part)
        elif was is not None:   # nothing to show any more (a new trial, a new run)
            curve.setData([], [])
        self._shown[now] = (column, start, end)

    def dataset(self) -> tuple[np.ndarray, np.ndarray]:
        """The values both curves hold, in time order (for tests)."""
        parts = [c.getOriginalDataset() for c in (self.past, self.now)]
        t, y = ([np.asarray(p[i], dtype=float) for p in parts if p[i] is not None] for i in (0, 1))
        return (np.concatenate(t), np.concatenate(y)) if t else (np.zeros(0), np.zeros(0))
