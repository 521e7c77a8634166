"""Numeric x ticks thinned to the plot's width, redone at every layout.

Why: a sweep names each measured level on its x axis (block sizes 4 .. 1024 KiB, queue depths).
At the report's width all fit; in the window's narrow "Results so far" pane (about 300 px) the
labels of 128, 256 and 512 ran together into "128256512" and the last was dropped. Here every
k-th level keeps its label (the first always) and the others stay as unlabelled ticks, with k the
smallest stride at which neighbouring labels keep a gap. Category axes (bars: mean, p95, ...)
are left alone: their font shrinks instead, and they are staggered when even that is too wide
(ui/render/ranges.py ``category_tick_px``).
"""
from __future__ import annotations

import math

from ui.render.panel import Panel
from ui.render.ranges import x_values


def thin_ticks(panel: Panel, gap_px: float) -> None:
    """Label every k-th given x tick of ``panel`` so that labels stay ``gap_px`` apart."""
    from PySide6.QtGui import QFontMetricsF
    fig, axis = panel.fig, panel.axes["bottom"]
    ticks = fig.x_axis.ticks
    if len(ticks) < 3 or any(s.kind == "bar" for s in fig.series):
        return
    pairs = [(p, t) for p, (_, t) in zip(x_values(fig, [v for v, _ in ticks]), ticks)
             if p is not None]
    width = panel.vb.sceneBoundingRect().width()
    lo, hi = panel.vb.viewRange()[0]
    steps = [b[0] - a[0] for a, b in zip(pairs, pairs[1:]) if b[0] > a[0]]
    if width <= 0 or hi <= lo or not steps:
        return
    metrics = QFontMetricsF(axis.style["tickFont"] or axis.font())
    widest = max(metrics.horizontalAdvance(t) for _, t in pairs) + gap_px
    step_px = min(steps) * width / (hi - lo)
    stride = max(1, math.ceil(widest / step_px))
    labelled = pairs[::stride]
    wanted = [pairs] if stride == 1 else [labelled, [(p, "") for p, t in pairs
                                                     if (p, t) not in labelled]]
    if getattr(axis, "_tickLevels", None) != wanted:
        axis.setTicks(wanted)
