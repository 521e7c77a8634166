"""Figures that read true at a glance, checked on real runs as the export draws them (1800 x
1080): every marker sits where the drawn data put it, a latency axis spanning more than a decade
is a log axis, every measured point has its error bars, no two legend names are drawn alike, and
no two texts (title, axis titles, tick labels, legend entries, labels in the plot) overlap.

Positions come from the pyqtgraph items actually drawn (curves, error bars, marker lines and
stars), mapped to scene pixels through the ViewBox that holds each one; the spec only says what
should be there. Runs: tests/fixtures/runs/full-lab-20261126 (every experiment, real fio) and
the older run folder beside it, and the comparisons of the two and of the full run with itself
(18 block sizes side by side: the crowded tick labels).
"""
from __future__ import annotations

import math
import os
import shutil

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import scene_geometry  # noqa: E402

from app.compare.report import build_comparison  # noqa: E402
from app.report.outputs import build_figures  # noqa: E402
from app.results.figure import spans_decade  # noqa: E402
from app.store.run_folder import load_run  # noqa: E402
from ui.render.placement import Box  # noqa: E402
from ui.render.ranges import x_values, y_values  # noqa: E402
from ui.render.style import REPORT  # noqa: E402

from conftest import FIXTURES, results_of  # noqa: E402

RUNS = FIXTURES / "runs"
FULL = RUNS / "full-lab-20261126" / "run"
(OLD,) = [p for p in RUNS.iterdir() if p.is_dir() and p.name.startswith("2026")]
PX = 2.0  # scene pixels: line width and anti-aliasing
# figures whose points are single measurements (a round, a live interval, a distribution), not
# means over repetitions: no error bar to draw
NOT_MEANS = ("steady-state-convergence", "slc-cache-", "tail-latency-exceedance", "-live")
COMPARED = ("lat-mean", "lat-p99", "iops", "live")


def _figures():
    out = {}
    for run in (FULL, OLD):
        for f in build_figures(results_of(load_run(run), run)):
            out[f"{run.name[:8]}/{f.id}"] = f
    return out


FIGURES = _figures()


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    twin = shutil.copytree(FULL, tmp_path_factory.mktemp("twin") / "run")
    figs = {}
    for name, dirs in (("old-vs-full", [OLD, FULL]), ("full-vs-full", [FULL, twin])):
        for f in build_comparison(dirs).figures:
            if f.id.endswith(COMPARED) and (name == "old-vs-full" or "block-size" in f.id):
                figs[f"{name}/{f.id}"] = f
    return figs


def _scene(vb, x, y):
    from PySide6.QtCore import QPointF
    p = vb.mapViewToScene(QPointF(float(x), float(y)))
    return p.x(), p.y()


def _curves(panel):
    """(axis side, polyline in scene px) of every curve drawn with data in the panel."""
    import pyqtgraph as pg
    out = []
    for side, vb in (("left", panel.vb), ("right", panel.right)):
        for item in (vb.addedItems if vb is not None else []):
            if isinstance(item, pg.PlotDataItem) and item.getData()[0] is not None:
                xs, ys = item.getData()
                out.append((side, [_scene(vb, x, y) for x, y in zip(xs, ys)]))
    return out


def _distance(p, polyline) -> float:
    best = math.inf
    for (ax, ay), (bx, by) in zip(polyline, polyline[1:] or polyline):
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                                     / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best


def _crossings(a, b) -> list[float]:
    """Scene x where two polylines (x increasing) cross."""
    out = []
    xs = sorted({x for x, _ in a} | {x for x, _ in b})
    diff = [_at(a, x) - _at(b, x) for x in xs]
    for (x0, d0), (x1, d1) in zip(zip(xs, diff), zip(xs[1:], diff[1:])):
        if d0 == 0 or d0 * d1 < 0:
            out.append(x0 + (x1 - x0) * d0 / (d0 - d1) if d0 != d1 else x0)
    return out


def _at(line, x) -> float:
    for (x0, y0), (x1, y1) in zip(line, line[1:]):
        if x0 <= x <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return line[0][1] if x < line[0][0] else line[-1][1]


