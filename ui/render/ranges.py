"""Where a figure's axes start and end, their log ticks, and how many legend columns fit:
geometry only.

View coordinates: what pyqtgraph plots. A linear axis plots values as they are, a log2 x axis
(``Figure.log2_x``) plots log2(value), a log axis (``Axis.log``) log10(value); values that a log
axis cannot show (<= 0) are dropped. Ranges include every error bar in full (a bar reaching below
zero is drawn, not cut: it says the spread is as large as the mean) and markers, keep zero on
linear axes that ask for it, and leave room for the lowest tick label (pyqtgraph drops a label
that does not fit inside the view).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from app.results.figure import Axis, Figure, error_ends
from ui.render.style import Style, font, tick_text


def y_axis_of(fig: Figure, side: str) -> Axis | None:
    return fig.y_axis if side == "left" else fig.y2_axis


def view(value: float | None, log10: bool = False, log2: bool = False) -> float | None:
    """One value in view coordinates (None when a log axis cannot show it)."""
    if value is None or not math.isfinite(value):
        return None
    if log10 or log2:
        if value <= 0:
            return None
        return math.log10(value) if log10 else math.log2(value)
    return value


def x_values(fig: Figure, values: Iterable[float | None]) -> list[float | None]:
    return [view(v, fig.x_axis.log, fig.log2_x) for v in values]


def y_values(fig: Figure, values: Iterable[float | None], side: str = "left") -> list[float | None]:
    axis = y_axis_of(fig, side)
    return [view(v, bool(axis and axis.log)) for v in values]


def _spread(values: Sequence[float | None], errs: Sequence[float | tuple[float, float] | None] | None,
            log10: bool, log2: bool = False) -> list[float]:
    """View coordinates of every value and both ends of its error bar."""
    out = []
    for v, e in zip(values, errs or [0.0] * len(values)):
        if v is None:
            continue
        for end in (v, *error_ends(v, e)):
            w = view(end, log10, log2)
            if w is not None:
                out.append(w)
    return out


def locked_scale(fig: Figure) -> float | None:
    """Right value per left value when the right axis is locked to the left (both linear)."""
    right = fig.y2_axis
    if right is None or not right.per_left or right.log or fig.y_axis.log:
        return None
    return right.per_left


def y_range(fig: Figure, side: str) -> tuple[float, float] | None:
    """The view range of one y axis; a right axis locked to the left is the left's range
    scaled, and the left's range then holds the right's data too."""
    locked = locked_scale(fig)
    if locked and side == "right":
        left = _y_range(fig, "left", locked)
        return (left[0] * locked, left[1] * locked) if left else None
    return _y_range(fig, side, locked if side == "left" else None)


def _y_range(fig: Figure, side: str, locked: float | None) -> tuple[float, float] | None:
    axis = y_axis_of(fig, side)
    log = bool(axis and axis.log)
    ys = []
    for s in fig.series:
        if s.axis == side:
            ys += _spread(s.y, s.err, log)
        elif locked:
            ys += [v / locked for v in _spread(s.y, s.err, False)]
    ys += [w for w in y_values(fig, [h.y for h in fig.hlines if h.axis == side], side) if w is not None]
    ys += [w for w in y_values(fig, [m.y for m in fig.markers if m.axis == side and m.y is not None],
                               side) if w is not None]
    ys += [w for w in y_values(fig, [t for t, _ in (axis.ticks if axis else ())], side)
           if w is not None]
    if not ys:
        return None
    lo, hi = min(ys), max(ys)
    if not log and (axis is None or axis.include_zero):
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    span = (hi - lo) or abs(hi) or 1.0
    if log:  # a decade is plenty of room; at least a tenth of a decade each side
        return lo - max(0.06 * span, 0.1), hi + max(0.14 * span, 0.15)
    # the lowest tick label must fit inside the view (pyqtgraph drops it otherwise); labels of
    # several lines over the bars need more room on top
    lines = max((t.count("\n") + 1 for s in fig.series if s.axis == side and s.kind == "bar"
                 for t in (s.point_labels or ())), default=1)
    return lo - (0.03 if lo == 0 else 0.06) * span, hi + (0.14 + 0.05 * (lines - 1)) * span


def x_range(fig: Figure) -> tuple[float, float] | None:
    xs, pad = [], 0.0
    for s in fig.series:
        xs += _spread(s.x, s.xerr, fig.x_axis.log, fig.log2_x)
        if s.kind == "bar":  # categories: half a slot each side, room for the tick text
            pad = max(pad, s.bar_width / 2 + 0.15, 0.5)
    xs += [w for w in x_values(fig, [t for t, _ in fig.x_axis.ticks]) if w is not None]
    xs += [w for w in x_values(fig, [m.x for m in fig.markers]) if w is not None]
    if not xs:
        return None
    lo, hi = min(xs), max(xs)
    linear = not (fig.log2_x or fig.x_axis.log)
    if fig.x_axis.include_zero and linear and not pad:
        lo = min(lo, 0.0)
    span = (hi - lo) or 1.0
    return lo - max(pad, 0.05 * span), hi + max(pad, 0.08 * span)


def log_ticks(lo: float, hi: float) -> tuple[list[tuple[float, str]], list[tuple[float, str]]]:
    """Major (labelled) and minor (grid only) ticks of a log10 axis spanning view [lo, hi]:
    decades, plus 2 and 5 when fewer than 3.5 decades show, labelled in the axis unit."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [], []
    major, minor = [], []
    steps = (1, 2, 5) if hi - lo < 3.5 else (1,)
    for decade in range(math.floor(lo), math.ceil(hi) + 1):
        for m in range(1, 10):
            pos = decade + math.log10(m)
            if not lo <= pos <= hi:
                continue
            value = m * 10.0 ** decade
            if m in steps:
                major.append((pos, tick_text(value, 10.0 ** decade if decade < 0 else 1)))
            else:
                minor.append((pos, ""))
    return major, minor


