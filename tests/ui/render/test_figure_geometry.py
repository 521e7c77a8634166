"""Every experiment's figures, drawn the way the export draws them, checked from their geometry
: every text (title, axis titles, tick labels, legend, labels) lies inside the image,
labels stay inside their plot area (which would clip them: "ee: QD4"), axis titles fit their
axis, no label covers a data point, bar or another label, and the PNG has nothing cut off at
its edge.

Figures: all of the committed run folder (made by the real fio, every experiment) with a vendor
spec matched, plus made-up fast-drive summaries (tests/ui/render/synthetic.py) for crowded
knees, slivers and long tails. Sizes: the report's 1800 x 1080, the results view's 900 x 560
and a small window (640 x 400, screen fonts). The report-size PNGs are saved in
tests/artifacts/figures/ to be looked at.
"""
from __future__ import annotations

import copy
import os
from dataclasses import replace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import scene_geometry  # noqa: E402
import synthetic  # noqa: E402

from app.report.outputs import build_figures  # noqa: E402
from app.specs import catalog as vendor  # noqa: E402
from app.specs import match as vendor_compare  # noqa: E402
from app.store.run_folder import load_run  # noqa: E402
from ui.render.placement import Box  # noqa: E402
from ui.render.style import REPORT, SCREEN  # noqa: E402

from conftest import ARTIFACTS, FIXTURES, results_of  # noqa: E402

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
SMALL = replace(SCREEN, width=640, height=400)
STYLES = {"report": REPORT, "screen": SCREEN, "small": SMALL}
TOLERANCE = 1.0  # px: anti-aliasing and font rounding


def _run_figures():
    record = copy.deepcopy(load_run(RUN))
    record["drive"]["model"] = "Samsung SSD 990 PRO 1TB"
    results = results_of(record, RUN)
    info = results.run.info
    comparison = vendor_compare.compare(results.parts, vendor.spec_for_run(info, []), info)
    return build_figures(results, comparison)


FIGURES = {f"run/{f.id}": f for f in _run_figures()}
FIGURES.update({f"synthetic/{f.id}": f for f in synthetic.all_figures()})


@pytest.fixture(scope="module")
def app():
    from ui.render.figure_files import ensure_app
    return ensure_app()


def _inside(box: Box, frame: Box, tolerance: float = TOLERANCE) -> bool:
    return box.within(frame, tolerance)


def _problems(widget, image, style) -> list[str]:
    frame = Box(0, 0, image.width(), image.height())
    problems = []
    texts = scene_geometry.texts(widget)
    for t in texts:
        if not _inside(t.box, frame):
            problems.append(f"{t.kind} {t.text!r} leaves the image: {t.box}")
        if t.kind == "label" and not _inside(t.box, t.within):
            problems.append(f"label {t.text!r} is clipped by its plot area: {t.box} not in {t.within}")
        if t.kind == "axis title":
            vertical = t.within.h > t.within.w
            along = (t.box.y0, t.box.y1, t.within.y0, t.within.y1) if vertical else \
                (t.box.x0, t.box.x1, t.within.x0, t.within.x1)
            if along[0] < along[2] - TOLERANCE or along[1] > along[3] + TOLERANCE:
                problems.append(f"axis title {t.text!r} is longer than its axis")
    labels = [t for t in texts if t.kind == "label"]
    for desc, data in scene_geometry.data_boxes(widget, style):
        for t in labels:
            if t.box.overlap(data) > TOLERANCE:
                problems.append(f"label {t.text!r} covers {desc}")
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if a.box.overlap(b.box) > TOLERANCE:
                problems.append(f"labels {a.text!r} and {b.text!r} overlap")
    if not scene_geometry.border_is_blank(image):
        problems.append("something is cut off at the image's edge")
    return problems


@pytest.mark.parametrize("size", list(STYLES))
@pytest.mark.parametrize("name", list(FIGURES))
def test_labels_inside_the_image_and_clear_of_the_data(app, name, size):
    from ui.render.figure_files import laid_out, png_image
    style, fig = STYLES[size], FIGURES[name]
    with laid_out(fig, style) as widget:
        image = png_image(widget, style)
        problems = _problems(widget, image, style)
        if size == "report":
            out = ARTIFACTS / "figures" / name.replace("/", "-")
            out.parent.mkdir(parents=True, exist_ok=True)
            image.save(str(out) + ".png", "PNG", 70)
        assert len(scene_geometry.texts(widget)) > 5
        assert (image.width(), image.height()) == (style.width, style.height)
    assert not problems, "\n".join(problems)


def test_the_knee_label_leaves_every_point_visible(app):
    """The issue's case: the knee annotation once hid the QD2 point."""
    from ui.render.figure_files import laid_out
    fig = FIGURES["synthetic/queue-depth-tradeoff"]
    assert [m.text for m in fig.markers][0].startswith("knee")
    with laid_out(fig, REPORT) as widget:
        points = [b for d, b in scene_geometry.data_boxes(widget, REPORT) if d.startswith("point")]
        labels = [t.box for t in scene_geometry.texts(widget) if t.kind == "label"]
        assert len(points) == 9 and len(labels) == 9 + len(fig.markers)
        assert all(label.overlap(p) == 0 for label in labels for p in points)


@pytest.mark.parametrize("name", ["synthetic/queue-depth-tradeoff", "run/zero-queue-latency",
                                  "run/slc-cache-gb", "run/vendor-comparison"])
def test_the_results_view_places_labels_when_resized(qtbot, name):
    """In the window the widget is resized by its layout, not by the export: labels and titles
    follow (ui/render/draw.py relayouts after every resize)."""
    from PySide6.QtGui import QImage

    from ui.render.draw import figure_widget
    widget = figure_widget(FIGURES[name], SCREEN)
    qtbot.addWidget(widget)
    widget.resize(1000, 620)
    widget.show()
    for size in ((1000, 620), (700, 430)):
        widget.resize(*size)
        qtbot.wait(60)  # the resize, then the deferred relayout
        image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        assert (image.width(), image.height()) == size
        problems = _problems(widget, image, SCREEN)
        assert not problems, f"{size}: " + "\n".join(problems)