def _marker_problems(widget) -> list[str]:
    """Stars on a drawn curve, the crossover line where the drawn curves cross, any other line
    over the data; each marker and horizontal line named in the legend."""
    import pyqtgraph as pg

    from ui.render.style import as_text
    legend = {label.text for _sample, label in widget._ssd.legend.items}
    problems = [f"{text!r} is not in the legend" for p in widget._ssd.panels
                for text in [m.text for m in p.fig.markers] + [h.text for h in p.fig.hlines]
                if as_text(text) not in legend]
    for panel in widget._ssd.panels:
        curves = _curves(panel)
        traces = [c for _, c in curves if len(c) > 1]
        for s in panel.fig.series:  # the exceedance plot's percentiles: marks on their curve
            if s.kind == "scatter" and "percentiles" in s.name:
                for x, y in zip(x_values(panel.fig, s.x), y_values(panel.fig, s.y, s.axis)):
                    at = _scene(panel.vb, x, y)
                    if min((_distance(at, c) for c in traces), default=math.inf) > PX:
                        problems.append(f"{s.name}: a percentile at {at} is on no drawn curve")
        for vb in (panel.vb, panel.right):
            for item in (vb.addedItems if vb is not None else []):
                if isinstance(item, pg.ScatterPlotItem) and item.opts["symbol"] == "star":
                    (spot,) = item.points()
                    at = _scene(vb, spot.pos().x(), spot.pos().y())
                    if min((_distance(at, c) for _, c in curves), default=math.inf) > PX:
                        problems.append(f"star at {at} is on no drawn curve")
                if isinstance(item, pg.InfiniteLine) and item.angle == 90:
                    x = _scene(vb, item.value(), 0)[0]
                    sides = {s for s, _ in curves}
                    crossover = [x_values(panel.fig, [m.x])[0] for m in panel.fig.markers
                                 if "crossover" in m.text]   # not the bandwidth-saturation line
                    if sides == {"left", "right"} and len(curves) == 2 and any(
                            c is not None and abs(item.value() - c) < 1e-9 for c in crossover):
                        cross = _crossings(curves[0][1], curves[1][1])
                        if not any(abs(c - x) <= PX for c in cross):
                            problems.append(f"line at x={x:.1f} px, curves cross at {cross}")
                    elif not any(c[0][0] - PX <= x <= c[-1][0] + PX for _, c in curves):
                        problems.append(f"line at x={x:.1f} px lies outside every curve")
    return problems


def _log_problems(widget) -> list[str]:
    """A latency axis whose series span a decade must be log, in the spec and as drawn: the
    ViewBox's range is that of log10 of the values, not of the values."""
    problems = []
    for panel in widget._ssd.panels:
        fig = panel.fig
        for axis, along, vb, series in (
                (fig.x_axis, "x", panel.vb, fig.series),
                (fig.y_axis, "y", panel.vb, [s for s in fig.series if s.axis == "left"]),
                (fig.y2_axis, "y", panel.right, [s for s in fig.series if s.axis == "right"])):
            if axis is None or "latency" not in axis.label.lower() or not series:
                continue
            if spans_decade(series, along) and not (axis.log and "log scale" in axis.label):
                problems.append(f"{axis.label!r} spans more than a decade on a linear axis")
            if axis.log:
                values = [v for s in series for v in (s.x if along == "x" else s.y) if v and v > 0]
                lo, hi = math.log10(min(values)), math.log10(max(values))
                shown = vb.viewRange()[0 if along == "x" else 1]
                if not (shown[0] <= lo + 1e-9 and hi <= shown[1] + 1e-9
                        and shown[1] - shown[0] < hi - lo + 3):
                    problems.append(f"{axis.label!r}: drawn range {shown} is not log10 of the data")
    return problems


def _error_bar_problems(widget, name: str) -> list[str]:
    """Every point of a series of means has an error bar drawn through it (and one along x on
    the queue-depth trade-off)."""
    import pyqtgraph as pg
    if any(k in name for k in NOT_MEANS):
        return []
    problems = []
    for panel in widget._ssd.panels:
        fig, bars = panel.fig, {"v": set(), "h": set()}
        for vb in (panel.vb, panel.right):
            for item in (vb.addedItems if vb is not None else []):
                if isinstance(item, pg.ErrorBarItem):
                    kind = "h" if item.opts.get("left") is not None else "v"
                    bars[kind] |= {(round(float(x), 6), round(float(y), 6))
                                   for x, y in zip(item.opts["x"], item.opts["y"])}
        for s in fig.series:
            if s.kind == "scatter" or "slope" in s.name:
                continue
            points = {(round(x, 6), round(y, 6)) for x, y in
                      zip(x_values(fig, s.x), y_values(fig, s.y, s.axis))
                      if x is not None and y is not None}
            for kind in (("v", "h") if "tradeoff" in name else ("v",)):
                missing = points - bars[kind]
                if missing:
                    problems.append(f"{s.name}: {len(missing)} of {len(points)} points without "
                                    f"a {'vertical' if kind == 'v' else 'horizontal'} error bar")
    return problems


