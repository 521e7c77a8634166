"""Watching a whole run: the running experiment's own figure gains a point as each of its trials
ends, the timeline has one block per experiment in its state, trial labels never overlap and the
charts show the running experiment's stretch. Fed with the events of a real run (a course run's
run.json from tests/fixtures), no engine needed.
"""
import json
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.model.experiment_entry import ExperimentEntry  # noqa: E402
from app.model.info import PlannedEntry  # noqa: E402
from app.model.trial import TrialResult  # noqa: E402
from jobs.events import TrialFinished, TrialStarted  # noqa: E402
from ui.window.report import results_so_far  # noqa: E402
from ui.window.report.results_so_far import ResultsSoFar  # noqa: E402
from ui.window.run.live_charts import LiveCharts  # noqa: E402
from ui.window.run.planned import planned_from_entry  # noqa: E402
from ui.window.run.run_model import RunModel  # noqa: E402
from ui.window.run.run_state import RunState
from ui.window.run.series import sample_row  # noqa: E402
from ui.window.run.stretches import DONE, RUNNING, TO_DO  # noqa: E402

RUN = next((Path(__file__).parents[2] / "fixtures" / "runs").glob("*_zero-queue+*")) / "run.json"


@pytest.fixture
def record():
    return json.loads(RUN.read_text())


@pytest.fixture
def model(record):
    """A model as RunPrepared leaves it: the plan known, no trial started."""
    m = RunModel()
    m.experiments = [ExperimentEntry.of(x) for x in record["experiments"]]
    m.planned = {t.index: t for t in (planned_from_entry(PlannedEntry.from_json(t, "planned_trials[]"))
                                       for t in record["planned_trials"])}
    m.status, m.live, m.run_dir = RunState.RUNNING, True, "/tmp/run"
    m.reset.emit()
    return m


def play(model, trials, t0: float = 0.0) -> float:
    """Each trial started, two samples, finished: what the worker sends."""
    t = t0
    for trial in trials:
        model.apply(TrialStarted(trial["index"], trial["experiment"], trial["label"],
                                 trial["repetition"], trial["warmup"], ("fio",), t, 1.0))
        for _ in range(2):
            t += 0.5
            model.series.append(sample_row({"t_s": t, "read_MBps": 100.0, "read_iops": 1e3,
                                            "read_lat_us": 50.0}))
        model.samples_added.emit()
        model.apply(TrialFinished(trial["index"], trial["label"], TrialResult.from_json(trial)))
    return t


def _undelayed_view(model, qtbot, monkeypatch, size: tuple[int, int]) -> ResultsSoFar:
    """The pane shown at ``size``, drawing each trial's end at once (no gap between drawings)."""
    monkeypatch.setattr(results_so_far, "MIN_GAP_S", 0.0)
    monkeypatch.setattr(results_so_far, "MAX_GAP_S", 0.0)
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    return view


def test_a_sweep_figure_gains_a_point_when_a_trial_finishes(model, record, qtbot, monkeypatch):
    view = _undelayed_view(model, qtbot, monkeypatch, (500, 400))
    trials = record["trials"]
    before = [t for t in trials if t["experiment"] not in ("queue-depth", "tail-latency",
                                                           "slc-cache")]
    play(model, before)
    depth = [t for t in trials if t["experiment"] == "queue-depth"]
    view.show_experiment("queue-depth")          # the charts tell it when the run gets there
    assert view.points() == 0 and view.plot is None
    built = []
    new_plot = view._new_plot
    monkeypatch.setattr(view, "_new_plot", lambda *a: built.append(new_plot(*a)) or built[-1])
    shown = []
    for trial in depth:
        play(model, [trial])
        assert "queue-depth" in view.figure_ids()[0] or view.figures
        shown.append(view.points())
    # a later point is drawn into the plot that shows the figure, not into a new one
    assert len(built) < len(depth) and view.plot is built[-1]
    # the first repetition adds a point per queue depth; the second adds none (error bars grow)
    assert shown[:3] == sorted(shown[:3]) and shown[0] < shown[2]
    assert shown[2] > 0 and view.plot is not None
    # only the shown experiment's figures were built
    assert all(f.experiment in ("queue-depth", "") for f in view.figures)
    redraws = view.redraws
    play(model, [t for t in trials if t["experiment"] == "tail-latency"][:1])
    assert view.redraws == redraws   # another experiment's trial: nothing redrawn


