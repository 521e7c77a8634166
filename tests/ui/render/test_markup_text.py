"""Figure texts from a shared run (a drive model in a comparison's legend, a workload label in
an axis title) are drawn as text: pyqtgraph renders titles, axis labels and legend names as rich
text, where ``<img src="/dev/zero">`` made Qt read /dev/zero until memory ran out."""
from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.results.figure import Axis, Figure, HLine, Series  # noqa: E402

MARKUP = '<img src="/dev/zero"> <b>x</b> & y'


def test_markup_in_titles_axes_and_legends_is_drawn_as_text(tmp_path):
    from pyqtgraph import LegendItem

    from ui.render.figure_files import ensure_app, laid_out, render_figure
    ensure_app()
    with laid_out(Figure(id="g", title="<b>x</b>", x_axis=Axis("x"), y_axis=Axis("y"))) as widget:
        # harmless markup first: were it rendered, the test stops before /dev/zero is named
        assert widget.getPlotItem().titleLabel.item.toPlainText() == "<b>x</b>"
    fig = Figure(id="f", title=f"title {MARKUP}", x_axis=Axis(f"x {MARKUP}"),
                 y_axis=Axis("MB/s"), series=(Series(f"run {MARKUP}", (1.0, 2.0), (3.0, 4.0)),),
                 hlines=(HLine(3.5, f"line {MARKUP}"),))
    started = time.monotonic()
    render_figure(fig, tmp_path / "f.png", tmp_path / "f.svg")
    assert time.monotonic() - started < 30 and (tmp_path / "f.png").stat().st_size > 1000
    with laid_out(fig) as widget:
        plot = widget.getPlotItem()
        texts = [plot.titleLabel.item.toPlainText(),
                 plot.getAxis("bottom").label.toPlainText()]
        legend = next(i for i in widget.scene().items() if isinstance(i, LegendItem))
        texts += [label.item.toPlainText() for _sample, label in legend.items]
    assert texts[0] == f"title {MARKUP}" and texts[1].startswith(f"x {MARKUP}")
    assert f"run {MARKUP}" in texts and f"line {MARKUP}" in texts
    assert '<img src="/dev/zero">' in (tmp_path / "f.svg").read_text().replace("&lt;", "<") \
        .replace("&gt;", ">").replace("&quot;", '"')