LEGEND_SHARE = 0.75  # of the style's width: the results view may be narrower than its style


def legend_columns(fig: Figure, style: Style) -> int:
    """As many legend columns as fit the width: a legend wider than the plot would widen the
    whole layout and push the right axis out of the image."""
    from PySide6.QtGui import QFontMetrics
    names = legend_names(fig)
    if not names:
        return 1
    metrics = QFontMetrics(font(style.legend_px))
    widest = max(metrics.horizontalAdvance(n) for n in names)
    column = widest + style.legend_sample * 2.6 + style.legend_px
    return max(1, min(len(names), 4, int((style.width * LEGEND_SHARE) // column)))


def legend_names(fig: Figure) -> list[str]:
    """The legend entries of a figure and its panels, each name once, in drawing order."""
    names: list[str] = []
    for part in (fig.panels or (fig,)):
        names += [s.name + (" (right axis)" if s.axis == "right" else "") for s in part.series]
        names += [h.text for h in part.hlines]
        names += [m.text for m in part.markers]
    return list(dict.fromkeys(names))


PLOT_SHARE = 0.82   # of the image width, roughly what the axes leave to the plot area
MIN_TICK_SHARE = 0.6
MIN_TICK_PX = 8     # legible on a screen


def category_tick_px(fig: Figure, style: Style, columns: int = 1) -> tuple[int, bool]:
    """The tick font size at which the widest category label (bars) fits its slot at the
    figure's size: labels of neighbouring slots never overlap; never below 60 % of the
    style's tick size, 8 px nor the style's ``min_px`` (8 pt at the PDF's text width, 9 px in the
    window; long names are wrapped onto lines by the figure builders, and staggered).
    With it, whether the labels must still be staggered (:func:`staggered`): in a pane as
    narrow as the live view's, two panels of four bars ran "mean p95 p99 p99.9" together even
    at the smallest size."""
    from PySide6.QtGui import QFontMetrics
    ticks, span = fig.x_axis.ticks, x_range(fig)
    if not ticks or span is None or not any(s.kind == "bar" for s in fig.series):
        return style.tick_px, False
    slot = style.width * PLOT_SHARE / max(columns, 1) / max(span[1] - span[0], 1.0)
    metrics = QFontMetrics(font(style.tick_px))
    widest = max(metrics.horizontalAdvance(line) for _, t in ticks for line in t.split("\n"))
    if widest <= 0.9 * slot:
        return style.tick_px, False
    floor = max(int(style.tick_px * MIN_TICK_SHARE), min(style.tick_px, MIN_TICK_PX), style.min_px)
    px = max(int(style.tick_px * 0.9 * slot / widest), floor)
    room = panel_width(style, columns) / max(span[1] - span[0], 1.0)
    return px, widest * px / style.tick_px > 0.9 * room and len(ticks) > 1


def panel_width(style: Style, columns: int) -> float:
    """A panel's plot area in a figure ``style.width`` wide: each panel's left axis (its title,
    tick text and ticks: 62 px at the screen style) and the gap after it come off the width.
    Closer than PLOT_SHARE where the axes are most of a narrow pane (two panels in 296 px leave
    58 px each, not 121), which is where staggering is decided."""
    axis = style.label_px * 1.7 + style.tick_px * 3.7 + style.label_px * 2
    return max(style.width * 0.1, (style.width - 6 - max(columns, 1) * axis) / max(columns, 1))



def staggered(fig: Figure, style: Style, columns: int, px: int) -> tuple[tuple[tuple[float, str], ...], int]:
    """The category names, each moved down by the fewest lines at which it clears every name
    before it (widths measured at ``px``, a name of several lines occupying them all), and
    the lines of tick text the axis then needs."""
    from PySide6.QtGui import QFontMetrics
    ticks, span = fig.x_axis.ticks, x_range(fig) or (0.0, 1.0)
    slot = panel_width(style, columns) / max(span[1] - span[0], 1.0)
    metrics = QFontMetrics(font(px))
    placed: list[tuple[float, float, int, int]] = []   # x from, x to, first line, last line
    out = []
    for (value, text), x in zip(ticks, x_values(fig, [v for v, _ in ticks])):
        lines = text.split("\n")
        half = max(metrics.horizontalAdvance(line) for line in lines) / 2 + 2
        at = (x or 0.0) * slot
        start = 0
        while any(a < at + half and at - half < b and first <= start + len(lines) - 1
                  and start <= last for a, b, first, last in placed):
            start += 1
        placed.append((at - half, at + half, start, start + len(lines) - 1))
        out.append((value, "\n" * start + text))
    return tuple(out), max((p[3] for p in placed), default=0) + 1
