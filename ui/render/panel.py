"""One panel of a drawn figure: its spec, ViewBoxes and axes, and where its data lies.

Kept apart from ui/render/draw.py so that the modules that draw a panel's items
(ui/render/plot_items.py) and place its labels (ui/render/labels.py) can name it without
importing the module that imports them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.results.figure import Figure

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    import pyqtgraph as pg

Point = tuple[float, float]


@dataclass
class Geometry:
    """Where a panel's data lies, in view coordinates of the ViewBox that holds it."""
    points: list[tuple[pg.ViewBox, float, float, float]] = field(default_factory=list)  # x, y, size px
    bars: list[tuple[pg.ViewBox, float, float, float, float]] = field(default_factory=list)  # x0, x1, y0, y1
    errs: list[tuple[pg.ViewBox, float, float, float, float]] = field(default_factory=list)  # x0, y0, x1, y1
    segments: list[tuple[pg.ViewBox, Point, Point, float]] = field(default_factory=list)  # a, b, width px


@dataclass
class Panel:
    """One panel as drawn: its spec, ViewBoxes, axes and where its data lies (for labels)."""
    fig: Figure
    vb: pg.ViewBox
    right: pg.ViewBox | None
    axes: dict[str, pg.AxisItem]   # left, bottom (and right on the first panel)
    geometry: Geometry = field(default_factory=Geometry)
