"""The window's "Results so far" pane at 1280x720 is about 300 px wide. The block-size figures
drawn there (as the pane draws them: ui/window/report/results_so_far.py ``_new_plot``) keep
their x tick labels apart (they ran together as "128256512") and their crossover note inside
the plot (it was cut at its left edge); at the report's width every level keeps its label."""
from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import scene_geometry  # noqa: E402

from app.report.outputs import build_figures  # noqa: E402
from app.results.load import load_results  # noqa: E402

from conftest import FIXTURES  # noqa: E402

FULL = FIXTURES / "runs" / "full-lab-20261126" / "run"
NAMES = ("block-size-throughput-random", "block-size-throughput-sequential", "block-size-latency")


@pytest.fixture(scope="module")
def figures():
    return {f.id: f for f in build_figures(load_results(FULL).results) if f.id in NAMES + ("zero-queue-latency",)}


def _pane_plot(qtbot, fig, width: int, height: int):
    from ui.render.draw import figure_widget
    from ui.render.redraw import fit_narrow
    from ui.render.style import SCREEN
    from ui.window.report.narrow_figures import without_point_labels
    plot = figure_widget(without_point_labels(fig), replace(SCREEN, width=width), place=False)
    fit_narrow(plot._ssd, width)
    qtbot.addWidget(plot)
    plot.resize(width, height)
    plot.show()
    qtbot.wait(120)   # the resize, then the deferred relayout
    return plot


@pytest.mark.parametrize("name", NAMES)
def test_narrow_ticks_are_thinned_and_the_note_stays_inside(qtbot, figures, name):
    from ui.window.report.narrow_figures import a_panel_each
    # the pane shows a figure of panels (block-size latency: mean; tail) one panel at a time
    plot = _pane_plot(qtbot, a_panel_each([figures[name]])[0], 300, 380)
    texts = scene_geometry.texts(plot)
    floor = plot._ssd.panels[0].vb.sceneBoundingRect().bottom()
    bottom = [t for t in texts if t.kind == "tick" and t.text and t.box.y0 >= floor]
    assert len(bottom) >= 3 and "4" in [t.text for t in bottom]
    for a, b in zip(sorted(bottom, key=lambda t: t.box.x0), sorted(bottom, key=lambda t: t.box.x0)[1:]):
        assert b.box.x0 - a.box.x1 >= 4, f"{a.text!r} and {b.text!r} run together"
    for t in texts:
        if t.kind == "label":
            assert t.box.within(t.within, 1.0), f"{t.text!r} cut by its plot area"


def test_at_the_report_width_every_level_keeps_its_label(qtbot, figures):
    plot = _pane_plot(qtbot, figures["block-size-throughput-random"], 1800, 1080)
    ticks = {t.text for t in scene_geometry.texts(plot) if t.kind == "tick"}
    assert {"4", "8", "16", "32", "64", "128", "256", "512", "1024"} <= ticks


def _ink(t):
    """A text's box without its leading empty lines (a staggered name starts a line lower)."""
    lines = t.text.split("\n")
    blank = len(lines) - len("\n".join(lines).lstrip("\n").split("\n"))
    step = (t.box.y1 - t.box.y0) / len(lines)
    return type(t.box)(t.box.x0, t.box.y0 + blank * step, t.box.x1, t.box.y1)


def test_two_bar_panels_keep_their_category_names_and_axis_titles_apart(qtbot, figures):
    """zero-queue's two panels of four bars side by side in the pane: "mean p95 p99 p99.9" ran
    together even at the smallest tick font ("meap95p99999.9"), and the two axis titles ran
    into each other ("4 KiB random (RND4K Q1T1): sta128 KiB sequential"). The names are
    staggered and the titles wrapped; at the report's width neither happens."""
    plot = _pane_plot(qtbot, figures["zero-queue-latency"], 296, 380)
    texts = scene_geometry.texts(plot)
    for kind in ("tick", "axis title"):
        boxes = [t for t in texts if t.kind == kind and t.text.strip()]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert _ink(a).overlap(_ink(b)) == 0, f"{a.text!r} and {b.text!r} overlap"
    assert any("<br>" in t.text for t in texts if t.kind == "axis title")
    for t in texts:   # each line of a title inside the pane ("... (SEQ128K Q1T1): statisti" was cut)
        if t.kind == "axis title" and t.text.strip():
            assert t.box.x0 >= -1 and t.box.x1 <= 296 + 1, f"{t.text!r} runs past the pane: {t.box}"
    wide = scene_geometry.texts(_pane_plot(qtbot, figures["zero-queue-latency"], 1800, 1080))
    assert not any("<br>" in t.text or t.text.startswith("\n") for t in wide)


def test_every_figure_of_a_course_run_fits_the_pane(qtbot):
    """Each figure a course run makes, drawn in the pane: its legend entries wrap (in fewer
    columns where three leave a long entry no room to wrap: 'error bar goes on below the
    axis ...' ran past the edge), so the plot never grows past the pane and cuts its data."""
    from PySide6.QtCore import Qt
    for fig in build_figures(load_results(FULL).results):
        plot = _pane_plot(qtbot, fig, 296, 420)
        need = plot._ssd.plot.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
        assert need <= 296, (fig.id, need)


def test_the_pane_shows_a_figure_of_panels_one_panel_at_a_time(qtbot, figures):
    """Side by side in the pane each of zero-queue's panels got a third of it; shown one at a
    time (ui/window/report/narrow_figures.py a_panel_each, listed by the pane's selector) each
    gets the pane's width, with its own title and the figure's caption."""
    from ui.window.report.narrow_figures import a_panel_each
    fig = figures["zero-queue-latency"]
    shown = a_panel_each([fig])
    assert len(shown) == len(fig.panels) == 2 and not any(p.panels for p in shown)
    assert len({p.id for p in shown}) == 2
    assert all(p.title.endswith(panel.title) and p.caption == fig.caption
               for p, panel in zip(shown, fig.panels))
    together = _pane_plot(qtbot, fig, 296, 380)
    widest = max(p.vb.width() for p in together._ssd.panels)
    for one in shown:
        plot = _pane_plot(qtbot, one, 296, 380)
        (panel,) = plot._ssd.panels
        assert panel.vb.width() > 1.8 * widest, (panel.vb.width(), widest)
    single = next(f for f in build_figures(load_results(FULL).results) if not f.panels)
    assert a_panel_each([single]) == [single]
