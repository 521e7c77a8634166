"""Bars on a log axis whose lower error end is at or below zero (mean − std ≤ 0, as a noisy
p99 of 15,500 ± 16,800 µs gives) cannot draw that end: the bar runs to the axis floor with no
cap and a ▼ above the floor, named in the legend, so it never reads as a short error bar."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.results.figure import Axis, Figure, Series  # noqa: E402

TICKS = ((0.0, "mean"), (1.0, "p99"), (2.0, "p99.9"))
NAME = "error bar goes on below the axis (mean − std ≤ 0 or under its floor)"


def _figure(err) -> Figure:
    return Figure(id="log-bars", experiment="x", title="Bars on a log axis",
                  x_axis=Axis("statistic", TICKS),
                  y_axis=Axis("Latency (µs, total latency), log scale", log=True),
                  series=(Series("read", (0.0, 1.0, 2.0), (80.0, 15_500.0, 40_000.0), err,
                                 kind="bar"),))


def _drawn(fig):
    import pyqtgraph as pg

    from ui.render.figure_files import ensure_app, laid_out
    from ui.render.style import REPORT
    ensure_app()
    with laid_out(fig, REPORT) as widget:
        (panel,) = widget._ssd.panels
        items = list(panel.vb.addedItems)
        bars = [i for i in items if isinstance(i, pg.ErrorBarItem)]
        arrows = [i for i in items if isinstance(i, pg.PlotDataItem)
                  and i.opts.get("symbol") == "t"]
        legend = [label.text for _, label in widget._ssd.legend.items]
        floor = panel.vb.viewRange()[1][0]
        return bars, arrows, legend, floor


def test_a_lower_end_below_zero_is_marked_not_capped():
    bars, arrows, legend, floor = _drawn(_figure((5.0, 16_800.0, 1_000.0)))
    (arrow,) = arrows
    xs, ys = arrow.getData()
    assert list(xs) == [1.0] and floor < ys[0] < floor + 0.1 * 3  # just above the floor
    downward = [b for b in bars if b.opts["bottom"] is not None and list(b.opts["x"]) == [1.0]]
    (down,) = downward
    assert not down.opts["beam"]   # no cap where the bar is cut
    assert float(down.opts["y"][0] - down.opts["bottom"][0]) == floor
    capped = {float(x) for b in bars if b.opts["beam"] for x in b.opts["x"]}
    assert capped == {0.0, 1.0, 2.0}  # every bar keeps its top cap; whole ones both caps
    assert any(NAME in text for text in legend)


def test_bars_whose_spread_fits_get_no_mark():
    bars, arrows, legend, _ = _drawn(_figure((5.0, 1_000.0, 1_000.0)))
    assert not arrows and not any(NAME in text for text in legend)
    assert all(b.opts["beam"] for b in bars)
