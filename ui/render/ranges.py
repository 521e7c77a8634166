"""Where a figure's axes start and end, and how many legend columns fit: geometry only.

Ranges include error bars and markers, keep zero on axes that ask for it, and leave room for the
lowest tick label (pyqtgraph drops a label that does not fit inside the view).
"""
from __future__ import annotations

import math

from app.figures import Figure
from ui.render.style import Style, font


def x_values(fig: Figure, values):
    return [math.log2(v) if fig.log2_x else v for v in values]


def y_range(fig: Figure, side: str) -> tuple[float, float] | None:
    ys = []
    for s in fig.series:
        if s.axis == side:
            errs = s.err or [0.0] * len(s.y)
            ys += [y + e for y, e in zip(s.y, errs)]
            ys += [max(y - e, 0.0) if y >= 0 else y - e for y, e in zip(s.y, errs)]
    ys += [h.y for h in fig.hlines if h.axis == side]
    ys += [m.y for m in fig.markers if m.axis == side and m.y is not None]
    if not ys:
        return None
    axis = fig.y_axis if side == "left" else fig.y2_axis
    lo, hi = min(ys), max(ys)
    if axis is None or axis.include_zero:
        lo = min(lo, 0.0)
    span = (hi - lo) or abs(hi) or 1.0
    # the lowest tick label must fit inside the view (pyqtgraph drops it otherwise)
    return lo - (0.03 if lo == 0 else 0.06) * span, hi + 0.14 * span


def x_range(fig: Figure) -> tuple[float, float] | None:
    xs, pad = [], 0.0
    for s in fig.series:
        xs += x_values(fig, s.x)
        if s.kind == "bar":  # categories: half a slot each side, room for the tick text
            pad = max(pad, s.bar_width / 2 + 0.15, 0.5)
    xs += x_values(fig, [t for t, _ in fig.x_axis.ticks])
    xs += x_values(fig, [m.x for m in fig.markers])
    if not xs:
        return None
    lo, hi = min(xs), max(xs)
    if fig.x_axis.include_zero and not fig.log2_x and not pad:
        lo = min(lo, 0.0)
    span = (hi - lo) or 1.0
    return lo - max(pad, 0.05 * span), hi + max(pad, 0.08 * span)


def legend_columns(fig: Figure, style: Style) -> int:
    """As many legend columns as fit the width: a legend wider than the plot would widen the
    whole layout and push the right axis out of the image."""
    from PySide6.QtGui import QFontMetrics
    names = [s.name + (" (right axis)" if s.axis == "right" else "") for s in fig.series]
    names += [h.text for h in fig.hlines]
    if not names:
        return 1
    metrics = QFontMetrics(font(style.legend_px))
    widest = max(metrics.horizontalAdvance(n) for n in names)
    column = widest + style.legend_sample * 2.6 + style.legend_px
    return max(1, min(len(names), 4, int((style.width * 0.9) // column)))