def test_a_burst_of_short_trials_is_drawn_once_then_caught_up(model, record, qtbot,
                                                               monkeypatch):
    monkeypatch.setattr(results_so_far, "MIN_GAP_S", 0.5)
    monkeypatch.setattr(results_so_far, "MAX_GAP_S", 0.5)
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.show()
    zero = [t for t in record["trials"] if t["experiment"] == "zero-queue"]
    play(model, zero[:1])
    drawn = view.points()
    play(model, zero[1:4])                 # within the gap: put off, not drawn
    assert view.redraws == 1 and view.points() == drawn
    qtbot.waitUntil(lambda: view.redraws == 2, timeout=10000)
    assert view.points() > drawn


@pytest.mark.parametrize("budget, put_off", [(1e-9, True), (1e9, False)])
def test_a_costly_drawing_puts_the_next_one_off(model, record, qtbot, monkeypatch, budget,
                                                put_off):
    """The gap after a drawing is its cost over the budget, between MIN_GAP_S and MAX_GAP_S."""
    monkeypatch.setattr(results_so_far, "MIN_GAP_S", 0.0)
    monkeypatch.setattr(results_so_far, "MAX_GAP_S", 0.5)
    monkeypatch.setattr(results_so_far, "BUDGET", budget)
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.show()
    zero = [t for t in record["trials"] if t["experiment"] == "zero-queue"]
    play(model, zero[:1])
    play(model, zero[1:2])
    assert view.redraws == (1 if put_off else 2)
    qtbot.waitUntil(lambda: view.redraws == 2, timeout=3000)


def test_redraws_wait_while_hidden(model, record, qtbot):
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    play(model, record["trials"][:4])
    assert view.redraws == 0
    view.show()
    assert view.redraws == 1 and view.points() > 0


@pytest.fixture
def charts(model, qtbot):
    view = LiveCharts(model)
    qtbot.addWidget(view)
    view.timeline.setParent(view)
    view.layout().insertWidget(0, view.timeline)
    view.resize(900, 600)
    view.show()
    return view


def test_timeline_has_one_block_per_experiment_in_its_state(charts, model, record, qtbot):
    shown = []
    charts.experiment_shown.connect(shown.append)
    trials = record["trials"]
    zero = [t for t in trials if t["experiment"] == "zero-queue"]
    play(model, zero)
    t_end = play(model, [t for t in trials if t["experiment"] == "block-size"][:1],
                 t0=model.series.column("t_s")[-1])
    items = charts.timeline.items
    assert [i.id for i in items] == [x["id"] for x in record["experiments"]]
    assert [i.state for i in items] == [DONE, RUNNING, TO_DO, TO_DO, TO_DO, TO_DO]
    assert len(charts.timeline.block_rects()) == len(items)
    assert shown[-1] == "block-size"
    # the charts show the running experiment's stretch, not the whole run
    lo, hi = charts.tp_plot.getViewBox().viewRange()[0]
    assert lo == pytest.approx(items[1].start) and hi > t_end
    # a click on the finished experiment shows its stretch and stops following
    charts.show_experiment("zero-queue")
    lo, hi = charts.tp_plot.getViewBox().viewRange()[0]
    assert (lo, hi) == pytest.approx((items[0].start, items[0].end))
    assert not charts.follow_box.isChecked() and shown[-1] == "zero-queue"
    charts.show_experiment("block-size")
    assert charts.follow_box.isChecked() and shown[-1] == "block-size"


def test_trial_labels_never_overlap(charts, model, record, qtbot):
    play(model, record["trials"])
    charts.resize(420, 500)   # 32 trials on a narrow chart: not every label has room
    qtbot.wait(20)
    charts.follow_box.setChecked(False)
    charts.tp_plot.setXRange(0, model.series.column("t_s")[-1], padding=0)  # the whole run
    charts.view.grab()   # paints: the labels are placed while painting
    boundaries = charts.boundaries[0]
    rects = boundaries.label_rects
    assert 0 < len(rects) < len(boundaries.texts)   # some left out: they would not fit
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.intersects(b)
    top = charts.tp_plot.getViewBox().sceneBoundingRect()
    assert all(r.height() <= top.height() for r in rects)


