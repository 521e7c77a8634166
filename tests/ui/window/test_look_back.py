"""Looking back at a finished experiment during a run is a temporary view: "Back to live" over
the charts returns at once, and the charts return by themselves when the running experiment
ends or after a while, unless pinned. Fed with a real run's events (tests/fixtures), no engine.
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
from ui.window.run import look_back  # noqa: E402
from ui.window.run.live_charts import LiveCharts  # noqa: E402
from ui.window.run.planned import planned_from_entry  # noqa: E402
from ui.window.run.run_model import RunModel  # noqa: E402
from ui.window.run.run_state import RunState  # noqa: E402
from ui.window.run.series import sample_row  # noqa: E402

RUN = next((Path(__file__).parents[2] / "fixtures" / "runs").glob("*_zero-queue+*")) / "run.json"


@pytest.fixture
def record():
    return json.loads(RUN.read_text())


@pytest.fixture
def charts(record, qtbot):
    m = RunModel()
    m.experiments = [ExperimentEntry.of(x) for x in record["experiments"]]
    m.planned = {t.index: t for t in (planned_from_entry(PlannedEntry.from_json(t, "planned"))
                                          for t in record["planned_trials"])}
    m.status, m.live, m.run_dir = RunState.RUNNING, True, "/tmp/run"
    m.reset.emit()
    view = LiveCharts(m)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    return view


def play(model, trials, finish: bool = True) -> None:
    t = float(model.series.column("t_s")[-1]) if model.series.samples else 0.0
    for trial in trials:
        model.apply(TrialStarted(trial["index"], trial["experiment"], trial["label"],
                                 trial["repetition"], trial["warmup"], ("fio",), t, 1.0))
        for _ in range(2):
            t += 0.5
            model.series.append(sample_row({"t_s": t, "read_MBps": 100.0, "read_iops": 1e3,
                                            "read_lat_us": 50.0}))
        model.samples_added.emit()
        if finish:
            model.apply(TrialFinished(trial["index"], trial["label"], TrialResult.from_json(trial)))


def of(record, eid):
    return [t for t in record["trials"] if t["experiment"] == eid]


def test_back_to_live_is_offered_and_returns_at_once(charts, record):
    lb = charts.look_back
    play(charts.model, of(record, "zero-queue"))
    play(charts.model, of(record, "block-size")[:1])
    assert not lb.overlay.isVisible()            # following: nothing to come back from
    charts.show_experiment("zero-queue")
    assert not charts.follow_box.isChecked()
    assert lb.overlay.isVisible() and lb.back_button.text() == "Back to live"
    assert lb.pin_box.isVisible() and lb.timer.isActive()
    # over the charts' top right corner, inside them
    assert charts.view.rect().contains(lb.overlay.geometry())
    lb.back_button.click()
    assert charts.follow_box.isChecked() and not lb.overlay.isVisible()
    assert charts._stretch.id == "block-size"


def test_the_charts_come_back_when_the_running_experiment_ends(charts, record):
    play(charts.model, of(record, "zero-queue"))
    block = of(record, "block-size")
    play(charts.model, block[:1])
    charts.show_experiment("zero-queue")
    play(charts.model, block[1:])                # block-size goes on: the look back stays
    assert not charts.follow_box.isChecked()
    play(charts.model, of(record, "rw-mix")[:1])  # block-size ended, rw-mix runs: back to live
    assert charts.follow_box.isChecked() and charts._stretch.id == "rw-mix"


def test_the_charts_come_back_after_a_while_unless_pinned(charts, record, qtbot, monkeypatch):
    monkeypatch.setattr(look_back, "RETURN_S", 0.2)
    play(charts.model, of(record, "zero-queue"))
    play(charts.model, of(record, "block-size")[:1], finish=False)
    charts.show_experiment("zero-queue")
    qtbot.waitUntil(charts.follow_box.isChecked, timeout=3000)
    charts.show_experiment("zero-queue")
    charts.look_back.pin_box.setChecked(True)      # pinned: it stays, through the next experiment
    qtbot.wait(500)
    play(charts.model, of(record, "block-size")[1:] + of(record, "rw-mix")[:1])
    assert not charts.follow_box.isChecked() and charts._stretch.id == "zero-queue"
    charts.look_back.back_button.click()
    assert charts.follow_box.isChecked() and not charts.look_back.pin_box.isChecked()


def test_labels_of_short_trials_keep_half_a_line_apart(charts, record, qtbot):
    """Short trials on a narrow chart: labels are thinned by the room they need, with air
    between them, instead of a comb of touching (or overlapping) captions."""
    play(charts.model, record["trials"])
    charts.resize(520, 500)
    qtbot.wait(20)
    charts.follow_box.setChecked(False)
    charts.tp_plot.setXRange(0, charts.model.series.column("t_s")[-1], padding=0)
    charts.view.grab()   # the labels are placed while painting
    boundaries = charts.boundaries[0]
    rects = sorted(boundaries.label_rects, key=lambda r: r.left())
    line = rects[0].width()
    assert 3 <= len(rects) < len(boundaries.texts)
    for a, b in zip(rects, rects[1:]):
        assert b.left() - a.right() >= line / 2 - 0.5, (a, b)
