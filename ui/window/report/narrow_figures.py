"""A figure as the narrow "Results so far" pane shows it (ui/window/report/results_so_far.py):
the export's figure specs, with what a pane a quarter of the window wide cannot hold taken out.
"""
from __future__ import annotations

from dataclasses import replace

from app.results.figure import Figure


def without_point_labels(fig: Figure) -> Figure:
    """The figure without the values written at its points and bars: in a pane a third of the
    Figures tab's width they crowd each other, and placing them clear of the data is most of a
    redraw's cost (the Results tab has the values; findings' markers keep their labels)."""
    parts = tuple(without_point_labels(p) for p in fig.panels)
    return replace(fig, panels=parts, series=tuple(replace(s, point_labels=None)
                                                   for s in fig.series))


def a_panel_each(figures: list[Figure]) -> list[Figure]:
    """Each panel of a figure of panels side by side as a figure of its own: side by side in
    this pane each got a third of it, its ticks crowding and its axis titles cut (1280x720).
    The pane's selector lists them as it lists figures."""
    out = []
    for fig in figures:
        out += [replace(panel, id=f"{fig.id}/{panel.id}", title=f"{fig.title}: {panel.title}",
                        caption=panel.caption or fig.caption, experiment=fig.experiment)
                for panel in fig.panels] or [fig]
    return out
