"""Where a label goes: pure geometry, in pixels (x right, y down), no Qt.

A label (a point's name, a value over a bar, the knee annotation, a vertical line's text) is a
box of known size near an anchor. :func:`place` tries positions around the anchor, nearest
first, and keeps the one that stays inside the plot area and covers the least of the data
(points, bars, error bars, line segments) and of the labels placed before it; a label that had
to move away from its anchor gets a leader line (the caller draws it, :func:`needs_leader`).
So no label hides a data point it could avoid, and none runs off the image.

A plot's data are thousands of small boxes (a line every few pixels), each candidate is
measured against all of them: :class:`Boxes` holds them as numpy columns and sums the overlaps
in one pass, to the same float as summing :meth:`Box.overlap` one by one.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    @property
    def center(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def overlap(self, other: Box) -> float:
        """Area shared with ``other`` (0 when they only touch)."""
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0

    def within(self, other: Box, tolerance: float = 0.5) -> bool:
        return (self.x0 >= other.x0 - tolerance and self.y0 >= other.y0 - tolerance
                and self.x1 <= other.x1 + tolerance and self.y1 <= other.y1 + tolerance)

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def distance(self, x: float, y: float) -> float:
        """From a point to the nearest point of the box (0 inside)."""
        dx = max(self.x0 - x, 0.0, x - self.x1)
        dy = max(self.y0 - y, 0.0, y - self.y1)
        return math.hypot(dx, dy)


class Boxes:
    """Obstacles as four numpy columns: :meth:`covered` is the area one box shares with all of
    them, equal to ``sum(box.overlap(o) for o in boxes)`` to the last bit (same operations per
    pair, the non-zero terms added in the same order; ``fmin``/``fmax`` treat a NaN corner as
    ``min``/``max`` do with the obstacle second)."""

    def __init__(self, boxes: Iterable[Box]) -> None:
        cols = np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes], dtype=float).reshape(-1, 4)
        self.x0, self.y0, self.x1, self.y1 = (np.ascontiguousarray(c) for c in cols.T)
        self.count = len(cols)

    def covered(self, box: Box) -> float:
        if not self.count or any(math.isnan(v) for v in (box.x0, box.y0, box.x1, box.y1)):
            return 0.0  # a NaN box overlaps nothing (Box.overlap's comparisons are all False)
        w = np.fmin(box.x1, self.x1) - np.fmax(box.x0, self.x0)
        h = np.fmin(box.y1, self.y1) - np.fmax(box.y0, self.y0)
        hit = (w > 0) & (h > 0)
        return sum((w[hit] * h[hit]).tolist()) if hit.any() else 0.0


def point_box(x: float, y: float, size: float) -> Box:
    """The box a point symbol of ``size`` pixels covers."""
    r = size / 2
    return Box(x - r, y - r, x + r, y + r)


def segment_boxes(p: tuple[float, float], q: tuple[float, float], width: float) -> list[Box]:
    """A line segment as small boxes every ``width`` pixels (enough to keep labels off it)."""
    n = max(1, int(math.hypot(q[0] - p[0], q[1] - p[1]) // max(width, 1.0)))
    return [point_box(p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n, width)
            for i in range(n + 1)]


def _around(ax: float, ay: float, w: float, h: float, gap: float) -> Iterator[tuple[Box, float]]:
    """Boxes on rings around the anchor, nearest ring first; on each ring right, upper right,
    up, ... (16 directions), so a label sits close and, when free, up and to the right."""
    for ring in (1.0, 2.0, 3.5, 5.5, 8.0, 12.0, 17.0, 24.0):
        d = gap * ring
        for k in range(16):
            a = math.radians(22.5 * k)
            cx, cy = math.cos(a), -math.sin(a)
            # centre so that the box edge, not its centre, is d away along the direction
            x = ax + cx * (w / 2 + d) - w / 2
            y = ay + cy * (h / 2 + d) - h / 2
            yield Box(x, y, x + w, y + h), d + k * 0.01


def _above(ax: float, ay: float, w: float, h: float, gap: float) -> Iterator[tuple[Box, float]]:
    """Centred above the anchor (a bar's top or error bar), else a little to a side, climbing
    when the space is taken."""
    step = max(h * 0.25, 2.0)
    for k in range(0, 80):
        y1 = ay - gap - k * step
        for shift in (0.0, -0.25, 0.25, -0.45, 0.45):
            x0 = ax - w / 2 + shift * w
            yield Box(x0, y1 - h, x0 + w, y1), k * step + abs(shift) * w * 0.5


def _beside_line(ax: float, w: float, h: float, gap: float, bounds: Box) -> Iterator[tuple[Box, float]]:
    """Left or right of a vertical line, from the top of the plot down."""
    y = bounds.y0 + gap
    while y + h <= bounds.y1:
        for side, x0 in ((0, ax + gap), (1, ax - gap - w)):
            yield Box(x0, y, x0 + w, y + h), (y - bounds.y0) * 0.2 + side
        y += h * 0.5


def _clamped(box: Box, bounds: Box) -> tuple[Box, float] | None:
    """The box shifted into ``bounds`` and how far it moved (None when it is larger)."""
    if box.w > bounds.w or box.h > bounds.h:
        return None
    dx = max(bounds.x0 - box.x0, 0.0) - max(box.x1 - bounds.x1, 0.0)
    dy = max(bounds.y0 - box.y0, 0.0) - max(box.y1 - bounds.y1, 0.0)
    return Box(box.x0 + dx, box.y0 + dy, box.x1 + dx, box.y1 + dy), abs(dx) + abs(dy)


def place(anchor: tuple[float, float], size: tuple[float, float], bounds: Box,
          obstacles: list[Box] | Boxes, taken: list[Box], gap: float = 6.0,
          mode: str = "around") -> Box:
    """The box for a label of ``size`` (w, h) near ``anchor`` inside ``bounds``.

    ``mode``: ``around`` (a point), ``above`` (a bar value) or ``line`` (a vertical line at
    anchor x). Every candidate is shifted into ``bounds`` (the shift counts as distance); the
    cost is the area of data and labels it covers (weighted) plus its distance from the anchor.
    The first candidate that covers nothing without a shift ends the search: candidates come
    nearest first."""
    (ax, ay), (w, h) = anchor, size
    blocked = obstacles if isinstance(obstacles, Boxes) else Boxes(obstacles)
    candidates = (_around(ax, ay, w, h, gap) if mode == "around" else
                  _above(ax, ay, w, h, gap) if mode == "above" else
                  _beside_line(ax, w, h, gap, bounds))
    best, best_cost = None, math.inf
    for raw, distance in candidates:
        fitted = _clamped(raw, bounds)
        if fitted is None:
            continue
        box, shift = fitted
        covered = blocked.covered(box) + 2 * sum(box.overlap(t) for t in taken)
        cost = covered * 50 + distance + shift
        if cost < best_cost:
            best, best_cost = box, cost
        if covered == 0 and shift == 0:
            break
    if best is None:  # larger than the plot area: centred on the anchor, as good as it gets
        best = Box(ax - w / 2, ay - h / 2, ax + w / 2, ay + h / 2)
    return best


def needs_leader(box: Box, anchor: tuple[float, float], gap: float) -> bool:
    """True when a label sits far enough from its anchor that a line must connect them."""
    return box.distance(*anchor) > 2.5 * gap


def leader_end(box: Box, anchor: tuple[float, float]) -> tuple[float, float]:
    """The point of the box nearest to the anchor (where a leader line meets the label)."""
    x = min(max(anchor[0], box.x0), box.x1)
    y = min(max(anchor[1], box.y0), box.y1)
    return x, y
