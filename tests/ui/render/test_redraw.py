"""ui/render/redraw.py: a newer state of the same figure, drawn in place, shows what a new plot of
it shows (the same data items, legend entries and ranges), and a figure of another shape is
refused (the caller then makes a new plot)."""
from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.report.outputs import build_figures  # noqa: E402
from app.store.run_folder import load_run  # noqa: E402
from ui.render.draw import figure_widget  # noqa: E402
from ui.render.redraw import frame, redraw, shape  # noqa: E402
from ui.render.style import SCREEN  # noqa: E402

from conftest import FIXTURES, results_of  # noqa: E402

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def _earlier(fig):
    """The figure as it stood one point before: each series without its last point."""
    def part(p):
        return replace(p, panels=tuple(part(q) for q in p.panels), series=tuple(
            replace(s, x=s.x[:-1], y=s.y[:-1], err=s.err[:-1] if s.err else s.err,
                    xerr=s.xerr[:-1] if s.xerr else s.xerr,
                    point_labels=s.point_labels[:-1] if s.point_labels else s.point_labels)
            for s in p.series))
    return part(fig)


def _seen(drawn) -> tuple:
    def points(item) -> int:
        x = getattr(item, "xData", None)
        return 0 if x is None else len(x)
    items = [(type(i).__name__, points(i)) for p in drawn.panels for vb in (p.vb, p.right) if vb is not None
             for i in vb.addedItems]
    legend = [label.text for _s, label in drawn.legend.items]
    ranges = [tuple(map(tuple, p.vb.viewRange())) for p in drawn.panels]
    titles = [a.labelText for p in drawn.panels for a in p.axes.values()]
    return sorted(items), legend, ranges, len(drawn.labels.items), titles


@pytest.mark.parametrize("fid", ["queue-depth-tradeoff", "block-size-throughput-random", "slc-cache-gb", "rw-mix-iops"])
def test_a_point_drawn_in_place_shows_what_a_new_plot_shows(qtbot, fid):
    figures = {f.id: f for f in build_figures(results_of(load_run(RUN), RUN))}
    fig = next(f for key, f in figures.items() if key.startswith(fid))
    fresh = figure_widget(fig, SCREEN)
    kept = figure_widget(_earlier(fig), SCREEN)
    qtbot.addWidget(fresh)
    qtbot.addWidget(kept)
    assert redraw(kept._ssd, fig)
    kept._ssd.relayout()   # what the redraw scheduled: labels and their leader lines placed
    assert _seen(kept._ssd) == _seen(fresh._ssd)


def test_another_shape_is_refused(qtbot):
    figures = build_figures(results_of(load_run(RUN), RUN))
    first, other = figures[0], next(f for f in figures[1:] if f.id != figures[0].id)
    plot = figure_widget(first, SCREEN)
    qtbot.addWidget(plot)
    assert not redraw(plot._ssd, other)
    assert plot._ssd.fig is first


def _one_series_fewer(fig):
    """The figure before its last series came (a sweep's first write trial)."""
    return replace(fig, panels=tuple(_one_series_fewer(p) for p in fig.panels),
                   series=fig.series[:-1] if len(fig.series) > 1 else fig.series)


@pytest.mark.parametrize("fid", ["block-size-throughput-random", "rw-mix-iops"])
def test_a_series_added_is_drawn_in_place_with_the_legend_made_anew(qtbot, fid):
    figures = {f.id: f for f in build_figures(results_of(load_run(RUN), RUN))}
    fig = next(f for key, f in figures.items() if key.startswith(fid))
    earlier = _one_series_fewer(fig)
    assert shape(earlier) != shape(fig) and frame(earlier) == frame(fig)
    fresh = figure_widget(fig, SCREEN)
    kept = figure_widget(earlier, SCREEN)
    qtbot.addWidget(fresh)
    qtbot.addWidget(kept)
    assert redraw(kept._ssd, fig)
    kept._ssd.relayout()
    assert _seen(kept._ssd) == _seen(fresh._ssd)
    assert kept._ssd.legend.columnCount == fresh._ssd.legend.columnCount