MARGIN = 4.0  # px: Qt's QTextDocument margin around unfilled text (titles, legend entries)


def _ink(t) -> Box:
    """Where a text's ink can be: tick boxes are measured glyphs; text items without a fill
    carry Qt's document margin, blank on every side; labels keep theirs (their white fill)."""
    if t.kind in ("title", "axis title", "legend"):
        b = t.box
        return Box(b.x0 + MARGIN, b.y0 + MARGIN, b.x1 - MARGIN, b.y1 - MARGIN)
    return t.box


def _overlaps(widget) -> list[str]:
    texts = [t for t in scene_geometry.texts(widget) if t.text.strip()]
    out = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if _ink(a).overlap(_ink(b)) > 1.0:
                out.append(f"{a.kind} {a.text!r} overlaps {b.kind} {b.text!r}")
    return out


def _look_alikes(fig) -> list[str]:
    """Two legend names drawn alike (colour, line style, kind): the legend cannot tell them
    apart (a black dotted p99.9 beside the black dashed mean once)."""
    from ui.render.style import color
    out = []
    for part in (fig.panels or (fig,)):
        looks: dict[tuple, str] = {}
        for k, s in enumerate(part.series):
            look = (color(s.color, k), s.dash, s.dot, s.kind)
            if looks.setdefault(look, s.name) != s.name:
                out.append(f"{s.name!r} is drawn like {looks[look]!r}")
    return out


def _check(name, fig) -> list[str]:
    from ui.render.figure_files import laid_out
    with laid_out(fig, REPORT) as widget:
        return (_marker_problems(widget) + _log_problems(widget) + _look_alikes(fig)
                + _error_bar_problems(widget, name) + _overlaps(widget))


@pytest.fixture(scope="module")
def app():
    from ui.render.figure_files import ensure_app
    return ensure_app()


@pytest.mark.parametrize("name", list(FIGURES))
def test_a_run_figure_reads_true(app, name):
    problems = _check(name, FIGURES[name])
    assert not problems, "\n".join(problems)


def test_comparison_figures_read_true(app, compared):
    assert any("full-vs-full/compare-block-size-lat-mean" == n for n in compared)
    problems = [f"{n}: {p}" for n, f in compared.items() for p in _check(n, f)]
    assert not problems, "\n".join(problems)


def test_the_kinds_the_checks_rest_on_are_there():
    """The checks are only as good as the figures they see: the crossover line, the knee's
    stars, a log latency axis and p99.9 must all be in the full run's figures."""
    full = {k.split("/", 1)[1]: f for k, f in FIGURES.items() if k.startswith("run/")}
    assert any(m.y is None for m in full["block-size-throughput-random"].markers)
    assert any(m.y is not None for m in full["queue-depth-tradeoff"].markers)
    assert full["queue-depth-sweep"].y2_axis.log and full["block-size-latency"].y_axis.log
    assert any("p99.9" in s.name for s in full["queue-depth-sweep"].series)
    assert any("p99.9" in t for _, t in full["zero-queue-latency"].panels[0].x_axis.ticks)


def test_repetitions_of_a_live_comparison_are_separate_traces(compared):
    """Two runs of two sustained-write repetitions each: four traces, two legend names."""
    fig = compared["old-vs-full/compare-slc-cache-live"]
    assert len(fig.series) == 4 and len({s.name for s in fig.series}) == 2
    for s in fig.series:
        assert all(b > a for a, b in zip(s.x, s.x[1:]))
    by_run = {}
    for s in fig.series:
        by_run.setdefault(s.name, []).append(s)
    for first, second in by_run.values():
        assert first.x[-1] < second.x[0]  # back to back, with no line joining them