def test_the_slc_figure_fits_a_narrow_pane(qtbot, monkeypatch):
    """At 1280x720 the pane beside the time series is ~300 px wide: the sustained-write figure's
    long title and mean line's name used to widen the plot past it (its right end cut off)."""
    from ui.window.run.past_runs import load_past_run
    monkeypatch.setattr(results_so_far, "MIN_GAP_S", 0.0)
    monkeypatch.setattr(results_so_far, "MAX_GAP_S", 0.0)
    model = RunModel()
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.resize(297, 540)
    view.show()
    model.load_past(load_past_run(str(RUN.parent)))
    view.show_experiment("slc-cache")
    assert view.selector.count() == 2
    for index in range(view.selector.count()):
        view.selector.setCurrentIndex(index)
        item = view.plot.getPlotItem()
        qtbot.waitUntil(lambda item=item: item.width() > 0)
        drawn = view.plot._ssd
        parts = [drawn.legend, *(lb for _s, lb in drawn.legend.items), item.titleLabel,
                 *(a for p in drawn.panels for a in p.axes.values())]
        right = max(p.sceneBoundingRect().right() for p in parts if p.isVisible())
        assert right <= view.plot.width(), (view.figure_ids()[index], right)
        assert view.figure_title.isVisible() and view.figure_title.text()


def test_a_legend_entry_renamed_mid_sweep_stays_inside_the_narrow_pane(model, record, qtbot,
                                                                       monkeypatch):
    """The queue-depth marker's name grows when the knee gives way ('knee = ...: QD4' becomes
    'deepest, no knee = ...: QD16'): wrapped anew, it never widens the plot past the pane, whose
    edge would cut off the deepest point and the axis (seen at 323 px in a 296 px pane)."""
    view = _undelayed_view(model, qtbot, monkeypatch, (300, 520))
    names = set()
    for trial in [t for t in record["trials"] if t["experiment"] == "queue-depth"]:
        play(model, [trial])
        qtbot.wait(50)
        drawn = view.plot._ssd if view.plot is not None else None
        if drawn is None:
            continue
        names |= {label.text for _sample, label in drawn.legend.items}
        assert drawn.plot.geometry().width() <= view.stack.width(), names
    assert any(name.startswith("deepest, no knee") for name in names), names


def test_a_marker_renamed_alone_is_wrapped_again(model, qtbot, monkeypatch):
    """Only the marker's name changes between two drawings (same series, same shape): the
    renamed entry is wrapped too. In a real run the star's 'knee' became 'deepest, no knee =
    90 % of peak = peak: QD16' this way and pushed the plot past the pane, cutting off QD16."""
    from dataclasses import replace

    from app.report.outputs import build_figures
    from app.results.load import load_results
    fig = next(f for f in build_figures(load_results(RUN.parent).results)
               if f.id.startswith("queue-depth") and f.markers)
    short = replace(fig, markers=tuple(replace(m, text="knee: QD4") for m in fig.markers))
    long = replace(fig, markers=tuple(replace(m, text="deepest, no knee = 90 % of peak = peak: "
                                                      "QD16, the deepest level of the sweep")
                                      for m in fig.markers))
    view = _undelayed_view(model, qtbot, monkeypatch, (300, 520))
    view.selector.addItem("figure", fig.id)
    for drawn_fig in (short, long):
        view.figures = [drawn_fig]
        view._redraw()
        qtbot.wait(50)
    drawn = view.plot._ssd
    assert drawn.fig.markers == long.markers and drawn.generation == 1   # drawn over the first
    assert view.plot._ssd.plot.geometry().width() <= view.stack.width()


def test_the_first_drawing_uses_the_plot_made_when_the_run_started(model, record, qtbot):
    """Making a plot was most of the first drawing's cost beside fio: it is made when the run
    starts (while the test file is laid out) and drawn into when the first trial ends."""
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.show()
    spare = view._spare
    assert spare is not None and view.plot is None
    play(model, [t for t in record["trials"] if t["experiment"] == "zero-queue"][:1])
    assert view.redraws == 1 and view.plot is spare and view._spare is None
    assert view.points() > 0


def test_the_budget_counts_a_drawings_held_paint(model, record, qtbot, monkeypatch):
    """A drawing's paints and label placing cost about as much again as the drawing: the gap
    before the next one is counted up to the held paint, not only the drawing itself."""
    monkeypatch.setattr(results_so_far, "MIN_GAP_S", 0.0)
    monkeypatch.setattr(results_so_far, "MAX_GAP_S", 1e9)
    monkeypatch.setattr(results_so_far, "BUDGET", 1.0)   # the gap is the cost in seconds
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.show()
    play(model, [t for t in record["trials"] if t["experiment"] == "zero-queue"][:1])
    drawing = view._gap
    assert view.redraws == 1 and drawing > 0
    qtbot.waitUntil(lambda: view._cost_from is None, timeout=3000)   # the held paint is done
    assert view._gap > drawing
