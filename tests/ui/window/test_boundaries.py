"""Trial boundaries: a trial's start draws only the strip it changes (ui/window/run/boundaries.py),
and the plot it leaves is, pixel for pixel, the one drawn whole from the same boundaries."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pyqtgraph as pg  # noqa: E402
import pytest  # noqa: E402

from ui.window.run.boundaries import TrialBoundaries  # noqa: E402

ITEMS = [(0.0, "RND4K Q1T1 read (warm-up)", 8.0), (6.5, "RND4K Q1T1 read", 0.0),   # short warm-up
         (15.0, "SEQ128K Q1T1 write (warm-up)", 5.0), (22.0, "SEQ128K Q1T1 write", 0.0),  # long
         (22.4, "too close to show", 0.0), (30.0, "RND4K Q32T1 read", 0.0)]


def _plot(qtbot):
    widget = pg.PlotWidget(background="w")
    qtbot.addWidget(widget)
    widget.resize(640, 300)
    boundaries = TrialBoundaries(labelled=True)
    boundaries.pen.setColor(pg.mkColor("k"))
    boundaries.text_color = pg.mkColor("k")
    boundaries.shade = pg.mkColor(200, 200, 255)
    widget.addItem(boundaries, ignoreBounds=True)
    widget.setXRange(0, 40, padding=0)
    widget.setYRange(0, 1, padding=0)
    widget.show()
    qtbot.waitExposed(widget)
    return widget, boundaries


def _image(qtbot, widget):
    """What the window shows (its backing store): ``grab()`` would draw it all anew."""
    qtbot.wait(20)
    return widget.screen().grabWindow(widget.winId()).toImage()


def test_each_trial_start_repaints_a_strip_and_leaves_the_plot_drawn_whole(qtbot):
    grown, boundaries = _plot(qtbot)
    asked = []
    update = boundaries.update
    boundaries.update = lambda *rect: (asked.append(rect), update(*rect))
    for x, text, shaded in ITEMS:
        boundaries.add(x, text, shaded)
        _image(qtbot, grown)
    whole, drawn = _plot(qtbot)
    drawn.set_boundaries(ITEMS)
    assert _image(qtbot, grown) == _image(qtbot, whole)
    assert boundaries.shown_labels == drawn.shown_labels == 5
    view = boundaries.viewRect()
    widths = [rect[0].width() for rect in asked if rect]   # the view's own changes: the whole
    assert len(widths) == len(ITEMS)
    assert 0 < max(widths[1:]) < view.width() / 3, widths   # strips, not the plot


@pytest.mark.parametrize("first", [0, 3])
def test_a_boundary_before_the_last_redraws_the_whole_plot(qtbot, first):
    widget, boundaries = _plot(qtbot)
    for x, text, shaded in ITEMS[first:]:
        boundaries.add(x, text, shaded)
    boundaries.add(1.0, "out of order", 0.0)
    assert boundaries._strip(boundaries.positions.index(1.0)).isEmpty()
